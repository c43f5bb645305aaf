package dicestars

import (
	"encoding/gob"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// A labelled data set for the rollout policy: positions from bot games,
// each decision's candidates valued by uniform rollouts (common random
// numbers) with a given rollout policy.
type dsGame struct {
	N       int
	Actions []Action // every action from the start, rolls included
	Decs    []dsDec
}

type dsDec struct {
	Ply   int // index in Actions of the decision
	Cands []Action
	Q     []float64 // mean objective
	Win   []float64
	Score []float64
}

// replay returns the state before Actions[ply].
func (g *dsGame) replay(ply int) State {
	s, _ := NewState(nil, g.N)
	for _, a := range g.Actions[:ply] {
		s.ApplyUnchecked(a)
	}
	return s
}

// label values every candidate of s with per rollouts each.
func label(s *State, w policyWeights, per int, seed uint64, maxCands int, lin ...*linearTakes) dsDec {
	var m searcher
	m.init(w, nil, nil)
	if len(lin) == 2 {
		m.lin, m.lin1 = lin[0], lin[1]
	}
	m.legal = s.LegalActions(m.legal)
	m.shortlist(s, maxCands)
	for i := range m.cands {
		for j := 0; j < per; j++ {
			m.pcg.Seed(seed, uint64(j))
			m.rollout(s, &m.cands[i], s.Current)
		}
	}
	var d dsDec
	for _, c := range m.cands {
		v := c.value(engine.Seat(s.Current))
		d.Cands = append(d.Cands, c.a)
		d.Q = append(d.Q, c.mean())
		d.Win = append(d.Win, v.WinProb)
		d.Score = append(d.Score, v.Score)
	}
	return d
}

// genData plays games of n seats with bots from mk and labels every
// non-forced decision.
func genData(games, n int, seed uint64, mk func(seed uint64) Bot, w policyWeights, per, maxCands int, lin ...*linearTakes) []dsGame {
	out := make([]dsGame, games)
	var wg sync.WaitGroup
	next := make(chan int)
	for k := 0; k < runtime.GOMAXPROCS(0); k++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for g := range next {
				gs := engine.SplitSeed(seed, uint64(g))
				s, _ := NewState(nil, n)
				src := engine.NewSource(gs)
				bots := make([]Bot, n)
				for p := range bots {
					bots[p] = mk(engine.SplitSeed(gs, uint64(p+1)))
				}
				dg := dsGame{N: n}
				var buf []Action
				for !s.Over() {
					var a Action
					if s.Phase == PhaseRoll {
						a = s.SampleRoll(src)
					} else {
						if buf = s.LegalActions(buf); len(buf) > 1 {
							d := label(&s, w, per, engine.SplitSeed(gs, uint64(1000+len(dg.Actions))), maxCands, lin...)
							d.Ply = len(dg.Actions)
							dg.Decs = append(dg.Decs, d)
						}
						a = bots[s.Current].Decide(&s)
					}
					dg.Actions = append(dg.Actions, a)
					s.ApplyUnchecked(a)
				}
				out[g] = dg
			}
		}()
	}
	for g := 0; g < games; g++ {
		next <- g
	}
	close(next)
	wg.Wait()
	return out
}

func saveData(t *testing.T, path string, d []dsGame) {
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := gob.NewEncoder(f).Encode(d); err != nil {
		t.Fatal(err)
	}
}

func loadData(t *testing.T, path string) []dsGame {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d []dsGame
	if err := gob.NewDecoder(f).Decode(&d); err != nil {
		t.Fatal(err)
	}
	return d
}

func TestGenData(t *testing.T) {
	tuning(t)
	games := 200
	for _, n := range []int{2, 1} {
		mk := func(seed uint64) Bot { return newExpert(seed, 192, defaultWeights) }
		d := genData(games, n, uint64(77+n), mk, defaultWeights, 128, 12)
		decs := 0
		for _, g := range d {
			decs += len(g.Decs)
		}
		t.Logf("%d players: %d games, %d decisions", n, len(d), decs)
		saveData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+".gob", d)
	}
}

// TestLabelNoise relabels some decisions with other futures and measures
// the regret of the first labels' argmax under the second: the floor a
// perfect imitation of noisy labels would show.
func TestLabelNoise(t *testing.T) {
	tuning(t)
	for _, n := range []int{2, 1} {
		data := loadData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+".gob")
		var reg [2]float64
		var cnt [2]int
		for gi := 0; gi < 20; gi++ {
			g := &data[gi]
			for _, d := range g.Decs {
				s := g.replay(d.Ply)
				e := label(&s, defaultWeights, 128, 999+uint64(d.Ply), 12)
				bi, bj := 0, 0
				for i := range d.Q {
					if d.Q[i] > d.Q[bi] {
						bi = i
					}
					if e.Q[i] > e.Q[bj] {
						bj = i
					}
				}
				k := b2i(s.Phase == PhaseDraw)
				reg[k] += e.Q[bj] - e.Q[bi]
				cnt[k]++
			}
		}
		t.Logf("%dp noise floor: takes %.4f (%d) draws %.4f (%d)", n, reg[0]/float64(cnt[0]), cnt[0], reg[1]/float64(cnt[1]), cnt[1])
	}
}

// TestGenData2 labels positions of games between searches using the
// learned take policies with rollouts of those policies (iteration 2).
func TestGenData2(t *testing.T) {
	tuning(t)
	w2, w1 := loadLin(t)
	suffix := os.Getenv("DS_ITER")
	for _, n := range []int{2} {
		mk := linMaster(t, defaultWeights, 192)
		d := genData(300, n, uint64(177+n), mk, defaultWeights, 128, 12, w2, w1)
		decs := 0
		for _, g := range d {
			decs += len(g.Decs)
		}
		t.Logf("%d players: %d games, %d decisions", n, len(d), decs)
		saveData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+suffix+".gob", d)
	}
}

func TestSoloStats(t *testing.T) {
	tuning(t)
	data := loadData(t, "/work/notes/master-bot-data1.gob")
	var turns, marks, score, wins, lost, draws [1]float64
	hist := map[int]int{}
	for gi := range data {
		g := &data[gi]
		s := g.replay(len(g.Actions))
		turns[0] += float64(s.Turns)
		marks[0] += float64(s.SoloMarked)
		score[0] += float64(s.Score(0))
		if len(s.Winners()) > 0 {
			wins[0]++
		}
		if s.SoloLost {
			lost[0]++
		}
		for _, a := range g.Actions {
			if a.Type == ActDraw {
				hist[int(a.N)+10*b2i(a.ReturnReserve)]++
				draws[0]++
			}
		}
	}
	n := float64(len(data))
	t.Logf("turns %.1f marks %.1f score %.1f wins %.2f lost %.2f draws %v", turns[0]/n, marks[0]/n, score[0]/n, wins[0]/n, lost[0]/n, hist)
}
