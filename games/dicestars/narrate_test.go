package dicestars

import (
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// The log lines of every Dice Stars event, as the terminal writes them (its
// golden screens show them): dice by colour and face ("orange ★"), lists
// as "a, b and c".
func TestNarrateSentences(t *testing.T) {
	players := []string{"ann", "You"}
	ev := func(kind string, seat engine.Seat, data any) engine.Event {
		return engine.Event{Kind: kind, Seat: seat, Data: data}
	}
	cases := []struct {
		e    engine.Event
		want []string
	}{
		{ev("refill", 0, RefillEvent{FromDiscard: 9}), []string{"ann put the 9 discarded dice back into the bag"}},
		{ev("refill", 0, RefillEvent{FromDiscard: 9, FromReserve: 2}), []string{"ann put the 9 discarded dice and the 2 dice of the reserve back into the bag"}},
		{ev("draw", 0, DrawEvent{Announced: 3, Count: 3}), []string{"ann draws 3 dice…"}},
		{ev("draw", 1, DrawEvent{Announced: 2, Count: 2}), []string{"You draw 2 dice…"}},
		{ev("draw", 0, DrawEvent{Announced: 4, Count: 1}), []string{"ann announced 4 dice; the bag holds only 1"}},
		{ev("draw", 0, DrawEvent{Announced: 3, Count: 0}), []string{"ann announced 3 dice, but the bag is empty"}},
		{ev("roll", engine.ChanceSeat, RollEvent{Dice: []string{"orange:star", "blue:5"}, Player: 1}), []string{"You drew orange ★ and blue 5"}},
		{ev("take", 0, TakeEvent{Choice: "color", Color: "blue", Dice: []string{"blue:5"}, Sum: 5}), []string{"ann took 1 blue die (sum 5) into the blue column"}},
		{ev("take", 0, TakeEvent{Choice: "color", Color: "red", Dice: []string{"red:5", "red:1"}, Sum: 6, Penalty: true}), []string{"ann took 2 red dice (sum 6) as a penalty: 6 in the penalty cell"}},
		{ev("take", 0, TakeEvent{Choice: "value", Value: 4, Dice: []string{"red:4", "blue:4"}, Sum: 8}), []string{"ann took 2 dice showing 4 (sum 8) into row 4"}},
		{ev("take", 0, TakeEvent{Choice: "value", Value: 4, Dice: []string{"red:4"}, Sum: 4, Penalty: true}), []string{"ann took 1 die showing 4 (sum 4) as a penalty: 4 in the penalty cell"}},
		{ev("take", 0, TakeEvent{Choice: "stars", Dice: []string{"orange:star"}, Mult: []int{3}}), []string{"ann took 1 star: 1 multiplier in row 3"}},
		{ev("take", 0, TakeEvent{Choice: "stars", Dice: []string{"orange:star", "black:star"}, Mult: []int{2, 5}}), []string{"ann took 2 stars: 1 multiplier in row 2 and 1 multiplier in row 5"}},
		{ev("take", 0, TakeEvent{Choice: "stars", Dice: []string{"orange:star", "black:star", "blue:star"}, Mult: []int{4, 2, 4}}), []string{"ann took 3 stars: 2 multipliers in row 4 and 1 multiplier in row 2"}},
		{ev("end-triggered", 0, nil), []string{"the end is triggered: the round is played out"}},
		{ev("solo", 0, SoloEvent{Marks: 2, Marked: 7, Cells: 30}), []string{"solo grid: +2 (7 of 30 crossed out)"}},
		{ev("solo", 0, SoloEvent{Marks: 0, Marked: 7, Cells: 30}), nil},
		{ev("solo", 0, SoloEvent{Marks: 3, Marked: 30, Cells: 30, Lost: true}), []string{"solo grid: +3, all 30 cells crossed out: the virtual opponent wins"}},
		{ev("game-over", 0, EndEvent{Scores: []int{3, 5}, Winners: []string{"You"}}), []string{"game over: You wins"}},
		{ev("game-over", 0, EndEvent{Scores: []int{5, 5}, Winners: []string{"ann", "You"}}), []string{"game over: ann and You share the win"}},
		{ev("game-over", 0, EndEvent{Scores: []int{5}}), []string{"game over"}},
		{ev("game-over", 0, EndEvent{Scores: []int{5, 5, 5}, Winners: []string{"ann", "bob", "cy"}}), []string{"game over: ann, bob and cy share the win"}},
	}
	for _, c := range cases {
		if got := engine.Describe(Game{}, c.e, players); !slices.Equal(got, c.want) {
			t.Errorf("%s %+v: got %q, want %q", c.e.Kind, c.e.Data, got, c.want)
		}
	}
}
