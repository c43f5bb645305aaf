package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/sim"
)

var simFlags struct {
	bots    string
	games   int
	seed    uint64
	workers int
	json    bool
	plot    string
}

var simCmd = &cobra.Command{
	Use:   "sim GAME",
	Short: "Play many seeded bot games and report win rates and scores",
	Long: `sim plays seeded games between bots on all cores and reports, for each
bot, its win rate with a 95% Wilson interval (a win shared by k players
counts 1/k: half in a two-player tie; ties are also counted on their own), and its score distribution.

Game i is played from the seed SplitSeed(--seed, i), and the seats rotate
from game to game so that every bot starts equally often; the results depend
only on --seed and --games, not on --workers. One bot alone plays the solo
variant against the virtual opponent.

Only dicestars has bots so far: random, greedy, expert.`,
	Example: `  dicehall sim dicestars --bots expert,greedy --games 2000 --seed 1
  dicehall sim dicestars --bots expert --games 500 --json
  dicehall sim dicestars --bots greedy,random --plot scores.png`,
	Args: cobra.ExactArgs(1),
	RunE: runSim,
}

func init() {
	f := simCmd.Flags()
	f.StringVar(&simFlags.bots, "bots", "expert,greedy", "comma-separated bot kinds, one per seat (one bot = solo)")
	f.IntVar(&simFlags.games, "games", 1000, "number of games")
	f.Uint64Var(&simFlags.seed, "seed", 1, "master seed; game i uses an independent seed derived from it")
	f.IntVar(&simFlags.workers, "workers", 0, "parallel games (0 = GOMAXPROCS)")
	f.BoolVar(&simFlags.json, "json", false, "print the report as JSON")
	f.StringVar(&simFlags.plot, "plot", "", "draw the score distributions to this image file (.png, .svg, .pdf)")
	rootCmd.AddCommand(simCmd)
}

// simGame is the outcome of one game, indexed by bot entry (not seat).
type simGame struct {
	scores  []int
	place   []int     // 1 win, 0 shared win, -1 loss
	share   []float64 // 1 for a win, 1/k for a win shared by k, 0 for a loss
	solo    int       // virtual opponent's score (solo)
	soloGot bool      // solo: the grid filled up
}

// SimReport is the JSON form of the report.
type SimReport struct {
	Game    string         `json:"game"`
	Games   int            `json:"games"`
	Seed    uint64         `json:"seed"`
	Solo    bool           `json:"solo"`
	Bots    []SimBotReport `json:"bots"`
	Elapsed string         `json:"-"`
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
	// Solo only: games lost because the virtual opponent's grid filled, and
	// the virtual opponent's mean score.
	GridLosses   *int     `json:"gridLosses,omitempty"`
	OpponentMean *float64 `json:"opponentMean,omitempty"`
}

func runSim(cmd *cobra.Command, args []string) error {
	if args[0] != "dicestars" {
		return &exitError{code: 2, err: fmt.Errorf("sim: no bots for game %q (only dicestars)", args[0])}
	}
	kinds := strings.Split(simFlags.bots, ",")
	if len(kinds) < 1 || len(kinds) > dicestars.MaxPlayers {
		return &exitError{code: 2, err: fmt.Errorf("sim: %d bots, want 1 to %d", len(kinds), dicestars.MaxPlayers)}
	}
	for i, k := range kinds {
		kinds[i] = strings.ToLower(strings.TrimSpace(k))
		if _, err := dicestars.NewBot(kinds[i], 0); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("sim: %w", err)}
		}
	}
	if simFlags.games < 1 {
		return &exitError{code: 2, err: fmt.Errorf("sim: --games must be at least 1")}
	}
	n := len(kinds)
	play := func(i int) (simGame, error) {
		return playDiceStars(kinds, simFlags.seed, i)
	}

	stderr := cmd.ErrOrStderr()
	tty := false
	if f, ok := stderr.(*os.File); ok {
		tty = sim.IsTerminal(f)
	}
	prog := sim.NewProgress(stderr, tty, simFlags.games, slog.Default(), 10*time.Second)
	start := time.Now()
	results, err := sim.Run(cmd.Context(), simFlags.games, simFlags.workers, play, prog.Update)
	prog.Finish()
	if err != nil {
		return fmt.Errorf("sim: %w", err)
	}
	rep := summarizeSim(kinds, results)
	rep.Elapsed = time.Since(start).Round(time.Millisecond).String()

	if simFlags.plot != "" {
		series := make([]sim.Series, n)
		for b := range kinds {
			series[b].Name = rep.Bots[b].Bot
			for _, g := range results {
				series[b].Values = append(series[b].Values, float64(g.scores[b]))
			}
		}
		title := fmt.Sprintf("Dice Stars scores, %d games, seed %d", simFlags.games, simFlags.seed)
		if err := sim.PlotDistributions(simFlags.plot, title, "final score", series, 40); err != nil {
			return err
		}
	}
	if simFlags.json {
		enc := json.NewEncoder(cmd.OutOrStdout())
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	return printSim(cmd.OutOrStdout(), rep)
}

