package diceflick

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"sort"

	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// The one search over flicks: the bots (bot.go) pick their flick with it and
// the review (judge.go) values the flick a player made against the best aim
// it finds. A search sees a position as a seat sees it (position), weighs
// each candidate flick by simulated landings under the same noise draws,
// and values each landing by the arena it leaves.

// Value weights of the evaluation, in points.
const (
	// bonusValue is what landing on the bonus marker is worth on top of the
	// die's own points: an extra die and flick (about what a flick scores).
	bonusValue = 3.0
	// pairNow values a two-die start of a group with a free hole next to
	// it when the bot still flicks this turn; pairLater when only its next
	// turn could use it (practice: nobody else scores it first).
	pairNow   = 1.5
	pairLater = 0.5
)

// noiseDraw is one imagined flick's deviations and face roll. Every
// candidate is weighed against the same draws, so differences between
// candidates are not drowned by sampling luck.
type noiseDraw struct {
	slipA, slipP, tableA, tableP float64
	face                         int
}

// flickSearch is one flick decision's search.
type flickSearch struct {
	p     *position
	lv    botLevel
	sim   Simulator
	arena *physics.Arena
	draws []noiseDraw
	// after is how many flicks the turn still owes after this one (0: the
	// last flick, or the optional bonus flick).
	after int
	// stay is the value of the arena as it is: a die that misses every
	// hole goes back to the bag.
	stay     float64
	occupied [Holes]bool
	// look caches the lookahead's value of an arena (with the die flicked
	// now gone from the hand); lands caches its simulated landings, which
	// depend only on the holes taken, the aim and the draw.
	look  map[lookKey]float64
	lands map[landKey]int8
}

type lookKey struct {
	arena [Holes]Cell
	die   Color
}

type landKey struct {
	occupied uint32
	target   int8
	draw     int16
}

// target is a (die, free hole) pair with its static estimate: the value if
// the die dropped there, averaged over its faces.
type target struct {
	die, hole int
	est       float64
}

// candidate is one flick the search weighed.
type candidate struct {
	die    int
	target int // the hole aimed at; -1 for a flick that aims at none (a player's)
	flick  physics.Flick
	value  float64   // mean value over the draws
	vals   []float64 // the value in each draw
	hits   int       // draws that came to rest in target
}

// variance is the spread of the candidate's value over the draws.
func (c candidate) variance() float64 {
	if len(c.vals) < 2 {
		return 0
	}
	var sq float64
	for _, v := range c.vals {
		sq += (v - c.value) * (v - c.value)
	}
	return sq / float64(len(c.vals)-1)
}

// newFlickSearch prepares the search of a flick decision (p.hand not empty).
func newFlickSearch(p *position, lv botLevel, sim Simulator, arena *physics.Arena) *flickSearch {
	fs := &flickSearch{p: p, lv: lv, sim: sim, arena: arena, after: max(p.flicksLeft-1, 0), occupied: p.s.Occupied()}
	if p.mayStop {
		fs.after = 0
	}
	fs.stay = fs.value(&p.s, fs.after, false)
	if lv.Look > 0 {
		fs.look = map[lookKey]float64{}
		fs.lands = map[landKey]int8{}
	}
	return fs
}

// drawNoise draws n imagined flicks from rng: the seat's slip, the table's
// noise (the defaults: the view does not show a table's own) and a face.
func (fs *flickSearch) drawNoise(rng *rand.Rand, n int) {
	fs.draws = make([]noiseDraw, n)
	for i := range fs.draws {
		fs.draws[i] = noiseDraw{
			slipA: handNoise(rng, fs.lv.SlipAngle), slipP: handNoise(rng, fs.lv.SlipPower),
			tableA: handNoise(rng, fs.p.comp.AngleNoise), tableP: handNoise(rng, fs.p.comp.PowerNoise),
			face: rng.IntN(6) + 1,
		}
	}
}

// Faces a static estimate averages over: every face for the search's own
// targets; two faces with the die's mean for the lookahead's ranking
// (scores are nearly linear in a face).
var (
	allFaces = []int{1, 2, 3, 4, 5, 6}
	twoFaces = []int{2, 5}
)

// targets estimates every (die colour, free hole), best first, and keeps
// the level's Targets best.
func (fs *flickSearch) targets() []target {
	return fs.rank(&fs.p.s, fs.p.hand, fs.after, allFaces, fs.lv.Targets)
}

