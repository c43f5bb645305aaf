package dicestars

import (
	"math"
	"slices"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// TestPreviewMatchesApply checks the policies' take preview against the
// rules: after every take of seeded random games of 1–4 players, the
// taker's sheet, the reserve left and the solo marks agree.
func TestPreviewMatchesApply(t *testing.T) {
	buf := make([]Action, 0, 64)
	for n := 1; n <= MaxPlayers; n++ {
		for g := 0; g < 30; g++ {
			s, _ := NewState(nil, n)
			src := engine.NewSource(engine.SplitSeed(uint64(n), uint64(g)))
			for !s.Over() {
				if s.Phase == PhaseRoll {
					s.ApplyUnchecked(s.SampleRoll(src))
					continue
				}
				buf = s.LegalActions(buf)
				if s.Phase == PhaseTake {
					for _, a := range buf {
						var p takePreview
						s.preview(a, &p)
						u := s
						u.ApplyUnchecked(a)
						if p.sh != u.Sheets[s.Current] {
							t.Fatalf("%v: preview sheet %+v, apply %+v", a, p.sh, u.Sheets[s.Current])
						}
						sum, stars := 0, 0
						for _, d := range u.ReserveDice() {
							sum += d.Face()
							if d.IsStar() {
								stars++
							}
						}
						if p.left != int(u.NReserve) || p.sum != sum || p.stars != stars {
							t.Fatalf("%v: preview left %d/%d/%d, apply %d/%d/%d", a, p.left, p.sum, p.stars, u.NReserve, sum, stars)
						}
						if s.Solo() && (p.soloMarks != int(u.SoloMarked-s.SoloMarked) || p.soloLost != u.SoloLost) {
							t.Fatalf("%v: preview solo %d %v, apply %d %v", a, p.soloMarks, p.soloLost, u.SoloMarked-s.SoloMarked, u.SoloLost)
						}
					}
				}
				s.ApplyUnchecked(buf[src.IntN(len(buf))])
			}
		}
	}
}

// BenchmarkMasterDecide times master decisions as BenchmarkExpertDecide
// times the expert's (same positions, median reported as median-ms).
func BenchmarkMasterDecide(b *testing.B) {
	benchDecide(b, NewMasterBot(1), 2)
}

// BenchmarkMasterDecideSolo is the same on solo positions.
func BenchmarkMasterDecideSolo(b *testing.B) {
	benchDecide(b, NewMasterBot(1), 1)
}

// benchDecide times bot's decisions on the non-forced decision points of
// three seeded games of n seats, one goroutine; ns/op is the mean, the
// median is reported as median-ms.
func benchDecide(b *testing.B, bot Bot, n int) {
	states := decisionPositions(b, n, 3)
	var times []time.Duration
	for i := 0; b.Loop(); i++ {
		s := states[i%len(states)]
		start := time.Now()
		bot.Decide(&s)
		times = append(times, time.Since(start))
	}
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Microseconds())/1000, "median-ms")
}

// TestLinearTakesFolded checks the folded take score against the plain
// feature sum: both pick the same take.
func TestLinearTakesFolded(t *testing.T) {
	var w linearTakes
	src := engine.NewSource(3)
	for i := range w {
		w[i] = src.Float64()*4 - 2
	}
	for _, n := range []int{1, 2} {
		for _, s := range decisionPositions(t, n, 2) {
			if s.Phase != PhaseTake {
				continue
			}
			legal := s.LegalActions(nil)
			tl := timeLeft(&s)
			want, wantV := legal[0], w.score(&s, legal[0], tl)
			for _, a := range legal[1:] {
				if v := w.score(&s, a, tl); v > wantV+1e-9 {
					want, wantV = a, v
				}
			}
			if got := w.best(&s, legal); got != want && math.Abs(w.score(&s, got, tl)-wantV) > 1e-9 {
				t.Fatalf("folded best %v (%.6f), plain %v (%.6f)", got, w.score(&s, got, tl), want, wantV)
			}
		}
	}
}
