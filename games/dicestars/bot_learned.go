package dicestars

import "math/bits"

// takeFeatures are the features of a take for the linear take policy.
const nTakeFeat = 40

// mcat is a row's multiplier category: 0 none marked, 1 all marked, 2..4
// partly marked with 1, 2, 3+ missing.
func mcat(m, full int) int {
	switch {
	case m == 0:
		return 0
	case m == full:
		return 1
	}
	return min(full-m, 3) + 1
}

// takeFeat writes the features of take a at s into f.
func takeFeat(s *State, a Action, tl float64, f *[nTakeFeat]float64) {
	*f = [nTakeFeat]float64{}
	var p takePreview
	s.preview(a, &p)
	l := s.L
	sh := &p.sh
	tl2, tl3 := tl*tl, tl*tl*tl
	for r := 0; r < NumRows; r++ {
		c := mcat(int(sh.Marked[r]), l.Multipliers[r])
		S := float64(sh.Sum[r])
		E := float64((l.RowCells(r) - bits.OnesCount8(sh.Filled[r])) * l.RowValues[r])
		o := c * 6
		f[o] += S
		f[o+1] += S * tl
		f[o+2] += S * tl2
		f[o+3] += E * tl
		f[o+4] += E * tl2
		f[o+5] += E * tl3
	}
	f[30] = -float64(sh.Penalty)
	f[31] = float64(sh.WhiteEmpty)
	f[32] = float64(sh.WhiteEmpty) * tl
	// The reserve left behind.
	f[33] = float64(p.left)
	f[34] = float64(p.sum)
	f[35] = float64(p.stars)
	if s.Solo() {
		f[36] = float64(p.soloMarks)
		if p.soloLost {
			f[37] = -1
		}
	} else {
		f[36] = float64(p.best) // the best take left for the next player
		var ns nextSheet
		ns.init(s)
		f[37] = ns.gain(&p)
	}
	f[38] = float64(int(s.NReserve) - p.left) // dice taken
	if a.Type == ActTakeStars {
		f[39] = 1
	}
}

// linearTakes is a take policy scoring each take by a weighted sum of its
// features.
type linearTakes [nTakeFeat]float64

func (w *linearTakes) score(s *State, a Action, tl float64) float64 {
	var f [nTakeFeat]float64
	takeFeat(s, a, tl, &f)
	v := 0.0
	for i, x := range f {
		v += w[i] * x
	}
	return v
}

// best returns the legal take with the best score (first on ties). It
// computes the same sum as score, folded: the time powers are multiplied
// into per-category coefficients once per decision.
func (w *linearTakes) best(s *State, legal []Action) Action {
	tl := timeLeft(s)
	tl2, tl3 := tl*tl, tl*tl*tl
	var cS, cE [5]float64
	for c := range cS {
		o := c * 6
		cS[c] = w[o] + w[o+1]*tl + w[o+2]*tl2
		cE[c] = w[o+3]*tl + w[o+4]*tl2 + w[o+5]*tl3
	}
	wWhite := w[31] + w[32]*tl
	l := s.L
	solo := s.Solo()
	var p takePreview
	var ns nextSheet
	if !solo {
		ns.init(s)
	}
	// A star take changes only multiplier marks: its other terms are the
	// same for every placement, worked out once (starsRest).
	cur := &s.Sheets[s.Current]
	starsRest, haveStars := 0.0, false
	best, bestV := legal[0], 0.0
	for i, a := range legal {
		v := 0.0
		if a.Type == ActTakeStars && haveStars {
			v = starsRest
			for r := 0; r < NumRows; r++ {
				c := mcat(int(cur.Marked[r]+a.Mult[l.RowValues[r]-LowRow]), l.Multipliers[r])
				e := l.RowCells(r) - bits.OnesCount8(cur.Filled[r])
				v += cS[c]*float64(cur.Sum[r]) + cE[c]*float64(e*l.RowValues[r])
			}
		} else {
			s.preview(a, &p)
			sh := &p.sh
			rows := 0.0
			for r := 0; r < NumRows; r++ {
				c := mcat(int(sh.Marked[r]), l.Multipliers[r])
				e := l.RowCells(r) - bits.OnesCount8(sh.Filled[r])
				rows += cS[c]*float64(sh.Sum[r]) + cE[c]*float64(e*l.RowValues[r])
			}
			v += -w[30]*float64(sh.Penalty) + wWhite*float64(sh.WhiteEmpty)
			v += w[33]*float64(p.left) + w[34]*float64(p.sum) + w[35]*float64(p.stars)
			if solo {
				v += w[36] * float64(p.soloMarks)
				if p.soloLost {
					v -= w[37]
				}
			} else {
				v += w[36]*float64(p.best) + w[37]*ns.gain(&p)
			}
			v += w[38] * float64(int(s.NReserve)-p.left)
			if a.Type == ActTakeStars {
				v += w[39]
				starsRest, haveStars = v, true
			}
			v += rows
		}
		if i == 0 || v > bestV {
			best, bestV = a, v
		}
	}
	return best
}

// rowFactor is a rough worth of one point written in row r of sh: 1
// without multipliers, 2 with all, 2·½^k with k still missing.
func rowFactor(l *Layout, sh *Sheet, r int) float64 {
	m, full := int(sh.Marked[r]), l.Multipliers[r]
	switch {
	case m == 0:
		return 1
	case m == full:
		return 2
	}
	return 2 / float64(int(1)<<(full-m))
}

// nextSheet is what nextGain needs of the next player's sheet, worked out
// once per decision.
type nextSheet struct {
	fac  [NumRows]float64         // rowFactor by row
	land [NumColors][NumRows]int8 // by colour: the rows of its column's empty cells, top down (-1 past them)
	room [7]int8                  // empty cells in the row of each value
	row  [7]int8                  // row of each value
}

func (ns *nextSheet) init(s *State) {
	l := s.L
	sh := &s.Sheets[(int(s.Current)+1)%int(s.NPlayers)]
	for r := 0; r < NumRows; r++ {
		ns.fac[r] = rowFactor(l, sh, r)
		v := l.RowValues[r]
		ns.row[v] = int8(r)
		ns.room[v] = int8(sh.rowEmpty(l, r))
	}
	for c := 0; c < NumColors; c++ {
		col := l.ColumnOf(Color(c))
		k := 0
		for r := 0; r < NumRows; r++ {
			if sh.Filled[r]&(1<<col) == 0 {
				ns.land[c][k] = int8(r)
				k++
			}
		}
		for ; k < NumRows; k++ {
			ns.land[c][k] = -1
		}
	}
}

// nextGain estimates the best the next player can write from the reserve p
// leaves: a colour's sum in the row where its column's last cell lands, or
// a value's total in its row, each at rowFactor of their sheet.
func (ns *nextSheet) gain(p *takePreview) float64 {
	best := 0.0
	for c := 0; c < NumColors; c++ {
		n, sum := int(p.colN[c]), int(p.col[c])
		if n == 0 || sum == 0 || n > NumRows {
			continue
		}
		if r := ns.land[c][n-1]; r >= 0 {
			best = max(best, float64(sum)*ns.fac[r])
		}
	}
	for v := 2; v <= 6; v++ {
		if n := p.valN[v]; n > 0 && ns.room[v] >= n {
			best = max(best, float64(p.val[v])*ns.fac[ns.row[v]])
		}
	}
	return best
}
