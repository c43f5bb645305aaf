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

// dictionary is the decompressed list and where each line starts: a binary
// search over offsets, no string per word.
type dictionary struct {
	text  string
	start []uint32
}

var loadDictionary = sync.OnceValue(func() *dictionary { return newDictionary(dictionaryGz, "dictionary") })

var loadDictionaryFR = sync.OnceValue(func() *dictionary { return newDictionary(dictionaryFRGz, "dictionary_fr") })

func newDictionary(gz []byte, name string) *dictionary {
	text, err := dict.Gunzip(gz)
	if err != nil {
		// The file is embedded and tested: a broken one never ships.
		panic("bookworm/words: " + name + ": " + err.Error())
	}
	d := &dictionary{text: string(text), start: make([]uint32, 0, 1<<18)}
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

func (d *dictionary) line(i int) string {
	s := d.text[d.start[i]:]
	if j := strings.IndexByte(s, '\n'); j >= 0 {
		s = s[:j]
	}
	return s
}

func (d *dictionary) has(w string) bool {
	i := sort.Search(len(d.start), func(i int) bool { return d.line(i) >= w })
	return i < len(d.start) && d.line(i) == w
}

// IsWord reports whether word is a real English word: after Normalize, each
// of its words is in the general dictionary (every WordNet lemma of every part
// of speech with its inflections, Debian's American and British word lists,
// and every category word). "ice cream" is a word because "ice" and "cream"
// are; "sxqzt" is not. It says nothing about any category. It is English's
// dictionary: Lexicon.IsWord is the dictionary of the lexicon's language.
func IsWord(word string) bool { return loadDictionary().isWord(word) }

// isWord reports whether every word of Normalize(word) is in d.
func (d *dictionary) isWord(word string) bool {
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
