package tui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// judged lends any game a made-up analyst, so the review screen can show
// a real game's board before the games judge their own decisions: the
// best choice is the first legal one, the values come from the seed.
type judged struct{ engine.Game }

func (g judged) Info() engine.Info {
	info := g.Game.Info()
	info.Reviews = true
	info.Messages = maps.Clone(info.Messages)
	info.Messages["test.play"] = "play {action}"
	info.Messages["test.why"] = "a reason in the game's words, long enough to wrap on a narrow screen when it is shown under the board"
	return info
}

// Narrate is the game's own narration (the embedding hides it).
func (g judged) Narrate(e engine.Event, players []string) []engine.Message {
	return g.Game.(engine.Narrator).Narrate(e, players)
}

func (g judged) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	if len(d.Legal) < 2 {
		return engine.Judgement{}, engine.ErrForced
	}
	rng := rand.New(rand.NewPCG(o.Seed, 3))
	val := func(a engine.Action, pts, win float64) engine.Valued {
		b, _ := json.Marshal(a)
		return engine.Valued{Action: b, Points: pts, Win: win,
			Says: []engine.Message{{Key: "test.play", Args: map[string]any{"action": string(b)}}}}
	}
	best := 0.3 + 0.6*rng.Float64()
	lost := []float64{0, 0, 0.01, 0.07, 0.12, 0.3}[rng.IntN(6)]
	j := engine.Judgement{Best: val(d.Legal[0], 20, best), Notes: []engine.Message{{Key: "test.why"}}}
	if d.Chosen != nil {
		j.Chosen = val(d.Chosen, 20-40*lost, max(0, best-lost))
		if string(j.Chosen.Action) == string(j.Best.Action) {
			j.Chosen = j.Best
		}
		// Two seats (botGame's).
		j.Balance = []float64{j.Chosen.Win, 1 - j.Chosen.Win}
		if d.Seat == 1 {
			j.Balance = []float64{1 - j.Chosen.Win, j.Chosen.Win}
		}
	}
	return j, nil
}

