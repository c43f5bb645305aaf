package diceflick

import (
	"fmt"
	"math/bits"
	"slices"

	"github.com/dicehall/dicehall/engine"
)

// Rule codes of scoring refusals.
const (
	RuleGroupSize     = "group-size"
	RuleGroupColor    = "group-color"
	RuleGroupShape    = "group-not-adjacent"
	RuleNotScorable   = "not-scorable"
	RuleUsedTwice     = "used-twice"
	RuleNoCentreDie   = "no-centre-die"
	RuleNotBlast      = "not-blast-die"
	RuleBlastTwice    = "blast-twice"
	RuleBadHole       = "bad-hole"
	RuleTooManyGroups = "too-many-groups"
)

// Blast is the line a blast die scores: its row, or its column.
type Blast struct {
	Hole   int  `json:"hole"`
	Column bool `json:"column"`
}

// Choice is what a player scores at the end of a turn: groups (each named by
// its member holes; an uncovered upgrade marker is a member through its
// hole), the centre die alone, and one line per blast die. Groups are
// disjoint and disjoint from the centre-alone die; a blast line scores
// everything in its line that nothing else scores, so each die and marker
// counts once.
type Choice struct {
	Groups [][]int `json:"groups"`
	Centre bool    `json:"centre,omitempty"`
	Blasts []Blast `json:"blasts,omitempty"`
}

// Board is what scoring looks at, as bit sets of holes: the dice of each
// colour, the uncovered upgrade markers of each colour, and the points of
// each scorable item (a die's pips or blast points, doubled on the centre;
// a marker's points).
type Board struct {
	Die    [NumColors]uint32
	Marker [NumColors]uint32
	Value  [Holes]int16
	Centre int
}

const fullMask = uint32(1)<<Holes - 1

// colMask[c] is every hole of column c; rowMask[r] of row r.
var colMask, rowMask = func() (c, r [5]uint32) {
	for h := 0; h < Holes; h++ {
		c[h%Cols] |= 1 << h
		r[h/Cols] |= 1 << h
	}
	return
}()

// neighbours is every hole orthogonally next to a hole of m.
func neighbours(m uint32) uint32 {
	return (m<<Cols | m>>Cols | (m<<1)&^colMask[0] | (m>>1)&^colMask[Cols-1]) & fullMask
}

// component is the connected part of eligible that holds seed.
func component(seed, eligible uint32) uint32 {
	c := seed
	for {
		n := (c | neighbours(c)) & eligible
		if n == c {
			return c
		}
		c = n
	}
}

// Items is every scorable hole: dice and uncovered markers.
func (b *Board) Items() uint32 {
	var m uint32
	for c := range NumColors {
		m |= b.Die[c] | b.Marker[c]
	}
	return m
}

// Sum adds the points of the items of m.
func (b *Board) Sum(m uint32) int {
	t := 0
	for m != 0 {
		h := bits.TrailingZeros32(m)
		m &= m - 1
		t += int(b.Value[h])
	}
	return t
}

// line is the set of holes a blast die at h scores in one direction.
func (b *Board) line(bl Blast) uint32 {
	if bl.Column {
		return colMask[bl.Hole%Cols] & b.Items()
	}
	return rowMask[bl.Hole/Cols] & b.Items()
}

// groupColor tells whether the holes of m can form one group's colour (with
// jokers), and which colour. A group of jokers only counts as blue.
func (b *Board) groupColor(m uint32) (Color, bool) {
	found := White
	for c := Blue; c < NumColors; c++ {
		if (b.Die[c]|b.Marker[c])&m == 0 {
			continue
		}
		if found != White {
			return 0, false
		}
		found = c
	}
	if found == White {
		return Blue, true
	}
	if found == Pink && b.Die[White]&m != 0 {
		return 0, false // jokers are never pink
	}
	return found, true
}

