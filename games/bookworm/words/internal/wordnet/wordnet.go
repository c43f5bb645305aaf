// Package wordnet is a small reader for the noun part of the WordNet 3.0
// database (the format of wndb(5)), enough to walk hyponym trees: data.noun
// for synsets and their pointers, index.noun for lemma senses, and
// cntlist.rev for how often each sense was tagged in the SemCor corpus; and
// data.adj's lemmas, for the adjectives a noun derives (anger → angry).
// Nothing else is read; the whole noun database loads in a fraction of a
// second.
package wordnet

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Synset is one noun synset of data.noun.
type Synset struct {
	Offset  uint32 // byte offset in data.noun: the synset's identity
	LexFile int    // lexicographer file number (noun.animal, ...)
	Lemmas  []Lemma
	Hypo    []uint32 // hyponyms (pointer ~)
	Inst    []uint32 // instance hyponyms (pointer ~i)
	Parts   []uint32 // part meronyms (pointer %p): face → eye, nose, mouth
	Adj     []uint32 // adjectives derived from it or its attributes (pointers + and = to data.adj)
}

// Lemma is a word of a synset as data.noun spells it (underscores for
// spaces, capitals kept), with its tag count.
type Lemma struct {
	Word  string
	LexID int
	Tags  int // SemCor tag count of this sense (0: never seen)
}

// DB is the noun database.
type DB struct {
	Synsets map[uint32]*Synset
	Adjs    map[uint32]*Synset  // data.adj: lemmas only
	index   map[string][]uint32 // lower-case lemma → synsets, most frequent sense first
}

// Open reads data.noun, index.noun and cntlist.rev from dir.
func Open(dir string) (*DB, error) {
	db := &DB{Synsets: make(map[uint32]*Synset, 90000), index: make(map[string][]uint32, 120000)}
	tags, err := readCounts(filepath.Join(dir, "cntlist.rev"))
	if err != nil {
		return nil, err
	}
	err = eachLine(filepath.Join(dir, "data.noun"), func(f []string) error {
		off, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil || len(f) < 4 {
			return fmt.Errorf("bad synset line %q", f)
		}
		s := &Synset{Offset: uint32(off)}
		s.LexFile, _ = strconv.Atoi(f[1])
		w, _ := strconv.ParseUint(f[3], 16, 16)
		i := 4
		for range w {
			id, _ := strconv.ParseUint(f[i+1], 16, 8)
			l := Lemma{Word: f[i], LexID: int(id)}
			// Adjective markers like "(p)" never occur on nouns, but strip to be safe.
			if j := strings.IndexByte(l.Word, '('); j > 0 {
				l.Word = l.Word[:j]
			}
			l.Tags = tags[senseKey(l.Word, s.LexFile, l.LexID)]
			s.Lemmas = append(s.Lemmas, l)
			i += 2
		}
		p, _ := strconv.Atoi(f[i])
		i++
		for range p {
			to, _ := strconv.ParseUint(f[i+1], 10, 32)
			if (f[i+2] == "a" || f[i+2] == "s") && (f[i] == "+" || f[i] == "=") {
				s.Adj = append(s.Adj, uint32(to))
			}
			if f[i+2] == "n" {
				switch f[i] {
				case "~":
					s.Hypo = append(s.Hypo, uint32(to))
				case "~i":
					s.Inst = append(s.Inst, uint32(to))
				case "%p":
					s.Parts = append(s.Parts, uint32(to))
				}
			}
			i += 4
		}
		db.Synsets[s.Offset] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	db.Adjs = map[uint32]*Synset{}
	err = eachLine(filepath.Join(dir, "data.adj"), func(f []string) error {
		off, err := strconv.ParseUint(f[0], 10, 32)
		if err != nil || len(f) < 4 {
			return fmt.Errorf("bad synset line %q", f)
		}
		s := &Synset{Offset: uint32(off)}
		w, _ := strconv.ParseUint(f[3], 16, 16)
		for i := range int(w) {
			word := f[4+2*i]
			if j := strings.IndexByte(word, '('); j > 0 {
				word = word[:j] // syntactic markers: "(p)", "(a)", "(ip)"
			}
			s.Lemmas = append(s.Lemmas, Lemma{Word: word})
		}
		db.Adjs[s.Offset] = s
		return nil
	})
	if err != nil {
		return nil, err
	}
	err = eachLine(filepath.Join(dir, "index.noun"), func(f []string) error {
		// lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset...
		n, _ := strconv.Atoi(f[2])
		for _, o := range f[len(f)-n:] {
			off, err := strconv.ParseUint(o, 10, 32)
			if err != nil {
				return fmt.Errorf("bad index line %q", f)
			}
			db.index[f[0]] = append(db.index[f[0]], uint32(off))
		}
		return nil
	})
	return db, err
}

// Sense returns the synset of lemma's sense n (1-based, index.noun order).
func (db *DB) Sense(lemma string, n int) (*Synset, bool) {
	offs := db.index[strings.ToLower(strings.ReplaceAll(lemma, " ", "_"))]
	if n < 1 || n > len(offs) {
		return nil, false
	}
	s, ok := db.Synsets[offs[n-1]]
	return s, ok
}

// Senses returns how many noun senses lemma has.
func (db *DB) Senses(lemma string) int { return len(db.index[strings.ToLower(lemma)]) }

// senseKey is the part of a WordNet sense key that identifies a noun sense:
// lemma%1:lex_filenum:lex_id (nouns have no head word).
func senseKey(word string, lexFile, lexID int) string {
	return fmt.Sprintf("%s%%1:%02d:%02d", strings.ToLower(word), lexFile, lexID)
}

func readCounts(path string) (map[string]int, error) {
	tags := map[string]int{}
	err := eachLine(path, func(f []string) error {
		// sense_key sense_number tag_cnt; the key is lemma%ss_type:lex_filenum:lex_id:head_word:head_id
		if len(f) == 3 && strings.Contains(f[0], "%1:") {
			n, _ := strconv.Atoi(f[2])
			tags[strings.TrimSuffix(f[0], "::")] += n
		}
		return nil
	})
	return tags, err
}

// eachLine calls fn with the fields of each line of the file, skipping the
// licence header (lines starting with two spaces) and the gloss after " | ".
func eachLine(path string, fn func([]string) error) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || line == "" {
			continue
		}
		if i := strings.Index(line, " | "); i >= 0 {
			line = line[:i]
		}
		if err := fn(strings.Fields(line)); err != nil {
			return fmt.Errorf("%s: %w", filepath.Base(path), err)
		}
	}
	return sc.Err()
}

// Lemmas lists every noun lemma of index.noun (lower case, underscores for
// spaces), sorted.
func (db *DB) Lemmas() []string {
	out := make([]string, 0, len(db.index))
	for l := range db.index {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// Index returns the synsets of lemma's noun senses, most frequent first.
func (db *DB) Index(lemma string) []uint32 { return db.index[strings.ToLower(lemma)] }

// TagsByKey sums the SemCor tag counts of every noun sense by key(lemma),
// for lemmas spelled differently that a table hears as one word.
func (db *DB) TagsByKey(key func(string) string) map[string]int {
	out := map[string]int{}
	for _, s := range db.Synsets {
		for _, l := range s.Lemmas {
			out[key(l.Word)] += l.Tags
		}
	}
	return out
}
