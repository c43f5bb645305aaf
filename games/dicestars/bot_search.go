package dicestars

import (
	"math/rand/v2"
	"slices"
)

// searcher is the determinized Monte-Carlo search of the expert and the
// master (see ExpertBot for the method), with its buffers: the two differ
// only in their rollout policy, objective and budget.
type searcher struct {
	w policyWeights
	// lin, lin1: learned take policies for tables of several and solo
	// (nil: w's take score).
	lin, lin1 *linearTakes
	budget    int
	pcg       rand.PCG
	roll      *rand.Rand
	legal     []Action
	inner     []Action
	cands     []mcand
	scored    []scoredAction
}

// mcand is a candidate with the sum of its rollouts' outcomes.
type mcand struct {
	a   Action
	obj float64
	n   int
}

func (c *mcand) mean() float64 { return c.obj / float64(c.n) }

type scoredAction struct {
	a Action
	v float64
}

// init sets the rollout policy and objective: w, with the learned take
// policies lin (tables of several) and lin1 (solo) when not nil.
func (m *searcher) init(w policyWeights, lin, lin1 *linearTakes) {
	m.w, m.lin, m.lin1 = w, lin, lin1
	m.roll = rand.New(&m.pcg)
	m.legal = make([]Action, 0, 64)
	m.inner = make([]Action, 0, 64)
}

// decide searches s with the budget, the takes shortlisted to k, and
// returns the best candidate (at once when only one action is legal).
func (m *searcher) decide(s *State, k int, seed uint64) Action {
	m.legal = s.LegalActions(m.legal)
	if len(m.legal) == 1 {
		return m.legal[0]
	}
	m.shortlist(s, k)
	m.search(s, m.budget, seed)
	return m.cands[0].a
}

// candidates makes every action of legal a candidate.
func (m *searcher) candidates(legal []Action) {
	m.cands = m.cands[:0]
	for _, a := range legal {
		m.cands = append(m.cands, mcand{a: a})
	}
}

// shortlist makes candidates of m.legal, keeping the best k takes by the
// policy's take score when there are more.
func (m *searcher) shortlist(s *State, k int) {
	if s.Phase != PhaseTake || len(m.legal) <= k {
		m.candidates(m.legal)
		return
	}
	tl := timeLeft(s)
	lin := m.lin
	if s.Solo() {
		lin = m.lin1
	}
	m.scored = m.scored[:0]
	for _, a := range m.legal {
		v := 0.0
		if lin != nil {
			v = lin.score(s, a, tl)
		} else {
			v = m.w.takeScore(s, a, tl)
		}
		m.scored = append(m.scored, scoredAction{a, v})
	}
	slices.SortStableFunc(m.scored, func(x, y scoredAction) int { return cmpDesc(x.v, y.v) })
	m.cands = m.cands[:0]
	for _, sa := range m.scored[:k] {
		m.cands = append(m.cands, mcand{a: sa.a})
	}
}

func cmpDesc(x, y float64) int {
	switch {
	case x > y:
		return -1
	case x < y:
		return 1
	}
	return 0
}

// search spends budget rollouts on m.cands by sequential halving with
// common random numbers, and leaves m.cands sorted best first (the
// survivors of later rounds ahead of those dropped earlier).
func (m *searcher) search(s *State, budget int, seed uint64) {
	me := s.Current
	alive := m.cands
	rounds := 0
	for k := len(alive); k > 1; k = (k + 1) / 2 {
		rounds++
	}
	next := uint64(0)
	for len(alive) > 1 {
		per := max(budget/rounds/len(alive), 1)
		for i := range alive {
			c := &alive[i]
			for j := 0; j < per; j++ {
				m.pcg.Seed(seed, next+uint64(j))
				m.rollout(s, c, me)
			}
		}
		next += uint64(per)
		// Stable: equal means keep the legal order, deterministically.
		slices.SortStableFunc(alive, func(x, y mcand) int { return cmpDesc(x.mean(), y.mean()) })
		alive = alive[:(len(alive)+1)/2]
	}
	if len(m.cands) == 1 && m.cands[0].n == 0 {
		for j := 0; j < budget; j++ {
			m.pcg.Seed(seed, uint64(j))
			m.rollout(s, &m.cands[0], me)
		}
	}
}

// take is the rollout policy's take.
func (m *searcher) take(t *State, legal []Action) Action {
	if len(legal) == 1 {
		return legal[0]
	}
	if t.Solo() && m.lin1 != nil {
		return m.lin1.best(t, legal)
	}
	if !t.Solo() && m.lin != nil {
		return m.lin.best(t, legal)
	}
	return m.w.bestTake(t, legal)
}

// finish plays the game t to its end with the rollout policy for every
// seat, the dice drawn from the generator as last seeded.
func (m *searcher) finish(t *State) {
	for !t.Over() {
		switch t.Phase {
		case PhaseRoll:
			t.ApplyUnchecked(t.SampleRoll(m.roll))
		case PhaseDraw:
			t.ApplyUnchecked(m.w.draw(t))
		default:
			m.inner = t.legalTakes(m.inner[:0])
			t.ApplyUnchecked(m.take(t, m.inner))
		}
	}
}

// rollout plays c's action on a copy of s, finishes the game with the
// policy for every seat, and adds the outcome to c.
func (m *searcher) rollout(s *State, c *mcand, me uint8) {
	t := *s
	t.ApplyUnchecked(c.a)
	m.finish(&t)
	c.n++
	c.obj += m.w.outcome(&t, me)
}
