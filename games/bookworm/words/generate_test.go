package words_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/build"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
)

// TestGeneratedUpToDate regenerates the word lists from categories.txt and
// WordNet and compares them with the committed data/lexicon.txt, and the
// general dictionary, the taxonomy and the tiers (build.Files), so the committed data
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
	for _, l := range build.SmallLists {
		if _, err := os.Stat(l); err != nil {
			if os.Getenv("DICEHALL_WORDNET") == "require" {
				t.Fatalf("small word lists required (DICEHALL_WORDNET=require) but not found: %v", err)
			}
			t.Skip("Debian's small word lists not installed (apt-get install wamerican-small wbritish-small); skipping the generated-data check")
		}
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
	o, err := build.Files(build.DefaultInputs(s, "categories_fr.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if o.FrenchSkipped != nil {
		if os.Getenv("DICEHALL_WORDNET") == "require" {
			t.Fatalf("French sources required (DICEHALL_WORDNET=require) but not found: %v", o.FrenchSkipped)
		}
		t.Logf("French sources not installed: the French files are not checked: %v", o.FrenchSkipped)
	}
	for name, gen := range o.Files {
		committed, err := os.ReadFile(filepath.Join("data", name))
		if err != nil {
			t.Fatal(err)
		}
		// Compare the text, not the compressed bytes: another Go version may
		// compress the same text differently.
		if strings.HasSuffix(name, ".gz") {
			if committed, err = dict.Gunzip(committed); err != nil {
				t.Fatalf("data/%s: %v", name, err)
			}
		}
		if !bytes.Equal(gen, committed) {
			t.Errorf("data/%s is out of date with categories.txt, categories_fr.txt, WordNet, FreeDict or the word lists: run go generate ./games/bookworm/words (first difference: %s)", name, firstDiff(string(committed), string(gen)))
		}
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
