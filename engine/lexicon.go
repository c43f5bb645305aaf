package engine

// WordJudge is an optional Game extension for word games: the categories a
// word is judged against, the words a category is known to hold, and the
// verdict on a word. `dicehall words` reads it, so a host can settle a
// dispute with the same lexicon the rules and the bots use.
type WordJudge interface {
	// WordCategories lists the categories in lang, in deck order.
	WordCategories(lang string) ([]WordCategory, error)
	// CategoryWords lists the words known to fit a category (normalized,
	// sorted).
	CategoryWords(lang, category string) ([]string, error)
	// JudgeWord is the verdict on word for category: VerdictFits,
	// VerdictUnknown or VerdictNotAWord.
	JudgeWord(lang, category, word string) (string, error)
}

// The verdicts of WordJudge.JudgeWord.
const (
	// VerdictFits: the lexicon knows the word to fit the category.
	VerdictFits = "fits"
	// VerdictUnknown: a real word the category's list lacks: people decide.
	VerdictUnknown = "unknown"
	// VerdictNotAWord: in no dictionary the game knows (made up, misspelt).
	VerdictNotAWord = "not-a-word"
)

// WordCategory is one category of a word game.
type WordCategory struct {
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level string `json:"level"`
	// Card is the card or group the category is printed on.
	Card int `json:"card"`
	// Words counts the words known to fit it.
	Words int `json:"words"`
}
