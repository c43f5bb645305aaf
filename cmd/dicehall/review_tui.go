package main

import (
	"io"
	"os"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/sim"
	"github.com/dicehall/dicehall/tui"
)

// showReview shows a computed review to people (`dicehall review` without
// --json): the interactive review screen when out is a terminal and the
// game has a terminal board, else the plain report (each seat's sums, the
// balance of the game, each seat's three costliest decisions in the game's
// words) for a pipe or a file.
func showReview(out io.Writer, g engine.Game, rec engine.Record, rv *engine.Review) error {
	if f, ok := out.(*os.File); ok && sim.IsTerminal(f) && tui.HasBoard(g.Info().ID) {
		return tui.RunReview(g, rec, rv)
	}
	return tui.ReviewReport(out, g.Info(), rec, rv)
}