// Evaluate validates a choice against the board and returns the holes it
// scores and their points.
func (b *Board) Evaluate(ch *Choice) (scored uint32, total int, err error) {
	items := b.Items()
	var grouped uint32
	if len(ch.Groups) > Holes {
		return 0, 0, engine.Refuse(RuleTooManyGroups, "more groups than holes")
	}
	for gi, g := range ch.Groups {
		var m uint32
		for _, h := range g {
			if h < 0 || h >= Holes {
				return 0, 0, engine.Refusef(RuleBadHole, "group %d names hole %d, which is not in the arena", gi+1, h)
			}
			bit := uint32(1) << h
			if items&bit == 0 {
				return 0, 0, engine.Refusef(RuleNotScorable, "hole %s holds no die and no uncovered upgrade marker", HoleName(h))
			}
			if (m|grouped)&bit != 0 {
				return 0, 0, engine.Refusef(RuleUsedTwice, "hole %s is in two groups: each die and marker counts once", HoleName(h))
			}
			m |= bit
		}
		if len(g) < 3 {
			return 0, 0, engine.Refusef(RuleGroupSize, "group %d has %d members: a group needs at least 3", gi+1, len(g))
		}
		if _, ok := b.groupColor(m); !ok {
			return 0, 0, engine.Refusef(RuleGroupColor, "group %d mixes colours: a group is of one colour, white dice standing in for any colour but pink", gi+1)
		}
		if component(m&-m, m) != m {
			return 0, 0, engine.Refusef(RuleGroupShape, "group %d is not connected: members must touch along a side, not only at a corner", gi+1)
		}
		grouped |= m
	}
	scored = grouped
	if ch.Centre {
		c := uint32(1) << b.Centre
		var dice uint32
		for col := range NumColors {
			dice |= b.Die[col]
		}
		if dice&c == 0 {
			return 0, 0, engine.Refuse(RuleNoCentreDie, "no die sits on the centre marker")
		}
		if grouped&c != 0 {
			return 0, 0, engine.Refuse(RuleUsedTwice, "the centre die is already in a group: each die counts once")
		}
		scored |= c
	}
	var blasted uint32
	for _, bl := range ch.Blasts {
		if bl.Hole < 0 || bl.Hole >= Holes {
			return 0, 0, engine.Refusef(RuleBadHole, "blast die on hole %d, which is not in the arena", bl.Hole)
		}
		bit := uint32(1) << bl.Hole
		if b.Die[Pink]&bit == 0 {
			return 0, 0, engine.Refusef(RuleNotBlast, "hole %s holds no blast die", HoleName(bl.Hole))
		}
		if blasted&bit != 0 {
			return 0, 0, engine.Refusef(RuleBlastTwice, "the blast die on %s scores one line, its row or its column, not both", HoleName(bl.Hole))
		}
		blasted |= bit
		scored |= b.line(bl)
	}
	return scored, b.Sum(scored), nil
}

// maxSubsets bounds the per-colour tables of Solve (2^MaxWhites).
const maxSubsets = 1 << MaxWhites