// botRecord plays a seeded two-seat game of g (ann and bob) with its
// default bots.
func botRecord(t *testing.T, g engine.Game, seed uint64) engine.Record {
	t.Helper()
	r, err := engine.NewRunner(g, []string{"ann", "bob"}, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	bp := g.(engine.BotProvider)
	bots := make([]engine.Controller, 2)
	for p := range bots {
		if bots[p], err = bp.NewBot(g.Info().DefaultBot, engine.BotSeed(seed, engine.Seat(p))); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.PlayBots(bots); err != nil {
		t.Fatal(err)
	}
	return r.Record
}

// botGame plays a two-seat game of id with its default bots and reviews
// it with the made-up analyst.
func botGame(t *testing.T, id string, seed uint64) (engine.Game, engine.Record, *engine.Review) {
	t.Helper()
	base, _ := all.Registry.Lookup(id)
	rec := botRecord(t, base, seed)
	g := judged{base}
	rv, err := engine.ReviewRecord(context.Background(), g, rec, engine.ReviewOptions{Seed: seed, Workers: 2})
	if err != nil {
		t.Fatal(err)
	}
	return g, rec, rv
}

// tallyGame is a 12-round game of tally between ann and bob with a few
// mistakes on both sides, reviewed.
func tallyGame(noWin bool, players ...string) (engine.Game, engine.Record, *engine.Review) {
	if len(players) == 0 {
		players = []string{"ann", "bob"}
	}
	g := tally{rounds: 12, noWin: noWin}
	picks := []int{3, 2, 3, 3, 1, 3, 3, 3, 2, 3, 3, 1, 3, 3, 3, 3, 2, 3, 1, 3, 3, 3, 2, 3, 3, 1, 3, 3, 3, 3, 3, 2, 3, 3, 1, 3, 3, 3, 3, 2, 3, 3, 3, 3}
	rec := tallyRecord(g, players, picks, 5)
	return g, rec, tallyReview(g, rec)
}

// TestReviewGolden compares review screens (summary, decision, keys; a
// tiny test game, and real boards with a made-up analyst) with
// testdata/TestReviewGolden/*.golden. After a deliberate change, rerun
// with: go test ./tui -run TestReviewGolden -update
func TestReviewGolden(t *testing.T) {
	type game func() (engine.Game, engine.Record, *engine.Review)
	tallyWin := func() (engine.Game, engine.Record, *engine.Review) { return tallyGame(false) }
	tallyNoWin := func() (engine.Game, engine.Record, *engine.Review) { return tallyGame(true) }
	tallyOf := func(players ...string) game {
		return func() (engine.Game, engine.Record, *engine.Review) { return tallyGame(false, players...) }
	}
	real := func(id string, seed uint64) game {
		return func() (engine.Game, engine.Record, *engine.Review) { return botGame(t, id, seed) }
	}
	cases := []struct {
		name string
		game game
		w, h int
		keys []string
	}{
		{name: "summary_120x40", game: tallyWin, w: 120, h: 40},
		{name: "summary_80x24", game: tallyWin, w: 80, h: 24},
		{name: "summary_end_80x24", game: tallyWin, w: 80, h: 24, keys: []string{"end"}},
		{name: "turning_80x24", game: tallyWin, w: 80, h: 24, keys: []string{"t"}},
		{name: "open_120x40", game: tallyWin, w: 120, h: 40, keys: []string{"enter"}},
		{name: "open_80x24", game: tallyWin, w: 80, h: 24, keys: []string{"enter", "n"}},
		{name: "keys_80x24", game: tallyWin, w: 80, h: 24, keys: []string{"?"}},
		{name: "no_balance_80x24", game: tallyNoWin, w: 80, h: 24},
		{name: "four_seats_120x40", game: tallyOf("ann", "bob", "carol", "a very long name indeed"), w: 120, h: 40},
		{name: "four_seats_80x24", game: tallyOf("ann", "bob", "carol", "a very long name indeed"), w: 80, h: 24},
		{name: "solo_80x24", game: tallyOf("ann"), w: 80, h: 24},
		{name: "dicestars_120x40", game: real("dicestars", 3), w: 120, h: 40, keys: []string{"n", "n", "enter"}},
		{name: "dicestars_80x24", game: real("dicestars", 3), w: 80, h: 24, keys: []string{"n", "n", "enter"}},
		{name: "dicestars_words_80x24", game: real("dicestars", 3), w: 80, h: 24, keys: []string{"n", "n", "enter", "tab"}},
		{name: "bookworm_120x40", game: real("bookworm", 4), w: 120, h: 40, keys: []string{"n", "enter"}},
		{name: "diceflick_80x24", game: real("diceflick", 5), w: 80, h: 24, keys: []string{"n", "n", "enter"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g, rec, rv := c.game()
			r, err := newReviewScreen(g, rec, rv)
			if err != nil {
				t.Fatal(err)
			}
			for _, k := range c.keys {
				if r.key(k, c.h) != reviewStays {
					t.Fatalf("%s left the review", k)
				}
			}
			out := ansi.Strip(r.render(c.w, c.h))
			checkSize(t, out, c.w, c.h)
			golden.RequireEqual(t, out)
		})
	}
}

// TestReviewReportGolden: the plain report (for pipes) of the tally game
// with win chances, and without.
func TestReviewReportGolden(t *testing.T) {
	for name, noWin := range map[string]bool{"balance": false, "points": true} {
		t.Run(name, func(t *testing.T) {
			g, rec, rv := tallyGame(noWin)
			var b bytes.Buffer
			if err := ReviewReport(&b, g.Info(), rec, rv); err != nil {
				t.Fatal(err)
			}
			if strings.Contains(b.String(), "\x1b[") {
				t.Fatal("the report for a pipe holds terminal codes")
			}
			golden.RequireEqual(t, b.Bytes())
		})
	}
}

// TestCoachGolden: the hint under a board, and the end screen while the
// review is computed, at 80×24 and 120×40.
func TestCoachGolden(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		w, h := size[0], size[1]
		t.Run("hint_"+sizeName(w, h), func(t *testing.T) {
			g := soloTally(t, 4)
			g.send(tea.WindowSizeMsg{Width: w, Height: h})
			g.press("3")
			g.settle()
			g.press("h")
			out := g.screen()
			checkSize(t, out, w, h)
			golden.RequireEqual(t, out)
		})
		t.Run("reviewing_"+sizeName(w, h), func(t *testing.T) {
			g := soloTally(t, 4)
			g.send(tea.WindowSizeMsg{Width: w, Height: h})
			playTally(g)
			g.Update(keyMsg("r")) // its command not run: still reviewing
			g.reviewJob.total.Store(8)
			g.reviewJob.done.Store(3)
			out := g.screen()
			checkSize(t, out, w, h)
			golden.RequireEqual(t, out)
			g.press("esc")
		})
	}
}

func sizeName(w, h int) string { return fmt.Sprintf("%dx%d", w, h) }

// TestReviewReportFromJSON: a review read back from indented JSON (as
// `dicehall review --json` writes it) reads the same: actions compare by
// their content, not their layout.
func TestReviewReportFromJSON(t *testing.T) {
	g, rec, rv := tallyGame(false)
	data, err := json.MarshalIndent(rv, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	var back engine.Review
	if err := json.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	var a, b bytes.Buffer
	if err := ReviewReport(&a, g.Info(), rec, rv); err != nil {
		t.Fatal(err)
	}
	if err := ReviewReport(&b, g.Info(), rec, &back); err != nil {
		t.Fatal(err)
	}
	if a.String() != b.String() {
		t.Fatalf("from JSON:\n%s\nwant:\n%s", b.String(), a.String())
	}
}

// TestReviewRealGolden: the review of a seeded two-seat game of every game
// that judges its decisions, played by its default bots and reviewed by
// its own analysis: the summary at 80×24, the costliest decision's
// position at 120×40. (A game that does not judge yet is skipped.)
func TestReviewRealGolden(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		if !engine.Reviewable(g) || !HasBoard(id) || g.Info().DefaultBot == "" {
			continue
		}
		t.Run(id, func(t *testing.T) {
			rec := botRecord(t, g, 9)
			rv, err := engine.ReviewRecord(context.Background(), g, rec, engine.ReviewOptions{Seed: 7, Workers: 2})
			if err != nil {
				t.Fatal(err)
			}
			r, err := newReviewScreen(g, rec, rv)
			if err != nil {
				t.Fatal(err)
			}
			if len(rv.Seats) > 0 && len(rv.Seats[0].Worst) > 0 {
				r.sel = rv.Seats[0].Worst[0] // ann's costliest
			}
			for _, c := range []struct {
				name string
				w, h int
				keys []string
			}{{"summary_80x24", 80, 24, nil}, {"worst_120x40", 120, 40, []string{"enter"}}} {
				t.Run(c.name, func(t *testing.T) {
					for _, k := range c.keys {
						r.key(k, c.h)
					}
					out := ansi.Strip(r.render(c.w, c.h))
					checkSize(t, out, c.w, c.h)
					golden.RequireEqual(t, out)
				})
			}
		})
	}
}
