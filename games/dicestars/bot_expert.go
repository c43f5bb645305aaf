package dicestars

import (
	"math/rand/v2"

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
	rng *rand.Rand // picks each decision's rollout seeds
	m   searcher
}

// NewExpertBot returns an expert with the default budget.
func NewExpertBot(seed uint64) *ExpertBot { return newExpert(seed, ExpertBudget, defaultWeights) }

func newExpert(seed uint64, budget int, w policyWeights) *ExpertBot {
	b := &ExpertBot{rng: engine.NewSource(seed)}
	b.m.init(w, nil, nil)
	b.m.budget = budget
	return b
}

func (b *ExpertBot) Name() string { return "expert" }

func (b *ExpertBot) Decide(s *State) Action {
	return b.m.decide(s, expertShortlist, b.rng.Uint64())
}

// outcome scores a finished game for seat me.
func (w *policyWeights) outcome(t *State, me uint8) float64 {
	mine := t.Score(int(me))
	if t.Solo() {
		opp := t.SoloOpponent()
		if w.soloScore != 0 {
			return w.soloOutcome(t, mine, opp)
		}
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

// soloOutcome is the solo outcome with the master's extra term: its own
// score weighed by w.soloScore, in every game. Giving a game lost to a
// full grid no points made the master avoid the grid (12 such losses in
// 1000 games, not 131) but lose as many to the virtual opponent's score,
// and cost 18 points of mean score (docs/performance.md).
func (w *policyWeights) soloOutcome(t *State, mine, opp int) float64 {
	v := w.margin*float64(mine-opp) + w.soloScore*float64(mine)
	if !t.SoloLost && mine > opp {
		v++
	}
	return v
}
