package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
)

var (
	wordsGame     string
	wordsCategory string
	wordsLang     string
)

var wordsCmd = &cobra.Command{
	Use:   "words",
	Short: "A word game's categories and word judging: check a word, list a category",
	Long: `words answers what a word game's lexicon says about a word, the same lexicon
the rules and the bots use: a host can settle a dispute with it.

  dicehall words check --category animals cow sxqzt table
  dicehall words list --category farm_animals
  dicehall words categories

check prints one JSON line per word: {"word","category","verdict"}, where
verdict is "fits" (the lexicon knows it fits the category: taken at once in a
game), "unknown" (a real word the category's list does not have: the table
decides) or "not-a-word" (in no dictionary the game knows: made up or
misspelt). --game picks the word game when there is more than one.`,
}

var wordsCheckCmd = &cobra.Command{
	Use:   "check --category ID WORD...",
	Short: "Judge words for a category: fits, unknown or not-a-word (one JSON line each)",
	Args:  cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		j, cat, err := wordsCategoryOf()
		if err != nil {
			return err
		}
		enc := json.NewEncoder(cmd.OutOrStdout())
		for _, w := range args {
			v, err := j.JudgeWord(wordsLang, cat, w)
			if err != nil {
				return wordsUsage(err)
			}
			line := struct {
				Word     string `json:"word"`
				Category string `json:"category"`
				Verdict  string `json:"verdict"`
			}{w, cat, v}
			if err := enc.Encode(line); err != nil {
				return err
			}
		}
		return nil
	},
}

var wordsListCmd = &cobra.Command{
	Use:   "list --category ID",
	Short: "List the words the lexicon knows to fit a category, one a line (normalized, sorted)",
	Args:  cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		j, cat, err := wordsCategoryOf()
		if err != nil {
			return err
		}
		list, err := j.CategoryWords(wordsLang, cat)
		if err != nil {
			return wordsUsage(err)
		}
		var b strings.Builder
		for _, w := range list {
			b.WriteString(w)
			b.WriteByte('\n')
		}
		_, err = fmt.Fprint(cmd.OutOrStdout(), b.String())
		return err
	},
}

var wordsCategoriesCmd = &cobra.Command{
	Use:   "categories",
	Short: "List the categories: one JSON line each, card by card, easy to hard",
	Args:  cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		j, err := wordJudge()
		if err != nil {
			return err
		}
		cats, err := j.WordCategories(wordsLang)
		if err != nil {
			return wordsUsage(err)
		}
		enc := json.NewEncoder(cmd.OutOrStdout())
		for _, c := range cats {
			if err := enc.Encode(c); err != nil {
				return err
			}
		}
		return nil
	},
}

func wordsUsage(err error) error { return &exitError{code: 2, err: fmt.Errorf("words: %w", err)} }

// wordJudge is the word game --game names, or the only one registered.
func wordJudge() (engine.WordJudge, error) {
	var ids []string
	for _, id := range registry.IDs() {
		g, _ := registry.Lookup(id)
		if _, ok := g.(engine.WordJudge); ok {
			ids = append(ids, id)
		}
	}
	id := wordsGame
	switch {
	case id == "" && len(ids) == 1:
		id = ids[0]
	case id == "":
		return nil, wordsUsage(fmt.Errorf("--game is required: word games are %s", strings.Join(ids, ", ")))
	}
	g, ok := registry.Lookup(id)
	j, isWords := g.(engine.WordJudge)
	if !ok || !isWords {
		return nil, wordsUsage(fmt.Errorf("%q is not a word game (word games: %s)", id, strings.Join(ids, ", ")))
	}
	return j, nil
}

// wordsCategoryOf is the word game and the --category a subcommand asks
// about.
func wordsCategoryOf() (engine.WordJudge, string, error) {
	j, err := wordJudge()
	if err != nil {
		return nil, "", err
	}
	if wordsCategory == "" {
		return nil, "", wordsUsage(fmt.Errorf("--category is required (dicehall words categories lists them)"))
	}
	return j, wordsCategory, nil
}

func init() {
	f := wordsCmd.PersistentFlags()
	f.StringVar(&wordsGame, "game", "", "the word game (default: the only one)")
	f.StringVar(&wordsCategory, "category", "", "category ID (see dicehall words categories)")
	f.StringVar(&wordsLang, "lang", "en", "word language: en or fr")
	wordsCmd.AddCommand(wordsCheckCmd, wordsListCmd, wordsCategoriesCmd)
	rootCmd.AddCommand(wordsCmd)
}
