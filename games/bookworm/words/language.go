package words

import (
	_ "embed"
	"fmt"
	"strings"
	"sync"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
)

// The deck is the same in every language: the same cards and category IDs
// (records refer to them), with the names and the word lists of the
// language. English is the language of Default, Deck and Lookup.

// categoriesFRTxt is the French translation of the deck: each category's
// French name, and the hand-made additions and exclusions of its French
// list (format: internal/spec.ParseLang).
//
//go:embed categories_fr.txt
var categoriesFRTxt string

// Languages lists the languages the deck and lexicon come in, as BCP 47
// tags: "en" first (the default), then "fr".
func Languages() []string { return []string{"en", "fr"} }

// ForLanguage returns the embedded lexicon of a language of Languages:
// Default for "en". Each is parsed on first use and shared.
func ForLanguage(lang string) (Lexicon, error) {
	switch lang {
	case "en":
		return Default(), nil
	case "fr":
		return frenchLexicon(), nil
	}
	return nil, fmt.Errorf("bookworm/words: no language %q (want one of %s)", lang, strings.Join(Languages(), ", "))
}

// DeckIn returns the deck (Deck) with the category names in a language of
// Languages. IDs and levels are the same in every language.
func DeckIn(lang string) ([]Card, error) {
	cards := Deck()
	switch lang {
	case "en":
		return cards, nil
	case "fr":
		names := loadFrenchNames()
		for i := range cards {
			for j := range cards[i].Categories {
				c := &cards[i].Categories[j]
				if n, ok := names[c.ID]; ok {
					c.Name = n
				}
			}
		}
		return cards, nil
	}
	return nil, fmt.Errorf("bookworm/words: no language %q (want one of %s)", lang, strings.Join(Languages(), ", "))
}

var loadFrenchNames = sync.OnceValue(func() map[string]string {
	l, err := spec.ParseLang(strings.NewReader(categoriesFRTxt))
	if err != nil {
		// The file is embedded and tested: a broken one never ships.
		panic("bookworm/words: categories_fr.txt: " + err.Error())
	}
	names := make(map[string]string, len(l.Cats))
	for id, c := range l.Cats {
		names[id] = c.Name
	}
	return names
})
