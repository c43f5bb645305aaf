package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestDiceflickGolden compares rendered Diceflick screens (fixed size and
// seed; colours stripped) with testdata/TestDiceflickGolden/*.golden.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestDiceflickGolden -update
func TestDiceflickGolden(t *testing.T) {
	cases := []struct {
		name  string
		names []string
		steps func(g *table)
	}{
		{name: "aim", names: []string{"ann", "bob"}, steps: func(g *table) {
			g.press("2", "shift+down", "left", "left", "left")
		}},
		{name: "rolling", names: []string{"ann", "bob"}, steps: func(g *table) {
			g.press("shift+down", "space")
			g.ticks(3)
		}},
		{name: "scoring", names: []string{"ann", "bob"}, steps: func(g *table) {
			scoringArena(g)
			g.press("down")
		}},
		{name: "refused", names: []string{"ann", "bob"}, steps: func(g *table) {
			scoringArena(g)
			g.press("down", "down", "space", "enter")
		}},
		{name: "bot_aims", names: []string{"ann", "bot"}, steps: func(g *table) {
			scoringArena(g)
			g.press("enter")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newDF(t, dfPeople(c.names...), 5, "", 100, 30)
			c.steps(g)
			out := g.screen()
			checkSize(t, out, 100, 30)
			golden.RequireEqual(t, out)
		})
	}
}
