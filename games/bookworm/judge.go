package bookworm

import (
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

var _ engine.WordJudge = Game{}

// lang accepts the word languages Bookworm has: English only, for now.
func lang(l string) error {
	switch l {
	case "", "en":
		return nil
	case "fr":
		return fmt.Errorf("French is not available yet: Bookworm's categories and words are English only (en)")
	}
	return fmt.Errorf("unknown word language %q (want en)", l)
}

// category finds a category of the game's deck.
func (g Game) category(l, id string) (words.Category, error) {
	if err := lang(l); err != nil {
		return words.Category{}, err
	}
	for _, card := range g.deck() {
		for _, c := range card.Categories {
			if c.ID == id {
				return c, nil
			}
		}
	}
	return words.Category{}, fmt.Errorf("no category %q", id)
}

func (g Game) deck() []words.Card {
	if g.Deck != nil {
		return g.Deck
	}
	return words.Deck()
}

// WordCategories lists the deck's categories, card by card, easy to hard.
func (g Game) WordCategories(l string) ([]engine.WordCategory, error) {
	if err := lang(l); err != nil {
		return nil, err
	}
	var out []engine.WordCategory
	for _, card := range g.deck() {
		for _, c := range card.Categories {
			out = append(out, engine.WordCategory{ID: c.ID, Name: c.Name, Level: c.Level.String(),
				Card: card.ID, Words: len(g.Lexicon.Words(c.ID))})
		}
	}
	return out, nil
}

// CategoryWords lists the words the lexicon knows to fit the category.
func (g Game) CategoryWords(l, id string) ([]string, error) {
	c, err := g.category(l, id)
	if err != nil {
		return nil, err
	}
	return g.Lexicon.Words(c.ID), nil
}

// JudgeWord is the lexicon's verdict on word (words.Judge).
func (g Game) JudgeWord(l, id, word string) (string, error) {
	c, err := g.category(l, id)
	if err != nil {
		return "", err
	}
	return words.Judge(g.Lexicon, c.ID, word).String(), nil
}
