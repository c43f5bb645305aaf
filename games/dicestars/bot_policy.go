package dicestars

import "math/bits"

// This file holds the fast heuristic policy the expert bot plays in its
// rollouts (and uses to shortlist its own candidate moves). It is a static
// estimate of what a sheet will finally be worth, not a search.

// policyWeights are the knobs of the heuristic. They were tuned by playing
// the policy against the greedy bot (see docs/performance.md).
type policyWeights struct {
	// fill is the share of a row's empty cells expected to be filled, at the
	// row's own value each, when the whole game is still ahead; it shrinks
	// linearly with the time left.
	fill float64
	// q is the chance of marking one more multiplier cell of a row before the
	// end, when the whole game is ahead (scaled by the time left, capped at
	// qMax); a row needing k more marks is completed with chance q^k.
	q, qMax float64
	// solo is the cost, in points, of one solo-grid mark left for the
	// virtual opponent (each is worth SoloPoints to it, and marks bring the
	// loss on a full grid closer).
	solo float64
	// margin weighs the score difference in a rollout's outcome, next to the
	// 0 / ½ / 1 of a loss, tie or win, so that close results still rank moves.
	margin float64
}

var defaultWeights = policyWeights{fill: 0.55, q: 0.5, qMax: 0.5, solo: 7, margin: 0.004}

// timeLeft estimates the share of the game still to come from the player
// closest to filling their white cells (that player ends the game).
func timeLeft(s *State) float64 {
	if s.Ending {
		return 0
	}
	m := uint8(NumRows * NumColors)
	for p := 0; p < int(s.NPlayers); p++ {
		m = min(m, s.Sheets[p].WhiteEmpty)
	}
	return float64(m) / (NumRows * NumColors)
}

// potential estimates the final score of sheet sh with tl of the game left.
func (w *policyWeights) potential(l *Layout, sh *Sheet, tl float64) float64 {
	q := min(w.q*tl, w.qMax)
	total := -float64(sh.Penalty)
	for r := 0; r < NumRows; r++ {
		empty := l.RowCells(r) - bits.OnesCount8(sh.Filled[r])
		base := float64(sh.Sum[r]) + w.fill*tl*float64(empty*l.RowValues[r])
		m, full := int(sh.Marked[r]), l.Multipliers[r]
		switch {
		case m == 0:
			total += base
		case m == full:
			total += 2 * base
		default:
			p := 1.0
			for k := m; k < full; k++ {
				p *= q
			}
			total += 2 * p * base
		}
	}
	return total
}

// takeScore rates the take a for the player to act: the sheet's potential
// after it, less (solo) the expected cost of the solo marks it leaves.
func (w *policyWeights) takeScore(s *State, a Action, tl float64) float64 {
	t := *s
	t.ApplyUnchecked(a)
	v := w.potential(s.L, &t.Sheets[s.Current], tl)
	if s.Solo() {
		if t.SoloLost {
			return v - 1000
		}
		v -= w.solo * float64(t.SoloMarked-s.SoloMarked)
	}
	return v
}

// bestTake returns the legal take with the best takeScore (first on ties).
func (w *policyWeights) bestTake(s *State, legal []Action) Action {
	tl := timeLeft(s)
	best, bestV := legal[0], w.takeScore(s, legal[0], tl)
	for _, a := range legal[1:] {
		if v := w.takeScore(s, a, tl); v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// policyDraw is the rollout's draw: three dice unless the reserve already
// holds several numbers; in solo, where dice left behind cost marks, only
// enough to have about two numbers. It never puts the reserve back.
// policyWant is how many numbers the rollout policy wants in the reserve
// after drawing at a table of several: tuning against greedy showed that
// drawing all three dice pays (400-game runs: aiming for 3 numbers won 27%
// against greedy, aiming for 6 about 50%), so it draws fewer only when the
// reserve is already rich.
const policyWant = 6

func policyDraw(s *State) Action {
	if s.MustDrawThree(false) {
		return Draw(3, false)
	}
	numbers := 0
	for _, d := range s.Reserve[:s.NReserve] {
		if !d.IsStar() {
			numbers++
		}
	}
	want := policyWant
	if s.Solo() {
		want = 2
	}
	n := min(max(want-numbers, 1), 3)
	avail := s.BagCount()
	if s.RefillDue {
		avail += s.DiscardCount()
	}
	return Draw(max(min(n, avail), 1), false)
}
