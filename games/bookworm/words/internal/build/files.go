package build

import (
	"errors"
	"fmt"
	"io/fs"
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
	// French is the French deck file (categories_fr.txt); FreeDict the
	// directory of FreeDict's dictionaries; FrenchLists Debian's French word
	// list.
	French      string
	FreeDict    string
	FrenchLists []string
}

// Output is what Files generates.
type Output struct {
	// Files: file name (in data/) → contents, the .gz ones before
	// compression.
	Files   map[string][]byte
	English *Result
	French  *Result // nil when FrenchSkipped
	// FrenchSkipped says why the French files were not made (a Debian
	// package that reads them is missing); nil when they were.
	FrenchSkipped error
}

// SmallLists are Debian's small word lists (wamerican-small,
// wbritish-small): the everyday tier.
var SmallLists = []string{"/usr/share/dict/american-english-small", "/usr/share/dict/british-english-small"}

// Files generates every data file of the words package. The generator
// writes them and TestGeneratedUpToDate compares them, so the two cannot
// differ. Without the French sources (FrenchPackages) it makes the English
// files only and says why in FrenchSkipped.
func Files(in Inputs) (*Output, error) {
	db, err := wordnet.Open(in.WordNet)
	if err != nil {
		return nil, fmt.Errorf("%w (install Debian's wordnet-base)", err)
	}
	known, err := dict.Known(in.Lists)
	if err != nil {
		return nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	small, err := dict.Known(in.SmallLists)
	if err != nil {
		return nil, fmt.Errorf("%w (install Debian's wamerican-small and wbritish-small)", err)
	}
	res, err := Generate(in.Spec, db, known)
	if err != nil {
		return nil, err
	}
	dw, err := dict.Build(in.WordNet, in.Lists, res.AllWords())
	if err != nil {
		return nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	g := gen{db: db}
	var cats []taxo.Category
	for _, c := range in.Spec.Categories() {
		tc := taxo.Category{ID: c.ID, Adjectives: c.Adjectives}
		for _, ref := range c.Seeds {
			ref, _, _ = strings.Cut(ref, "/")
			s, err := g.resolve(ref)
			if err != nil {
				return nil, fmt.Errorf("category %s: seed: %w", c.ID, err)
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
	out := &Output{English: res, Files: map[string][]byte{
		"lexicon.txt":       res.Bytes(),
		"dictionary.txt.gz": dict.Text(dw),
		"taxonomy.txt.gz":   taxo.Build(db, cats),
		"tiers.txt":         taxo.Tiers(res.Order, res.Lists, res.SenseTags, set(small), set(known), db),
	}}
	fr, err := LoadFrench(in.French, in.FreeDict, in.FrenchLists, in.Lists)
	if errors.Is(err, fs.ErrNotExist) {
		out.FrenchSkipped = fmt.Errorf("%w (install Debian's %s)", err, FrenchPackages)
		return out, nil
	}
	if err != nil {
		return nil, err
	}
	if out.French, err = GenerateFR(in.Spec, db, fr.Lang, res, fr.Bridge, fr); err != nil {
		return nil, err
	}
	dwFR, err := dict.BuildFR(in.FrenchLists, append(out.French.AllWords(), fr.Bridge.Words()...))
	if err != nil {
		return nil, err
	}
	out.Files["lexicon_fr.txt"] = out.French.BytesFR()
	out.Files["dictionary_fr.txt.gz"] = dict.Text(dwFR)
	return out, nil
}

// DefaultInputs are the inputs at their Debian paths, for the spec s and
// the French deck file french.
func DefaultInputs(s *spec.Spec, french string) Inputs {
	return Inputs{Spec: s, WordNet: "/usr/share/wordnet", Lists: dict.WordLists, SmallLists: SmallLists,
		French: french, FreeDict: FreeDictDir, FrenchLists: dict.FrenchWordLists}
}
