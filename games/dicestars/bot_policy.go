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
	// want is how many numbers (dice not showing a star) the draw aims to
	// have in the reserve at a table of several, soloWant alone (see draw).
	want, soloWant int
	// soloScore weighs the own final score in a solo rollout's outcome, on
	// top of the margin (see soloOutcome).
	soloScore float64
}

// defaultWeights are the expert's. Tuning against greedy showed that
// drawing all three dice pays (400-game runs: aiming for 3 numbers won 27%
// against greedy, aiming for 6 about 50%), so it draws fewer only when the
// reserve is already rich.
var defaultWeights = policyWeights{fill: 0.55, q: 0.5, qMax: 0.5, solo: 7, margin: 0.004, want: 6, soloWant: 2}

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
	var p takePreview
	s.preview(a, &p)
	v := w.potential(s.L, &p.sh, tl)
	if s.Solo() {
		if p.soloLost {
			return v - 1000
		}
		v -= w.solo * float64(p.soloMarks)
	}
	return v
}

// takePreview is what a legal take does to the taker's sheet and to the
// reserve, worked out without copying the whole state: the policies rate
// every take of every turn of every rollout, and the copy dominated.
type takePreview struct {
	sh Sheet // the taker's sheet after the take
	// left, sum and stars describe the dice left in the reserve: how
	// many, their faces' sum, how many show a star; best is the largest
	// sum one colour or one value of them would give the next taker.
	left, sum, stars, best int
	// col and colN are the left dice's sum and count by colour, val their
	// total by face.
	col, colN [NumColors]int8
	val, valN [7]int8
	// soloMarks is how many solo-grid cells the take costs (solo only),
	// soloLost whether they fill the grid.
	soloMarks int
	soloLost  bool
}

// preview fills p with what the legal take a would do (ApplyUnchecked
// does the same to the whole state).
func (s *State) preview(a Action, p *takePreview) {
	sh := &s.Sheets[s.Current]
	n := s.takeSize(a)
	p.col, p.colN, p.val, p.valN = [NumColors]int8{}, [NumColors]int8{}, [7]int8{}, [7]int8{}
	col, val := &p.col, &p.val
	taken := 0
	p.left, p.sum, p.stars = 0, 0, 0
	for _, d := range s.Reserve[:s.NReserve] {
		if takes(a, d) {
			taken += d.Face()
			continue
		}
		p.left++
		p.sum += d.Face()
		if d.IsStar() {
			p.stars++
		}
		col[d.Color()] += int8(d.Face())
		p.colN[d.Color()]++
		val[d.Face()] += int8(d.Face())
		p.valN[d.Face()]++
	}
	p.best = int(max(col[0], col[1], col[2], col[3], val[2], val[3], val[4], val[5], val[6]))
	p.sh = *sh
	if s.fits(sh, a, n) {
		s.L.writeTake(&p.sh, a, n, taken)
	} else {
		p.sh.Penalty = int16(taken)
		p.sh.Penalized = true
	}
	p.soloMarks, p.soloLost = 0, false
	if s.Solo() {
		room := s.L.SoloCells - int(s.SoloMarked)
		p.soloMarks = min(s.L.soloMarksOf(p.left, p.sum, p.stars), room)
		p.soloLost = p.soloMarks >= room
	}
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

// draw is the rollout's draw: enough dice to bring the reserve to w.want
// numbers (w.soloWant alone, where dice left behind cost solo marks), at
// least one, at most three; three when forced. It never puts the reserve
// back.
func (w *policyWeights) draw(s *State) Action {
	if s.MustDrawThree(false) {
		return Draw(3, false)
	}
	numbers := 0
	for _, d := range s.Reserve[:s.NReserve] {
		if !d.IsStar() {
			numbers++
		}
	}
	want := w.want
	if s.Solo() {
		want = w.soloWant
	}
	n := min(max(want-numbers, 1), 3)
	avail := s.BagCount()
	if s.RefillDue {
		avail += s.DiscardCount()
	}
	return Draw(max(min(n, avail), 1), false)
}
