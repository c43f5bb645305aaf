// Command gen writes Bookworm's word lists (data/lexicon.txt) from the
// category spec and the WordNet 3.0 noun database, and the general
// dictionary (data/dictionary.txt.gz) from all of WordNet and Debian's word
// lists; go generate runs it (see lexicon.go). The rules for what it keeps
// are in packages internal/build and internal/dict.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/build"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "directory of the WordNet database (data.noun, index.noun, cntlist.rev)")
	specPath := flag.String("spec", "categories.txt", "category spec")
	out := flag.String("out", "data", "output directory")
	lists := flag.String("wordlists", strings.Join(dict.WordLists, ","), "comma-separated word lists for the dictionary (Debian's wamerican and wbritish)")
	quiet := flag.Bool("q", false, "do not print warnings and figures")
	flag.Parse()
	if err := run(*wn, *specPath, *out, strings.Split(*lists, ","), *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(wn, specPath, out string, lists []string, quiet bool) error {
	start := time.Now()
	f, err := os.Open(specPath)
	if err != nil {
		return err
	}
	s, err := spec.Parse(f)
	f.Close()
	if err != nil {
		return err
	}
	files, res, err := build.Files(build.Inputs{Spec: s, WordNet: wn, Lists: lists, SmallLists: build.SmallLists})
	if err != nil {
		return err
	}
	for name, data := range files {
		if strings.HasSuffix(name, ".gz") {
			data = dict.Gzip(data)
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	if !quiet {
		for _, w := range res.Warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
		n := 0
		for _, l := range res.Lists {
			n += len(l)
		}
		fmt.Fprintf(os.Stderr, "gen: %d categories, %d words; %d files; in %v\n", len(res.Order), n, len(files), time.Since(start).Round(time.Millisecond))
	}
	return nil
}