// rank estimates each die colour of hand in each free hole of s: the
// value with flicksAfter flicks to come if the die dropped there, averaged
// over faces (a blast die has none); the n best, best first (ties keep
// hand and hole order, so the choice is stable). A target's die is its
// first index in hand.
func (fs *flickSearch) rank(s *State, hand []Color, flicksAfter int, faces []int, n int) []target {
	var out []target
	var seen [NumColors]bool
	for d, c := range hand {
		if seen[c] {
			continue
		}
		seen[c] = true
		fc := faces
		if c == Pink {
			fc = []int{0}
		}
		for h := range Holes {
			if s.Arena[h].Full() {
				continue
			}
			est := 0.0
			for _, f := range fc {
				t := withDie(s, c, h, f)
				est += fs.value(&t, flicksAfter, h == fs.p.comp.Bonus)
			}
			out = append(out, target{die: d, hole: h, est: est / float64(len(fc))})
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].est > out[j].est })
	if len(out) > n {
		out = out[:n]
	}
	return out
}

// run weighs aims at the best targets from up to Bases bases each and
// returns the candidates weighed, best first. With prune, a target whose
// estimate cannot beat the best so far is skipped (only sound without the
// lookahead, whose values the static estimate does not bound).
func (fs *flickSearch) run(prune bool) []candidate {
	var out []candidate
	bestV := math.Inf(-1)
	for _, t := range fs.targets() {
		if prune && fs.lv.Look == 0 && t.est <= bestV {
			continue // even a sure hit could not beat the best so far
		}
		for _, f := range fs.aims(t.hole) {
			c := fs.weigh(t.die, f, t.hole)
			out = append(out, c)
			bestV = math.Max(bestV, c.value)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].value > out[j].value })
	return out
}

// aims lists the flicks at a hole from up to Bases bases, the widest power
// window (AimBest) first, then the others in base order.
func (fs *flickSearch) aims(hole int) []physics.Flick {
	first, ok := fs.arena.AimBest(hole)
	if !ok {
		return nil
	}
	out := []physics.Flick{first}
	for base := 0; base < 4 && len(out) < fs.lv.Bases; base++ {
		if base == first.Base {
			continue
		}
		if f, ok := fs.arena.Aim(hole, base); ok {
			out = append(out, f)
		}
	}
	return out
}

// weigh is the mean value of flicking die with f over the draws: the seat's
// slip, then the table's noise.
func (fs *flickSearch) weigh(die int, f physics.Flick, target int) candidate {
	c := candidate{die: die, target: target, flick: f, vals: make([]float64, len(fs.draws))}
	col := fs.p.hand[die]
	sum := 0.0
	for i, d := range fs.draws {
		g := slipFlick(fs.arena, f, d.slipA, d.slipP)
		l := fs.sim.Simulate(fs.occupied, g, d.tableA, d.tableP)
		if l.Hole == target {
			c.hits++
		}
		c.vals[i] = fs.landed(die, col, l.Hole, d.face)
		sum += c.vals[i]
	}
	c.value = sum / float64(len(fs.draws))
	return c
}

// landed values the position after die (of colour col) came to rest in
// hole (physics.NoHole: back to the bag) showing face.
func (fs *flickSearch) landed(die int, col Color, hole, face int) float64 {
	p := fs.p
	s := withDie(&p.s, col, hole, face)
	bonus := hole >= 0 && hole == p.comp.Bonus
	if fs.lv.Look == 0 || fs.after == 0 {
		if hole < 0 {
			return fs.stay
		}
		return fs.value(&s, fs.after, bonus)
	}
	v := fs.lookahead(&s, die)
	if bonus && !p.bagEmpty {
		v += bonusValue
	}
	return v
}