// playDiceStars plays game i: its seed comes from the master seed, the
// seats rotate by i, each bot gets its own seed and the chance source its own.
func playDiceStars(kinds []string, master uint64, i int) (simGame, error) {
	n := len(kinds)
	seed := engine.SplitSeed(master, uint64(i))
	s, err := dicestars.NewState(nil, n)
	if err != nil {
		return simGame{}, err
	}
	bots := make([]dicestars.Bot, n)
	entry := make([]int, n) // seat -> bot entry
	for p := 0; p < n; p++ {
		entry[p] = (p + i) % n
		if bots[p], err = dicestars.NewBot(kinds[entry[p]], engine.SplitSeed(seed, uint64(p+1))); err != nil {
			return simGame{}, err
		}
	}
	// Chance gets stream 0 of the game seed, bots streams 1..n.
	end, err := dicestars.PlayBots(s, bots, engine.NewSource(engine.SplitSeed(seed, 0)))
	if err != nil {
		return simGame{}, err
	}
	g := simGame{scores: make([]int, n), place: make([]int, n), share: make([]float64, n)}
	winners := end.Winners()
	for p := 0; p < n; p++ {
		b := entry[p]
		g.scores[b] = end.Score(p)
		g.place[b] = -1
		for _, w := range winners {
			if w == p {
				g.place[b] = 1
				g.share[b] = 1 / float64(len(winners))
				if len(winners) > 1 {
					g.place[b] = 0
				}
			}
		}
	}
	if end.Solo() {
		g.solo = end.SoloOpponent()
		g.soloGot = end.SoloLost
	}
	return g, nil
}

func summarizeSim(kinds []string, results []simGame) SimReport {
	n := len(kinds)
	rep := SimReport{Game: "dicestars", Games: len(results), Seed: simFlags.seed, Solo: n == 1}
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
		oppSum, grid, won := 0.0, 0, 0.0
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
			oppSum += float64(g.solo)
			if g.soloGot {
				grid++
			}
		}
		br.WinRate = sim.NewRate(won, len(results))
		br.Score = sim.Summarize(scores)
		if n == 1 {
			mean := oppSum / float64(len(results))
			br.GridLosses, br.OpponentMean = &grid, &mean
		}
		rep.Bots = append(rep.Bots, br)
	}
	return rep
}

func printSim(w io.Writer, rep SimReport) error {
	mode := fmt.Sprintf("%d seats, seats rotated", len(rep.Bots))
	if rep.Solo {
		mode = "solo against the virtual opponent"
	}
	fmt.Fprintf(w, "Dice Stars: %d games, seed %d, %s (%s)\n\n", rep.Games, rep.Seed, mode, rep.Elapsed)
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
	if rep.Solo {
		b := rep.Bots[0]
		fmt.Fprintf(w, "\nvirtual opponent: mean %.1f points; %d games lost to a full solo grid\n", *b.OpponentMean, *b.GridLosses)
	} else {
		fmt.Fprintln(w, "\nwin rate counts a win shared by k players as 1/k (half in a two-player tie).")
	}
	return nil
}
