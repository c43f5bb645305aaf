package words

import (
	"slices"
	"strings"
	"testing"
)

func TestLanguages(t *testing.T) {
	if got := Languages(); !slices.Equal(got, []string{"en", "fr"}) {
		t.Fatalf("Languages() = %v", got)
	}
	en, err := ForLanguage("en")
	if err != nil || en != Default() {
		t.Errorf("ForLanguage(en) = %v, %v; want Default()", en, err)
	}
	fr, err := ForLanguage("fr")
	if err != nil || fr == nil {
		t.Fatalf("ForLanguage(fr) = %v, %v", fr, err)
	}
	if again, _ := ForLanguage("fr"); again != fr {
		t.Error("the French lexicon is not shared")
	}
	if _, err := ForLanguage("de"); err == nil {
		t.Error("ForLanguage(de): no error")
	}
	if _, err := DeckIn("xx"); err == nil {
		t.Error("DeckIn(xx): no error")
	}
	deckEN, err := DeckIn("en")
	if err != nil || !slices.Equal(deckEN, Deck()) {
		t.Errorf("DeckIn(en) differs from Deck(): %v", err)
	}
	deckFR, err := DeckIn("fr")
	if err != nil {
		t.Fatal(err)
	}
	if len(deckFR) != len(deckEN) {
		t.Fatalf("DeckIn(fr) has %d cards, want %d", len(deckFR), len(deckEN))
	}
	names := map[string]bool{}
	for i, card := range deckFR {
		if card.ID != deckEN[i].ID {
			t.Errorf("card %d: ID %d, want %d", i, card.ID, deckEN[i].ID)
		}
		for j, c := range card.Categories {
			e := deckEN[i].Categories[j]
			if c.ID != e.ID || c.Level != e.Level {
				t.Errorf("card %d: category %d is %s/%v, want %s/%v", card.ID, j, c.ID, c.Level, e.ID, e.Level)
			}
			if c.Name == "" || c.Name == e.Name && c.Name != "Sports" && c.Name != "Machines" && c.Name != "Poisons" && c.Name != "Sciences" && c.Name != "Sauces" && c.Name != "Cocktails" {
				t.Errorf("%s: French name %q (English %q)", c.ID, c.Name, e.Name)
			}
			if names[c.Name] {
				t.Errorf("%s: French name %q twice in the deck", c.ID, c.Name)
			}
			names[c.Name] = true
			if len(fr.Words(c.ID)) < 10 {
				t.Errorf("%s: %d French words, want at least 10", c.ID, len(fr.Words(c.ID)))
			}
		}
	}
	if deckEN[0].Categories[0].Name != "Animals" || deckFR[0].Categories[0].Name != "Animaux" {
		t.Errorf("DeckIn changed the English deck or missed the French names: %q, %q", deckEN[0].Categories[0].Name, deckFR[0].Categories[0].Name)
	}
}

func TestFrenchLexicon(t *testing.T) {
	fr, _ := ForLanguage("fr")
	for _, tc := range []struct {
		cat, word string
		want      Verdict
	}{
		{"animals", "souris", Fits},
		{"animals", "Souris", Fits},
		{"animals", "chat", Fits},
		{"animals", "chats", Fits},
		{"animals", "chevaux", Fits},  // cheval
		{"animals", "éléphant", Fits}, // accents are optional
		{"animals", "elephant", Fits}, //
		{"animals", "chauve-souris", Fits},
		{"animals", "chauves-souris", Fits}, // every word of a phrase takes the plural
		{"animals", "chaise", Unknown},
		{"animals", "sxqzt", NotAWord},
		{"animals", "", NotAWord},
		{"fruits", "pêche", Fits},
		{"fruits", "peches", Fits},
		{"fruits", "marteau", Unknown},
		{"vegetables", "pommes de terre", Fits},
		{"vegetables", "choux-fleurs", Fits},
		{"body_parts", "yeux", Fits}, // œil
		{"body_parts", "Œil", Fits},
		{"cakes", "marteaux", Unknown}, // a real word: the plural of marteau
		{"birds", "moineaux", Fits},    // a plural; "oiseau" itself is the category, not a member
		{"capitals", "Paris", Fits},
		{"capitals", "Londres", Fits},
		{"rivers", "Tamise", Fits},
		{"jobs", "boulangère", Unknown},
		{"jobs", "mangèrent", Unknown}, // a verb form wfrench knows
		{"jobs", "cat", NotAWord},      // English is not French
	} {
		if got := Judge(fr, tc.cat, tc.word); got != tc.want {
			t.Errorf("Judge(fr, %s, %q) = %v, want %v", tc.cat, tc.word, got, tc.want)
		}
	}
	// The English lexicon is unchanged: English words, English dictionary.
	if Judge(Default(), "animals", "souris") == Fits || Judge(Default(), "animals", "sxqzt") != NotAWord || !Default().IsWord("cat") {
		t.Error("the English lexicon judges French words")
	}
	for id, list := range fr.(*lexicon).lists {
		if !slices.IsSorted(list) {
			t.Errorf("%s: list not sorted", id)
		}
		for i, w := range list {
			if Normalize(w) != w || !sayable(w) {
				t.Errorf("%s: %q is not normalized or not playable", id, w)
			}
			if i > 0 && list[i-1] == w {
				t.Errorf("%s: %q twice", id, w)
			}
			if !fr.IsWord(w) {
				t.Errorf("%s: %q fits but is not a French word", id, w)
			}
		}
	}
}

func TestSingularsFR(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"chats", "chat"}, {"chevaux", "cheval"}, {"travaux", "travail"}, {"gateaux", "gateau"},
		{"jeux", "jeu"}, {"bijoux", "bijou"}, {"yeux", "oeil"}, {"pommes de terre", "pomme de terre"},
		{"chauves souris", "chauve souris"}, {"poissons rouges", "poisson rouge"},
	} {
		if got := singularsFR(tc.in); !slices.Contains(got, tc.want) {
			t.Errorf("singularsFR(%q) = %v, want %q among them", tc.in, got, tc.want)
		}
	}
	if got := singularsFR("souris"); slices.Contains(got, "souris") {
		t.Errorf("singularsFR(souris) = %v: repeats the word", got)
	}
	if got := singularsFR(strings.Repeat("chats ", 12)); len(got) > 64 {
		t.Errorf("singularsFR of 12 words gives %d forms, want at most 64", len(got))
	}
}
