package words

import (
	_ "embed"
	"slices"
	"strings"
	"sync"
)

//go:generate go run ./gen -wordnet /usr/share/wordnet -spec categories.txt -out data -wordlists /usr/share/dict/american-english,/usr/share/dict/british-english -fr categories_fr.txt -fr-wordlists /usr/share/dict/french -freedict /usr/share/dictd

// lexiconTxt is the generated word lists: for each category a line "@id"
// then its words, one a line, normalized and sorted. Kept as one string so
// every word is a substring of it: no copy per word.
//
//go:embed data/lexicon.txt
var lexiconTxt string

// lexiconFRTxt is the French word lists, in the same format (see
// language.go).
//
//go:embed data/lexicon_fr.txt
var lexiconFRTxt string

// Default returns the embedded English lexicon. It is parsed on first use
// and shared; it is safe for concurrent use.
func Default() Lexicon { return defaultLexicon() }

var defaultLexicon = sync.OnceValue(func() *lexicon {
	return parseLexicon(lexiconTxt, Singulars, loadDictionary)
})

var frenchLexicon = sync.OnceValue(func() *lexicon {
	return parseLexicon(lexiconFRTxt, singularsFR, loadDictionaryFR)
})

// lexicon holds one sorted slice per category; lookups are binary searches
// (a category has at most a few thousand words: ~12 comparisons).
type lexicon struct {
	lists     map[string][]string
	singulars func(string) []string // the language's plural rules (Singulars)
	dict      func() *sortedLines   // its general dictionary, loaded on first use
}

func parseLexicon(data string, singulars func(string) []string, dict func() *sortedLines) *lexicon {
	lx := &lexicon{lists: map[string][]string{}, singulars: singulars, dict: dict}
	var id string
	var list []string
	flush := func() {
		if id != "" {
			lx.lists[id] = slices.Clip(list)
		}
	}
	for line := range strings.Lines(data) {
		line = strings.TrimSuffix(line, "\n")
		switch {
		case line == "" || line[0] == '#':
		case line[0] == '@':
			flush()
			id, list = line[1:], nil
		default:
			list = append(list, line)
		}
	}
	flush()
	return lx
}

// Fits reports whether Normalize(word), or one of its possible singulars
// (Singulars in English), is in the category's list: the lists hold
// singulars, and "cows" fits Farm animals as "cow" does.
func (lx *lexicon) Fits(categoryID, word string) bool {
	list := lx.lists[categoryID]
	if len(list) == 0 {
		return false
	}
	w := Normalize(word)
	if _, ok := slices.BinarySearch(list, w); ok {
		return true
	}
	for _, s := range lx.singulars(w) {
		if _, ok := slices.BinarySearch(list, s); ok {
			return true
		}
	}
	return false
}

// Words returns the category's list, sorted. The slice is shared by every
// caller: read it, do not modify it (copy it with slices.Clone first).
func (lx *lexicon) Words(categoryID string) []string {
	return lx.lists[categoryID]
}

// IsWord reports whether word is a real word in the lexicon's language: for
// English, the package-level IsWord.
func (lx *lexicon) IsWord(word string) bool { return lx.dict().isWord(word) }
