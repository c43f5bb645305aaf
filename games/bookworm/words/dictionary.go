package words

import (
	_ "embed"
	"sort"
	"strings"
	"sync"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
)

// dictionaryGz is the general dictionary, generated with the word lists (see
// internal/dict): every single English word dicehall knows, normalized and
// sorted, one a line, gzipped.
//
//go:embed data/dictionary.txt.gz
var dictionaryGz []byte

// dictionaryFRGz is the French general dictionary, likewise: Debian's
// French word list (wfrench), every French category word and its plurals,
// and the French words of FreeDict's English-French and French-English
// dictionaries.
//
//go:embed data/dictionary_fr.txt.gz
var dictionaryFRGz []byte

// The dictionaries, decompressed on first use.
var (
	loadDictionary   = sync.OnceValue(func() *sortedLines { return newDictionary(dictionaryGz, "dictionary") })
	loadDictionaryFR = sync.OnceValue(func() *sortedLines { return newDictionary(dictionaryFRGz, "dictionary_fr") })
)

func newDictionary(gz []byte, name string) *sortedLines {
	text, err := dict.Gunzip(gz)
	if err != nil {
		// The file is embedded and tested: a broken one never ships.
		panic("bookworm/words: " + name + ": " + err.Error())
	}
	return newSortedLines(string(text))
}

// sortedLines is a text of sorted lines and where each starts: a binary
// search over offsets, no string per line. A line is a key, maybe followed
// by a tab and a value.
type sortedLines struct {
	text  string
	start []uint32
}

func newSortedLines(text string) *sortedLines {
	d := &sortedLines{text: text, start: make([]uint32, 0, strings.Count(text, "\n")+1)}
	for i := 0; i < len(d.text); {
		d.start = append(d.start, uint32(i))
		j := strings.IndexByte(d.text[i:], '\n')
		if j < 0 {
			break
		}
		i += j + 1
	}
	return d
}

// key is line i up to its tab.
func (d *sortedLines) key(i int) string {
	s := d.text[d.start[i]:]
	if j := strings.IndexAny(s, "\t\n"); j >= 0 {
		s = s[:j]
	}
	return s
}

// find returns the value of key's line ("" when it has none).
func (d *sortedLines) find(key string) (string, bool) {
	i := sort.Search(len(d.start), func(i int) bool { return d.key(i) >= key })
	if i == len(d.start) || d.key(i) != key {
		return "", false
	}
	s := d.text[d.start[i]+uint32(len(key)):]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return strings.TrimPrefix(s, "\t"), true
}

func (d *sortedLines) has(key string) bool {
	_, ok := d.find(key)
	return ok
}

// IsWord reports whether word is a real English word: after Normalize, each
// of its words is in the general dictionary (every WordNet lemma of every part
// of speech with its inflections, Debian's American and British word lists,
// and every category word). "ice cream" is a word because "ice" and "cream"
// are; "sxqzt" is not. It says nothing about any category. It is English's
// dictionary: Lexicon.IsWord is the dictionary of the lexicon's language.
func IsWord(word string) bool { return loadDictionary().isWord(word) }

// isWord reports whether every word of Normalize(word) is in d.
func (d *sortedLines) isWord(word string) bool {
	parts := strings.Fields(Normalize(word))
	if len(parts) == 0 {
		return false
	}
	for _, p := range parts {
		if !d.has(p) {
			return false
		}
	}
	return true
}

// Verdict is what dicehall can say about a word for a category on its own.
type Verdict int

const (
	// NotAWord: not in the general dictionary (made up or misspelt).
	NotAWord Verdict = iota
	// Unknown: a real word the category's lexicon does not know; the table
	// decides whether it fits.
	Unknown
	// Fits: the lexicon knows the word to fit the category.
	Fits
)

// String is the verdict as `dicehall words check` prints it.
func (v Verdict) String() string {
	switch v {
	case NotAWord:
		return "not-a-word"
	case Unknown:
		return "unknown"
	case Fits:
		return "fits"
	}
	return "verdict?"
}

// MarshalText writes the verdict as its String.
func (v Verdict) MarshalText() ([]byte, error) { return []byte(v.String()), nil }

// Judge gives lx's verdict on word for the category: Fits when lx knows it
// to fit, else Unknown when it is a real word of lx's language (lx.IsWord),
// else NotAWord. A word the lexicon fits is never NotAWord, even if the
// dictionary lacks it.
func Judge(lx Lexicon, categoryID, word string) Verdict {
	switch {
	case lx.Fits(categoryID, word):
		return Fits
	case lx.IsWord(word):
		return Unknown
	}
	return NotAWord
}

// Opinion is what a player who trusts the lexicon says of a word: bots vote
// with it.
type Opinion int

const (
	Reject Opinion = iota - 1
	Abstain
	Accept
)

func (o Opinion) String() string {
	switch o {
	case Reject:
		return "reject"
	case Accept:
		return "accept"
	}
	return "abstain"
}

// Opine judges word for the category as bots do (docs/rules/bookworm.md,
// "How bots judge"):
//
//   - Accept a word the lexicon knows to fit;
//   - Reject a word that is not a word at all (made up, misspelt);
//   - for a real word the lexicon does not know, by its place in WordNet's
//     noun hierarchy (Place): Abstain when it lies inside or near the
//     category (the table decides), else Reject (a word with no noun sense
//     too); in a category answered with adjectives (feelings), always
//     Abstain: the hierarchy places nouns only.
//
// placeable says whether the word's language has the noun hierarchy
// (English); without it a real word the lexicon lacks is Abstain.
func Opine(lx Lexicon, categoryID, word string, placeable bool) Opinion {
	switch Judge(lx, categoryID, word) {
	case Fits:
		return Accept
	case NotAWord:
		return Reject
	}
	if !placeable {
		return Abstain
	}
	if TakesAdjectives(categoryID) {
		// The hierarchy holds nouns: it cannot place "shy" among
		// character traits, whatever its noun senses (a throw).
		return Abstain
	}
	switch Place(categoryID, word) {
	case Inside, Near:
		return Abstain
	}
	return Reject
}
