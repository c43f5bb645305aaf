// Package spec reads the hand-written category file (categories.txt): the
// cards of the deck, and for each category the WordNet synsets its words come
// from, the filters to apply and the hand-made additions and exclusions. The
// words package reads the deck from it at run time; the generator reads the
// rest.
//
// The format is line-based; '#' starts a comment, indentation is free:
//
//	card 7
//	easy    fruit     Fruit
//	seed    edible_fruit.n.01 @07705931
//	not     berry.n.01
//	names
//	depth   3
//	words   3
//	add     kiwi, ugli fruit
//	drop    hip
//	medium  ...
//
// A card line starts a card; each level line (easy, medium, hard) starts a
// category: ID then the name people read. The other lines describe the
// category above them:
//
//   - seed: synsets whose lemmas and (transitive) hyponyms fill the
//     category, as lemma.n.SENSE (sense numbers of index.noun, underscores for
//     spaces) or @OFFSET (data.noun byte offset, 8 digits); a seed may end in
//     /N to follow its hyponyms at most N levels (office.n.01/0: the synset
//     alone, without every kind of office), where a whole subtree would bring
//     in too much;
//   - not: synsets whose subtrees are left out;
//   - names: also take instance hyponyms (proper names: cities, people);
//     names-only: take only them;
//   - depth N: follow hyponyms at most N levels below a seed;
//   - parts: also take the parts WordNet lists of each synset taken
//     (part meronyms, transitively: body → head → face → nose), with their
//     hyponyms;
//   - words N: keep lemmas of at most N words (default 2);
//   - adjectives: also take the adjectives WordNet derives from each synset
//     taken, or names as its values (anger → angry, honesty → honest), for
//     categories people answer with adjectives (feelings, character traits);
//   - add, drop: comma-separated words added or removed by hand (compared
//     after normalization).
package spec

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"strconv"
	"strings"
)

// Level names in file order: easy, medium, hard.
var Levels = [3]string{"easy", "medium", "hard"}

// Category is one category as the file describes it.
type Category struct {
	ID, Name   string
	Level      int      // index into Levels
	Seeds      []string // lemma.n.N or @offset
	Not        []string // same forms, subtrees left out
	Names      bool     // include instance hyponyms
	NamesOnly  bool     // only instance hyponyms
	Adjectives bool     // also derived adjectives
	Parts      bool     // also part meronyms
	Depth      int      // 0: unlimited
	MaxWords   int      // lemmas with more words are dropped
	Add, Drop  []string
	Line       int // where it starts, for messages
}

// Card is a card as the file describes it.
type Card struct {
	ID         int
	Categories []*Category
}

// Spec is the whole file.
type Spec struct {
	Cards []Card
}

// Categories lists every category in file order.
func (s *Spec) Categories() []*Category {
	var out []*Category
	for _, c := range s.Cards {
		out = append(out, c.Categories...)
	}
	return out
}

// Parse reads a spec and checks its structure: three categories per card in
// the order easy, medium, hard; unique card and category IDs.
func Parse(r io.Reader) (*Spec, error) {
	s := &Spec{}
	var cat *Category
	cardIDs := map[int]bool{}
	catIDs := map[string]int{}
	lines, scanErr := keyLines(r)
	for kl := range lines {
		n, key, rest := kl.n, kl.key, kl.rest
		bad := func(format string, args ...any) error {
			return fmt.Errorf("categories line %d: %s", n, fmt.Sprintf(format, args...))
		}
		if key == "card" {
			id, err := strconv.Atoi(rest)
			if err != nil || id <= 0 {
				return nil, bad("card wants a positive number, got %q", rest)
			}
			if cardIDs[id] {
				return nil, bad("card %d again", id)
			}
			cardIDs[id] = true
			s.Cards = append(s.Cards, Card{ID: id})
			cat = nil
			continue
		}
		if lvl := levelIndex(key); lvl >= 0 {
			if len(s.Cards) == 0 {
				return nil, bad("category before the first card")
			}
			card := &s.Cards[len(s.Cards)-1]
			if len(card.Categories) != lvl {
				return nil, bad("card %d: %s category in position %d (want easy, medium, hard)", card.ID, key, len(card.Categories)+1)
			}
			id, name, _ := strings.Cut(rest, " ")
			name = strings.TrimSpace(name)
			if id == "" || name == "" {
				return nil, bad("category wants an ID and a name")
			}
			if prev, ok := catIDs[id]; ok {
				return nil, bad("category %q already on line %d", id, prev)
			}
			catIDs[id] = n
			cat = &Category{ID: id, Name: name, Level: lvl, MaxWords: 2, Line: n}
			card.Categories = append(card.Categories, cat)
			continue
		}
		if cat == nil {
			return nil, bad("%s outside a category", key)
		}
		switch key {
		case "seed":
			cat.Seeds = append(cat.Seeds, strings.Fields(rest)...)
		case "not":
			cat.Not = append(cat.Not, strings.Fields(rest)...)
		case "names":
			cat.Names = true
		case "adjectives":
			cat.Adjectives = true
		case "parts":
			cat.Parts = true
		case "names-only":
			cat.Names, cat.NamesOnly = true, true
		case "depth", "words":
			v, err := strconv.Atoi(rest)
			if err != nil || v <= 0 {
				return nil, bad("%s wants a positive number, got %q", key, rest)
			}
			if key == "depth" {
				cat.Depth = v
			} else {
				cat.MaxWords = v
			}
		case "add":
			cat.Add = append(cat.Add, list(rest)...)
		case "drop":
			cat.Drop = append(cat.Drop, list(rest)...)
		default:
			return nil, bad("unknown key %q", key)
		}
	}
	if err := scanErr(); err != nil {
		return nil, err
	}
	for _, c := range s.Cards {
		if len(c.Categories) != 3 {
			return nil, fmt.Errorf("categories: card %d has %d categories, want 3", c.ID, len(c.Categories))
		}
	}
	return s, nil
}

func levelIndex(key string) int {
	for i, l := range Levels {
		if key == l {
			return i
		}
	}
	return -1
}

func list(s string) []string {
	var out []string
	for _, w := range strings.Split(s, ",") {
		if w = strings.TrimSpace(w); w != "" {
			out = append(out, w)
		}
	}
	return out
}

// keyLine is a line of a spec or translation file: its number, its first
// word and the rest, comments ('#' to the end) and blank lines left out.
type keyLine struct {
	n         int
	key, rest string
}

// keyLines reads r's lines as keyLines; scanErr reports a read error once
// the lines are done.
func keyLines(r io.Reader) (lines iter.Seq[keyLine], scanErr func() error) {
	sc := bufio.NewScanner(r)
	return func(yield func(keyLine) bool) {
		n := 0
		for sc.Scan() {
			n++
			line := sc.Text()
			if i := strings.IndexByte(line, '#'); i >= 0 {
				line = line[:i]
			}
			key, rest, _ := strings.Cut(strings.TrimSpace(line), " ")
			if key == "" {
				continue
			}
			if !yield(keyLine{n: n, key: key, rest: strings.TrimSpace(rest)}) {
				return
			}
		}
	}, sc.Err
}
