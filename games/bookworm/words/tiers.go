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

var loadTiers = sync.OnceValue(func() *sortedLines {
	i := 0
	for strings.HasPrefix(tiersTxt[i:], "#") {
		i += strings.IndexByte(tiersTxt[i:], '\n') + 1
	}
	return newSortedLines(tiersTxt[i:])
})

// Tier levels: how common a word is. Bots name words of the tiers their
// level allows, as people name everyday words first.
const (
	Everyday = 1 // in Debian's small word lists (~50,000 words), or a phrase of them WordNet's corpus has seen
	Common   = 2 // in the default word lists (~100,000 words)
	Rare     = 3 // anything else: "enchiridion", "admission charge"
)

// Tier says how common a category word is (normalized, as Words lists it):
// Everyday, Common or Rare. The tiers come from the size of the smallest
// Debian word list holding each word (wamerican/wbritish small and default);
// a phrase takes its rarest word's tier, two tiers rarer when WordNet's
// corpus counts never saw the phrase. See internal/taxo.
func Tier(word string) int {
	v, ok := loadTiers().find(word)
	if !ok || v == "" {
		return Rare
	}
	return int(v[0] - '0')
}
