package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/internal/loadgen"
)

var loadFlags struct {
	urls       string
	conns      int
	players    int
	spectators int
	game       string
	options    string
	think      time.Duration
	actRate    float64
	ramp       time.Duration
	settle     time.Duration
	warmup     time.Duration
	duration   time.Duration
	progress   time.Duration
	seed       uint64
	json       bool
}

var loadtestCmd = &cobra.Command{
	Use:   "loadtest",
	Short: "Load a running server with many players and spectators; report moves/s and latency",
	Long: `loadtest plays many tables at once against running servers, as browsers
would: it makes tables over the HTTP API, seats its players, opens a WebSocket
for every seat and every spectator, and plays each seat's moves (random legal
ones, read from the seat's view) as soon as it is its turn. A finished game
makes way for the next table, made while it was played.

Tables are made and connected during --ramp, then all start playing; after
--warmup, it reports over --duration: moves committed a second (every
stored move the screens were told of; player actions apart), and the latency
from sending an action to the last screen of its table receiving the update
(p50, p90, p99, max), with the errors, refusals and reconnections seen.

Several --url spread the connections over nodes round-robin, each table's
seats on different nodes on purpose. A server with its default limits refuses
this much from one address: start it with --limits-off (benchmarks only).
Every connection is a file descriptor on both sides: see docs/performance.md
(Cluster and load) for ulimit -n.`,
	Example: `  dicehall serve --db /tmp/bench.db --limits-off &
  dicehall loadtest --conns 1000 --duration 30s
  dicehall loadtest --url http://127.0.0.1:8080,http://127.0.0.1:8081 --conns 3000 --spectators 3 --json`,
	Args: cobra.NoArgs,
	RunE: runLoadtest,
}

func init() {
	f := loadtestCmd.Flags()
	f.StringVar(&loadFlags.urls, "url", "http://127.0.0.1:8080", "the servers' base URLs, comma-separated (connections go to them in turn)")
	f.IntVar(&loadFlags.conns, "conns", 1000, "WebSockets to hold, players and spectators together")
	f.IntVar(&loadFlags.players, "players", 2, "driven seats per table")
	f.IntVar(&loadFlags.spectators, "spectators", 3, "spectators per table, besides its players")
	f.StringVar(&loadFlags.game, "game", "", "the game played, required: one whose seat views list the legal actions (`dicehall games` lists the games)")
	f.StringVar(&loadFlags.options, "options", "", "the table options as JSON")
	f.DurationVar(&loadFlags.think, "think", 0, "mean pause before each action, drawn from half to one and a half times it (0 = act at once)")
	f.Float64Var(&loadFlags.actRate, "act-rate", 15, "most actions a second of one seat (0 = no cap; the server refuses over 20 messages a second a connection unless --limits-off)")
	f.DurationVar(&loadFlags.ramp, "ramp", 10*time.Second, "spread the tables' first starts over this long")
	f.DurationVar(&loadFlags.settle, "settle", time.Minute, "after the ramp, wait at most this long for every table to be seated and connected; then all start playing")
	f.DurationVar(&loadFlags.warmup, "warmup", 5*time.Second, "played, once every table is ready, before the measured window")
	f.DurationVar(&loadFlags.duration, "duration", 30*time.Second, "the measured window, after the ramp-up and the warm-up")
	f.DurationVar(&loadFlags.progress, "progress", 5*time.Second, "how often a progress line is logged")
	f.Uint64Var(&loadFlags.seed, "seed", 1, "seed of the players' choices")
	f.BoolVar(&loadFlags.json, "json", false, "print the report as JSON")
	rootCmd.AddCommand(loadtestCmd)
}

func runLoadtest(cmd *cobra.Command, _ []string) error {
	fl := loadFlags
	var options json.RawMessage
	if fl.options != "" {
		if !json.Valid([]byte(fl.options)) {
			return &exitError{code: 2, err: fmt.Errorf("loadtest: --options %q is not JSON", fl.options)}
		}
		options = json.RawMessage(fl.options)
	}
	log := slog.Default()
	limit, err := loadgen.RaiseFileLimit()
	if err != nil {
		log.Warn("loadtest: could not raise the open-file limit", "err", err)
	} else if limit < uint64(fl.conns)+100 {
		log.Warn("loadtest: the open-file limit is below the connections asked for: raise ulimit -n", "limit", limit, "conns", fl.conns)
	}
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	rep, err := loadgen.Run(ctx, loadgen.Config{URLs: strings.Split(fl.urls, ","), Conns: fl.conns, Players: fl.players,
		Spectators: fl.spectators, Game: fl.game, Options: options, Think: fl.think, ActRate: fl.actRate,
		Ramp: fl.ramp, Settle: fl.settle, Warmup: fl.warmup, Duration: fl.duration, Progress: fl.progress, Seed: fl.seed, Logger: log})
	if rep == nil {
		if errors.Is(err, context.Canceled) {
			return &exitError{code: 130, err: errors.New("loadtest: interrupted before the measured window")}
		}
		return &exitError{code: 2, err: fmt.Errorf("loadtest: %w", err)}
	}
	if fl.json {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	printLoadReport(cmd.OutOrStdout(), rep)
	return nil
}

// printLoadReport writes the report for people.
func printLoadReport(w io.Writer, r *loadgen.Report) {
	fmt.Fprintf(w, "dicehall loadtest: %s, %d node(s), %d connections: %d tables of %d players + %d spectators\n",
		r.Game, len(r.URLs), r.Conns, r.Tables, r.Players, r.Spectators)
	fmt.Fprintf(w, "  measured       %.1f s (think %g ms, at most %g actions/s a seat)\n", r.Seconds, r.ThinkMs, r.ActRate)
	fmt.Fprintf(w, "  moves          %d committed = %.1f/s (player actions %d = %.1f/s); %d games finished, %d tables made\n",
		r.Moves, r.MovesPerSec, r.Actions, r.ActionsPerSec, r.Games, r.TablesMade)
	l := r.Latency
	fmt.Fprintf(w, "  latency        action to every screen: p50 %.1f ms, p90 %.1f ms, p99 %.1f ms, max %.1f ms (%d actions, %d incomplete)\n",
		l.P50, l.P90, l.P99, l.Max, l.Samples, r.Incomplete)
	mt := r.MakeTable
	fmt.Fprintf(w, "  new tables     created and seated in p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", mt.P50, mt.P99, mt.Max)
	c := r.ConnsOpen
	fmt.Fprintf(w, "  connections    %d open at the start, %d to %d during, %d at the end\n", c.Start, c.Min, c.Max, c.End)
	fmt.Fprintf(w, "  trouble        %d errors, %d refusals, %d reconnects, %d version gaps\n", r.ErrorTotal, r.Refusals, r.Reconnects, r.Gaps)
	for _, kind := range slices.Sorted(maps.Keys(r.Errors)) {
		fmt.Fprintf(w, "    %6d × %s\n", r.Errors[kind], kind)
	}
}
