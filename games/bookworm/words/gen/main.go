// Command gen writes Bookworm's word lists (data/lexicon.txt) from the
// category spec and the WordNet 3.0 noun database, and the general
// dictionary (data/dictionary.txt.gz) from all of WordNet and Debian's word
// lists; and the same in French (data/lexicon_fr.txt, data/dictionary_fr.txt.gz)
// from the English lists, categories_fr.txt, FreeDict's English-French and
// French-English dictionaries and Debian's French word list. go generate runs
// it (see lexicon.go). The rules for what it keeps are in packages
// internal/build and internal/dict.
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
	small := flag.String("small-wordlists", strings.Join(build.SmallLists, ","), "comma-separated small word lists for the everyday tier (Debian's wamerican-small and wbritish-small)")
	fr := flag.String("fr", "categories_fr.txt", "French translation of the deck (names, additions, exclusions)")
	frLists := flag.String("fr-wordlists", strings.Join(dict.FrenchWordLists, ","), "comma-separated French word lists (Debian's wfrench)")
	freedictDir := flag.String("freedict", build.FreeDictDir, "directory of FreeDict's freedict-eng-fra and freedict-fra-eng (Debian's dict-freedict-eng-fra, dict-freedict-fra-eng)")
	quiet := flag.Bool("q", false, "do not print warnings and figures")
	flag.Parse()
	in := build.Inputs{WordNet: *wn, Lists: strings.Split(*lists, ","), SmallLists: strings.Split(*small, ","),
		French: *fr, FreeDict: *freedictDir, FrenchLists: strings.Split(*frLists, ",")}
	if err := run(*specPath, *out, in, *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(specPath, out string, in build.Inputs, quiet bool) error {
	start := time.Now()
	f, err := os.Open(specPath)
	if err != nil {
		return err
	}
	in.Spec, err = spec.Parse(f)
	f.Close()
	if err != nil {
		return err
	}
	o, err := build.Files(in)
	if err != nil {
		return err
	}
	for name, data := range o.Files {
		if strings.HasSuffix(name, ".gz") {
			data = dict.Gzip(data)
		}
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	if o.FrenchSkipped != nil {
		fmt.Fprintf(os.Stderr, "gen: French skipped, data/*_fr.* left as they are: %v\n", o.FrenchSkipped)
	}
	if !quiet {
		report("gen", o.English)
		if o.French != nil {
			report("gen fr", o.French)
		}
		fmt.Fprintf(os.Stderr, "gen: %d files in %v\n", len(o.Files), time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func report(who string, res *build.Result) {
	for _, w := range res.Warnings {
		fmt.Fprintln(os.Stderr, who+": warning:", w)
	}
	n := 0
	for _, l := range res.Lists {
		n += len(l)
	}
	fmt.Fprintf(os.Stderr, "%s: %d categories, %d words\n", who, len(res.Order), n)
}
