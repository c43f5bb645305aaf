package words

import (
	_ "embed"
	"strings"
	"sync"
)

// tiersTxt says how common each category word is (internal/taxo.Tier): "word
// TAB tier" for tiers 1 (everyday) and 2 (common), sorted.
//
//go:embed data/tiers.txt
var tiersTxt string

var loadTiers = sync.OnceValue(func() map[string]*sortedLines {
	out := map[string]*sortedLines{}
	for _, sec := range strings.Split(tiersTxt, "\n@")[1:] {
		id, body, _ := strings.Cut(sec, "\n")
		out[id] = newSortedLines(body)
	}
	return out
})

// Tier levels: how common a word is. Bots name words of the tiers their
// level allows, as people name everyday words first.
const (
	Everyday = 1 // in Debian's small word lists (~50,000 words), or a phrase of them WordNet's corpus has seen
	Common   = 2 // in the default word lists (~100,000 words)
	Rare     = 3 // anything else: "enchiridion", "admission charge"
)

// Tier says how common a word of the category is (normalized, as Words
// lists it): Everyday, Common or Rare. The tiers come from the size of the
// smallest Debian word list holding each word (wamerican/wbritish small and
// default); a phrase takes its rarest word's tier, two tiers rarer when
// WordNet's corpus counts never saw the phrase; and a word is one tier rarer
// in a category it belongs to only by a sense the corpus never saw ("levee"
// as a party). See internal/taxo.
func Tier(categoryID, word string) int {
	l := loadTiers()[categoryID]
	if l == nil {
		return Rare
	}
	v, ok := l.find(word)
	if !ok || v == "" {
		return Rare
	}
	return int(v[0] - '0')
}
