package diceflick

import (
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// The log lines of every Diceflick event, as the terminal and scripts write
// them: a base by its side, a score by its parts, lists as "a, b and c".
func TestNarrateSentences(t *testing.T) {
	players := []string{"ann", "bob"}
	ev := func(kind string, seat engine.Seat, data any) engine.Event {
		return engine.Event{Kind: kind, Seat: seat, Data: data}
	}
	cases := []struct {
		e    engine.Event
		want []string
	}{
		{ev("draw", engine.ChanceSeat, DrawEvent{Player: "ann", Dice: []string{"green", "pink", "blue"}}), []string{"ann draws 3 dice: green, pink and blue"}},
		{ev("draw", engine.ChanceSeat, DrawEvent{Player: "ann", Dice: []string{"white"}, Bonus: true}), []string{"ann draws the bonus die: white"}},
		{ev("flick", 1, FlickEvent{Color: "blue", Flick: physics.Flick{Base: 1, Angle: 0.3, Power: 0.5}}), []string{"bob flicks the blue die from the west base"}},
		{ev("land", engine.ChanceSeat, LandEvent{Color: "blue", Where: "hole", Hole: "4,2", Face: 3}), []string{"  the blue die lands in hole 4,2, showing 3"}},
		{ev("land", engine.ChanceSeat, LandEvent{Color: "pink", Where: "hole", Hole: "2,2", Centre: true}), []string{"  the pink die lands in the centre hole: it counts double"}},
		{ev("land", engine.ChanceSeat, LandEvent{Color: "blue", Where: "hole", Hole: "3,3", Face: 6, Bonus: true}), []string{"  the blue die lands on the bonus marker (hole 3,3), showing 6: one more die and one more flick"}},
		{ev("land", engine.ChanceSeat, LandEvent{Color: "green", Where: "trench"}), []string{"  the green die drops into the trench: back into the bag"}},
		{ev("score", 0, ScoreEvent{Player: "ann", Total: 0, Best: 0}), []string{"ann scores 0 points"}},
		{ev("score", 0, ScoreEvent{Player: "ann", Total: 1, Best: 1, Parts: []ScorePart{{Kind: "centre", Points: 1}}}), []string{"ann scores 1 point: 1 for the centre die"}},
		{ev("score", 0, ScoreEvent{Player: "ann", Total: 16, Best: 20, Parts: []ScorePart{
			{Kind: "group", Color: "blue", Points: 9}, {Kind: "centre", Points: 4}, {Kind: "blast", Line: "row", At: "1,1", Points: 3}}}),
			[]string{"ann scores 16 points: 9 for the blue group, 4 for the centre die and 3 for the blast die's row (20 points were on offer)"}},
		{ev("round-end", engine.SystemSeat, RoundEvent{Round: 2, Totals: []int{23, 33}}), []string{"── end of round 2, totals: ann 23 and bob 33"}},
		{ev("game-over", engine.SystemSeat, EndEvent{Scores: []int{5, 5}, Winners: []string{"ann", "bob"}}), []string{"game over: ann and bob won"}},
	}
	for _, c := range cases {
		if got := engine.Describe(Game{}, c.e, players); !slices.Equal(got, c.want) {
			t.Errorf("%s %+v: got %q, want %q", c.e.Kind, c.e.Data, got, c.want)
		}
	}
}
