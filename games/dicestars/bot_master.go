package dicestars

import (
	"math/rand/v2"

	"github.com/dicehall/dicehall/engine"
)

func init() {
	botMakers["master"] = func(seed uint64) Bot { return NewMasterBot(seed) }
}

// MasterBudget is the master's number of rollouts per decision at a table
// of several, MasterSoloBudget alone (solo rollouts are shorter): counts,
// not time limits, so a seed always gives the same decisions.
const (
	MasterBudget     = 4096
	MasterSoloBudget = 8192
)

// MasterBot is the strongest Dice Stars bot: the expert's search (see
// ExpertBot) with a stronger rollout policy, a larger budget and an
// objective that weighs the score more; see docs/performance.md.
type MasterBot struct {
	rng *rand.Rand // picks each decision's rollout seed
	m   searcher
	// budget and soloBudget are the rollouts per decision at a table of
	// several and alone (MasterBudget, MasterSoloBudget).
	budget, soloBudget int
}

// NewMasterBot returns a master with its own generator.
func NewMasterBot(seed uint64) *MasterBot {
	b := &MasterBot{rng: engine.NewSource(seed), budget: MasterBudget, soloBudget: MasterSoloBudget}
	b.m.init(masterWeights, &masterTakes2, &masterTakes1)
	return b
}

func (b *MasterBot) Name() string { return "master" }

func (b *MasterBot) Decide(s *State) Action {
	b.m.budget = b.budget
	if s.Solo() {
		b.m.budget = b.soloBudget
	}
	return b.m.decide(s, masterShortlist, b.rng.Uint64())
}

// masterShortlist bounds the takes the master searches (star placements
// can make dozens); the policy's take score picks them.
const masterShortlist = 10

// masterWeights are the master's draws in rollouts (the expert's) and its
// objective: the expert's, plus, alone, 0.004 per point of its own final
// score (docs/performance.md: at 8192 rollouts, 0 won 87% with a mean of
// 113, 0.01 82% with 138; 0.004 87.5% with 125.8 over 1000 games). Its
// takes are masterTakes2 / masterTakes1.
var masterWeights = func() policyWeights {
	w := defaultWeights
	w.soloScore = 0.004
	return w
}()
