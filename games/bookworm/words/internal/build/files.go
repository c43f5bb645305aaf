package build

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/normal"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/taxo"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/wordnet"
)

// Inputs are where the generated files come from: the spec, WordNet's
// database directory, the default word lists (dict.WordLists) and the small
// ones (SmallLists) for the tiers.
type Inputs struct {
	Spec       *spec.Spec
	WordNet    string
	Lists      []string
	SmallLists []string
}

// SmallLists are Debian's small word lists (wamerican-small,
// wbritish-small): the everyday tier.
var SmallLists = []string{"/usr/share/dict/american-english-small", "/usr/share/dict/british-english-small"}

// Files generates every data file of the words package: file name (in
// data/) → contents, the .gz ones before compression. The generator writes
// them and TestGeneratedUpToDate compares them, so the two cannot differ.
func Files(in Inputs) (map[string][]byte, *Result, error) {
	db, err := wordnet.Open(in.WordNet)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (install Debian's wordnet-base)", err)
	}
	known, err := dict.Known(in.Lists)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	small, err := dict.Known(in.SmallLists)
	if err != nil {
		return nil, nil, fmt.Errorf("%w (install Debian's wamerican-small and wbritish-small)", err)
	}
	res, err := Generate(in.Spec, db, known)
	if err != nil {
		return nil, nil, err
	}
	dw, err := dict.Build(in.WordNet, in.Lists, res.AllWords())
	if err != nil {
		return nil, nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	g := gen{db: db}
	var cats []taxo.Category
	for _, c := range in.Spec.Categories() {
		tc := taxo.Category{ID: c.ID, Adjectives: c.Adjectives}
		for _, ref := range c.Seeds {
			ref, _, _ = strings.Cut(ref, "/")
			s, err := g.resolve(ref)
			if err != nil {
				return nil, nil, fmt.Errorf("category %s: seed: %w", c.ID, err)
			}
			tc.Seeds = append(tc.Seeds, s.Offset)
		}
		cats = append(cats, tc)
	}
	set := func(m map[string]uint8) map[string]bool {
		out := make(map[string]bool, len(m))
		for w := range m {
			out[normal.Normalize(w)] = true
		}
		return out
	}
	return map[string][]byte{
		"lexicon.txt":       res.Bytes(),
		"dictionary.txt.gz": dict.Text(dw),
		"taxonomy.txt.gz":   taxo.Build(db, cats),
		"tiers.txt":         taxo.Tiers(res.Order, res.Lists, res.SenseTags, set(small), set(known), db),
	}, res, nil
}
