package dicestars

import (
	"fmt"
	"os"
	"testing"
	"time"
)

type policyBot struct {
	w   policyWeights
	buf []Action
}

func (b *policyBot) Name() string { return "policy" }
func (b *policyBot) Decide(s *State) Action {
	if s.Phase == PhaseDraw {
		return b.w.draw(s)
	}
	b.buf = s.legalTakes(b.buf[:0])
	return b.w.bestTake(s, b.buf)
}

func TestTuneBaseline(t *testing.T) {
	tuning(t)
	pol := func(uint64) Bot { return &policyBot{w: defaultWeights} }
	start := time.Now()
	r := arena(20000, 1, pol, func(s uint64) Bot { return NewGreedyBot(s) })
	t.Logf("policy vs greedy: %v (%v)", r, time.Since(start))
	start = time.Now()
	r = arena(20000, 1, pol, nil)
	t.Logf("policy solo: %v (%v)", r, time.Since(start))
}

func masterMaker(w policyWeights, budget int) func(uint64) Bot {
	return func(seed uint64) Bot {
		b := NewMasterBot(seed)
		b.m.w, b.budget, b.soloBudget = w, budget, budget
		return b
	}
}

func expertMaker(seed uint64) Bot { return NewExpertBot(seed) }

func TestTuneSearch(t *testing.T) {
	tuning(t)
	start := time.Now()
	r := arena(400, 11, masterMaker(defaultWeights, ExpertBudget), expertMaker)
	t.Logf("master(default,768) vs expert: %v (%v)", r, time.Since(start))
	start = time.Now()
	r = arena(400, 11, masterMaker(masterWeights, ExpertBudget), expertMaker)
	t.Logf("master(tuned,768) vs expert: %v (%v)", r, time.Since(start))
}

type linBot struct {
	w, w1 *linearTakes
	d     policyWeights
	buf   []Action
}

func (b *linBot) Name() string { return "lin" }
func (b *linBot) Decide(s *State) Action {
	if s.Phase == PhaseDraw {
		return b.d.draw(s)
	}
	b.buf = s.legalTakes(b.buf[:0])
	if s.Solo() {
		return b.w1.best(s, b.buf)
	}
	return b.w.best(s, b.buf)
}

func loadLin(t *testing.T) (w2, w1 *linearTakes) {
	w2, w1 = new(linearTakes), new(linearTakes)
	p2 := "/work/notes/master-bot-w2.json"
	if e := os.Getenv("DS_W2"); e != "" {
		p2 = e
	}
	loadJSON(t, p2, w2)
	loadJSON(t, "/work/notes/master-bot-w1.json", w1)
	return
}

func TestTuneLinPolicy(t *testing.T) {
	tuning(t)
	w2, w1 := loadLin(t)
	lin := func(uint64) Bot { return &linBot{w: w2, w1: w1, d: defaultWeights} }
	base := func(uint64) Bot { return &policyBot{w: defaultWeights} }
	t.Logf("lin vs default policy: %v", arena(20000, 7, lin, base))
	t.Logf("lin solo: %v", arena(20000, 7, lin, nil))
	t.Logf("default solo: %v", arena(20000, 7, base, nil))
}

func linMaster(t *testing.T, w policyWeights, budget int) func(uint64) Bot {
	w2, w1 := loadLin(t)
	return func(seed uint64) Bot {
		b := NewMasterBot(seed)
		b.m.w, b.budget, b.soloBudget, b.m.lin, b.m.lin1 = w, budget, budget, w2, w1
		return b
	}
}

func TestTuneLinSearchSolo(t *testing.T) {
	tuning(t)
	start := time.Now()
	t.Logf("master(lin,768) solo: %v (%v)", arena(400, 11, linMaster(t, defaultWeights, ExpertBudget), nil), time.Since(start))
	start = time.Now()
	t.Logf("expert solo: %v (%v)", arena(400, 11, expertMaker, nil), time.Since(start))
}

func TestTuneLinSearch(t *testing.T) {
	tuning(t)
	start := time.Now()
	games, budget := 400, ExpertBudget
	if e := os.Getenv("DS_GAMES"); e != "" {
		fmt.Sscan(e, &games)
	}
	if e := os.Getenv("DS_BUDGET"); e != "" {
		fmt.Sscan(e, &budget)
	}
	t.Logf("master(lin %s,%d) vs expert: %v (%v)", os.Getenv("DS_W2"), budget, arena(games, 11, linMaster(t, defaultWeights, budget), expertMaker), time.Since(start))
}

func TestTuneRolloutCost(t *testing.T) {
	tuning(t)
	w2, w1 := loadLin(t)
	for _, n := range []int{1, 2} {
		states := decisionPositions(t, n, 3)
		for _, lin := range []bool{false, true} {
			var m searcher
			m.init(defaultWeights, nil, nil)
			if lin {
				m.lin, m.lin1 = w2, w1
			}
			start := time.Now()
			k := 0
			for i := 0; i < 20000; i++ {
				s := &states[i%len(states)]
				m.legal = s.LegalActions(m.legal)
				c := mcand{a: m.legal[0]}
				m.pcg.Seed(1, uint64(i))
				m.rollout(s, &c, s.Current)
				k++
			}
			t.Logf("%dp lin=%v: %.1f µs/rollout", n, lin, float64(time.Since(start).Microseconds())/float64(k))
		}
	}
}

func TestTuneSolo(t *testing.T) {
	tuning(t)
	games, budget := 300, 4096
	if e := os.Getenv("DS_GAMES"); e != "" {
		fmt.Sscan(e, &games)
	}
	if e := os.Getenv("DS_BUDGET"); e != "" {
		fmt.Sscan(e, &budget)
	}
	w := defaultWeights
	fmt.Sscan(os.Getenv("DS_SOLO"), &w.margin, &w.soloScore, &w.soft)
	start := time.Now()
	r := arena(games, 13, linMaster(t, w, budget), nil)
	t.Logf("solo lin1 budget %d margin %v soloScore %v soft %v: %v (%v)", budget, w.margin, w.soloScore, w.soft, r, time.Since(start))
}

func BenchmarkRolloutLin2P(b *testing.B) {
	var w2 linearTakes
	loadJSON(&testing.T{}, "/work/notes/master-bot-w2.json", &w2)
	states := decisionPositions(b, 2, 3)
	var m searcher
	m.init(defaultWeights, nil, nil)
	m.lin = &w2
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		s := &states[i%len(states)]
		m.legal = s.LegalActions(m.legal)
		c := mcand{a: m.legal[0]}
		m.pcg.Seed(1, uint64(i))
		m.rollout(s, &c, s.Current)
	}
}
