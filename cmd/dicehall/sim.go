package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/sim"
)

var simFlags struct {
	bots    string
	games   int
	seed    uint64
	workers int
	json    bool
	plot    string
	options string
}

var simCmd = &cobra.Command{
	Use:   "sim GAME",
	Short: "Play many seeded bot games and report win rates and scores",
	Long: `sim plays seeded games between bots on all cores and reports, for each
bot, its win rate with a 95% Wilson interval (a win shared by k players
counts 1/k: half in a two-player tie; ties are also counted on their own), and its score distribution.

Game i is played from the seed SplitSeed(--seed, i), and the seats rotate
from game to game so that every bot starts equally often; the results depend
only on --seed and --games, not on --workers. One bot alone plays the game's
one-player mode, where it has one.

Every game with bots can be simulated (dicehall games lists them and their
bots). Without --bots, the game's bots play each other, strongest first (as
many as the table seats). Games are played on a simulated clock: each bot
takes the time it says it thinks (else the bot delay), and a turn whose
deadline passes first fails as at a real table. --options passes the
table options (JSON, as for a table); the game refuses what it does not take.
A game that counts more than scores (words said, failed turns, a solo
opponent) reports those counts too.

--plot draws the score distributions (whole-number scores in whole-number
bins); its path is checked before any game is played. Ctrl-C stops the run
and reports the games finished so far (exit status 130).`,
	Args: cobra.ExactArgs(1),
	RunE: runSim,
}

func init() {
	f := simCmd.Flags()
	f.StringVar(&simFlags.bots, "bots", "", "comma-separated bot kinds, one per seat (one bot = the one-player mode; default: the game's bots, strongest first)")
	f.IntVar(&simFlags.games, "games", 1000, "number of games")
	f.Uint64Var(&simFlags.seed, "seed", 1, "master seed; game i uses an independent seed derived from it")
	f.IntVar(&simFlags.workers, "workers", 0, "parallel games (0 = GOMAXPROCS)")
	f.BoolVar(&simFlags.json, "json", false, "print the report as JSON")
	f.StringVar(&simFlags.plot, "plot", "", "draw the score distributions to this image file (.png, .svg, .pdf)")
	f.StringVar(&simFlags.options, "options", "", "the table options as JSON (each game's are listed by dicehall games)")
	simCmd.Example = simExamples(registry)
	rootCmd.AddCommand(simCmd)
}

