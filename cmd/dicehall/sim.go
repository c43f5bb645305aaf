package main

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/diceflick"
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
only on --seed and --games, not on --workers. One bot alone plays the solo
variant against the virtual opponent.

Games with bots: dicestars (random, greedy, expert; default expert,greedy),
bookworm (easy, medium, hard; 2 to 6 bots, default hard,medium,easy) and
diceflick (easy, medium, hard; 1 to 4 bots, default hard,medium,easy; one
bot alone plays practice games, scored on its own).
Bookworm is played on a simulated clock: each bot takes the time it says
it thinks, and a turn whose deadline passes first fails as at a real table.
--options passes Bookworm's table options (JSON, as for a table).`,
	Example: `  dicehall sim dicestars --bots expert,greedy --games 2000 --seed 1
  dicehall sim dicestars --bots expert --games 500 --json
  dicehall sim dicestars --bots greedy,random --plot scores.png
  dicehall sim bookworm --bots hard,medium,easy --games 1000 --seed 1
  dicehall sim bookworm --bots hard,easy --options '{"special": false}'
  dicehall sim diceflick --bots hard,easy --games 500 --seed 1`,
	Args: cobra.ExactArgs(1),
	RunE: runSim,
}

func init() {
	f := simCmd.Flags()
	f.StringVar(&simFlags.bots, "bots", "expert,greedy", "comma-separated bot kinds, one per seat (one bot = solo); bookworm's default is hard,medium,easy")
	f.IntVar(&simFlags.games, "games", 1000, "number of games")
	f.Uint64Var(&simFlags.seed, "seed", 1, "master seed; game i uses an independent seed derived from it")
	f.IntVar(&simFlags.workers, "workers", 0, "parallel games (0 = GOMAXPROCS)")
	f.BoolVar(&simFlags.json, "json", false, "print the report as JSON")
	f.StringVar(&simFlags.plot, "plot", "", "draw the score distributions to this image file (.png, .svg, .pdf)")
	f.StringVar(&simFlags.options, "options", "", "bookworm: the table options as JSON, e.g. '{\"special\": false}'")
	rootCmd.AddCommand(simCmd)
}

// simGame is the outcome of one game, indexed by bot entry (not seat).
type simGame struct {
	scores  []int
	place   []int     // 1 win, 0 shared win, -1 loss
	share   []float64 // 1 for a win, 1/k for a win shared by k, 0 for a loss
	solo    int       // virtual opponent's score (solo)
	soloGot bool      // solo: the grid filled up
	bw      []bookwormTally
	rounds  int // bookworm: rounds played
}

// bookwormTally is what one bot entry did in one game of Bookworm.
type bookwormTally struct{ words, steals, questions, fails, late int }

// SimReport is the JSON form of the report.
type SimReport struct {
	Game    string         `json:"game"`
	Games   int            `json:"games"`
	Seed    uint64         `json:"seed"`
	Solo    bool           `json:"solo"`
	Bots    []SimBotReport `json:"bots"`
	Elapsed string         `json:"-"`
	// Bookworm only: the mean number of rounds per game.
	Rounds *float64 `json:"roundsPerGame,omitempty"`
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
	// Bookworm only: per-game means of what the bot did.
	Bookworm *SimBookworm `json:"bookworm,omitempty"`
}

// SimBookworm is a Bookworm bot's play, as means per game: words named,
// dice stolen, ? dice taken, turns failed on the clock, and of those the
// turns where its word came too late.
type SimBookworm struct {
	Words     float64 `json:"words"`
	Steals    float64 `json:"steals"`
	Questions float64 `json:"questions"`
	Fails     float64 `json:"fails"`
	Late      float64 `json:"late"`
}

