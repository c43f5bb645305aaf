package words

import (
	_ "embed"
	"strings"
	"sync"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
)

// categoriesTxt is the hand-written category file: the deck, and the recipe
// the generator follows for each category's words. The deck is read from it
// so there is a single place to edit.
//
//go:embed categories.txt
var categoriesTxt string

var loadDeck = sync.OnceValues(func() ([]Card, map[string]Category) {
	s, err := spec.Parse(strings.NewReader(categoriesTxt))
	if err != nil {
		// The file is embedded and tested: a broken one never ships.
		panic("bookworm/words: " + err.Error())
	}
	cards := make([]Card, len(s.Cards))
	byID := map[string]Category{}
	for i, sc := range s.Cards {
		cards[i].ID = sc.ID
		for j, c := range sc.Categories {
			cat := Category{ID: c.ID, Name: c.Name, Level: Level(c.Level)}
			cards[i].Categories[j] = cat
			byID[c.ID] = cat
		}
	}
	return cards, byID
})

// Deck returns the shipped category cards in a fixed order (the caller may
// shuffle the copy it gets). Card IDs and category IDs are stable: records
// and replays refer to them.
func Deck() []Card {
	cards, _ := loadDeck()
	return append([]Card(nil), cards...)
}

// Lookup returns the deck's category with this ID.
func Lookup(categoryID string) (Category, bool) {
	_, byID := loadDeck()
	c, ok := byID[categoryID]
	return c, ok
}
