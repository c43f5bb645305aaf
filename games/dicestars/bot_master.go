package dicestars

import (
	"fmt"
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

// ActionValue is one candidate action's estimated worth for the seat that
// decides, from the rollouts that started with it.
type ActionValue struct {
	Action Action
	// WinProb is the share of the rollouts the seat won (a shared win
	// counts 1/k among k winners; solo: beating the virtual opponent).
	WinProb float64
	// Score is the seat's mean final score.
	Score float64
	// Seats is every seat's share of the rollouts won (Seats[seat] is
	// WinProb): the table's balance as the deciding seat sees it.
	Seats [MaxPlayers]float64
	// Rollouts is how many rollouts the estimate rests on; sequential
	// halving gives the weaker candidates fewer.
	Rollouts int
}

// Evaluate estimates every legal action of seat at s with the master's
// search: budget rollouts in all (0: MasterBudget), spread by sequential
// halving, the futures drawn from seed. s is the state as that seat sees it
// (its View.State) with the seat to act in PhaseDraw or PhaseTake. The
// values come best first, in the master's order (its objective mixes the
// win chance with the score margin); the first is what the master plays.
func Evaluate(s *State, seat engine.Seat, budget int, seed uint64) ([]ActionValue, error) {
	if s.Phase != PhaseDraw && s.Phase != PhaseTake {
		return nil, fmt.Errorf("dice stars: nothing to decide in phase %v", s.Phase)
	}
	if int(seat) != int(s.Current) {
		return nil, fmt.Errorf("dice stars: seat %d is not to act (seat %d is)", seat, s.Current)
	}
	if budget <= 0 {
		budget = masterBudget(s)
	}
	var m searcher
	m.init(masterWeights, &masterTakes2, &masterTakes1)
	m.legal = s.LegalActions(m.legal)
	m.candidates(s, m.legal)
	m.search(s, budget, seed)
	out := make([]ActionValue, len(m.cands))
	for i, c := range m.cands {
		out[i] = c.value(seat)
	}
	return out, nil
}

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

// masterBudget is the master's budget at s.
func masterBudget(s *State) int {
	if s.Solo() {
		return MasterSoloBudget
	}
	return MasterBudget
}

// masterShortlist bounds the takes the master searches (star placements
// can make dozens); the policy's take score picks them.
const masterShortlist = 10

// masterWeights are the master's draws in rollouts (the expert's) and its
// objective: the expert's, plus, alone, 0.01 per point of its own final
// score (see docs/performance.md: it raises the solo mean by about 25
// points at the same win rate). Its takes are masterTakes2 / masterTakes1.
var masterWeights = func() policyWeights {
	w := defaultWeights
	w.soloScore = 0.01
	return w
}()