// simExamples shows sim on every registered game with bots: its bots
// strongest first, and the report's other forms on the first game.
func simExamples(reg *engine.Registry) string {
	var b strings.Builder
	for i, id := range reg.IDs() {
		g, _ := reg.Lookup(id)
		info := g.Info()
		kinds := info.BotKinds()
		if len(kinds) == 0 {
			continue
		}
		slices.Reverse(kinds) // listed weakest first
		seats := min(max(info.MinPlayers, 2), info.MaxPlayers, len(kinds))
		bots := strings.Join(kinds[:seats], ",")
		fmt.Fprintf(&b, "  dicehall sim %s --bots %s --games 1000 --seed 1\n", id, bots)
		if i == 0 {
			fmt.Fprintf(&b, "  dicehall sim %s --bots %s --games 500 --json\n", id, bots)
			fmt.Fprintf(&b, "  dicehall sim %s --bots %s --plot scores.png\n", id, bots)
		}
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// simGame is the outcome of one game, indexed by bot entry (not seat).
type simGame struct {
	scores []int
	place  []int     // 1 win, 0 shared win, -1 loss
	share  []float64 // 1 for a win, 1/k for a win shared by k, 0 for a loss
	// tally is what the game counted (engine.Counter), its Seat indexed
	// by bot entry.
	tally engine.Tally
}

// SimReport is the JSON form of the report.
type SimReport struct {
	Game  string         `json:"game"`
	Games int            `json:"games"`
	Seed  uint64         `json:"seed"`
	Solo  bool           `json:"solo"`
	Bots  []SimBotReport `json:"bots"`
	// Stats are the game's own counts for the whole game (engine.Counter).
	Stats []SimStat `json:"stats,omitempty"`
	// Interrupted: the run was stopped (Ctrl-C); Games counts the games
	// finished by then, the only ones reported.
	Interrupted bool `json:"interrupted,omitempty"`
	// Title names the game and Mode the table, for people.
	Title   string `json:"-"`
	Mode    string `json:"-"`
	Elapsed string `json:"-"`
}

// SimBotReport is one bot entry's results. WinRate counts a win shared by k
// players as 1/k; Wins, Ties and Losses are the plain counts.
type SimBotReport struct {
	Bot     string      `json:"bot"`
	Wins    int         `json:"wins"`
	Ties    int         `json:"ties"`
	Losses  int         `json:"losses"`
	WinRate sim.Rate    `json:"winRate"`
	Score   sim.Summary `json:"score"`
	// Stats are the game's own counts for this bot (engine.Counter).
	Stats []SimStat `json:"stats,omitempty"`
}

// SimStat is one of the game's counts: its mean per game, or its total
// over all games when the game says so.
type SimStat struct {
	engine.Stat
	Value float64 `json:"value"`
}

func runSim(cmd *cobra.Command, args []string) error {
	usage := func(format string, a ...any) error {
		return &exitError{code: 2, err: fmt.Errorf("sim: "+format, a...)}
	}
	g, ok := registry.Lookup(args[0])
	if !ok {
		return usage("no game %q (have %s)", args[0], strings.Join(registry.IDs(), ", "))
	}
	info := g.Info()
	provider, ok := g.(engine.BotProvider)
	if !ok || len(info.Bots) == 0 {
		return usage("%s has no bots", info.ID)
	}
	kinds := defaultSimBots(info)
	if simFlags.bots != "" {
		kinds = strings.Split(simFlags.bots, ",")
	}
	if len(kinds) < info.MinPlayers || len(kinds) > info.MaxPlayers {
		return usage("%d bots, %s seats %d to %d", len(kinds), info.ID, info.MinPlayers, info.MaxPlayers)
	}
	for i, k := range kinds {
		kinds[i] = strings.ToLower(strings.TrimSpace(k))
		if !info.HasBot(kinds[i]) {
			return usage("%s has no %q bot (have %s)", info.ID, kinds[i], strings.Join(info.BotKinds(), ", "))
		}
	}
	if simFlags.games < 1 {
		return usage("--games must be at least 1")
	}
	options := json.RawMessage(simFlags.options)
	if _, err := g.New(seatNames(kinds, 0), options); err != nil {
		return usage("--options %s: %w", simFlags.options, err)
	}
	if simFlags.plot != "" {
		// Before the games, not after: a plot that cannot be saved must
		// not cost the run.
		if err := sim.CheckPlotPath(simFlags.plot); err != nil {
			return usage("--plot: %w", err)
		}
	}
	counter, _ := g.(engine.Counter)
	play := func(i int) (simGame, error) {
		return playSim(g, provider, counter, kinds, options, simFlags.seed, i)
	}

	stderr := cmd.ErrOrStderr()
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = sim.IsTerminal(f)
	}
	// Ctrl-C (or a TERM) stops the run; the games finished by then are
	// reported.
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	prog := sim.NewProgress(stderr, tty, simFlags.games, slog.Default(), 10*time.Second)
	update := prog.Update
	if simAfterGame != nil {
		update = func(done int) { prog.Update(done); simAfterGame(ctx, done) }
	}
	start := time.Now()
	results, err := sim.Run(ctx, simFlags.games, simFlags.workers, play, update)
	prog.Finish()
	interrupted := err != nil && ctx.Err() != nil
	stop() // a second Ctrl-C ends the program at once
	switch {
	case interrupted && len(results) == 0:
		return &exitError{code: exitInterrupted, err: fmt.Errorf("sim: interrupted before any game finished")}
	case err != nil && !interrupted:
		return fmt.Errorf("sim: %w", err)
	}
	var seatStats, gameStats []engine.Stat
	if counter != nil {
		seatStats, gameStats = counter.Stats(len(kinds))
	}
	rep := summarizeSim(info.ID, kinds, results, seatStats, gameStats)
	rep.Title = info.Title
	rep.Mode = fmt.Sprintf("%d seats, seats rotated", len(kinds))
	if rep.Solo {
		rep.Mode = info.Messages[info.OnePlayer]
	}
	rep.Elapsed = time.Since(start).Round(time.Millisecond).String()
	rep.Interrupted = interrupted
	if err := reportSim(cmd.OutOrStdout(), rep, results, kinds, info); err != nil {
		return err
	}
	if interrupted {
		return &exitError{code: exitInterrupted, err: fmt.Errorf("sim: interrupted after %d of %d games", len(results), simFlags.games)}
	}
	return nil
}

// exitInterrupted is the exit status after Ctrl-C, as shells report it
// (128 + SIGINT).
const exitInterrupted = 130

// simAfterGame, when set (tests), is called after each finished game with
// the run's context.
var simAfterGame func(ctx context.Context, done int)

// reportSim draws the plot (--plot) and prints the report.
func reportSim(out io.Writer, rep SimReport, results []simGame, kinds []string, info engine.Info) error {

	if simFlags.plot != "" {
		series := make([]sim.Series, len(kinds))
		for b := range kinds {
			series[b].Name = rep.Bots[b].Bot
			for _, g := range results {
				series[b].Values = append(series[b].Values, float64(g.scores[b]))
			}
		}
		title := fmt.Sprintf("%s scores, %d games, seed %d", info.Title, len(results), simFlags.seed)
		if err := sim.PlotDistributions(simFlags.plot, title, "final score", series, 40); err != nil {
			return err
		}
	}
	if simFlags.json {
		enc := json.NewEncoder(out)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printSim(out, rep)
}

// defaultSimBots is every bot of the game, strongest first, as many as
// the table seats: the strongest plays the weaker ones.
func defaultSimBots(info engine.Info) []string {
	kinds := info.BotKinds()
	slices.Reverse(kinds)
	return kinds[:min(len(kinds), info.MaxPlayers)]
}

// playSim plays game i: its seed comes from the master seed, the seats
// rotate by i, chance gets stream 0 of the game seed and bot p stream p+1.
// engine.PlayBots runs it on a simulated clock, so the outcome depends on
// the seeds alone.
func playSim(g engine.Game, provider engine.BotProvider, counter engine.Counter, kinds []string, options json.RawMessage, master uint64, i int) (simGame, error) {
	seed, bots, entry, err := seatBots(provider, kinds, master, i)
	if err != nil {
		return simGame{}, err
	}
	st, err := g.New(seatNames(kinds, i), options)
	if err != nil {
		return simGame{}, err
	}
	t, err := engine.PlayCounted(st, bots, engine.NewSource(engine.SplitSeed(seed, 0)), counter)
	if err != nil {
		return simGame{}, err
	}
	res := st.Result()
	sg := outcome(entry, res.Scores, seatInts(res.Winners))
	sg.tally.Game = t.Game
	sg.tally.Seat = make([][]int, len(entry))
	for p, b := range entry {
		if p < len(t.Seat) {
			sg.tally.Seat[b] = t.Seat[p]
		}
	}
	return sg, nil
}

func summarizeSim(game string, kinds []string, results []simGame, seatStats, gameStats []engine.Stat) SimReport {
	rep := SimReport{Game: game, Games: len(results), Seed: simFlags.seed, Solo: len(kinds) == 1}
	count := map[string]int{}
	for _, k := range kinds {
		count[k]++
	}
	seen := map[string]int{}
	for b, k := range kinds {
		name := k
		if count[k] > 1 {
			seen[k]++
			name = fmt.Sprintf("%s#%d", k, seen[k])
		}
		br := SimBotReport{Bot: name}
		scores := make([]float64, len(results))
		won := 0.0
		for i, g := range results {
			scores[i] = float64(g.scores[b])
			switch g.place[b] {
			case 1:
				br.Wins++
			case 0:
				br.Ties++
			default:
				br.Losses++
			}
			won += g.share[b]
		}
		br.WinRate = sim.NewRate(won, len(results))
		br.Score = sim.Summarize(scores)
		br.Stats = simStats(seatStats, results, func(g simGame) []int { return g.tally.Seat[b] })
		rep.Bots = append(rep.Bots, br)
	}
	rep.Stats = simStats(gameStats, results, func(g simGame) []int { return g.tally.Game })
	return rep
}

// simStats sums each stat over the games and makes it a mean per game,
// unless the stat is a total.
func simStats(stats []engine.Stat, results []simGame, counts func(simGame) []int) []SimStat {
	var out []SimStat
	for i, s := range stats {
		sum := 0
		for _, g := range results {
			sum += counts(g)[i]
		}
		v := float64(sum)
		if !s.Total {
			v /= float64(len(results))
		}
		out = append(out, SimStat{Stat: s, Value: v})
	}
	return out
}

func printSim(w io.Writer, rep SimReport) error {
	fmt.Fprintf(w, "%s, %d games, seed %d, %s (%s)\n", rep.Title, rep.Games, rep.Seed, rep.Mode, rep.Elapsed)
	if rep.Interrupted {
		fmt.Fprintf(w, "interrupted: only the %d games finished are counted\n", rep.Games)
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "bot\twin rate\t95% interval\twins\tties\tlosses\tmean\tmedian\tstdev\t")
	for _, b := range rep.Bots {
		fmt.Fprintf(tw, "%s\t%.1f%%\t%.1f–%.1f%%\t%d\t%d\t%d\t%.1f\t%.1f\t%.1f\t\n", b.Bot,
			100*b.WinRate.Rate, 100*b.WinRate.Lo, 100*b.WinRate.Hi, b.Wins, b.Ties, b.Losses,
			b.Score.Mean, b.Score.Median, b.Score.Stdev)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(rep.Bots[0].Stats) > 0 {
		fmt.Fprintln(w, "\nper game:")
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprint(tw, "bot\t")
		for _, s := range rep.Bots[0].Stats {
			fmt.Fprintf(tw, "%s\t", s.Label)
		}
		fmt.Fprintln(tw)
		for _, b := range rep.Bots {
			fmt.Fprintf(tw, "%s\t", b.Bot)
			for _, s := range b.Stats {
				fmt.Fprintf(tw, "%s\t", s.format("%.2f"))
			}
			fmt.Fprintln(tw)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if len(rep.Stats) > 0 {
		fmt.Fprintln(w)
	}
	for _, s := range rep.Stats {
		if s.Total {
			fmt.Fprintf(w, "%s: %s in %d games\n", s.Label, s.format(""), rep.Games)
		} else {
			fmt.Fprintf(w, "%s: %s per game\n", s.Label, s.format("%.1f"))
		}
	}
	if !rep.Solo {
		fmt.Fprintln(w, "\nwin rate counts a win shared by k players as 1/k (half in a two-player tie).")
	}
	return nil
}

// format writes a mean with the given verb and a total as the whole
// number it is.
func (s SimStat) format(mean string) string {
	if s.Total {
		return fmt.Sprintf("%d", int(s.Value))
	}
	return fmt.Sprintf(mean, s.Value)
}

// seatNames names the seats of game i: each bot's kind and entry.
func seatNames(kinds []string, i int) []string {
	n := len(kinds)
	names := make([]string, n)
	for p := range n {
		b := (p + i) % n
		names[p] = fmt.Sprintf("%s#%d", kinds[b], b)
	}
	return names
}

// seatBots seats the bots of game i: seats rotate by i, bot p gets stream
// p+1 of the game's seed (stream 0 is chance). entry maps a seat to its bot
// entry in kinds.
func seatBots(g engine.BotProvider, kinds []string, master uint64, i int) (seed uint64, bots []engine.Controller, entry []int, err error) {
	n := len(kinds)
	seed = engine.SplitSeed(master, uint64(i))
	bots, entry = make([]engine.Controller, n), make([]int, n)
	for p := range n {
		entry[p] = (p + i) % n
		if bots[p], err = g.NewBot(kinds[entry[p]], engine.SplitSeed(seed, uint64(p+1))); err != nil {
			return 0, nil, nil, err
		}
	}
	return seed, bots, entry, nil
}

// outcome turns one game's per-seat scores and winning seats into results
// per bot entry: place 1 for a sole win, 0 for a shared one, -1 for a loss,
// and the win share (1/k for a win shared by k).
func outcome(entry []int, scores []int, winners []int) simGame {
	n := len(entry)
	g := simGame{scores: make([]int, n), place: make([]int, n), share: make([]float64, n)}
	for p, b := range entry {
		g.scores[b] = scores[p]
		g.place[b] = -1
		if slices.Contains(winners, p) {
			g.place[b], g.share[b] = 1, 1/float64(len(winners))
			if len(winners) > 1 {
				g.place[b] = 0
			}
		}
	}
	return g
}

func seatInts(seats []engine.Seat) []int {
	out := make([]int, len(seats))
	for i, s := range seats {
		out[i] = int(s)
	}
	return out
}
