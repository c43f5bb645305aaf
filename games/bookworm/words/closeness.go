package words

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
)

// taxonomyGz is WordNet's noun hierarchy with each category's seeds (see
// internal/taxo), for placing a real word the lexicon does not know.
//
//go:embed data/taxonomy.txt.gz
var taxonomyGz []byte

// Closeness places a real word relative to a category in WordNet's noun
// hierarchy, for judging a word the lexicon does not know.
type Closeness int

const (
	// Far: no noun sense of the word is near the category.
	Far Closeness = iota
	// NoNoun: WordNet has no noun sense of the word (nor of its last word).
	NoNoun
	// Near: a sense of the word is a close relative of one of the
	// category's seeds (see Closeness's rule in Place).
	Near
	// Inside: a sense of the word lies under one of the category's seeds;
	// the lexicon left it out (a depth limit, a filter, an exclusion).
	Inside
)

func (c Closeness) String() string {
	return [...]string{"far", "no-noun", "near", "inside"}[c]
}

type taxonomy struct {
	off, par []int32            // parents of synset i: par[off[i]:off[i+1]]
	seeds    map[string][]int32 // category → seed synsets
	adj      map[string]bool    // categories that take adjectives
	lemmas   *sortedLines       // normalized lemma → senses
	near     sync.Map           // category → map[synset]steps from a seed up to it (≤ nearUp)
	depth    []int8             // fewest steps from each synset up to a root
}

// nearUp is how far above a seed a shared ancestor may be for a word to be
// near the category: up to its great-grandparent (wolf is near Farm animals'
// dog through canine).
const nearUp = 4

var loadTaxonomy = sync.OnceValue(func() *taxonomy {
	raw, err := dict.Gunzip(taxonomyGz)
	if err != nil {
		panic("bookworm/words: taxonomy: " + err.Error()) // embedded and tested
	}
	text := string(raw)
	line := func() string {
		i := strings.IndexByte(text, '\n')
		l := text[:i]
		text = text[i+1:]
		return l
	}
	for strings.HasPrefix(text, "#") {
		line()
	}
	n, _ := strconv.Atoi(strings.TrimPrefix(line(), "n "))
	t := &taxonomy{off: make([]int32, 1, n+1), seeds: map[string][]int32{}, adj: map[string]bool{}}
	for range n {
		for _, f := range strings.Fields(line()) {
			p, _ := strconv.Atoi(f)
			t.par = append(t.par, int32(p))
		}
		t.off = append(t.off, int32(len(t.par)))
	}
	for strings.HasPrefix(text, "@") {
		f := strings.Fields(line())
		id := f[0][1:]
		for _, x := range f[1:] {
			if x == "adjectives" {
				t.adj[id] = true
				continue
			}
			s, _ := strconv.Atoi(x)
			t.seeds[id] = append(t.seeds[id], int32(s))
		}
	}
	t.lemmas = newSortedLines(text)
	t.depth = make([]int8, n)
	for i := range t.depth {
		t.depth[i] = -1
	}
	for i := range n {
		t.depthOf(int32(i))
	}
	return t
})

// depthOf is the fewest steps from s up to a root (entity), memoized.
func (t *taxonomy) depthOf(s int32) int8 {
	if d := t.depth[s]; d >= 0 {
		return d
	}
	d := int8(0)
	for i, p := range t.parents(s) {
		if pd := t.depthOf(p) + 1; i == 0 || pd < d {
			d = pd
		}
	}
	t.depth[s] = d
	return d
}

// minShared is the least depth a shared ancestor needs to make a word near:
// above it lie the hierarchy's abstract tops (entity, object, whole, living
// thing, organism), which everything shares.
const minShared = 4

func (t *taxonomy) parents(s int32) []int32 { return t.par[t.off[s]:t.off[s+1]] }

// up maps every ancestor of s (and s) to its fewest steps up, at most limit.
func (t *taxonomy) up(s int32, limit int) map[int32]int {
	dist := map[int32]int{s: 0}
	frontier := []int32{s}
	for d := 1; d <= limit && len(frontier) > 0; d++ {
		var next []int32
		for _, x := range frontier {
			for _, p := range t.parents(x) {
				if _, ok := dist[p]; !ok {
					dist[p] = d
					next = append(next, p)
				}
			}
		}
		frontier = next
	}
	return dist
}

// nearSet is the category's seeds and their ancestors up to nearUp, each
// with its steps up from the nearest seed.
func (t *taxonomy) nearSet(id string) map[int32]int {
	if m, ok := t.near.Load(id); ok {
		return m.(map[int32]int)
	}
	m := map[int32]int{}
	for _, s := range t.seeds[id] {
		for a, d := range t.up(s, nearUp) {
			if d > 0 && t.depth[a] < minShared {
				continue
			}
			if old, ok := m[a]; !ok || d < old {
				m[a] = d
			}
		}
	}
	t.near.Store(id, m)
	return m
}

// senses lists the noun senses of a normalized word; a phrase WordNet lacks
// is read as its last word ("highland cow" as a cow).
func (t *taxonomy) senses(w string) []int32 {
	v, ok := t.lemmas.find(w)
	if !ok {
		i := strings.LastIndexByte(w, ' ')
		if i < 0 {
			return nil
		}
		if v, ok = t.lemmas.find(w[i+1:]); !ok {
			return nil
		}
	}
	var out []int32
	for _, f := range strings.Fields(v) {
		s, _ := strconv.Atoi(f)
		out = append(out, int32(s))
	}
	return out
}

// maxDepth bounds the walk up from a word's sense: WordNet's noun hierarchy
// is at most 20 levels deep.
const maxDepth = 20

// Place says how close word is to the category in WordNet's noun hierarchy,
// by its closest noun sense (the word normalized; Singulars tried too):
//
//   - Inside when the sense lies under a seed of the category;
//   - Near when the sense and a seed share an ancestor at most nearUp (3)
//     steps above the seed and at least minShared (6) below the root, and the sense is at most 3 steps further from
//     that ancestor than the seed is: siblings and cousins (wolf for Farm
//     animals' dog), not everything under "organism" (tree for Animals);
//   - NoNoun when WordNet knows no noun sense of it;
//   - Far otherwise.
func Place(categoryID, word string) Closeness {
	t := loadTaxonomy()
	near := t.nearSet(categoryID)
	w := Normalize(word)
	forms := append([]string{w}, Singulars(w)...)
	best, any := Far, false
	for _, f := range forms {
		for _, s := range t.senses(f) {
			any = true
			for a, du := range t.up(s, maxDepth) {
				dc, ok := near[a]
				switch {
				case !ok:
				case dc == 0:
					return Inside
				case du <= dc+4:
					best = Near
				}
			}
		}
	}
	if !any {
		return NoNoun
	}
	return best
}

// TakesAdjectives reports whether the category is answered with adjectives
// (feelings, character traits): there a word with no noun sense may fit.
func TakesAdjectives(categoryID string) bool { return loadTaxonomy().adj[categoryID] }
