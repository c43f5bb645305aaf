package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/script"
	"github.com/dicehall/dicehall/sim"
)

func init() { rootCmd.AddCommand(newReviewCmd()) }

// renderReview shows a review to people (without --json): the terminal
// client's review screen, or its plain report on a pipe (review_tui.go).
var renderReview func(out io.Writer, g engine.Game, rec engine.Record, rv *engine.Review) error = showReview

// newReviewCmd is `dicehall review`: judge every decision of a record.
func newReviewCmd() *cobra.Command {
	var (
		budget, workers int
		seed            uint64
		asJSON          bool
	)
	cmd := &cobra.Command{
		Use:   "review RECORD",
		Short: "Review a game record: each decision against the best one, each player's accuracy and worst mistakes",
		Long: `Review a game record (RECORD, or - for standard input), as written by
"dicehall script --record" or by the clients: every decision of every
player is judged from what that player could see then, against the best
choice the game's analysis finds. For each player it prints the accuracy
(the share of decisions that were the best), the points (and the chances of
winning, when the game can tell) lost, and the three costliest decisions
with their move numbers: "dicehall replay --at N RECORD" shows the
position of move N. On a terminal the review is a screen of its own: the
balance of the game drawn over time, every decision with its verdict, and
each one's position on the game's board with the best choice and why (?
lists its keys). On a pipe or in a file it is plain text.

--budget sets the analysis's effort per decision (0: the game's default),
--workers how many decisions are judged at once, --seed the analysis's own
random choices: the same record, budget and seed give the same review.
--json prints the whole review (engine.Review) instead. A long review shows
its progress on standard error; Ctrl-C stops it (exit status 130).
Exit codes as for dicehall replay: 2 the record is malformed or its game
has no review, 3 a recorded move is refused by the rules.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			malformed := func(err error) error { return &exitError{script.ExitMalformed, fmt.Errorf("review: %w", err)} }
			switch {
			case budget < 0:
				return malformed(fmt.Errorf("--budget %d: want 0 (the game's default) or more", budget))
			case workers < 1:
				return malformed(fmt.Errorf("--workers %d: want 1 or more", workers))
			}
			input, err := scriptReadInput(cmd, args[0])
			if err != nil {
				return &exitError{script.ExitIO, err}
			}
			rec, err := script.ParseRecord(input)
			if err != nil {
				return malformed(err)
			}
			g, ok := registry.Lookup(rec.Game)
			if !ok {
				return malformed(fmt.Errorf("unknown game %q (known: %s)", rec.Game, strings.Join(registry.IDs(), ", ")))
			}
			if !engine.Reviewable(g) {
				return malformed(fmt.Errorf("%s does not judge decisions: it has no review", g.Info().Title))
			}
			if _, err := engine.Replay(g, rec); err != nil {
				if _, ok := engine.AsRuleError(err); ok {
					return &exitError{script.ExitIllegal, fmt.Errorf("review: %w", err)}
				}
				return malformed(err)
			}
			ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			prog := newReviewProgress(cmd.ErrOrStderr())
			rv, err := engine.ReviewRecord(ctx, g, rec, engine.ReviewOptions{Budget: budget, Seed: seed, Workers: workers, Progress: prog.update})
			prog.finish()
			switch {
			case ctx.Err() != nil:
				return &exitError{exitInterrupted, errors.New("review: interrupted")}
			case err != nil:
				return fmt.Errorf("review: %w", err) // the record replays: the analysis failed
			}
			out := cmd.OutOrStdout()
			if asJSON {
				data, err := json.MarshalIndent(rv, "", "  ")
				if err == nil {
					_, err = out.Write(append(data, '\n'))
				}
				if err != nil {
					return &exitError{script.ExitIO, fmt.Errorf("write output: %w", err)}
				}
				return nil
			}
			if err := renderReview(out, g, rec, rv); err != nil {
				return &exitError{script.ExitIO, fmt.Errorf("write output: %w", err)}
			}
			return nil
		},
	}
	cmd.Flags().IntVar(&budget, "budget", 0, "the analysis's effort per decision (0: the game's default)")
	cmd.Flags().IntVar(&workers, "workers", 1, "decisions judged at once")
	cmd.Flags().Uint64Var(&seed, "seed", 1, "seed of the analysis's random choices")
	cmd.Flags().BoolVar(&asJSON, "json", false, "print the whole review as JSON")
	return cmd
}

// reviewProgress shows how far a review is on standard error, once it has
// taken a moment: a bar redrawn in place on a terminal, else a line every
// few seconds.
type reviewProgress struct {
	w          io.Writer
	tty        bool
	start      time.Time
	last       time.Time
	shown      bool
	done, tot  int
	quiet, gap time.Duration
}

func newReviewProgress(w io.Writer) *reviewProgress {
	p := &reviewProgress{w: w, start: time.Now(), quiet: time.Second, gap: 5 * time.Second}
	if f, ok := w.(*os.File); ok {
		p.tty = sim.IsTerminal(f)
	}
	if p.tty {
		p.gap = 100 * time.Millisecond
	}
	return p
}

// update is engine.ReviewOptions.Progress: called one at a time.
func (p *reviewProgress) update(done, total int) {
	p.done, p.tot = done, total
	now := time.Now()
	if now.Sub(p.start) < p.quiet || now.Sub(p.last) < p.gap {
		return
	}
	p.last, p.shown = now, true
	if p.tty {
		fmt.Fprintf(p.w, "\rreviewing %s\x1b[K", sim.Bar(done, total, 30, now.Sub(p.start)))
		return
	}
	fmt.Fprintf(p.w, "reviewing: %d of %d decisions judged (%s)\n", done, total, now.Sub(p.start).Round(time.Second))
}

// finish ends the bar's line, if one was drawn.
func (p *reviewProgress) finish() {
	if p.shown && p.tty {
		fmt.Fprintf(p.w, "\rreviewing %s\x1b[K\n", sim.Bar(p.done, p.tot, 30, time.Since(p.start)))
	}
}
