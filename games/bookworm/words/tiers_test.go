package words

import "testing"

func TestTier(t *testing.T) {
	for _, c := range []struct {
		word string
		want int
	}{
		{"cow", Everyday}, {"teacher", Everyday}, {"ice cream", Everyday},
		{"enchiridion", Rare}, {"hornbook", Rare}, {"admission charge", Rare},
		{"not a lexicon word at all", Rare},
	} {
		if got := Tier(c.word); got != c.want {
			t.Errorf("Tier(%q) = %d, want %d", c.word, got, c.want)
		}
	}
}
