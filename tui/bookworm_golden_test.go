package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestBookwormGolden compares rendered Bookworm screens (fixed size, seed
// and clock; colours stripped) with testdata/TestBookwormGolden/*.golden.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestBookwormGolden -update
func TestBookwormGolden(t *testing.T) {
	cases := []struct {
		name  string
		names []string
		w, h  int
		steps func(g *table)
	}{
		{name: "category", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {}},
		{name: "typing", names: []string{"ann", "bob"}, w: 100, h: 30, steps: func(g *table) {
			g.press("1")
			g.advance(3200)
			g.typeWord("Rome")
			g.press("enter")
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
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newBW(t, people(c.names...), 7, "", c.w, c.h)
			c.steps(g)
			out := g.screen()
			checkSize(t, out, c.w, c.h)
			golden.RequireEqual(t, out)
		})
	}
}
