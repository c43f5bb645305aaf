package tui

import (
	"testing"

	"github.com/charmbracelet/x/exp/golden"
)

// TestGolden compares rendered screens (fixed size, seed and clock; colours
// stripped) with testdata/TestGolden/*.golden. After a deliberate change to
// the screen, rerun with: go test ./tui -run TestGolden -update
func TestGolden(t *testing.T) {
	starSeed := starSeed(t, 2)
	cases := []struct {
		name    string
		players string
		seed    uint64
		w, h    int
		edit    func(*Config)
		keys    []string
		play    bool // play every person's turn by keys to the end
	}{
		{name: "start", players: "ann,bot:random", seed: 42, w: 120, h: 40},
		{name: "take", players: "ann,bot:random", seed: 42, w: 120, h: 40, keys: []string{"1", "3"}},
		{name: "illegal", players: "ann,bot:random", seed: 42, w: 120, h: 40, keys: []string{"3", "p"}},
		{name: "after_bot", players: "ann,bot:random", seed: 42, w: 120, h: 40, keys: []string{"3", "o"}},
		{name: "picker", players: "ann,bob", seed: starSeed, w: 120, h: 40, keys: []string{"3", "s", "6"}},
		{name: "refill", players: "ann,bob", seed: starSeed, w: 120, h: 40, keys: []string{"3", "s", "6", "6", "6", "enter", "r"}},
		{name: "refill_80", players: "ann,bob", seed: starSeed, w: 80, h: 24, keys: []string{"3", "s", "6", "6", "6", "enter", "r"}},
		{name: "quit", players: "ann,bob", seed: 1, w: 120, h: 40, keys: []string{"3", "q"}},
		{name: "narrow_2p", players: "ann,bot:random", seed: 42, w: 80, h: 24, keys: []string{"3", "o"}},
		{name: "narrow_4p", players: "ann,bob,cat,bot:random", seed: 7, w: 80, h: 24, keys: []string{"3"}},
		{name: "narrow_4p_tab", players: "ann,bob,cat,bot:random", seed: 7, w: 80, h: 24, keys: []string{"3", "tab", "tab"}},
		{name: "wide_4p", players: "ann,bob,cat,bot:random", seed: 7, w: 240, h: 40, keys: []string{"3"}},
		{name: "solo", players: "ann", seed: 3, w: 100, h: 30, keys: []string{"3"}},
		{name: "end", players: "ann,bot:random", seed: 42, w: 120, h: 40, play: true},
		{name: "end_80", players: "ann,bot:random", seed: 42, w: 80, h: 24, play: true},
		{name: "end_solo_80", players: "ann", seed: 3, w: 80, h: 24, play: true},
		{name: "solo_80", players: "ann", seed: 3, w: 80, h: 24, keys: []string{"3"}},
		{name: "you_80", players: "you,bot:greedy", seed: 42, w: 80, h: 24, keys: []string{"3"}},
		{name: "end_solo", players: "ann", seed: 3, w: 100, h: 40, play: true},
		// A crowded reserve: 7 dice named side by side, 9 by their letters at 80 columns.
		{name: "reserve_7_80", players: "ann,bob", seed: 1, w: 80, h: 24, keys: []string{"3", "k", "3", "b", "3"}},
		{name: "reserve_9_80", players: "ann,bob", seed: 1, w: 80, h: 24, keys: []string{"3", "k", "3", "b", "3", "b", "3"}},
		{name: "reserve_9", players: "ann,bob", seed: 1, w: 120, h: 40, keys: []string{"3", "k", "3", "b", "3", "b", "3"}},
		{name: "end_bots", players: "bot:random,bot:random,bot:random", seed: 9, w: 180, h: 45},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var edits []func(*Config)
			if c.edit != nil {
				edits = append(edits, c.edit)
			}
			g := newGame(t, c.players, c.seed, c.w, c.h, edits...)
			g.keys(c.keys...)
			if c.play {
				playByKeys(t, g, c.seed)
			}
			out := g.screen()
			checkSize(t, out, c.w, c.h)
			golden.RequireEqual(t, out)
		})
	}
}
