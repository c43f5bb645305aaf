package bookworm

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

var _ engine.WordJudge = Game{}

// lexicon is the deck and lexicon of a word language ("" is English): the
// game's own for English, the words package's for another.
func (g Game) lexicon(l string) ([]words.Card, words.Lexicon, error) {
	if l == "" || l == "en" {
		return g.deck(), g.Lexicon, nil
	}
	deck, err := words.DeckIn(l)
	if err != nil {
		return nil, nil, fmt.Errorf("unknown word language %q (want one of %s)", l, strings.Join(words.Languages(), ", "))
	}
	lex, err := words.ForLanguage(l)
	return deck, lex, err
}

// category finds a category of the language's deck.
func (g Game) category(l, id string) (words.Category, words.Lexicon, error) {
	deck, lex, err := g.lexicon(l)
	if err != nil {
		return words.Category{}, nil, err
	}
	for _, card := range deck {
		for _, c := range card.Categories {
			if c.ID == id {
				return c, lex, nil
			}
		}
	}
	return words.Category{}, nil, fmt.Errorf("no category %q", id)
}

func (g Game) deck() []words.Card {
	if g.Deck != nil {
		return g.Deck
	}
	return words.Deck()
}

// WordCategories lists the deck's categories, card by card, easy to hard.
func (g Game) WordCategories(l string) ([]engine.WordCategory, error) {
	deck, lex, err := g.lexicon(l)
	if err != nil {
		return nil, err
	}
	var out []engine.WordCategory
	for _, card := range deck {
		for _, c := range card.Categories {
			out = append(out, engine.WordCategory{ID: c.ID, Name: c.Name, Level: c.Level.String(),
				Card: card.ID, Words: len(lex.Words(c.ID))})
		}
	}
	return out, nil
}

// CategoryWords lists the words the lexicon knows to fit the category.
func (g Game) CategoryWords(l, id string) ([]string, error) {
	c, lex, err := g.category(l, id)
	if err != nil {
		return nil, err
	}
	return lex.Words(c.ID), nil
}

// JudgeWord is the lexicon's verdict on word (words.Judge).
func (g Game) JudgeWord(l, id, word string) (string, error) {
	c, lex, err := g.category(l, id)
	if err != nil {
		return "", err
	}
	return words.Judge(lex, c.ID, word).String(), nil
}
