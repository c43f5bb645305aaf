package dicestars

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// playRandom plays a whole game with uniformly random legal moves.
func playRandom(t testing.TB, n int, seed uint64) State {
	s, err := NewState(nil, n)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(seed)
	buf := make([]Action, 0, 64)
	for steps := 0; !s.Over(); steps++ {
		if steps > 10000 {
			t.Fatalf("seed %d: game does not end", seed)
		}
		var a Action
		if s.Phase == PhaseRoll {
			a = s.SampleRoll(src)
		} else {
			buf = s.LegalActions(buf)
			if len(buf) == 0 {
				t.Fatalf("seed %d: no legal action in phase %v", seed, s.Phase)
			}
			a = buf[src.IntN(len(buf))]
		}
		if err := s.Apply(a); err != nil {
			t.Fatalf("seed %d: legal action %v refused: %v", seed, a, err)
		}
		checkDiceConserved(t, &s)
		checkCaches(t, &s)
	}
	return s
}

func checkDiceConserved(t testing.TB, s *State) {
	t.Helper()
	var count [NumColors]int
	for c := range count {
		count[c] = int(s.Bag[c]) + int(s.Discard[c])
	}
	for _, d := range s.ReserveDice() {
		count[d.Color()]++
	}
	for c := range count {
		if count[c] != s.L.Dice[c].Count {
			t.Fatalf("%s dice: %d in bag+reserve+discard, want %d", Color(c), count[c], s.L.Dice[c].Count)
		}
	}
}

func TestRandomGamesEnd(t *testing.T) {
	for n := 1; n <= 4; n++ {
		for seed := uint64(0); seed < 300; seed++ {
			s := playRandom(t, n, seed)
			if !s.Solo() && s.Turns%uint16(n) != 0 {
				t.Fatalf("n=%d seed=%d: game ended after %d turns, not a whole round", n, seed, s.Turns)
			}
		}
	}
}

// checkCaches verifies that the counters the hot path keeps agree with what
// they cache.
func checkCaches(t testing.TB, s *State) {
	t.Helper()
	for p := 0; p < int(s.NPlayers); p++ {
		if got, want := s.Sheets[p].room, s.measureRoom(&s.Sheets[p]); got != want {
			t.Fatalf("seat %d: cached room %+v, cells say %+v", p, got, want)
		}
	}
	if c, f := s.countReserve(); c != s.resColor || f != s.resFace {
		t.Fatalf("cached reserve counts %v %v, reserve says %v %v", s.resColor, s.resFace, c, f)
	}
}
