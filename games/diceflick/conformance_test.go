package diceflick

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// TestConformance runs the engine's suite on Diceflick, 1 to 4 players, with
// the children's variant and short games, landings by the fake simulator.
func TestConformance(t *testing.T) {
	enginetest.Run(t, Game{Sim: fakeSim}, enginetest.Config{
		Options: []string{`{"rounds":3}`, `{"rounds":2,"shiftBases":true}`},
		Representative: "while flicking, for each die in hand (in hand order) and each base 0 to 3, " +
			"the straight flick from the centred base at power 0.5 (angle 0, offset 0); then, " +
			"when the bonus flick may be declined and while scoring, the best scoring choice " +
			"followed by scoring nothing. The first is the first die's flick from base 0, or " +
			"the best choice while scoring.",
		Propose: proposeFlicks,
	})
}

// TestConformanceRealArena plays the suite's games with the real physics,
// whose landings the rules must accept too.
func TestConformanceRealArena(t *testing.T) {
	// The race pass (-short) plays two players only and reviews with a
	// quarter of the samples: the review's workers still run side by side,
	// and the full pass has the rest.
	players, budget := []int{1, 2}, 0
	if testing.Short() {
		players, budget = []int{2}, reviewSamples/4
	}
	enginetest.Run(t, Game{Sim: ArenaSim(&physics.DefaultArena)}, enginetest.Config{
		Players: players, ReviewBudget: budget, Options: []string{`{"rounds":2}`}, Games: 1, Propose: proposeFlicks,
		Representative: "as in TestConformance",
	})
}

// proposeFlicks suggests flicks at any angle, power and offset (some out of
// range), stopping, and scoring a random group.
func proposeFlicks(st engine.State, seat engine.Seat, src engine.Source) []engine.Action {
	s := &st.(*Match).S
	u := func(lo, hi float64) float64 { return lo + (hi-lo)*float64(src.IntN(1001))/1000 }
	out := []engine.Action{
		Action{Type: ActFlick, Die: src.IntN(int(s.NHand[s.Current]) + 1), Flick: physics.Flick{
			Base: src.IntN(5), Offset: u(-1.1, 1.1), Angle: u(-1.1, 1.1) * s.C.MaxAngle, Power: u(-0.05, 1.05)}},
		Action{Type: ActFlick, Flick: physics.Flick{Base: src.IntN(4), Angle: u(-1, 1) * s.C.MaxAngle, Power: u(0.2, 0.9)}},
		Action{Type: ActScore, Choice: Choice{Groups: [][]int{{src.IntN(Holes), src.IntN(Holes), src.IntN(Holes)}}, Centre: src.IntN(2) == 0}},
	}
	return out
}
