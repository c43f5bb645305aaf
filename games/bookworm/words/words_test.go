package words

import (
	"fmt"
	"slices"
	"sort"
	"strings"
	"testing"
	"unicode"
)

// letterGroups are the letters of the white dice; C/K and X/Y are one face
// each, so they count as one group.
var letterGroups = []string{"ck", "d", "s", "e", "g", "w", "m", "p", "u", "f", "r", "i",
	"a", "b", "t", "h", "l", "z", "n", "v", "j", "o", "q", "xy"}

// playable counts, for a word list, the letter groups with at least 3 words.
func playable(list []string) (groups int, counts map[string]int) {
	counts = map[string]int{}
	for _, w := range list {
		for _, g := range letterGroups {
			if strings.ContainsRune(g, []rune(w)[0]) {
				counts[g]++
			}
		}
	}
	for _, n := range counts {
		if n >= 3 {
			groups++
		}
	}
	return groups, counts
}

func TestEveryCategoryPlayable(t *testing.T) {
	for _, lang := range Languages() {
		lx, err := ForLanguage(lang)
		if err != nil {
			t.Fatal(err)
		}
		deck, err := DeckIn(lang)
		if err != nil {
			t.Fatal(err)
		}
		var thin []string
		for _, card := range deck {
			for _, c := range card.Categories {
				groups, counts := playable(lx.Words(c.ID))
				if groups < 5 {
					thin = append(thin, fmt.Sprintf("%s (%q, %s): %d letter groups with 3+ words, counts %v",
						c.ID, c.Name, c.Level, groups, counts))
				}
			}
		}
		if len(thin) > 0 {
			t.Errorf("%s: %d thin categories (want 5 letter groups with 3+ words each):\n%s", lang, len(thin), strings.Join(thin, "\n"))
		}
	}
}

func TestDeckShape(t *testing.T) {
	deck := Deck()
	if len(deck) < 60 {
		t.Errorf("deck has %d cards, want at least 60", len(deck))
	}
	lists := Default().(*lexicon).lists
	cards := map[int]bool{}
	cats := map[string]bool{}
	for _, card := range deck {
		if cards[card.ID] {
			t.Errorf("card ID %d twice", card.ID)
		}
		cards[card.ID] = true
		for i, c := range card.Categories {
			if c.Level != Level(i) {
				t.Errorf("card %d: category %d (%s) is %s, want %s", card.ID, i, c.ID, c.Level, Level(i))
			}
			if c.ID == "" || strings.TrimSpace(c.Name) == "" {
				t.Errorf("card %d: category %d has an empty ID or name: %+v", card.ID, i, c)
			}
			if cats[c.ID] {
				t.Errorf("category %s on two cards", c.ID)
			}
			cats[c.ID] = true
			if len(lists[c.ID]) == 0 {
				t.Errorf("category %s has no word list", c.ID)
			}
			if got, ok := Lookup(c.ID); !ok || got != c {
				t.Errorf("Lookup(%q) = %+v, %v", c.ID, got, ok)
			}
		}
	}
	for id := range lists {
		if !cats[id] {
			t.Errorf("word list %s belongs to no card", id)
		}
	}
	// Deck hands out copies: shuffling one must not change the next.
	deck[0], deck[1] = deck[1], deck[0]
	if Deck()[0].ID == deck[0].ID {
		t.Error("Deck returned a shared slice")
	}
}

