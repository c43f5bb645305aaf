package diceflick

import (
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// BotKinds lists the bots of Diceflick, weakest first.
var BotKinds = info.BotKinds()

// botLevel is what sets the bots apart: how shaky their hand is and how
// hard they think.
//
// How skill maps to noise: the rules give every player the same hand noise
// (Components.AngleNoise/PowerNoise, drawn by the table in SampleChance), so
// a bot's extra imprecision cannot live there. Instead a bot slips before it
// lets go: it adds its own bell-shaped deviation, within ±SlipAngle radians
// and ±SlipPower of power, drawn from its own seeded generator, to the angle
// and power it meant, and returns that flick. The table then adds the
// table's noise on top. When a bot weighs a candidate it samples both
// deviations (its slip and the table's), so it knows its own hand.
type botLevel struct {
	Name      string
	SlipAngle float64 // radians either side
	SlipPower float64 // power units either side
	Targets   int     // (die colour, hole) pairs simulated, best first by a static estimate
	Bases     int     // bases tried per target (the widest power window first)
	Samples   int     // simulated landings per candidate flick
	// Potential is true when the bot values dice left in holes that build
	// towards groups (the easy bot only counts points).
	Potential bool
}

var botLevels = map[string]botLevel{
	"easy":   {Name: "easy", SlipAngle: 0.12, SlipPower: 0.12, Targets: 3, Bases: 1, Samples: 4},
	"medium": {Name: "medium", SlipAngle: 0.05, SlipPower: 0.05, Targets: 6, Bases: 2, Samples: 10, Potential: true},
	"hard":   {Name: "hard", SlipAngle: 0.01, SlipPower: 0.01, Targets: 12, Bases: 4, Samples: 24, Potential: true},
}

// Bot plays Diceflick from a seat's view. It is not safe for concurrent use.
type Bot struct {
	level botLevel
	sim   Simulator
	arena *physics.Arena
	rng   *rand.Rand
}

var _ engine.Controller = (*Bot)(nil)

// NewBot returns a seeded bot. sim is where the bot imagines its flicks
// landing (nil: the default arena); arena is what it aims with.
func NewBot(kind string, seed uint64, sim Simulator) (*Bot, error) {
	lv, ok := botLevels[strings.ToLower(kind)]
	if !ok {
		return nil, fmt.Errorf("unknown diceflick bot %q (have %s)", kind, strings.Join(BotKinds, ", "))
	}
	if sim == nil {
		sim = ArenaSim(&physics.DefaultArena)
	}
	return &Bot{level: lv, sim: sim, arena: &physics.DefaultArena, rng: engine.NewSource(seed)}, nil
}

// NewBot returns a bot that imagines flicks with the game's own simulator
// (engine.BotProvider).
func (g Game) NewBot(kind string, seed uint64) (engine.Controller, error) {
	b, err := NewBot(kind, seed, g.Sim)
	if err != nil {
		return nil, err
	}
	return b, nil
}

var _ engine.BotProvider = Game{}

// Name is the bot's kind.
func (b *Bot) Name() string { return b.level.Name }

// Choose decides from the seat's view (View or *View, as Match.View gives).
func (b *Bot) Choose(view any, _ []engine.Action) (engine.Action, error) {
	var v *View
	switch x := view.(type) {
	case View:
		v = &x
	case *View:
		v = x
	default:
		return nil, fmt.Errorf("diceflick bot: got a %T view", view)
	}
	p, err := botPosition(v)
	if err != nil {
		return nil, fmt.Errorf("diceflick bot: %w", err)
	}
	switch v.Phase {
	case PhaseScore.String():
		return b.score(p), nil
	case PhaseFlick.String():
		if a, ok := b.flick(p); ok {
			return a, nil
		}
		if v.MayStop {
			return b.score(p), nil
		}
		return nil, fmt.Errorf("diceflick bot: no die to flick")
	}
	return nil, fmt.Errorf("diceflick bot: nothing to decide in phase %s", v.Phase)
}

// position is what the bot reads off a view: the arena as a State (for
// Board and Occupied), its hand and the turn's situation.
type position struct {
	s          State
	comp       Components
	hand       []Color
	flicksLeft int
	mayStop    bool
	practice   bool
	bagEmpty   bool
}

// botPosition rebuilds the scoring picture from the public view. The view
// shows every marker, die and the rounds, but not the point values of
// markers and blast dice nor the table's noise: the bot assumes the
// defaults (docs/rules/diceflick.md) for those.
func botPosition(v *View) (*position, error) {
	p := &position{comp: DefaultComponents, flicksLeft: v.FlicksLeft, mayStop: v.MayStop, practice: v.Practice}
	p.comp.Rounds = v.Rounds
	p.comp.Bonus = -1
	for c := range p.comp.Markers {
		p.comp.Markers[c] = -1
	}
	for _, m := range v.Markers {
		h, err := ParseHole(m.Hole)
		if err != nil {
			return nil, err
		}
		switch m.Kind {
		case "centre":
			p.comp.Centre = h
		case "bonus":
			p.comp.Bonus = h
		default:
			c, err := ParseColor(m.Kind)
			if err != nil {
				return nil, err
			}
			p.comp.Markers[c] = h
		}
	}
	p.s.C = &p.comp
	if len(v.Arena) != Rows {
		return nil, fmt.Errorf("arena has %d rows", len(v.Arena))
	}
	for r, row := range v.Arena {
		if len(row) != Cols {
			return nil, fmt.Errorf("arena row %d has %d holes", r, len(row))
		}
		for c, cell := range row {
			if cell == "" {
				continue
			}
			x, err := parseCell(cell)
			if err != nil {
				return nil, err
			}
			p.s.Arena[r*Cols+c] = x
		}
	}
	if v.Seat < 0 || int(v.Seat) >= len(v.Players) {
		return nil, fmt.Errorf("seat %d has no player", v.Seat)
	}
	for _, d := range v.Players[v.Seat].Hand {
		c, err := ParseColor(d)
		if err != nil {
			return nil, err
		}
		p.hand = append(p.hand, c)
	}
	bag := 0
	for _, n := range v.Bag {
		bag += n
	}
	p.bagEmpty = bag == 0
	return p, nil
}

// parseCell reads a hole of the report ("blue:5", "pink:blast").
func parseCell(s string) (Cell, error) {
	name, face, _ := strings.Cut(s, ":")
	c, err := ParseColor(name)
	if err != nil {
		return 0, err
	}
	if c == Pink {
		return MakeCell(Pink, 0), nil
	}
	f, err := strconv.Atoi(face)
	if err != nil || f < 1 || f > 6 {
		return 0, fmt.Errorf("hole %q: bad face", s)
	}
	return MakeCell(c, f), nil
}

// score sends the solver's best choice: scored dice leave the arena and the
// points are the turn's, so there is nothing to gain by holding back what
// the next player could score instead.
func (b *Bot) score(p *position) Action {
	bd := p.s.Board()
	_, ch := bd.Solve()
	return Action{Type: ActScore, Choice: ch}
}

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

// value is the evaluation of an arena after a landing: what the solver
// would score now, plus the potential of what is left.
func (b *Bot) value(p *position, s *State, flicksAfter int, bonus bool) float64 {
	bd := s.Board()
	total, ch := bd.Solve()
	v := float64(total)
	if bonus && !p.bagEmpty {
		v += bonusValue
	}
	if !b.level.Potential {
		return v
	}
	w := pairNow
	var left uint32 = fullMask
	if flicksAfter == 0 {
		if !p.practice {
			return v // what is left is the next player's
		}
		w = pairLater
		scored, _, _ := bd.Evaluate(&ch)
		left &^= scored
	}
	return v + w*float64(pairs(&bd, left))
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

// noiseDraw is one imagined flick's deviations and face roll. Every
// candidate is weighed against the same draws, so differences between
// candidates are not drowned by sampling luck.
type noiseDraw struct {
	slipA, slipP, tableA, tableP float64
	face                         int
}

// flick picks the die, base, angle and power of best expected value, and
// returns it after the bot's slip. ok is false when no flick is worth more
// than stopping (only asked when stopping is allowed).
func (b *Bot) flick(p *position) (Action, bool) {
	if len(p.hand) == 0 {
		return Action{}, false
	}
	lv := b.level
	flicksAfter := max(p.flicksLeft-1, 0)
	if p.mayStop {
		flicksAfter = 0
	}
	baseline := b.value(p, &p.s, flicksAfter, false)

	// Static estimate of every (colour, free hole): the value if the die
	// dropped there, averaged over its faces.
	type target struct {
		die, hole int
		est       float64
	}
	var targets []target
	seen := map[Color]bool{}
	for d, c := range p.hand {
		if seen[c] {
			continue
		}
		seen[c] = true
		for h := range Holes {
			if p.s.Arena[h].Full() {
				continue
			}
			est := 0.0
			faces := 6
			if c == Pink {
				faces = 1
			}
			for f := 1; f <= faces; f++ {
				face := f
				if c == Pink {
					face = 0
				}
				t := p.s
				t.Arena[h] = MakeCell(c, face)
				est += b.value(p, &t, flicksAfter, h == p.comp.Bonus)
			}
			targets = append(targets, target{die: d, hole: h, est: est / float64(faces)})
		}
	}
	// Best estimates first; ties keep hole order, so the choice is stable.
	for i := 1; i < len(targets); i++ {
		for j := i; j > 0 && targets[j].est > targets[j-1].est; j-- {
			targets[j], targets[j-1] = targets[j-1], targets[j]
		}
	}
	if len(targets) > lv.Targets {
		targets = targets[:lv.Targets]
	}

	draws := make([]noiseDraw, lv.Samples)
	for i := range draws {
		draws[i] = noiseDraw{
			slipA: handNoise(b.rng, lv.SlipAngle), slipP: handNoise(b.rng, lv.SlipPower),
			tableA: handNoise(b.rng, p.comp.AngleNoise), tableP: handNoise(b.rng, p.comp.PowerNoise),
			face: b.rng.IntN(6) + 1,
		}
	}
	occupied := p.s.Occupied()
	best, bestV := Action{}, math.Inf(-1)
	for _, t := range targets {
		if t.est <= bestV {
			continue // even a sure hit could not beat the best so far
		}
		for _, f := range b.aims(t.hole) {
			sum := 0.0
			for _, d := range draws {
				g := b.slip(f, d.slipA, d.slipP)
				l := b.sim.Simulate(occupied, g, d.tableA, d.tableP)
				if l.Hole < 0 {
					sum += baseline // the die goes back to the bag
					continue
				}
				s := p.s
				face := d.face
				if p.hand[t.die] == Pink {
					face = 0
				}
				s.Arena[l.Hole] = MakeCell(p.hand[t.die], face)
				sum += b.value(p, &s, flicksAfter, l.Hole == p.comp.Bonus)
			}
			if v := sum / float64(len(draws)); v > bestV {
				bestV, best = v, Action{Type: ActFlick, Die: t.die, Flick: f}
			}
		}
	}
	if bestV == math.Inf(-1) || (p.mayStop && bestV <= baseline) {
		return Action{}, false
	}
	best.Flick = b.slip(best.Flick, handNoise(b.rng, lv.SlipAngle), handNoise(b.rng, lv.SlipPower))
	return best, true
}

// aims lists the flicks at a hole from up to Bases bases, the widest power
// window (AimBest) first, then the others in base order.
func (b *Bot) aims(hole int) []physics.Flick {
	first, ok := b.arena.AimBest(hole)
	if !ok {
		return nil
	}
	out := []physics.Flick{first}
	for base := 0; base < 4 && len(out) < b.level.Bases; base++ {
		if base == first.Base {
			continue
		}
		if f, ok := b.arena.Aim(hole, base); ok {
			out = append(out, f)
		}
	}
	return out
}

// slip is the flick the bot's hand actually makes when it means f: within
// the legal range, so the flick it returns is always legal.
func (b *Bot) slip(f physics.Flick, da, dp float64) physics.Flick {
	m := min(b.arena.MaxAngle, DefaultComponents.MaxAngle)
	f.Angle = math.Max(-m, math.Min(m, f.Angle+da))
	f.Power = math.Max(0, math.Min(1, f.Power+dp))
	return f
}
