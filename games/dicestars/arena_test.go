package dicestars

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// arenaResult sums up games between bot A and bot B (or solo games of A).
type arenaResult struct {
	games      int
	winA       float64 // ties shared
	scoreA     float64 // sum of A's scores
	scoreB     float64
	soloLost   int
	scoresA    []int
	marginSumA float64
}

func (r arenaResult) rate() float64 { return r.winA / float64(r.games) }

func (r arenaResult) String() string {
	p := r.rate()
	se := math.Sqrt(p*(1-p)/float64(r.games)) * 1.96
	return fmt.Sprintf("games %d  A %.3f ±%.3f  meanA %.1f meanB %.1f  soloLost %d",
		r.games, p, se, r.scoreA/float64(r.games), r.scoreB/float64(r.games), r.soloLost)
}

// arena plays games between two bot makers, seats rotating (game g gives
// seat p to A when (p+g) is even), or solo games of A when b is nil. Games
// are spread over workers goroutines; the result depends only on the seed.
func arena(games int, seed uint64, a, b func(seed uint64) Bot) arenaResult {
	workers := runtime.GOMAXPROCS(0)
	type one struct {
		win      float64
		sa, sb   int
		soloLost bool
	}
	out := make([]one, games)
	var wg sync.WaitGroup
	next := make(chan int)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				gs := engine.SplitSeed(seed, uint64(g))
				n := 2
				if b == nil {
					n = 1
				}
				s, _ := NewState(nil, n)
				src := engine.NewSource(gs)
				bots := make([]Bot, n)
				isA := make([]bool, n)
				for p := 0; p < n; p++ {
					isA[p] = (p+g)%2 == 0 || n == 1
					bs := engine.SplitSeed(gs, uint64(p+1))
					if isA[p] {
						bots[p] = a(bs)
					} else {
						bots[p] = b(bs)
					}
				}
				for !s.Over() {
					if s.Phase == PhaseRoll {
						s.ApplyUnchecked(s.SampleRoll(src))
						continue
					}
					act := bots[s.Current].Decide(&s)
					if err := s.Check(act); err != nil {
						panic(err)
					}
					s.ApplyUnchecked(act)
				}
				var o one
				ws := s.Winners()
				for _, w := range ws {
					if isA[w] {
						o.win += 1 / float64(len(ws))
					}
				}
				for p := 0; p < n; p++ {
					if isA[p] {
						o.sa = s.Score(p)
					} else {
						o.sb = s.Score(p)
					}
				}
				if n == 1 {
					o.sb = s.SoloOpponent()
					o.soloLost = s.SoloLost
				}
				out[g] = o
			}
		}()
	}
	for g := 0; g < games; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	var r arenaResult
	for _, o := range out {
		r.games++
		r.winA += o.win
		r.scoreA += float64(o.sa)
		r.scoreB += float64(o.sb)
		r.scoresA = append(r.scoresA, o.sa)
		if o.soloLost {
			r.soloLost++
		}
	}
	return r
}

// tuning reports whether the long tuning experiments should run.
func tuning(t *testing.T) {
	if os.Getenv("DICESTARS_TUNE") == "" {
		t.Skip("set DICESTARS_TUNE=1 to run the tuning experiments")
	}
}
