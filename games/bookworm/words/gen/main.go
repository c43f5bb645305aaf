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
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/dicehall/dicehall/games/bookworm/words/internal/build"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/dict"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/spec"
	"github.com/dicehall/dicehall/games/bookworm/words/internal/wordnet"
)

func main() {
	wn := flag.String("wordnet", "/usr/share/wordnet", "directory of the WordNet database (data.noun, index.noun, cntlist.rev)")
	specPath := flag.String("spec", "categories.txt", "category spec")
	out := flag.String("out", "data", "output directory")
	lists := flag.String("wordlists", strings.Join(dict.WordLists, ","), "comma-separated word lists for the dictionary (Debian's wamerican and wbritish)")
	fr := flag.String("fr", "categories_fr.txt", "French translation of the deck (names, additions, exclusions)")
	frLists := flag.String("fr-wordlists", strings.Join(dict.FrenchWordLists, ","), "comma-separated French word lists (Debian's wfrench)")
	freedictDir := flag.String("freedict", build.FreeDictDir, "directory of FreeDict's freedict-eng-fra and freedict-fra-eng (Debian's dict-freedict-eng-fra, dict-freedict-fra-eng)")
	quiet := flag.Bool("q", false, "do not print warnings and figures")
	flag.Parse()
	s, db, en, err := run(*wn, *specPath, *out, strings.Split(*lists, ","), *quiet)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := runFR(s, db, en, *fr, *freedictDir, *out, strings.Split(*lists, ","), strings.Split(*frLists, ","), *quiet); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(wn, specPath, out string, lists []string, quiet bool) (*spec.Spec, *wordnet.DB, *build.Result, error) {
	start := time.Now()
	s, db, res, err := english(wn, specPath, lists)
	if err != nil {
		return nil, nil, nil, err
	}
	if err := os.WriteFile(filepath.Join(out, "lexicon.txt"), res.Bytes(), 0o644); err != nil {
		return nil, nil, nil, err
	}
	dw, err := dict.Build(wn, lists, res.AllWords())
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	if err := os.WriteFile(filepath.Join(out, "dictionary.txt.gz"), dict.Gzip(dict.Text(dw)), 0o644); err != nil {
		return nil, nil, nil, err
	}
	if !quiet {
		report("gen", res, dw)
		fmt.Fprintf(os.Stderr, "gen: in %v\n", time.Since(start).Round(time.Millisecond))
	}
	return s, db, res, nil
}

// english builds the English lists, which the French ones start from.
func english(wn, specPath string, lists []string) (*spec.Spec, *wordnet.DB, *build.Result, error) {
	f, err := os.Open(specPath)
	if err != nil {
		return nil, nil, nil, err
	}
	s, err := spec.Parse(f)
	f.Close()
	if err != nil {
		return nil, nil, nil, err
	}
	db, err := wordnet.Open(wn)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w (install Debian's wordnet-base)", err)
	}
	known, err := dict.Known(lists)
	if err != nil {
		return nil, nil, nil, fmt.Errorf("%w (install Debian's wamerican and wbritish)", err)
	}
	res, err := build.Generate(s, db, known)
	return s, db, res, err
}

// runFR writes the French lexicon and dictionary. When a Debian package it
// reads is missing it says so and writes nothing: the English data does not
// need it.
func runFR(s *spec.Spec, db *wordnet.DB, en *build.Result, frPath, freedictDir, out string, enLists, frLists []string, quiet bool) error {
	start := time.Now()
	fr, err := build.LoadFrench(frPath, freedictDir, frLists, enLists)
	if errors.Is(err, fs.ErrNotExist) {
		fmt.Fprintf(os.Stderr, "gen: French skipped, data/*_fr.* left as they are: %v (install Debian's %s)\n", err, build.FrenchPackages)
		return nil
	}
	if err != nil {
		return err
	}
	res, err := build.GenerateFR(s, db, fr.Lang, en, fr.Bridge, fr)
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "lexicon_fr.txt"), res.BytesFR(), 0o644); err != nil {
		return err
	}
	dw, err := dict.BuildFR(frLists, append(res.AllWords(), fr.Bridge.Words()...))
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(out, "dictionary_fr.txt.gz"), dict.Gzip(dict.Text(dw)), 0o644); err != nil {
		return err
	}
	if !quiet {
		report("gen fr", res, dw)
		fmt.Fprintf(os.Stderr, "gen fr: in %v\n", time.Since(start).Round(time.Millisecond))
	}
	return nil
}

func report(who string, res *build.Result, dw []string) {
	{
		for _, w := range res.Warnings {
			fmt.Fprintln(os.Stderr, "warning:", w)
		}
		n := 0
		for _, l := range res.Lists {
			n += len(l)
		}
		fmt.Fprintf(os.Stderr, "%s: %d categories, %d words; dictionary %d words\n", who, len(res.Order), n, len(dw))
	}
}
