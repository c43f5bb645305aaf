package diceflick

import (
	"fmt"
	"math"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Phase is where a turn stands.
type Phase uint8

const (
	// PhaseDraw: nature draws dice from the bag (turn start, or the bonus die).
	PhaseDraw Phase = iota
	// PhaseFlick: the current player flicks a die from the hand.
	PhaseFlick
	// PhaseLand: nature decides where the flicked die lands and its face.
	PhaseLand
	// PhaseScore: the flicks are done; the player chooses what to score.
	PhaseScore
	// PhaseOver: the last round has been played.
	PhaseOver
)

var phaseNames = []string{"draw", "flick", "land", "score", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "invalid"
}

// Cell is one hole: empty (0) or a die's colour and face (0 for a blast die,
// whose faces carry no pips).
type Cell uint8

const cellFull = 0x80

// MakeCell is a hole holding a die.
func MakeCell(c Color, face int) Cell { return Cell(cellFull | uint8(c)<<3 | uint8(face)) }

func (c Cell) Full() bool   { return c&cellFull != 0 }
func (c Cell) Color() Color { return Color(c>>3) & 7 }
func (c Cell) Face() int    { return int(c & 7) }

func (c Cell) String() string {
	switch {
	case !c.Full():
		return ""
	case c.Color() == Pink:
		return "pink:blast"
	}
	return fmt.Sprintf("%s:%d", c.Color(), c.Face())
}

// State is a game of Diceflick as a compact value: copying it is a deep
// copy but for the shared, read-only components.
type State struct {
	C          *Components
	ShiftBases bool // children's variant: bases may slide along their side
	NPlayers   int
	Current    int
	Round      int // from 0
	Phase      Phase
	Bag        [NumColors]int8
	Hand       [MaxPlayers][MaxHand]Color
	NHand      [MaxPlayers]int8
	Arena      [Holes]Cell
	ToDraw     int8 // dice the pending draw brings out of the bag
	FlicksLeft int8 // flicks still owed this turn (-1 before the turn's draw)
	Bonus      bool // a bonus flick was granted: the last flick is optional
	InFlight   Color
	Flick      physics.Flick
	Scores     [MaxPlayers][MaxRounds]int16
	Totals     [MaxPlayers]int
}

// NewState sets up a game: every die in the bag, the first player to draw.
func NewState(c *Components, players int) (State, error) {
	if err := c.Validate(); err != nil {
		return State{}, err
	}
	if players < 1 || players > MaxPlayers {
		return State{}, fmt.Errorf("diceflick is for 1 to %d players, not %d", MaxPlayers, players)
	}
	s := State{C: c, NPlayers: players}
	for col, n := range c.Dice {
		s.Bag[col] = int8(n)
	}
	s.startTurn()
	return s, nil
}

// Practice reports a one-player game (practice: the score is the result).
func (s *State) Practice() bool { return s.NPlayers == 1 }

// BagCount is the number of dice in the bag.
func (s *State) BagCount() int {
	n := 0
	for _, k := range s.Bag {
		n += int(k)
	}
	return n
}

// HandOf lists a player's dice.
func (s *State) HandOf(p int) []Color { return s.Hand[p][:s.NHand[p]] }

// Occupied is the holes holding a die, as the physics wants them.
func (s *State) Occupied() [Holes]bool {
	var o [Holes]bool
	for h, c := range s.Arena {
		o[h] = c.Full()
	}
	return o
}

// Board is the scoring picture of the arena now: the markers whose hole is
// empty are the uncovered ones (scoring never changes the arena before it
// is done, so "uncovered at the start of the scoring" is "uncovered now").
func (s *State) Board() Board {
	b := Board{Centre: s.C.Centre}
	for h, c := range s.Arena {
		if !c.Full() {
			continue
		}
		b.Die[c.Color()] |= 1 << h
		v := c.Face()
		if c.Color() == Pink {
			v = s.C.BlastPoints
		}
		if h == s.C.Centre {
			v *= 2
		}
		b.Value[h] = int16(v)
	}
	for col, h := range s.C.Markers {
		if h >= 0 && !s.Arena[h].Full() {
			b.Marker[col] |= 1 << h
			b.Value[h] = int16(s.C.MarkerPoints)
		}
	}
	return b
}

// startTurn draws the current player up to a full hand.
func (s *State) startTurn() {
	s.FlicksLeft, s.Bonus = -1, false
	need := s.C.HandSize - int(s.NHand[s.Current])
	if n := min(need, s.BagCount()); n > 0 {
		s.Phase, s.ToDraw = PhaseDraw, int8(n)
		return
	}
	s.afterDraw()
}

// afterDraw moves on once dice are in hand: the first draw of a turn fixes
// how many flicks are owed (fewer when the bag ran dry).
func (s *State) afterDraw() {
	s.ToDraw = 0
	if s.FlicksLeft < 0 {
		s.FlicksLeft = int8(min(s.C.Flicks, int(s.NHand[s.Current])))
	}
	if s.FlicksLeft > 0 && s.NHand[s.Current] > 0 {
		s.Phase = PhaseFlick
		return
	}
	s.FlicksLeft = 0
	s.Phase = PhaseScore
}

// MayStop reports whether the player may score now instead of flicking:
// only the optional bonus flick is left.
func (s *State) MayStop() bool {
	return s.Phase == PhaseFlick && s.Bonus && s.FlicksLeft <= 1
}

// FlicksOwed is how many flicks the turn still requires before scoring: the
// bonus die's flick may be skipped, so it is not owed.
func (s *State) FlicksOwed() int {
	if s.Phase != PhaseFlick {
		return 0
	}
	n := int(s.FlicksLeft)
	if s.Bonus {
		n--
	}
	return max(n, 0)
}

// Over reports the end of the game.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// Winners are the players with the highest total (ties share the victory).
func (s *State) Winners() []int {
	best := math.MinInt
	var w []int
	for p := range s.NPlayers {
		switch t := s.Totals[p]; {
		case t > best:
			best, w = t, []int{p}
		case t == best:
			w = append(w, p)
		}
	}
	return w
}

// Rule codes of the turn's refusals.
const (
	RuleDrawCount = "draw-count"
	RuleNotInBag  = "not-in-bag"
	RuleNoSuchDie = "no-such-die"
	RuleBadFlick  = "bad-flick"
	RuleHoleTaken = "hole-taken"
	RuleBadFace   = "bad-face"
	RuleBadPath   = "bad-path"
	RuleMustFlick = "must-flick"
)

// MaxPath bounds a landing's animation path.
const MaxPath = 2000

// Check tells whether the action is legal now, for whoever may make it
// (the seat is the Match's business).
func (s *State) Check(a *Action) error {
	if s.Phase == PhaseOver {
		return engine.ErrGameOver
	}
	want := map[Phase]ActionType{PhaseDraw: ActDraw, PhaseFlick: ActFlick, PhaseLand: ActLand, PhaseScore: ActScore}[s.Phase]
	if a.Type != want && !(a.Type == ActScore && s.MayStop()) {
		if s.Phase == PhaseFlick && a.Type == ActScore {
			owed := s.FlicksOwed()
			flicks, dice := "flicks", "dice"
			if owed == 1 {
				flicks = "flick"
			}
			if s.C.Flicks == 1 {
				dice = "die"
			}
			return engine.Refusef(RuleMustFlick, "%d more %s first: each turn flicks %d %s", owed, flicks, s.C.Flicks, dice)
		}
		return engine.Refusef(engine.ErrWrongAction.Rule, "a %s is not allowed now: the turn waits for a %s", a.Kind(), want.kind())
	}
	switch a.Type {
	case ActDraw:
		if len(a.Dice) != int(s.ToDraw) {
			return engine.Refusef(RuleDrawCount, "%d dice leave the bag now, not %d", s.ToDraw, len(a.Dice))
		}
		bag := s.Bag
		for _, c := range a.Dice {
			if c >= NumColors || bag[c] == 0 {
				return engine.Refusef(RuleNotInBag, "no %s die is left in the bag", c)
			}
			bag[c]--
		}
	case ActFlick:
		f := a.Flick
		switch {
		case a.Die < 0 || a.Die >= int(s.NHand[s.Current]):
			return engine.Refusef(RuleNoSuchDie, "the hand holds %d dice; there is no die %d", s.NHand[s.Current], a.Die)
		case f.Base < 0 || f.Base > 3:
			return engine.Refusef(RuleBadFlick, "base %d: the bases are 0 to 3", f.Base)
		case !(f.Offset >= -1 && f.Offset <= 1):
			return engine.Refuse(RuleBadFlick, "a base slides from -1 to 1 along its side")
		case f.Offset != 0 && !s.ShiftBases:
			return engine.Refuse(RuleBadFlick, "bases stay centred (only the children's variant lets them slide)")
		case !(math.Abs(f.Angle) <= s.C.MaxAngle):
			return engine.Refusef(RuleBadFlick, "the angle must be within ±%.3f radians", s.C.MaxAngle)
		case !(f.Power >= 0 && f.Power <= 1):
			return engine.Refuse(RuleBadFlick, "the power must be from 0 to 1")
		}
	case ActLand:
		switch {
		case a.Hole < physics.NoHole || a.Hole >= Holes:
			return engine.Refusef(RuleBadHole, "hole %d is not in the arena", a.Hole)
		case a.Out && a.Hole != physics.NoHole:
			return engine.Refuse(RuleBadHole, "a die that left the box is in no hole")
		case a.Hole >= 0 && s.Arena[a.Hole].Full():
			return engine.Refusef(RuleHoleTaken, "hole %s already holds a die", HoleName(a.Hole))
		case len(a.Path) > MaxPath:
			return engine.Refusef(RuleBadPath, "a path has at most %d points", MaxPath)
		}
		for _, p := range a.Path {
			if math.IsNaN(p.X) || math.IsInf(p.X, 0) || math.IsNaN(p.Y) || math.IsInf(p.Y, 0) {
				return engine.Refuse(RuleBadPath, "a path point is not a finite number")
			}
		}
		needFace := a.Hole >= 0 && s.InFlight != Pink
		if needFace && (a.Face < 1 || a.Face > 6) {
			return engine.Refusef(RuleBadFace, "a %s die shows 1 to 6, not %d", s.InFlight, a.Face)
		}
		if !needFace && a.Face != 0 {
			return engine.Refuse(RuleBadFace, "no face counts here: a blast die has no pips, and a die outside the holes goes back to the bag")
		}
	case ActScore:
		b := s.Board()
		if _, _, err := b.Evaluate(&a.Choice); err != nil {
			return err
		}
	}
	return nil
}

// ApplyUnchecked performs a legal action.
func (s *State) ApplyUnchecked(a *Action) {
	p := s.Current
	switch a.Type {
	case ActDraw:
		for _, c := range a.Dice {
			s.Bag[c]--
			s.Hand[p][s.NHand[p]] = c
			s.NHand[p]++
		}
		s.afterDraw()
	case ActFlick:
		s.InFlight = s.Hand[p][a.Die]
		copy(s.Hand[p][a.Die:], s.Hand[p][a.Die+1:s.NHand[p]])
		s.NHand[p]--
		s.Hand[p][s.NHand[p]] = 0
		s.Flick = a.Flick
		s.Phase = PhaseLand
	case ActLand:
		s.FlicksLeft--
		if a.Hole >= 0 {
			s.Arena[a.Hole] = MakeCell(s.InFlight, a.Face)
		} else {
			s.Bag[s.InFlight]++ // straight back into the bag
		}
		s.InFlight, s.Flick = 0, physics.Flick{}
		if a.Hole >= 0 && a.Hole == s.C.Bonus {
			s.Bonus = true
			s.FlicksLeft++
			if s.BagCount() > 0 {
				s.Phase, s.ToDraw = PhaseDraw, 1
				return
			}
		}
		s.afterDraw()
	case ActScore:
		b := s.Board()
		scored, total, _ := b.Evaluate(&a.Choice)
		for m := scored; m != 0; m &= m - 1 {
			h := trailing(m)
			if c := s.Arena[h]; c.Full() {
				s.Bag[c.Color()]++
				s.Arena[h] = 0
			}
		}
		s.Scores[p][s.Round] = int16(total)
		s.Totals[p] += total
		s.Current++
		if s.Current == s.NPlayers {
			s.Current = 0
			s.Round++
			if s.Round == s.C.Rounds {
				s.Phase = PhaseOver
				return
			}
		}
		s.startTurn()
	}
}

// SampleDraw draws the pending dice uniformly from the bag.
func (s *State) SampleDraw(src engine.Source) Action {
	bag := s.Bag
	n := s.BagCount()
	a := Action{Type: ActDraw}
	for range s.ToDraw {
		k := src.IntN(n)
		for c := range NumColors {
			if k < int(bag[c]) {
				a.Dice = append(a.Dice, c)
				bag[c]--
				break
			}
			k -= int(bag[c])
		}
		n--
	}
	return a
}

// handNoise is a bell-shaped deviation in [-spread, spread]: the mean of
// three uniform draws, so small slips are common and large ones rare.
func handNoise(src engine.Source, spread float64) float64 {
	const steps = 1 << 20
	u := float64(src.IntN(steps)+src.IntN(steps)+src.IntN(steps)) / (3 * (steps - 1))
	return spread * (2*u - 1)
}

// SampleLanding simulates the flick in flight with hand noise from src and
// rolls the face.
func (s *State) SampleLanding(sim Simulator, src engine.Source) Action {
	an := handNoise(src, s.C.AngleNoise)
	pn := handNoise(src, s.C.PowerNoise)
	l := sim.Simulate(s.Occupied(), s.Flick, an, pn)
	a := Action{Type: ActLand, Hole: l.Hole, Out: l.Out, Path: l.Path}
	if l.Hole < 0 {
		a.Hole = physics.NoHole
	} else if s.InFlight != Pink {
		a.Face = src.IntN(6) + 1
	}
	return a
}

// Simulator is where a flick comes to rest. The physics package provides
// it (ArenaSim); the rules only need this much, so tests use a fake.
type Simulator interface {
	Simulate(occupied [Holes]bool, f physics.Flick, angleNoise, powerNoise float64) physics.Landing
}

// SimFunc adapts a function to Simulator.
type SimFunc func(occupied [Holes]bool, f physics.Flick, angleNoise, powerNoise float64) physics.Landing

// Simulate calls f.
func (f SimFunc) Simulate(occupied [Holes]bool, fl physics.Flick, an, pn float64) physics.Landing {
	return f(occupied, fl, an, pn)
}

// ArenaSim is the real simulator: the physics package's arena, with the
// hand noise the rules drew. The arena's MaxAngle should equal
// Components.MaxAngle (a test checks the defaults agree).
func ArenaSim(a *physics.Arena) Simulator {
	return SimFunc(func(o [Holes]bool, f physics.Flick, an, pn float64) physics.Landing {
		return a.Simulate(o, f, physics.Noise{Angle: an, Power: pn})
	})
}
