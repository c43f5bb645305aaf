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
		if err := invariants(&s); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
	}
	return s
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