// Solve finds a choice of greatest total, exactly.
//
// Why it is exact and fast: the centre die and a blast line only ever add
// points, so the best choice scores the centre die and one line per blast
// die (at most 2^blasts line combinations). Groups of one colour never
// compete with each other: if a valid group lies in a connected set of
// holes eligible for its colour, the whole connected set is a valid group
// too (3+ members, connected, one colour) and scores at least as much. The
// only conflict is between colours, over the jokers. So the search assigns
// each joker a colour or none (4^jokers, 64 with the published dice), takes
// every connected component of 3+ eligible holes of each colour, and keeps
// the assignment and line combination whose union scores most.
func (b *Board) Solve() (int, Choice) {
	var whites [MaxWhites]int
	nw := 0
	for m := b.Die[White]; m != 0 && nw < MaxWhites; m &= m - 1 {
		whites[nw] = bits.TrailingZeros32(m)
		nw++
	}
	nsub := 1 << nw
	// union[c][s] is the holes of colour c's valid groups when the jokers
	// of subset s join that colour.
	var union [3][maxSubsets]uint32
	for ci := range 3 {
		c := Blue + Color(ci)
		base := b.Die[c] | b.Marker[c]
		for s := range nsub {
			el := base
			for i := range nw {
				if s&(1<<i) != 0 {
					el |= 1 << whites[i]
				}
			}
			union[ci][s] = validGroups(el)
		}
	}
	pinkU := validGroups(b.Die[Pink] | b.Marker[Pink])

	// Line combinations: the centre die plus one line per blast die.
	var blasts [maxDice]int
	nb := 0
	for m := b.Die[Pink]; m != 0; m &= m - 1 {
		blasts[nb] = bits.TrailingZeros32(m)
		nb++
	}
	var dice uint32
	for c := range NumColors {
		dice |= b.Die[c]
	}
	centre := dice & (1 << b.Centre)
	items := b.Items()
	// Two blast dice in one row (or column) make lines coincide; at most 4
	// distinct unions matter for the published dice, but any count works.
	ncombo := 1 << nb
	if nb > 8 {
		ncombo = 1 << 8 // beyond 8 blast dice the extra ones keep their row
	}
	covers := make([]uint32, 0, 16)
	for k := range ncombo {
		cv := centre
		for i := range nb {
			bl := Blast{Hole: blasts[i], Column: i < 8 && k&(1<<i) != 0}
			cv |= b.line(bl) & items
		}
		covers = append(covers, cv)
	}

	best, bestK, bestA := -1, 0, [3]int{}
	// Enumerate joker assignments: digit i of a in base 4 is joker i's
	// colour (0 none, 1 blue, 2 yellow, 3 green).
	var sub [4]int
	total := 1
	for range nw {
		total *= 4
	}
	for a := range total {
		sub = [4]int{}
		x := a
		for i := range nw {
			sub[x&3] |= 1 << i
			x >>= 2
		}
		u := pinkU | union[0][sub[1]] | union[1][sub[2]] | union[2][sub[3]]
		for k, cv := range covers {
			if v := b.Sum(u | cv); v > best {
				best, bestK, bestA = v, k, [3]int{sub[1], sub[2], sub[3]}
			}
		}
	}

	// Rebuild the choice: groups as the components, centre if not grouped,
	// the chosen line of each blast die.
	ch := Choice{Groups: [][]int{}}
	var grouped uint32
	addGroups := func(el uint32) {
		for rest := el; rest != 0; {
			comp := component(rest&-rest, el)
			rest &^= comp
			if bits.OnesCount32(comp) >= 3 {
				ch.Groups = append(ch.Groups, holesOf(comp))
				grouped |= comp
			}
		}
	}
	for ci := range 3 {
		c := Blue + Color(ci)
		el := b.Die[c] | b.Marker[c]
		for i := range nw {
			if bestA[ci]&(1<<i) != 0 {
				el |= 1 << whites[i]
			}
		}
		addGroups(el)
	}
	addGroups(b.Die[Pink] | b.Marker[Pink])
	slices.SortFunc(ch.Groups, func(x, y []int) int { return x[0] - y[0] })
	ch.Centre = centre != 0 && grouped&centre == 0
	for i := range nb {
		ch.Blasts = append(ch.Blasts, Blast{Hole: blasts[i], Column: i < 8 && bestK&(1<<i) != 0})
	}
	return best, ch
}

// validGroups is the union of the connected components of el with at
// least 3 holes.
func validGroups(el uint32) uint32 {
	var u uint32
	for rest := el; rest != 0; {
		comp := component(rest&-rest, el)
		rest &^= comp
		if bits.OnesCount32(comp) >= 3 {
			u |= comp
		}
	}
	return u
}

func holesOf(m uint32) []int {
	out := make([]int, 0, bits.OnesCount32(m))
	for ; m != 0; m &= m - 1 {
		out = append(out, bits.TrailingZeros32(m))
	}
	return out
}

// String is a short form of a choice for people.
func (ch Choice) String() string {
	s := ""
	for _, g := range ch.Groups {
		s += "group"
		for _, h := range g {
			s += " " + HoleName(h)
		}
		s += "; "
	}
	if ch.Centre {
		s += "centre; "
	}
	for _, bl := range ch.Blasts {
		line := "row"
		if bl.Column {
			line = "column"
		}
		s += fmt.Sprintf("blast %s %s; ", HoleName(bl.Hole), line)
	}
	if s == "" {
		return "nothing"
	}
	return s[:len(s)-2]
}

func trailing(m uint32) int { return bits.TrailingZeros32(m) }
