package tui

import (
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm"

	"github.com/charmbracelet/x/exp/golden"
)

// bwGoldenCase is a Bookworm screen to compare: the people seated, the
// screen size, and the steps that lead to it.
type bwGoldenCase struct {
	name  string
	names []string
	w, h  int
	steps func(g *table)
}

// TestBookwormGolden compares rendered Bookworm screens (fixed size, seed
// and clock; colours stripped) with testdata/TestBookwormGolden/*.golden.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestBookwormGolden -update
func TestBookwormGolden(t *testing.T) {
	cases := []bwGoldenCase{
		{name: "category", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {}},
		{name: "typing", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.advance(3200)
			g.typeWord("Rome")
			g.press("tab")
		}},
		{name: "refused", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.typeWord("berlin")
			g.press("0", "enter")
		}},
		{name: "countdown", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.advance(12400)
		}},
		{name: "challenge", names: []string{"ann", "bob", "cat"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.typeWord(g.unknownWord(0, 0))
			g.press("0", "enter", "c")
		}},
		{name: "vote", names: []string{"ann", "bob", "cat"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.typeWord(g.unknownWord(0, 0))
			g.press("0", "enter", "c", "1", "n", "3")
			g.advance(1500)
		}},
		{name: "round_end", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.playRound()
		}},
		{name: "narrow", names: []string{"ann", "bob", "cat", "dan"}, w: 80, h: 24, steps: func(g *table) {
			g.press("2")
			g.playRound()
			g.press("enter", "3")
		}},
	}
	playToEnd := func(g *table) {
		for n := 0; !g.st().Over(); n++ {
			if n > 40 {
				g.t.Fatal("the game does not end")
			}
			switch {
			case g.bw().pause:
				g.press("enter")
			case g.st().Phase == bookworm.PhaseCategory, g.st().Phase == bookworm.PhaseTurnTo:
				g.press("1")
			default:
				g.playRound()
			}
		}
	}
	cases = append(cases,
		// Every game at 80×24 and 120×40, in the middle and at the end.
		bwGoldenCase{name: "mid_80", names: []string{"you", "bob"}, w: 80, h: 24, steps: func(g *table) {
			g.press("1")
			g.typeWord(g.unknownWord(0, 0))
			g.press("0", "enter")
			g.advance(g.st().Deadline - g.Now() + 1)
			g.typeWord("t")
		}},
		bwGoldenCase{name: "mid_120", names: []string{"ann", "bob", "cat"}, w: 120, h: 40, steps: func(g *table) {
			g.press("1")
			g.playRound()
			g.press("enter", "2")
			g.typeWord(g.unknownWord(1, 0))
		}},
		bwGoldenCase{name: "end_80", names: []string{"ann", "bob", "cat"}, w: 80, h: 24, steps: playToEnd},
		bwGoldenCase{name: "end_120", names: []string{"ann", "bob", "cat"}, w: 120, h: 40, steps: playToEnd},
	)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			seed, opts := uint64(7), ""
			if strings.HasPrefix(c.name, "end") {
				opts = `{"target":12}`
			}
			g := newBW(t, people(c.names...), seed, opts, c.w, c.h)
			c.steps(g)
			out := g.screen()
			checkSize(t, out, c.w, c.h)
			golden.RequireEqual(t, out)
		})
	}
}

// TestBookwormTurnGolden: when the Special die rolls Turn, the Bookworm
// sees what each face it may choose does (seed 17 rolls Turn), at 80×24.
// After a deliberate change: go test ./tui -run TestBookwormTurnGolden -update
func TestBookwormTurnGolden(t *testing.T) {
	g := newBW(t, people("you", "bob"), 17, "", 80, 24)
	g.press("1")
	if g.st().Phase != bookworm.PhaseTurnTo {
		t.Fatalf("phase %s, want the Special die to turn", g.st().Phase)
	}
	out := g.screen()
	checkSize(t, out, 80, 24)
	golden.RequireEqual(t, out)
}
