package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/pig"
)

func TestSimReportIndependentOfWorkers(t *testing.T) {
	one := simSameForWorkers(t, "dicestars", "--bots", "greedy,random", "--games", "24", "--seed", "3")
	if one.Games != 24 || len(one.Bots) != 2 || one.Solo {
		t.Fatalf("unexpected report shape: %+v", one)
	}
	g, r := one.Bots[0], one.Bots[1]
	if g.Bot != "greedy" || r.Bot != "random" {
		t.Fatalf("bots %q, %q", g.Bot, r.Bot)
	}
	if g.Wins+g.Ties+g.Losses != 24 || g.Wins+r.Wins+g.Ties != 24 {
		t.Fatalf("counts do not add up: %+v %+v", g, r)
	}
	// Greedy beats random nearly always (99.6% over 2000 games); at this seed
	// it must win the large majority.
	if g.Wins < 20 {
		t.Fatalf("greedy won only %d of 24 against random", g.Wins)
	}
}

func TestSimSoloAndPlot(t *testing.T) {
	plot := filepath.Join(t.TempDir(), "scores.png")
	rep := simReport(t, "dicestars", "--bots", "greedy", "--games", "8", "--seed", "2", "--plot", plot)
	if !rep.Solo || len(rep.Bots) != 1 || stat(rep.Stats, "dicestars.stat.gridLosses") == nil || stat(rep.Stats, "dicestars.stat.opponent") == nil {
		t.Fatalf("solo report expected: %+v", rep)
	}
	// The options reach the table: a solo grid of 3 cells fills up in
	// every game.
	small := simReport(t, "dicestars", "--bots", "greedy", "--games", "8", "--seed", "2", "--options", `{"soloGrid": 3}`)
	if g := stat(small.Stats, "dicestars.stat.gridLosses"); g == nil || g.Value != 8 {
		t.Fatalf("a 3-cell solo grid: %+v", small)
	}
	png, err := os.ReadFile(plot)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(png, []byte("\x89PNG")) {
		t.Fatalf("plot is not a PNG (%d bytes)", len(png))
	}
}

// Without --bots, a game's bots play each other strongest first.
func TestSimDefaultBots(t *testing.T) {
	rep := simReport(t, "dicestars", "--games", "1")
	var got []string
	for _, b := range rep.Bots {
		got = append(got, b.Bot)
	}
	if strings.Join(got, ",") != "master,expert,greedy,random" || rep.Stats != nil {
		t.Fatalf("default bots %v, stats %+v", got, rep.Stats)
	}
}

func TestSimRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "nosuchgame"},
		{"sim", "dicestars", "--bots", "greedy,nosuchbot"},
		{"sim", "dicestars", "--bots", "a,b,c,d,e"},
	} {
		if _, code := runDicehall(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestSimBookworm(t *testing.T) {
	one := simSameForWorkers(t, "bookworm", "--bots", "hard,easy", "--games", "16", "--seed", "1")
	a, _ := json.Marshal(one)
	rounds := stat(one.Stats, "bookworm.stat.rounds")
	if one.Game != "bookworm" || one.Games != 16 || len(one.Bots) != 2 || rounds == nil || rounds.Value < 1 {
		t.Fatalf("unexpected report shape: %s", a)
	}
	h, e := one.Bots[0], one.Bots[1]
	hFails, eFails := stat(h.Stats, "bookworm.stat.fails"), stat(e.Stats, "bookworm.stat.fails")
	if h.Bot != "hard" || e.Bot != "easy" || hFails == nil || eFails == nil || len(h.Stats) != 5 {
		t.Fatalf("bots: %s", a)
	}
	if h.Wins+h.Ties+h.Losses != 16 || h.Wins+e.Wins+h.Ties != 16 {
		t.Fatalf("counts do not add up: %+v %+v", h, e)
	}
	// Hard wins about 99% against easy (docs/performance.md); at this seed
	// it must win the large majority, and the easy bot fails more turns.
	if h.Wins < 13 || eFails.Value <= hFails.Value {
		t.Fatalf("hard %+v, easy %+v", h, e)
	}

	// Without --bots: hard, medium and easy; options reach the table.
	def := simReport(t, "bookworm", "--games", "2", "--options", `{"special": false, "target": 5}`)
	if len(def.Bots) != 3 || def.Bots[0].Bot != "hard" || def.Bots[2].Bot != "easy" {
		t.Fatalf("default bots: %+v", def.Bots)
	}
	if r := stat(def.Stats, "bookworm.stat.rounds"); r.Value > 2*2 {
		t.Fatalf("target 5 took %.1f rounds a game", r.Value)
	}

	out, code := runDicehall(t, "", "sim", "bookworm", "--bots", "medium,medium", "--games", "2")
	if code != 0 || !strings.Contains(out, "Bookworm: The Dice Game, 2 games") || !strings.Contains(out, "medium#2") ||
		!strings.Contains(out, "failed turns") || !strings.Contains(out, "rounds: ") {
		t.Fatalf("text report (exit %d):\n%s", code, out)
	}
}

func TestSimBookwormRefusesBadArguments(t *testing.T) {
	for _, args := range [][]string{
		{"sim", "bookworm", "--bots", "hard"},
		{"sim", "bookworm", "--bots", "hard,expert"},
		{"sim", "bookworm", "--bots", "easy,easy,easy,easy,easy,easy,easy"},
		{"sim", "bookworm", "--options", `{"special": 3}`},
		{"sim", "dicestars", "--options", `{"special": false}`},
		{"sim", "dicestars", "--options", `{"soloGrid": "x"}`},
		{"sim", "dicestars", "--options", `not json`},
	} {
		if _, code := runDicehall(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

func TestSimDiceflick(t *testing.T) {
	one := simSameForWorkers(t, "diceflick", "--bots", "hard,easy", "--games", "12", "--seed", "1")
	a, _ := json.Marshal(one)
	if one.Game != "diceflick" || one.Games != 12 || len(one.Bots) != 2 || one.Solo || one.Stats != nil {
		t.Fatalf("unexpected report shape: %s", a)
	}
	h, e := one.Bots[0], one.Bots[1]
	if h.Bot != "hard" || e.Bot != "easy" || h.Stats != nil {
		t.Fatalf("bots: %s", a)
	}
	if h.Wins+h.Ties+h.Losses != 12 || h.Wins+e.Wins+h.Ties != 12 {
		t.Fatalf("counts do not add up: %+v %+v", h, e)
	}
	// Hard wins about 97% against easy (docs/performance.md); at this seed
	// it must win the large majority.
	if h.Wins < 9 || h.Score.Mean < e.Score.Mean+20 {
		t.Fatalf("hard %+v, easy %+v", h, e)
	}

	// Without --bots: hard, medium and easy.
	def := simReport(t, "diceflick", "--games", "1")
	if len(def.Bots) != 3 || def.Bots[0].Bot != "hard" || def.Bots[2].Bot != "easy" {
		t.Fatalf("default bots: %+v", def.Bots)
	}

	out, code := runDicehall(t, "", "sim", "diceflick", "--bots", "medium", "--games", "2")
	if code != 0 || !strings.Contains(out, "Diceflick, 2 games") || !strings.Contains(out, "practice alone") ||
		strings.Contains(out, "virtual opponent") {
		t.Fatalf("text report (exit %d):\n%s", code, out)
	}
	for _, args := range [][]string{
		{"sim", "diceflick", "--bots", "hard,expert"},
		{"sim", "diceflick", "--bots", "easy,easy,easy,easy,easy"},
		{"sim", "diceflick", "--options", `{"rounds": -1}`},
		{"sim", "diceflick", "--options", `{"target": 5}`},
	} {
		if _, code := runDicehall(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2", args, code)
		}
	}
}

// stat finds a game's count in a report by its key (nil when absent).
func stat(stats []SimStat, key string) *SimStat {
	for i := range stats {
		if stats[i].Key == key {
			return &stats[i]
		}
	}
	return nil
}

// simReport runs sim with --json and decodes its report.
func simReport(t *testing.T, args ...string) SimReport {
	t.Helper()
	out, code := runDicehall(t, "", append(append([]string{"sim"}, args...), "--json")...)
	if code != 0 {
		t.Fatalf("sim exited %d: %s", code, out)
	}
	var rep SimReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("sim --json output: %v\n%s", err, out)
	}
	return rep
}

// simSameForWorkers runs sim with one worker and with two and checks the
// reports are the same: results depend on the seeds alone.
func simSameForWorkers(t *testing.T, args ...string) SimReport {
	t.Helper()
	one, two := simReport(t, append(args, "--workers", "1")...), simReport(t, append(args, "--workers", "2")...)
	a, _ := json.Marshal(one)
	b, _ := json.Marshal(two)
	if !bytes.Equal(a, b) {
		t.Fatalf("results depend on the worker count:\n1: %s\n2: %s", a, b)
	}
	return one
}

// withGames makes the commands offer games beside the registered ones for
// the rest of the test.
func withGames(t *testing.T, games ...engine.Game) {
	t.Helper()
	old := registry
	r := &engine.Registry{}
	for _, id := range old.IDs() {
		g, _ := old.Lookup(id)
		r.Register(g)
	}
	for _, g := range games {
		r.Register(g)
	}
	registry = r
	t.Cleanup(func() { registry = old })
}

// A game sim has never heard of (the test-only pig) is simulated from its
// Info alone: default bots, options validated by the game, the one-player
// mode named from its catalogue.
func TestSimAnyGame(t *testing.T) {
	withGames(t, pig.Game{})
	rep := simReport(t, "pig", "--games", "40", "--seed", "3")
	if rep.Game != "pig" || rep.Games != 40 || len(rep.Bots) != 2 || rep.Bots[0].Bot != "bold" {
		t.Fatalf("report %+v", rep)
	}
	if rep.Bots[0].Wins+rep.Bots[0].Ties+rep.Bots[0].Losses != 40 {
		t.Fatalf("bold bot: %+v", rep.Bots[0])
	}
	solo := simReport(t, "pig", "--bots", "cautious", "--games", "5", "--options", `{"target": 10}`)
	if !solo.Solo || solo.Bots[0].Score.Min < 10 {
		t.Fatalf("solo report %+v", solo)
	}
	if out, code := runDicehall(t, "", "sim", "pig", "--options", `{"target": 5}`); code != 2 {
		t.Fatalf("target 5: exit %d: %s", code, out)
	}
}
