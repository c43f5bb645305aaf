package tui

import (
	"strings"
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
		steps func(g *dfGame)
	}{
		{name: "aim", names: []string{"ann", "bob"}, steps: func(g *dfGame) {
			g.press("2", "shift+down", "left", "left", "left")
		}},
		{name: "rolling", names: []string{"ann", "bob"}, steps: func(g *dfGame) {
			g.press("shift+down", "space")
			g.ticks(3)
		}},
		{name: "scoring", names: []string{"ann", "bob"}, steps: func(g *dfGame) {
			scoringArena(g)
			g.press("down")
		}},
		{name: "refused", names: []string{"ann", "bob"}, steps: func(g *dfGame) {
			scoringArena(g)
			g.press("down", "down", "space", "enter")
		}},
		{name: "bot_aims", names: []string{"ann", "bot"}, steps: func(g *dfGame) {
			scoringArena(g)
			g.press("enter")
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newDF(t, dfPeople(c.names...), 5, "", 100, 30)
			c.steps(g)
			out := g.screen()
			lines := strings.Split(out, "\n")
			if len(lines) != 30 {
				t.Fatalf("%d lines on a 30-line screen", len(lines))
			}
			for i, l := range lines {
				if w := len([]rune(l)); w > 100 {
					t.Fatalf("line %d is %d wide on a 100-wide screen: %q", i, w, l)
				}
			}
			golden.RequireEqual(t, out)
		})
	}
}