func runSim(cmd *cobra.Command, args []string) error {
	game := args[0]
	if game != "dicestars" && game != "bookworm" && game != "diceflick" {
		return &exitError{code: 2, err: fmt.Errorf("sim: no bots for game %q (only dicestars, bookworm and diceflick)", game)}
	}
	if game != "bookworm" && simFlags.options != "" {
		return &exitError{code: 2, err: fmt.Errorf("sim: --options is for bookworm")}
	}
	bots := simFlags.bots
	if (game == "bookworm" || game == "diceflick") && !cmd.Flags().Changed("bots") {
		bots = "hard,medium,easy"
	}
	kinds := strings.Split(bots, ",")
	minBots, maxBots := 1, dicestars.MaxPlayers
	switch game {
	case "bookworm":
		minBots, maxBots = bookworm.MinPlayers, bookworm.MaxPlayers
	case "diceflick":
		minBots, maxBots = 1, diceflick.MaxPlayers
	}
	if len(kinds) < minBots || len(kinds) > maxBots {
		return &exitError{code: 2, err: fmt.Errorf("sim: %d bots, want %d to %d", len(kinds), minBots, maxBots)}
	}
	// Bookworm's bots know the words of the lexicon the registry's game
	// judges with, as at a served table.
	var bw bookworm.Game
	if game == "bookworm" {
		g, _ := all.Registry.Lookup(game)
		bw = g.(bookworm.Game)
	}
	// Diceflick's landings come from the registry's physics, as at a
	// served table; its bots imagine their flicks with the same arena.
	var df diceflick.Game
	if game == "diceflick" {
		g, _ := all.Registry.Lookup(game)
		df = g.(diceflick.Game)
	}
	for i, k := range kinds {
		kinds[i] = strings.ToLower(strings.TrimSpace(k))
		var err error
		switch game {
		case "bookworm":
			_, err = bw.NewBot(kinds[i], 0)
		case "diceflick":
			_, err = df.NewBot(kinds[i], 0)
		default:
			_, err = dicestars.NewBot(kinds[i], 0)
		}
		if err != nil {
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
	if game == "bookworm" {
		options := json.RawMessage(simFlags.options)
		if _, err := bookworm.ParseOptions(options); err != nil {
			return &exitError{code: 2, err: fmt.Errorf("sim: %w", err)}
		}
		play = func(i int) (simGame, error) {
			return playBookworm(bw, kinds, options, simFlags.seed, i)
		}
	}
	if game == "diceflick" {
		play = func(i int) (simGame, error) {
			return playDiceflick(df, kinds, simFlags.seed, i)
		}
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
	rep := summarizeSim(game, kinds, results)
	rep.Elapsed = time.Since(start).Round(time.Millisecond).String()

	if simFlags.plot != "" {
		series := make([]sim.Series, n)
		for b := range kinds {
			series[b].Name = rep.Bots[b].Bot
			for _, g := range results {
				series[b].Values = append(series[b].Values, float64(g.scores[b]))
			}
		}
		title := fmt.Sprintf("%s scores, %d games, seed %d", simTitle(game), simFlags.games, simFlags.seed)
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
	scores := make([]int, n)
	for p := range scores {
		scores[p] = end.Score(p)
	}
	g := outcome(entry, scores, end.Winners())
	if end.Solo() {
		g.solo = end.SoloOpponent()
		g.soloGot = end.SoloLost
	}
	return g, nil
}

// simTitle is the game's name for people.
func simTitle(game string) string {
	switch game {
	case "bookworm":
		return "Bookworm"
	case "diceflick":
		return "Diceflick"
	}
	return "Dice Stars"
}

// playBookworm plays game i like playDiceStars: seats rotated by i, chance
// from stream 0 of the game seed and bot p from stream p+1. PlayBots runs
// it on a simulated clock, so the outcome depends on the seeds alone.
func playBookworm(g bookworm.Game, kinds []string, options json.RawMessage, master uint64, i int) (simGame, error) {
	n := len(kinds)
	seed, names, bots, entry, err := seatBots(g, kinds, master, i)
	if err != nil {
		return simGame{}, err
	}
	m, err := g.NewMatch(names, options)
	if err != nil {
		return simGame{}, err
	}
	st, err := bookworm.PlayBots(m, bots, engine.NewSource(engine.SplitSeed(seed, 0)))
	if err != nil {
		return simGame{}, err
	}
	res := m.Result()
	sg := outcome(entry, res.Scores, seatInts(res.Winners))
	sg.bw, sg.rounds = make([]bookwormTally, n), st.Rounds
	for p := range n {
		sg.bw[entry[p]] = bookwormTally{words: st.Words[p], steals: st.Steals[p], questions: st.Questions[p],
			fails: st.Timeouts[p], late: st.Late[p]}
	}
	return sg, nil
}

// playDiceflick plays game i like playBookworm: seats rotated by i, chance
// from stream 0 of the game seed (draws, hand noise, faces), bot p from
// stream p+1.
func playDiceflick(g diceflick.Game, kinds []string, master uint64, i int) (simGame, error) {
	seed, names, bots, entry, err := seatBots(g, kinds, master, i)
	if err != nil {
		return simGame{}, err
	}
	m, err := diceflick.NewMatch(g.Sim, names, nil)
	if err != nil {
		return simGame{}, err
	}
	if err := diceflick.PlayBots(m, bots, engine.NewSource(engine.SplitSeed(seed, 0))); err != nil {
		return simGame{}, err
	}
	res := m.Result()
	return outcome(entry, res.Scores, seatInts(res.Winners)), nil
}

func summarizeSim(game string, kinds []string, results []simGame) SimReport {
	n := len(kinds)
	rep := SimReport{Game: game, Games: len(results), Seed: simFlags.seed, Solo: n == 1}
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
		if game == "bookworm" {
			var t bookwormTally
			for _, g := range results {
				x := g.bw[b]
				t.words, t.steals, t.questions, t.fails, t.late = t.words+x.words, t.steals+x.steals,
					t.questions+x.questions, t.fails+x.fails, t.late+x.late
			}
			per := func(x int) float64 { return float64(x) / float64(len(results)) }
			br.Bookworm = &SimBookworm{Words: per(t.words), Steals: per(t.steals), Questions: per(t.questions),
				Fails: per(t.fails), Late: per(t.late)}
		} else if n == 1 && game == "dicestars" {
			mean := oppSum / float64(len(results))
			br.GridLosses, br.OpponentMean = &grid, &mean
		}
		rep.Bots = append(rep.Bots, br)
	}
	if game == "bookworm" {
		rounds := 0
		for _, g := range results {
			rounds += g.rounds
		}
		mean := float64(rounds) / float64(len(results))
		rep.Rounds = &mean
	}
	return rep
}

func printSim(w io.Writer, rep SimReport) error {
	mode := fmt.Sprintf("%d seats, seats rotated", len(rep.Bots))
	if rep.Solo {
		mode = "solo against the virtual opponent"
		if rep.Game == "diceflick" {
			mode = "practice, one player"
		}
	}
	fmt.Fprintf(w, "%s: %d games, seed %d, %s (%s)\n\n", simTitle(rep.Game), rep.Games, rep.Seed, mode, rep.Elapsed)
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
	if rep.Rounds != nil {
		fmt.Fprintf(w, "\nper game (%.1f rounds):\n", *rep.Rounds)
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "bot\twords\tsteals\t? dice\tfailed turns\tof which late\t")
		for _, b := range rep.Bots {
			k := b.Bookworm
			fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.2f\t%.2f\t%.2f\t\n", b.Bot, k.Words, k.Steals, k.Questions, k.Fails, k.Late)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	if rep.Solo && rep.Game == "diceflick" {
		fmt.Fprintln(w, "\npractice: one player wins every game; the score is what counts.")
	} else if rep.Solo {
		b := rep.Bots[0]
		fmt.Fprintf(w, "\nvirtual opponent: mean %.1f points; %d games lost to a full solo grid\n", *b.OpponentMean, *b.GridLosses)
	} else {
		fmt.Fprintln(w, "\nwin rate counts a win shared by k players as 1/k (half in a two-player tie).")
	}
	return nil
}

// seatBots seats the bots of game i for the engine-driven games: seats
// rotate by i, bot p gets stream p+1 of the game's seed (stream 0 is
// chance). entry maps a seat to its bot entry in kinds.
func seatBots(g engine.BotProvider, kinds []string, master uint64, i int) (seed uint64, names []string, bots []engine.Controller, entry []int, err error) {
	n := len(kinds)
	seed = engine.SplitSeed(master, uint64(i))
	names, bots, entry = make([]string, n), make([]engine.Controller, n), make([]int, n)
	for p := range n {
		entry[p] = (p + i) % n
		names[p] = fmt.Sprintf("%s#%d", kinds[entry[p]], entry[p])
		if bots[p], err = g.NewBot(kinds[entry[p]], engine.SplitSeed(seed, uint64(p+1))); err != nil {
			return 0, nil, nil, nil, err
		}
	}
	return seed, names, bots, entry, nil
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
