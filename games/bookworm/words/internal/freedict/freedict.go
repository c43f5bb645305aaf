// Package freedict reads a FreeDict bilingual dictionary as Debian installs
// it for the dict server (package dict-freedict-eng-fra: a dictd index,
// /usr/share/dictd/freedict-eng-fra.index, and the dictzip-compressed entries,
// freedict-eng-fra.dict.dz). Bookworm's generator uses the English-French
// and French-English dictionaries as a bridge from each category's English
// words to French ones.
package freedict

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"strings"
)

// Entry is one headword and its translations.
type Entry struct {
	Head  string   // as written: "chauve-souris", "pomme de terre"
	POS   string   // part of speech when the dictionary gives it: "n, fem", "v", "adj"; else ""
	Trans []string // translations, in order, one word or phrase each
}

// Noun reports whether the entry is a noun, or gives no part of speech.
func (e Entry) Noun() bool { return e.POS == "" || e.POS == "n" || strings.HasPrefix(e.POS, "n,") }

// Read reads the dictionary at base: base+".index" and base+".dict.dz"
// (or base+".dict" uncompressed), skipping the dictionary's own
// description entries (00-database-…).
func Read(base string) ([]Entry, error) {
	index, err := os.ReadFile(base + ".index")
	if err != nil {
		return nil, err
	}
	text, err := readDict(base)
	if err != nil {
		return nil, err
	}
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(index))
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 3 || strings.HasPrefix(f[0], "00-database") || strings.HasPrefix(f[0], "00database") {
			continue
		}
		off, err1 := b64(f[1])
		n, err2 := b64(f[2])
		if err1 != nil || err2 != nil || off+n > len(text) {
			return nil, fmt.Errorf("%s.index: bad line %q", base, sc.Text())
		}
		out = append(out, parseEntry(f[0], text[off:off+n]))
	}
	return out, sc.Err()
}

func readDict(base string) ([]byte, error) {
	if data, err := os.ReadFile(base + ".dict"); err == nil {
		return data, nil
	}
	f, err := os.Open(base + ".dict.dz")
	if err != nil {
		return nil, err
	}
	defer f.Close()
	z, err := gzip.NewReader(f) // dictzip is gzip with an extra field
	if err != nil {
		return nil, err
	}
	return io.ReadAll(z)
}

// b64 decodes dictd's base-64 numbers (most significant digit first).
func b64(s string) (int, error) {
	const digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
	n := 0
	for _, r := range s {
		i := strings.IndexRune(digits, r)
		if i < 0 {
			return 0, fmt.Errorf("bad base-64 number %q", s)
		}
		n = n*64 + i
	}
	return n, nil
}

// parseEntry reads an entry: a first line "head /pronunciation/ <pos>",
// then lines of comma-separated translations, numbered "1. " when the
// headword has several senses.
func parseEntry(head string, body []byte) Entry {
	e := Entry{Head: head}
	lines := strings.Split(strings.TrimSpace(string(body)), "\n")
	if len(lines) == 0 {
		return e
	}
	if i := strings.IndexByte(lines[0], '<'); i >= 0 {
		if j := strings.IndexByte(lines[0][i:], '>'); j > 0 {
			e.POS = lines[0][i+1 : i+j]
		}
	}
	for _, l := range lines[1:] {
		l = strings.TrimSpace(l)
		if k := strings.Index(l, ". "); k > 0 && k <= 3 && strings.Trim(l[:k], "0123456789") == "" {
			l = l[k+2:]
		}
		for _, t := range strings.Split(stripParens(l), ",") {
			if t = strings.TrimSpace(t); t != "" {
				e.Trans = append(e.Trans, t)
			}
		}
	}
	return e
}

// stripParens removes parenthesized and bracketed asides.
func stripParens(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch r {
		case '(', '[':
			depth++
		case ')', ']':
			if depth > 0 {
				depth--
			}
		default:
			if depth == 0 {
				b.WriteRune(r)
			}
		}
	}
	return b.String()
}
