package tui

import (
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dicehall/dicehall/games/all"
)

// TestHelpGolden compares the help screen (the keys, then the rules) with
// testdata/TestHelpGolden/*.golden at 80×24 and 120×40: opened with ?, and
// scrolled into the rules. After a deliberate change, rerun with:
// go test ./tui -run TestHelpGolden -update
func TestHelpGolden(t *testing.T) {
	cases := []struct {
		name string
		id   string
		w, h int
		keys []tea.KeyPressMsg
	}{
		{name: "dicestars_80x24", id: "dicestars", w: 80, h: 24},
		{name: "dicestars_80x24_rules", id: "dicestars", w: 80, h: 24, keys: []tea.KeyPressMsg{{Code: tea.KeyPgDown}, {Code: tea.KeyPgDown}, {Code: tea.KeyDown}}},
		{name: "dicestars_120x40_solo", id: "dicestars", w: 120, h: 40, keys: []tea.KeyPressMsg{{Code: tea.KeyEnd}}},
		{name: "bookworm_80x24", id: "bookworm", w: 80, h: 24},
		{name: "diceflick_80x24_rules", id: "diceflick", w: 80, h: 24, keys: []tea.KeyPressMsg{{Code: tea.KeyPgDown}, {Code: tea.KeyPgDown}}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			g := newTable(t, c.id, seatsOf(t, c.id, "ann,bob", 1), 1, "", c.w, c.h)
			// Bookworm's first key is the Bookworm's category: nobody
			// types yet, so ? opens the help as anywhere.
			g.press("?")
			for _, k := range c.keys {
				g.send(k)
			}
			out := g.screen()
			checkSize(t, out, c.w, c.h)
			golden.RequireEqual(t, out)
		})
	}
}

// TestHelpScrolls: the help screen holds the game's rules below its keys,
// scrolls to their end and back, and closes on any other key without
// acting; ? while a person types is a letter of the board's, f1 still helps.
func TestHelpScrolls(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		if !HasBoard(id) {
			continue
		}
		g := newTable(t, id, seatsOf(t, id, "ann,bob", 1), 1, "", 80, 24)
		moves := len(g.Record().Moves)
		g.press("?")
		g.wantOnScreen("KEYS · ", "f1      this help", "lines 1–23 of ")
		g.send(tea.KeyPressMsg{Code: tea.KeyEnd})
		g.wantOnScreen("YOUR FIRST GAME")
		end := g.screen()
		g.send(tea.KeyPressMsg{Code: tea.KeyPgDown})
		if g.screen() != end {
			t.Fatalf("%s: the help scrolls past its end", id)
		}
		g.send(tea.KeyPressMsg{Code: tea.KeyHome})
		g.wantOnScreen("KEYS · ")
		g.send(tea.KeyPressMsg{Code: tea.KeyDown})
		if strings.Contains(g.screen(), "KEYS · ") {
			t.Fatalf("%s: down did not scroll", id)
		}
		g.send(tea.KeyPressMsg{Code: tea.KeyUp})
		g.wantOnScreen("KEYS · ")
		g.press("x")
		if strings.Contains(g.screen(), "KEYS · ") || len(g.Record().Moves) != moves {
			t.Fatalf("%s: the key that closes the help did more", id)
		}
		g.press("f1")
		g.wantOnScreen("KEYS · ")
		g.press("x")
	}
}
