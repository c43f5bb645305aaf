package diceflick

import (
	"fmt"
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
	// Look is how many aims of the turn's next flick the bot weighs after
	// each imagined landing (0: none, the potential stands in for them),
	// each over the first LookSamples draws.
	Look, LookSamples int
	// Deny is what a two-die start left to the next player costs, per
	// start, after the turn's last flick at a shared table.
	Deny float64
}

var botLevels = map[string]botLevel{
	"easy":   {Name: "easy", SlipAngle: 0.12, SlipPower: 0.12, Targets: 3, Bases: 1, Samples: 4},
	"medium": {Name: "medium", SlipAngle: 0.05, SlipPower: 0.05, Targets: 6, Bases: 2, Samples: 10, Potential: true},
	"hard": {Name: "hard", SlipAngle: 0.01, SlipPower: 0.01, Targets: 12, Bases: 2, Samples: 16, Potential: true,
		Look: 4, LookSamples: 8, Deny: 1},
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

// flick picks the die, base, angle and power of best expected value
// (search.go), and returns it after the bot's slip. ok is false when no
// flick is worth more than stopping (only asked when stopping is allowed).
func (b *Bot) flick(p *position) (Action, bool) {
	if len(p.hand) == 0 {
		return Action{}, false
	}
	fs := newFlickSearch(p, b.level, b.sim, b.arena)
	fs.drawNoise(b.rng, b.level.Samples)
	cands := fs.run(true)
	if len(cands) == 0 || (p.mayStop && cands[0].value <= fs.stay) {
		return Action{}, false
	}
	best := cands[0]
	f := slipFlick(b.arena, best.flick, handNoise(b.rng, b.level.SlipAngle), handNoise(b.rng, b.level.SlipPower))
	return Action{Type: ActFlick, Die: best.die, Flick: f}, true
}
