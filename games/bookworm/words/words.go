// Package words is Bookworm's category deck and lexicon: the cards (three
// categories each, easy to hard) and, per category, the words known to fit,
// generated from WordNet plus hand-made additions and exclusions.
//
// The rules ask the lexicon to pre-judge a word; bots draw their vocabulary
// from it. Nothing here loads WordNet at run time: the generated lists are
// embedded.
package words

// Level is a category's difficulty, like the green, yellow and red rows of
// the printed cards.
type Level int

const (
	Easy Level = iota
	Medium
	Hard
)

func (l Level) String() string {
	switch l {
	case Easy:
		return "easy"
	case Medium:
		return "medium"
	case Hard:
		return "hard"
	}
	return "level?"
}

// Category is one line of a card.
type Category struct {
	ID    string `json:"id"`    // stable, e.g. "animals"
	Name  string `json:"name"`  // what people read, e.g. "Animals"
	Level Level  `json:"level"` // Easy, Medium or Hard
}

// Card is a category card: three categories of rising difficulty.
type Card struct {
	ID         int         `json:"id"`
	Categories [3]Category `json:"categories"`
}

// Lexicon judges words for categories.
type Lexicon interface {
	// Fits reports whether the lexicon knows word to fit the category.
	// Words are compared after Normalize. False means "not known", not
	// "known not to fit": people may still accept it by vote.
	Fits(categoryID, word string) bool
	// Words lists the category's known words (normalized, sorted), for bots.
	Words(categoryID string) []string
	// IsWord reports whether word is a real word of the lexicon's language
	// at all, whatever the category (its general dictionary): Judge calls
	// a word that is not one NotAWord.
	IsWord(word string) bool
}
