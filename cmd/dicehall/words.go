package main

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/games/bookworm/words"
)

var (
	wordsCategory string
	wordsLang     string
)

var wordsCmd = &cobra.Command{
	Use:   "words",
	Short: "Bookworm's categories and word judging: check a word, list a category",
	Long: `words answers what Bookworm's lexicon says about a word, the same lexicon the
rules and the bots use: a host can settle a dispute with it.

  dicehall words check --category animals cow sxqzt table
  dicehall words list --category farm_animals
  dicehall words categories

check prints one JSON line per word: {"word","category","verdict"}, where
verdict is "fits" (the lexicon knows it fits the category: taken at once in a
game), "unknown" (a real English word the category's list does not have: the
table decides) or "not-a-word" (in no dictionary dicehall knows: made up or
misspelt). The dictionary is WordNet's words of every part of speech with
their inflections, and Debian's American and British word lists.`,
}

var wordsCheckCmd = &cobra.Command{
	Use:   "check --category ID WORD...",
	Short: "Judge words for a category: fits, unknown or not-a-word (one JSON line each)",
	Args:  cobra.MinimumNArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		cat, err := wordsCategoryFlag()
		if err != nil {
			return err
		}
		lx := words.Default()
		enc := json.NewEncoder(cmd.OutOrStdout())
		for _, w := range args {
			line := struct {
				Word     string        `json:"word"`
				Category string        `json:"category"`
				Verdict  words.Verdict `json:"verdict"`
			}{w, cat.ID, words.Judge(lx, cat.ID, w)}
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
		cat, err := wordsCategoryFlag()
		if err != nil {
			return err
		}
		var b strings.Builder
		for _, w := range words.Default().Words(cat.ID) {
			b.WriteString(w)
			b.WriteByte('\n')
		}
		_, err = fmt.Fprint(cmd.OutOrStdout(), b.String())
		return err
	},
}

var wordsCategoriesCmd = &cobra.Command{
	Use:   "categories",
	Short: "List the deck's categories: one JSON line each, card by card, easy to hard",
	Args:  cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		if err := wordsLangFlag(); err != nil {
			return err
		}
		lx := words.Default()
		enc := json.NewEncoder(cmd.OutOrStdout())
		for _, card := range words.Deck() {
			for _, c := range card.Categories {
				line := struct {
					ID    string `json:"id"`
					Name  string `json:"name"`
					Level string `json:"level"`
					Card  int    `json:"card"`
					Words int    `json:"words"`
				}{c.ID, c.Name, c.Level.String(), card.ID, len(lx.Words(c.ID))}
				if err := enc.Encode(line); err != nil {
					return err
				}
			}
		}
		return nil
	},
}

// wordsLangFlag accepts the languages the lexicon has: English only, for now.
func wordsLangFlag() error {
	switch wordsLang {
	case "", "en":
		return nil
	case "fr":
		return fmt.Errorf("French is not available yet: Bookworm's categories and words are English only (--lang en)")
	}
	return fmt.Errorf("unknown --lang %q (want en)", wordsLang)
}

func wordsCategoryFlag() (words.Category, error) {
	if err := wordsLangFlag(); err != nil {
		return words.Category{}, err
	}
	if wordsCategory == "" {
		return words.Category{}, fmt.Errorf("--category is required (dicehall words categories lists them)")
	}
	c, ok := words.Lookup(wordsCategory)
	if !ok {
		return words.Category{}, fmt.Errorf("no category %q (dicehall words categories lists them)", wordsCategory)
	}
	return c, nil
}

func init() {
	wordsCmd.PersistentFlags().StringVar(&wordsCategory, "category", "", "category ID (see dicehall words categories)")
	wordsCmd.PersistentFlags().StringVar(&wordsLang, "lang", "en", "word language: en (fr is not available yet)")
	wordsCmd.AddCommand(wordsCheckCmd, wordsListCmd, wordsCategoriesCmd)
	rootCmd.AddCommand(wordsCmd)
}
