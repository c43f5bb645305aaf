package words_test

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/build"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/wordnet"
)

// TestGeneratedUpToDate regenerates the word lists from categories.txt and
// WordNet and compares them with the committed data/lexicon.txt, and the
// general dictionary with data/dictionary.txt.gz, so the committed data
// cannot drift from the spec. WordNet is optional on a
// developer's machine; CI installs wordnet-base, wamerican and wbritish and sets
// DICEHALL_WORDNET=require so the check cannot be skipped there.
func TestGeneratedUpToDate(t *testing.T) {
	const dir = "/usr/share/wordnet"
	if _, err := os.Stat(filepath.Join(dir, "data.noun")); err != nil {
		if os.Getenv("DICEHALL_WORDNET") == "require" {
			t.Fatalf("WordNet required (DICEHALL_WORDNET=require) but not found: %v", err)
		}
		t.Skip("WordNet not installed (apt-get install wordnet-base); skipping the generated-data check")
	}
	for _, l := range dict.WordLists {
		if _, err := os.Stat(l); err != nil {
			if os.Getenv("DICEHALL_WORDNET") == "require" {
				t.Fatalf("word lists required (DICEHALL_WORDNET=require) but not found: %v", err)
			}
			t.Skip("Debian word lists not installed (apt-get install wamerican wbritish); skipping the generated-data check")
		}
	}
	known, err := dict.Known(dict.WordLists)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open("categories.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	s, err := spec.Parse(f)
	if err != nil {
		t.Fatal(err)
	}
	db, err := wordnet.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	res, err := build.Generate(s, db, known)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Bytes()
	want, err := os.ReadFile("data/lexicon.txt")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("data/lexicon.txt is out of date with categories.txt: run go generate ./games/bookworm/words (first difference: %s)", firstDiff(string(want), string(got)))
	}

	dw, err := dict.Build(dir, dict.WordLists, res.AllWords())
	if err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile("data/dictionary.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	// Compare the text, not the compressed bytes: another Go version may
	// compress the same text differently.
	committed, err := dict.Gunzip(gz)
	if err != nil {
		t.Fatal(err)
	}
	if gen := dict.Text(dw); !bytes.Equal(gen, committed) {
		t.Errorf("data/dictionary.txt.gz is out of date with WordNet and the word lists: run go generate ./games/bookworm/words (first difference: %s)", firstDiff(string(committed), string(gen)))
	}

	t.Run("fr", func(t *testing.T) { checkFrench(t, s, db, res) })
}

// checkFrench is TestGeneratedUpToDate for the French lists and dictionary
// (data/lexicon_fr.txt, data/dictionary_fr.txt.gz), made from the English
// lists, categories_fr.txt, FreeDict and wfrench. Without those Debian
// packages it skips, except under DICEHALL_WORDNET=require (CI: scripts/test.sh
// installs them).
func checkFrench(t *testing.T, s *spec.Spec, db *wordnet.DB, en *build.Result) {
	fr, err := build.LoadFrench("categories_fr.txt", build.FreeDictDir, dict.FrenchWordLists, dict.WordLists)
	if errors.Is(err, fs.ErrNotExist) {
		if os.Getenv("DICEHALL_WORDNET") == "require" {
			t.Fatalf("French sources required (DICEHALL_WORDNET=require) but not found: %v", err)
		}
		t.Skipf("French sources not installed (apt-get install %s); skipping the French generated-data check: %v", build.FrenchPackages, err)
	}
	if err != nil {
		t.Fatal(err)
	}
	res, err := build.GenerateFR(s, db, fr.Lang, en, fr.Bridge, fr)
	if err != nil {
		t.Fatal(err)
	}
	want, err := os.ReadFile("data/lexicon_fr.txt")
	if err != nil {
		t.Fatal(err)
	}
	if got := res.BytesFR(); !bytes.Equal(got, want) {
		t.Errorf("data/lexicon_fr.txt is out of date with categories_fr.txt, categories.txt or FreeDict: run go generate ./games/bookworm/words (first difference: %s)", firstDiff(string(want), string(got)))
	}
	dw, err := dict.BuildFR(dict.FrenchWordLists, append(res.AllWords(), fr.Bridge.Words()...))
	if err != nil {
		t.Fatal(err)
	}
	gz, err := os.ReadFile("data/dictionary_fr.txt.gz")
	if err != nil {
		t.Fatal(err)
	}
	committed, err := dict.Gunzip(gz)
	if err != nil {
		t.Fatal(err)
	}
	if gen := dict.Text(dw); !bytes.Equal(gen, committed) {
		t.Errorf("data/dictionary_fr.txt.gz is out of date with wfrench and the French lists: run go generate ./games/bookworm/words (first difference: %s)", firstDiff(string(committed), string(gen)))
	}
}

func firstDiff(a, b string) string {
	al, bl := strings.Split(a, "\n"), strings.Split(b, "\n")
	for i := range min(len(al), len(bl)) {
		if al[i] != bl[i] {
			return fmt.Sprintf("line %d: committed %q, generated %q", i+1, al[i], bl[i])
		}
	}
	return "lengths differ"
}