func TestNormalize(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Apple", "apple"},
		{"  APPLE  ", "apple"},
		{"ice   cream", "ice cream"},
		{"ice\tcream\n", "ice cream"},
		{"Crème Brûlée", "creme brulee"},
		{"Ångström", "angstrom"},
		{"Straße", "strasse"},
		{"Œuvre", "oeuvre"},
		{"smørrebrød", "smorrebrod"},
		{"Łódź", "lodz"},
		{"X-ray", "x ray"},
		{"x_ray", "x ray"},
		{"x – ray", "x ray"},
		{"shepherd's pie", "shepherds pie"},
		{"Shepherd’s Pie", "shepherds pie"},
		{"jack-o'-lantern", "jack o lantern"},
		{"St. Bernard", "st bernard"},
		{"rock 'n' roll", "rock n roll"},
		{"7-Up", "7 up"},
		{"", ""},
		{" - ", ""},
		{"İstanbul", "istanbul"},
	} {
		if got := Normalize(tc.in); got != tc.want {
			t.Errorf("Normalize(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func FuzzNormalizeIdempotent(f *testing.F) {
	for _, s := range []string{"Crème Brûlée", "jack-o'-lantern", "  A  b ", "Straße", "İ", "ǅ", "ﬁsh", "\u0345x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		n := Normalize(s)
		if again := Normalize(n); again != n {
			t.Errorf("Normalize(%q) = %q, but Normalize(%q) = %q", s, n, n, again)
		}
		if strings.HasPrefix(n, " ") || strings.HasSuffix(n, " ") || strings.Contains(n, "  ") {
			t.Errorf("Normalize(%q) = %q: stray spaces", s, n)
		}
		for _, r := range n {
			if r != ' ' && !unicode.IsLetter(r) && !unicode.IsDigit(r) {
				t.Errorf("Normalize(%q) = %q: keeps %q", s, n, r)
			}
		}
	})
}

func TestLexicon(t *testing.T) {
	lx := Default()
	for _, tc := range []struct {
		cat, word string
		want      bool
	}{
		{"animals", "Aardvark", true},
		{"animals", "  ELEPHANT ", true},
		{"cheeses", "Gruyère", true},
		{"cheeses", "gruyere", true},
		{"fruits", "banana", true},
		{"fruits", "hammer", false},
		{"capitals", "Paris", true},
		{"capitals", "albanian capital", false}, // a description, not a name
		{"animals", "canis familiaris", false},  // Latin binomials are filtered
		{"no-such-category", "apple", false},
	} {
		if got := lx.Fits(tc.cat, tc.word); got != tc.want {
			t.Errorf("Fits(%q, %q) = %v, want %v", tc.cat, tc.word, got, tc.want)
		}
	}
	for id, list := range lx.(*lexicon).lists {
		if !slices.IsSorted(list) {
			t.Errorf("%s: list not sorted", id)
		}
		for i, w := range list {
			if Normalize(w) != w {
				t.Errorf("%s: %q is not normalized", id, w)
			}
			if i > 0 && list[i-1] == w {
				t.Errorf("%s: %q twice", id, w)
			}
		}
	}
	if Default() != Default() {
		t.Error("Default is not shared")
	}
}

// TestFigures logs the deck's size and spread, for the record.
func TestFigures(t *testing.T) {
	var sizes []int
	for _, l := range Default().(*lexicon).lists {
		sizes = append(sizes, len(l))
	}
	sort.Ints(sizes)
	t.Logf("%d cards, %d categories, words per category min %d median %d max %d, embedded %d bytes",
		len(Deck()), len(sizes), sizes[0], sizes[len(sizes)/2], sizes[len(sizes)-1], len(lexiconTxt)+len(categoriesTxt))
}

func TestJudge(t *testing.T) {
	lx := Default()
	for _, c := range []struct {
		cat, word string
		want      Verdict
	}{
		{"animals", "cat", Fits},
		{"animals", "Cat", Fits},
		{"animals", "table", Unknown},
		{"animals", "sxqzt", NotAWord},
		{"animals", "catz", NotAWord},
		{"colours", "grey", Fits},
		{"fruits", "ice cream", Unknown},
		{"fruits", "", NotAWord},
		{"jobs", "running", Unknown},
		{"jobs", "geese", Unknown},
		{"jobs", "colour", Unknown},
		{"jobs", "color", Unknown},
		{"jobs", "better", Unknown},
	} {
		if got := Judge(lx, c.cat, c.word); got != c.want {
			t.Errorf("Judge(%s, %q) = %v, want %v", c.cat, c.word, got, c.want)
		}
	}
	if !IsWord("boxes") || !IsWord("cities") || IsWord("qwzx") {
		t.Errorf("IsWord: boxes %v, cities %v, qwzx %v", IsWord("boxes"), IsWord("cities"), IsWord("qwzx"))
	}
}

func TestPluralsFit(t *testing.T) {
	lx := Default()
	for _, c := range [][2]string{
		{"animals", "cats"}, {"animals", "Horses"}, {"animals", "wolves"}, {"animals", "geese"},
		{"animals", "mice"}, {"fruits", "cherries"}, {"blades", "knives"}, {"vehicles", "buses"},
		{"vegetables", "potatoes"}, {"animals", "foxes"}, {"vehicles", "fire engines"},
	} {
		if !lx.Fits(c[0], c[1]) {
			t.Errorf("%s: %q (a plural) does not fit", c[0], c[1])
		}
	}
	if lx.Fits("animals", "catss") || lx.Fits("animals", "ca") {
		t.Errorf("non-plurals fit")
	}
}
