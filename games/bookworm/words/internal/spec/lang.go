package spec

import (
	"fmt"
	"io"
)

// Lang is a translation of the deck (categories_fr.txt): for each category
// ID, the name people read in that language and the hand-made additions and
// exclusions of its word list. The format is line-based like the spec's;
// '#' starts a comment:
//
//	animals   Animaux
//	add       chat, chien, vache
//	drop      mégère
//
// A line whose first word is neither add nor drop names a category: its ID,
// then its name. add and drop lines describe the category above them
// (comma-separated words, compared after normalization).
type Lang struct {
	Order []string // category IDs in file order
	Cats  map[string]*LangCategory
}

// LangCategory is one category of a translation.
type LangCategory struct {
	ID, Name  string
	Add, Drop []string
	Line      int
}

// ParseLang reads a translation file and checks its structure: every ID
// once, every category with a name.
func ParseLang(r io.Reader) (*Lang, error) {
	l := &Lang{Cats: map[string]*LangCategory{}}
	var cat *LangCategory
	lines, scanErr := keyLines(r)
	for kl := range lines {
		n, key, rest := kl.n, kl.key, kl.rest
		bad := func(format string, args ...any) error {
			return fmt.Errorf("translation line %d: %s", n, fmt.Sprintf(format, args...))
		}
		switch key {
		case "add", "drop":
			if cat == nil {
				return nil, bad("%s outside a category", key)
			}
			if key == "add" {
				cat.Add = append(cat.Add, list(rest)...)
			} else {
				cat.Drop = append(cat.Drop, list(rest)...)
			}
			continue
		}
		if rest == "" {
			return nil, bad("category %q wants a name", key)
		}
		if prev, ok := l.Cats[key]; ok {
			return nil, bad("category %q already on line %d", key, prev.Line)
		}
		cat = &LangCategory{ID: key, Name: rest, Line: n}
		l.Cats[key] = cat
		l.Order = append(l.Order, key)
	}
	if err := scanErr(); err != nil {
		return nil, err
	}
	return l, nil
}

// Check reports the first mismatch between the translation and the deck:
// a category of s it does not name, or an ID s does not have.
func (l *Lang) Check(s *Spec) error {
	known := map[string]bool{}
	for _, c := range s.Categories() {
		known[c.ID] = true
		if l.Cats[c.ID] == nil {
			return fmt.Errorf("translation: no name for category %q", c.ID)
		}
	}
	for _, id := range l.Order {
		if !known[id] {
			return fmt.Errorf("translation line %d: no category %q in the deck", l.Cats[id].Line, id)
		}
	}
	return nil
}
