// Command gen writes Bookworm's word lists (data/lexicon.txt) from the
// category spec and the WordNet 3.0 noun database; go generate runs it (see
// lexicon.go). The rules for what it keeps are in package internal/build.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/build"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/wordnet"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "directory of the WordNet database (data.noun, index.noun, cntlist.rev)")
	specPath := flag.String("spec", "categories.txt", "category spec")
	out := flag.String("out", "data", "output directory")
	quiet := flag.Bool("q", false, "do not print warnings and figures")
	flag.Parse()
	if err := run(*wn, *specPath, *out, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(wn, specPath, out string, quiet bool) error {
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
	db, err := wordnet.Open(wn)
	if err != nil {
		return fmt.Errorf("%w (install Debian's wordnet-base)", err)
	}
	res, err := build.Generate(s, db)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "lexicon.txt"), res.Bytes(), 0o644); err != nil {
		return err
	}
	if !quiet {
		for _, w := range res.Warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
		n := 0
		for _, l := range res.Lists {
			n += len(l)
		}
		fmt.Fprintf(os.Stderr, "gen: %d categories, %d words in %v\n", len(res.Order), n, time.Since(start).Round(time.Millisecond))
	}
	return nil
}
