// Package dict builds Bookworm's general dictionary: the answer to "is this
// a real English word?", independent of any category. It is generated with
// the category lists (../../gen) and embedded by the words package as a
// sorted, gzipped list of single words (data/dictionary.txt.gz), so the game
// needs no Debian package at run time.
//
// The words are, after normalization (words.Normalize), split at spaces
// (a phrase is a word when each of its words is one):
//
//   - every lemma of WordNet 3.0, of every part of speech (index.noun,
//     index.verb, index.adj, index.adv);
//   - both columns of WordNet's morphological exception lists (*.exc:
//     "geese goose", "ran run", "better good");
//   - the regular plural of every WordNet noun (box → boxes, city → cities,
//     cat → cats);
//   - Debian's word lists, American and British (packages wamerican and
//     wbritish: /usr/share/dict/american-english, british-english), which
//     hold inflected forms and British spellings;
//   - every word of the category lists (extra), and their plurals.
package dict

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/normal"
)

// WordLists are Debian's word lists the dictionary reads by default.
var WordLists = []string{"/usr/share/dict/american-english", "/usr/share/dict/british-english"}

// Build returns the dictionary's words, normalized, single words, sorted and
// unique. wordnetDir is WordNet's database directory; lists are plain word
// lists (one word a line); extra are more words or phrases (the category
// lists).
func Build(wordnetDir string, lists []string, extra []string) ([]string, error) {
	set := map[string]bool{}
	add := func(w string) {
		for _, p := range strings.Fields(normal.Normalize(strings.ReplaceAll(w, "_", " "))) {
			set[p] = true
		}
	}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		err := lines(filepath.Join(wordnetDir, "index."+pos), func(line string) {
			if strings.HasPrefix(line, " ") {
				return // licence header
			}
			lemma, _, _ := strings.Cut(line, " ")
			add(lemma)
			if pos == "noun" {
				add(Plural(lastWord(lemma)))
			}
		})
		if err != nil {
			return nil, err
		}
		err = lines(filepath.Join(wordnetDir, pos+".exc"), func(line string) { add(line) })
		if err != nil {
			return nil, err
		}
	}
	for _, l := range lists {
		if err := lines(l, add); err != nil {
			return nil, err
		}
	}
	for _, w := range extra {
		add(w)
		add(Plural(lastWord(w)))
	}
	delete(set, "")
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	slices.Sort(out)
	return out, nil
}

func lastWord(s string) string {
	s = strings.ReplaceAll(s, "_", " ")
	if i := strings.LastIndexAny(s, " -"); i >= 0 {
		return s[i+1:]
	}
	return s
}

// Plural is the regular English plural of a noun: -es after s, x, z, ch and
// sh; -ies for a consonant then y; -s otherwise.
func Plural(w string) string {
	switch {
	case w == "":
		return ""
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "z") ||
		strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	case len(w) > 1 && w[len(w)-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2])):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

func lines(path string, fn func(string)) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		if l := strings.TrimRight(sc.Text(), "\r"); l != "" {
			fn(l)
		}
	}
	return sc.Err()
}

// Known reads word lists into a map from each normalized single word to a
// bit set of the lists holding it (bit i: lists[i]; a line with a space or
// hyphen gives each of its words). With WordLists, 1 is American only, 2
// British only, 3 both.
func Known(lists []string) (map[string]uint8, error) {
	set := map[string]uint8{}
	for i, l := range lists {
		err := lines(l, func(w string) {
			for _, p := range strings.Fields(normal.Normalize(w)) {
				set[p] |= 1 << i
			}
		})
		if err != nil {
			return nil, err
		}
	}
	return set, nil
}

// Text is the dictionary file's content before compression: one word a line.
func Text(words []string) []byte {
	var b bytes.Buffer
	for _, w := range words {
		b.WriteString(w)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// Gzip compresses the dictionary file reproducibly (no name, no time).
func Gzip(text []byte) []byte {
	var b bytes.Buffer
	z, _ := gzip.NewWriterLevel(&b, gzip.BestCompression)
	z.Write(text)
	z.Close()
	return b.Bytes()
}

// Gunzip reads a compressed dictionary file.
func Gunzip(data []byte) ([]byte, error) {
	z, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// FrenchWordLists are Debian's French word list (package wfrench).
var FrenchWordLists = []string{"/usr/share/dict/french"}

// BuildFR returns the French dictionary's words, normalized, single words,
// sorted and unique: the word lists (wfrench, which holds plurals and verb
// forms), and extra words or phrases (the French category lists and the
// bridge's French words) with their plurals (PluralFR of each word).
func BuildFR(lists []string, extra []string) ([]string, error) {
	set := map[string]bool{}
	for _, l := range lists {
		err := lines(l, func(w string) {
			for _, p := range strings.Fields(normal.Normalize(w)) {
				set[p] = true
			}
		})
		if err != nil {
			return nil, err
		}
	}
	for _, w := range extra {
		for _, p := range strings.Fields(normal.Normalize(w)) {
			set[p] = true
			for _, pl := range PluralFR(p) {
				set[pl] = true
			}
		}
	}
	delete(set, "")
	out := make([]string, 0, len(set))
	for w := range set {
		out = append(out, w)
	}
	slices.Sort(out)
	return out, nil
}

// PluralFR is the regular French plural of a normalized noun: unchanged
// after s, x and z; -x after -au and -eu (gâteau → gâteaux, jeu → jeux);
// -aux and -als after -al (cheval → chevaux, festival → festivals); -s
// otherwise.
func PluralFR(w string) []string {
	switch {
	case w == "":
		return nil
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "z"):
		return []string{w}
	case strings.HasSuffix(w, "au") || strings.HasSuffix(w, "eu"):
		return []string{w + "x"}
	case strings.HasSuffix(w, "al"):
		return []string{w[:len(w)-2] + "aux", w + "s"}
	}
	return []string{w + "s"}
}
