package dicestars

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// randomGame plays one whole game with uniformly random legal moves on the
// fast path. It is what the throughput benchmark measures.
func randomGame(s *State, src engine.Source, buf []Action) []Action {
	for s.Phase != PhaseOver {
		if s.Phase == PhaseRoll {
			s.ApplyUnchecked(s.SampleRoll(src))
			continue
		}
		buf = s.LegalActions(buf)
		s.ApplyUnchecked(buf[src.IntN(len(buf))])
	}
	return buf
}

// BenchmarkRandomGame2P is the rules' throughput: whole random two-player
// games on one core (report games/s = 1e9 / ns/op).
func BenchmarkRandomGame2P(b *testing.B) {
	start, err := NewState(nil, 2)
	if err != nil {
		b.Fatal(err)
	}
	src := engine.NewSource(1)
	buf := make([]Action, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		s := start
		buf = randomGame(&s, src, buf)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "games/s")
}

// BenchmarkLegalApply measures one legal-actions + apply step from a
// mid-game position; it must not allocate.
func BenchmarkLegalApply(b *testing.B) {
	s, _ := NewState(nil, 2)
	src := engine.NewSource(3)
	buf := make([]Action, 0, 256)
	// Play into the middle of a game.
	for i := 0; i < 20; i++ {
		if s.Phase == PhaseRoll {
			s.ApplyUnchecked(s.SampleRoll(src))
			continue
		}
		buf = s.LegalActions(buf)
		s.ApplyUnchecked(buf[0])
	}
	if s.Phase == PhaseRoll {
		s.ApplyUnchecked(s.SampleRoll(src))
	}
	b.ReportAllocs()
	for b.Loop() {
		c := s
		buf = c.LegalActions(buf)
		c.ApplyUnchecked(buf[len(buf)-1])
	}
}

func TestHotPathAllocatesNothing(t *testing.T) {
	start, _ := NewState(nil, 2)
	src := engine.NewSource(9)
	buf := make([]Action, 0, 4096)
	allocs := testing.AllocsPerRun(50, func() {
		s := start
		buf = randomGame(&s, src, buf)
	})
	if allocs != 0 {
		t.Fatalf("a random game allocates %.1f times, want 0", allocs)
	}
}