// lookahead is the value of arena s with the next flick still to make from
// the hand without die: the best of the Look most promising aims, each
// weighed over the first LookSamples draws.
func (fs *flickSearch) lookahead(s *State, die int) float64 {
	p := fs.p
	key := lookKey{arena: s.Arena, die: p.hand[die]}
	if v, ok := fs.look[key]; ok {
		return v
	}
	after := fs.after - 1
	var rest []Color
	rest = append(rest, p.hand[:die]...)
	rest = append(rest, p.hand[die+1:]...)
	aims := fs.rank(s, rest, after, twoFaces, fs.lv.Look)
	var occ uint32
	occupied := s.Occupied()
	for h, o := range occupied {
		if o {
			occ |= 1 << h
		}
	}
	stay := fs.value(s, after, false)
	best := math.Inf(-1)
	n := min(fs.lv.LookSamples, len(fs.draws))
	for _, a := range aims {
		col := rest[a.die]
		f, ok := fs.arena.AimBest(a.hole)
		if !ok {
			continue
		}
		sum := 0.0
		for i, d := range fs.draws[:n] {
			lk := landKey{occupied: occ, target: int8(a.hole), draw: int16(i)}
			hole, ok := fs.lands[lk]
			if !ok {
				g := slipFlick(fs.arena, f, d.slipA, d.slipP)
				hole = int8(fs.sim.Simulate(occupied, g, d.tableA, d.tableP).Hole)
				fs.lands[lk] = hole
			}
			if hole < 0 {
				sum += stay
				continue
			}
			t := withDie(s, col, int(hole), d.face)
			sum += fs.value(&t, after, int(hole) == p.comp.Bonus)
		}
		best = math.Max(best, sum/float64(n))
	}
	if math.IsInf(best, -1) {
		best = stay
	}
	fs.look[key] = best
	return best
}

// withDie is s with a die of colour col come to rest in hole (none for
// physics.NoHole: the die went back to the bag) showing face (a blast die
// shows none).
func withDie(s *State, col Color, hole, face int) State {
	t := *s
	if hole >= 0 {
		if col == Pink {
			face = 0
		}
		t.Arena[hole] = MakeCell(col, face)
	}
	return t
}

// value is the evaluation of an arena after a landing: what the solver
// would score now, plus the potential of what is left.
func (fs *flickSearch) value(s *State, flicksAfter int, bonus bool) float64 {
	bd := s.Board()
	total, ch := bd.Solve()
	var scored uint32
	if fs.lv.Potential && flicksAfter == 0 && (fs.p.practice || fs.lv.Deny != 0) {
		scored, _, _ = bd.Evaluate(&ch)
	}
	return fs.worth(&bd, scored, total, flicksAfter, bonus)
}

// worth is value's evaluation when the turn would score total from the
// holes of scored (only needed after the turn's last flick).
func (fs *flickSearch) worth(bd *Board, scored uint32, total, flicksAfter int, bonus bool) float64 {
	p := fs.p
	v := float64(total)
	if bonus && !p.bagEmpty {
		v += bonusValue
	}
	if !fs.lv.Potential {
		return v
	}
	if flicksAfter > 0 {
		return v + pairNow*float64(pairs(bd, fullMask))
	}
	if p.practice {
		return v + pairLater*float64(pairs(bd, fullMask&^scored))
	}
	if fs.lv.Deny == 0 {
		return v
	}
	// What is left is the next player's.
	return v - fs.lv.Deny*float64(pairs(bd, fullMask&^scored))
}

// pairs counts the two-hole starts of a group (a colour's dice and marker,
// with jokers) among the holes of left that a free hole could extend.
func pairs(bd *Board, left uint32) int {
	var items uint32
	for c := range NumColors {
		items |= bd.Die[c] | bd.Marker[c]
	}
	var markers uint32
	for c := range NumColors {
		markers |= bd.Marker[c]
	}
	free := fullMask &^ (items &^ markers) // an uncovered marker's hole is free to land in
	n := 0
	for c := Blue; c <= Green; c++ {
		el := (bd.Die[c] | bd.Marker[c] | bd.Die[White]) & left
		for rest := el; rest != 0; {
			comp := component(rest&-rest, el)
			rest &^= comp
			if bits.OnesCount32(comp) == 2 && comp&bd.Die[c] != 0 && neighbours(comp)&free&^comp != 0 {
				n++
			}
		}
	}
	return n
}

// slipFlick is the flick a hand makes when it means f and slips by da, dp:
// within the legal range, so the flick is always legal.
func slipFlick(a *physics.Arena, f physics.Flick, da, dp float64) physics.Flick {
	m := min(a.MaxAngle, DefaultComponents.MaxAngle)
	f.Angle = math.Max(-m, math.Min(m, f.Angle+da))
	f.Power = math.Max(0, math.Min(1, f.Power+dp))
	return f
}
