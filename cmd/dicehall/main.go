// Command dicehall plays, serves, simulates and checks the dicehall games.
// Each subcommand lives in its own file and registers itself on rootCmd.
package main

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/games/all"
)

var rootCmd = &cobra.Command{
	Use:           "dicehall",
	Short:         "Dice games in the terminal and the browser",
	SilenceUsage:  true,
	SilenceErrors: true,
}

// registry is the games the commands offer: every game (tests add their
// own, such as the test-only pig).
var registry = all.Registry

func init() {
	titles := make([]string, 0, len(registry.IDs()))
	for _, id := range registry.IDs() {
		g, _ := registry.Lookup(id)
		titles = append(titles, fmt.Sprintf("%s (%s)", g.Info().Title, id))
	}
	rootCmd.Long = "dicehall plays dice games in the terminal and the browser, alone against bots\nor with friends online. Games: " + strings.Join(titles, ", ") + "."
}

// exitError carries a specific exit status out of a subcommand.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }
func (e *exitError) Unwrap() error { return e.err }

func main() {
	slog.SetDefault(slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelInfo})))
	if err := rootCmd.Execute(); err != nil {
		var ee *exitError
		if errors.As(err, &ee) {
			if ee.err != nil && ee.err.Error() != "" {
				fmt.Fprintln(os.Stderr, "dicehall:", ee.err)
			}
			os.Exit(ee.code)
		}
		fmt.Fprintln(os.Stderr, "dicehall:", err)
		os.Exit(1)
	}
}
