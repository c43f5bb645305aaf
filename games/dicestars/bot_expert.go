package dicestars

import (
	"math/rand/v2"
	"slices"

	"github.com/dicehall/dicehall/engine"
)

func init() {
	botMakers["expert"] = func(seed uint64) Bot { return NewExpertBot(seed) }
}

// ExpertBudget is the expert's number of rollouts per decision. It is a
// count, not a time limit, so a seed always gives the same decisions.
const ExpertBudget = 768

// expertShortlist bounds the candidate moves searched at the root; the
// heuristic policy picks them when there are more (star placements).
const expertShortlist = 10

// ExpertBot searches over chance with determinized Monte-Carlo rollouts.
//
// At each decision (draw or take) with more than one legal action it:
//
//  1. lists the candidates: every legal draw (1–3 dice, reserve back or
//     not), or the takes, shortlisted to the best expertShortlist by the
//     heuristic policy when star placements make the list long;
//  2. estimates each candidate by rollouts: play the candidate on a copy of
//     the public state, then finish the game with every seat (its own
//     included) following the heuristic policy of bot_policy.go, the dice
//     coming out of the bag sampled from the public bag counts with the
//     bot's own generator — each rollout is one possible future;
//  3. scores a rollout 1 for a win, ½ for a shared win, 0 for a loss (solo:
//     beating the virtual opponent without filling its grid), plus a small
//     multiple of the score margin so close results still rank moves;
//  4. spends ExpertBudget rollouts by sequential halving: in each round
//     every surviving candidate gets the same number of rollouts, on the
//     same sampled futures (common random numbers, which cancels most of the
//     luck between candidates), and the worse half is dropped.
//
// It returns the candidate with the best mean. Decisions depend only on the
// state and the seed.
type ExpertBot struct {
	rng    *rand.Rand // picks each decision's rollout seeds
	budget int
	w      policyWeights

	pcg    rand.PCG // reseeded for each rollout
	roll   *rand.Rand
	legal  []Action
	inner  []Action
	cands  []candidate
	scored []scoredAction
}

type candidate struct {
	a     Action
	sum   float64
	count int
}

type scoredAction struct {
	a Action
	v float64
}

// NewExpertBot returns an expert with the default budget.
func NewExpertBot(seed uint64) *ExpertBot { return newExpert(seed, ExpertBudget, defaultWeights) }

func newExpert(seed uint64, budget int, w policyWeights) *ExpertBot {
	b := &ExpertBot{rng: engine.NewSource(seed), budget: budget, w: w,
		legal: make([]Action, 0, 64), inner: make([]Action, 0, 64)}
	b.roll = rand.New(&b.pcg)
	return b
}

func (b *ExpertBot) Name() string { return "expert" }

func (b *ExpertBot) Decide(s *State) Action {
	b.legal = s.LegalActions(b.legal)
	if len(b.legal) == 1 {
		return b.legal[0]
	}
	b.shortlist(s)
	me := s.Current
	base := b.rng.Uint64()
	next := uint64(0) // rollout index: the same futures for every candidate of a round
	alive := b.cands
	rounds := 0
	for k := len(alive); k > 1; k = (k + 1) / 2 {
		rounds++
	}
	for len(alive) > 1 {
		per := max(b.budget/rounds/len(alive), 1)
		for i := range alive {
			c := &alive[i]
			for j := 0; j < per; j++ {
				b.pcg.Seed(base, next+uint64(j))
				c.sum += b.rollout(s, c.a, me)
			}
			c.count += per
		}
		next += uint64(per)
		// Stable sort keeps the legal order on equal means: deterministic.
		slices.SortStableFunc(alive, func(x, y candidate) int {
			mx, my := x.sum/float64(x.count), y.sum/float64(y.count)
			switch {
			case mx > my:
				return -1
			case mx < my:
				return 1
			}
			return 0
		})
		alive = alive[:(len(alive)+1)/2]
	}
	return alive[0].a
}

// shortlist fills b.cands with the candidates to search.
func (b *ExpertBot) shortlist(s *State) {
	b.cands = b.cands[:0]
	if s.Phase != PhaseTake || len(b.legal) <= expertShortlist {
		for _, a := range b.legal {
			b.cands = append(b.cands, candidate{a: a})
		}
		return
	}
	tl := timeLeft(s)
	b.scored = b.scored[:0]
	for _, a := range b.legal {
		b.scored = append(b.scored, scoredAction{a, b.w.takeScore(s, a, tl)})
	}
	slices.SortStableFunc(b.scored, func(x, y scoredAction) int {
		switch {
		case x.v > y.v:
			return -1
		case x.v < y.v:
			return 1
		}
		return 0
	})
	for _, sa := range b.scored[:expertShortlist] {
		b.cands = append(b.cands, candidate{a: sa.a})
	}
}

// rollout plays a on a copy of s and the rest of the game with the policy,
// and returns the outcome for seat me.
func (b *ExpertBot) rollout(s *State, a Action, me uint8) float64 {
	t := *s
	t.ApplyUnchecked(a)
	for !t.Over() {
		switch t.Phase {
		case PhaseRoll:
			t.ApplyUnchecked(t.SampleRoll(b.roll))
		case PhaseDraw:
			t.ApplyUnchecked(policyDraw(&t))
		default:
			b.inner = t.legalTakes(b.inner[:0])
			t.ApplyUnchecked(b.w.bestTake(&t, b.inner))
		}
	}
	return b.w.outcome(&t, me)
}

// outcome scores a finished game for seat me.
func (w *policyWeights) outcome(t *State, me uint8) float64 {
	mine := t.Score(int(me))
	if t.Solo() {
		opp := t.SoloOpponent()
		if t.SoloLost {
			return w.margin * float64(mine-opp)
		}
		if mine > opp {
			return 1 + w.margin*float64(mine-opp)
		}
		return w.margin * float64(mine-opp)
	}
	best := -1 << 30
	for p := 0; p < int(t.NPlayers); p++ {
		if p != int(me) {
			best = max(best, t.Score(p))
		}
	}
	m := w.margin * float64(mine-best)
	switch {
	case mine > best:
		return 1 + m
	case mine == best:
		return 0.5 + m
	}
	return m
}
