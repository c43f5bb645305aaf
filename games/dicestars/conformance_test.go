package dicestars

import (
	"encoding/json"
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
)

// TestConformance runs the engine's suite on Dice Stars: 1 (the solo
// variant) to 4 players, with the default layout, a small solo grid, and a
// layout whose rows and columns come in another order (actions must mean
// the same rows on the wire as in the rules). Legal is exhaustive; the
// proposals are arbitrary actions, mostly illegal, to hold it to that.
func TestConformance(t *testing.T) {
	enginetest.Run(t, Game{}, enginetest.Config{
		Options: []string{"", `{"soloGrid":12}`, reorderedLayout(t)},
		// A few rollouts a decision: the check reviews whole games.
		ReviewBudget: 24,
		Propose: func(st engine.State, _ engine.Seat, src engine.Source) []engine.Action {
			var mult [NumRows]uint8
			for r := range mult {
				mult[r] = uint8(src.IntN(4))
			}
			dice := [3]Die{Die(src.IntN(256)), Die(src.IntN(256)), Die(src.IntN(256))}
			return []engine.Action{anyAction(src.IntN(5), src.IntN(5), src.IntN(5), src.IntN(8), src.IntN(2) == 0, mult, dice)}
		},
	})
}

// reorderedLayout is the layout option with the rows, their bonus cells and
// the colour columns in reverse order.
func reorderedLayout(t *testing.T) string {
	l := DefaultLayout
	slices.Reverse(l.RowValues[:])
	slices.Reverse(l.Green[:])
	slices.Reverse(l.Multipliers[:])
	slices.Reverse(l.Columns[:])
	if err := l.Validate(); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(Options{Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
