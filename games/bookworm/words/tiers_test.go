package words

import "testing"

func TestTier(t *testing.T) {
	for _, c := range []struct {
		cat, word string
		want      int
	}{
		{"farm_animals", "cow", Everyday}, {"jobs", "teacher", Everyday}, {"sweets", "ice cream", Everyday},
		{"money", "admission charge", Rare}, {"animals", "boxer", Common}, // a dog only by its second sense,
		{"animals", "not a lexicon word at all", Rare}, {"no-such-category", "cow", Rare},
	} {
		if got := Tier(c.cat, c.word); got != c.want {
			t.Errorf("Tier(%s, %q) = %d, want %d", c.cat, c.word, got, c.want)
		}
	}
}
