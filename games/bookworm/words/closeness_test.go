package words

import "testing"

func TestPlace(t *testing.T) {
	for _, c := range []struct {
		cat, word string
		want      Closeness
	}{
		{"animals", "cow", Inside},
		{"animals", "sofa", Far},
		{"animals", "hammer", Far},
		{"animals", "quickly", NoNoun},
		{"farm_animals", "wolf", Near}, // a cousin of the dog
		{"farm_animals", "tractor", Far},
		{"kitchen", "banana", Far},
		{"jobs", "table", Far},
		{"capitals", "Springfield", Near}, // a state capital
		{"fruits", "chair", Far},
		{"feelings", "table", Far},
		{"furniture", "sofa", Inside},
		{"furniture", "banana", Far},
		{"capitals", "Thames", Far},
	} {
		if got := Place(c.cat, c.word); got != c.want {
			t.Errorf("Place(%s, %q) = %v, want %v", c.cat, c.word, got, c.want)
		}
	}
}
