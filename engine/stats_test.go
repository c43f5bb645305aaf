package engine_test

import (
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// tapCounter counts, per seat, the taps played and the taps a deadline
// beat; per game, the timeouts (counted by move) and the final total of
// points (counted at the end).
type tapCounter struct{}

func (tapCounter) Stats(int) (seat, game []engine.Stat) {
	return []engine.Stat{{Key: "tap.taps", Label: "taps"}, {Key: "tap.late", Label: "late"}},
		[]engine.Stat{{Key: "tap.timeouts", Label: "timeouts", Total: true}, {Key: "tap.points", Label: "points"}}
}

func (tapCounter) CountMove(t *engine.Tally, _ engine.State, m engine.Move, _ []engine.Event, beaten []engine.Move) {
	if m.Seat == engine.SystemSeat {
		t.Game[0]++
	} else {
		t.Seat[m.Seat][0]++
	}
	for _, b := range beaten {
		t.Seat[b.Seat][1]++
	}
}

func (tapCounter) CountEnd(t *engine.Tally, st engine.State) {
	for _, s := range st.Result().Scores {
		t.Game[1] += s
	}
}

func TestPlayCounted(t *testing.T) {
	// Seat 0 thinks 2.5 s with 2 s on the clock: both its turns time out,
	// its taps beaten; seat 1 taps twice.
	st := newTap(2, 2000)
	slow := &pacedBot{tapBot{name: "slow", think: 2500}}
	got, err := engine.PlayCounted(st, []engine.Controller{slow, &tapBot{name: "fast"}}, engine.NewSource(1), tapCounter{})
	if err != nil {
		t.Fatal(err)
	}
	want := engine.Tally{Seat: [][]int{{0, 2}, {2, 0}}, Game: []int{2, 2}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tally %+v, want %+v", got, want)
	}

	// Without a counter the game is still played, and nothing is counted.
	st = newTap(2, 0)
	got, err = engine.PlayCounted(st, []engine.Controller{&tapBot{name: "a"}, &tapBot{name: "b"}}, engine.NewSource(1), nil)
	if err != nil || !st.Result().Over || got.Seat != nil || got.Game != nil {
		t.Fatalf("no counter: %+v, over %v, err %v", got, st.Result().Over, err)
	}
}
