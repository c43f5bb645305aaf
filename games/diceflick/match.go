package diceflick

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Game is Diceflick for the engine registry. Sim decides where flicks land
// when nature samples a landing; records and scripts that fix every landing
// never call it.
type Game struct {
	Sim Simulator
}

// Options are the table options of Diceflick.
type Options struct {
	// ShiftBases is the children's variant: a base may slide along its side
	// before a flick (the flick's offset).
	ShiftBases bool `json:"shiftBases,omitempty"`
	// Rounds overrides the number of rounds (1 to MaxRounds; nil: the
	// components'). A pointer, so that 0 is refused rather than read as
	// "not given".
	Rounds *int `json:"rounds,omitempty"`
	// Components replaces the whole component set (advanced; nil = default).
	Components *Components `json:"components,omitempty"`
}

// ParseOptions reads options strictly (nil or empty means defaults).
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || string(t) == "null" {
		return o, nil
	}
	if err := engine.DecodeStrict(raw, &o); err != nil {
		return o, fmt.Errorf("diceflick options: %w", err)
	}
	if o.Rounds != nil && (*o.Rounds < 1 || *o.Rounds > MaxRounds) {
		return o, fmt.Errorf("diceflick options: rounds %d: a game has 1 to %d rounds", *o.Rounds, MaxRounds)
	}
	return o, nil
}

// New sets up a match.
func (g Game) New(players []string, options json.RawMessage) (engine.State, error) {
	return NewMatch(g.Sim, players, options)
}

// DecodeAction reads the JSON form of an action.
func (Game) DecodeAction(data []byte) (engine.Action, error) { return DecodeAction(data) }

// NewMatch sets up a match with typed access to its state.
func NewMatch(sim Simulator, players []string, options json.RawMessage) (*Match, error) {
	o, err := ParseOptions(options)
	if err != nil {
		return nil, err
	}
	c := DefaultComponents
	if o.Components != nil {
		c = *o.Components
	}
	if o.Rounds != nil {
		c.Rounds = *o.Rounds
	}
	s, err := NewState(&c, len(players))
	if err != nil {
		return nil, err
	}
	s.ShiftBases = o.ShiftBases
	return &Match{S: s, Names: append([]string(nil), players...), Sim: sim}, nil
}

// Match is a game of Diceflick behind the engine.State interface.
type Match struct {
	S     State
	Names []string
	Sim   Simulator
}

var _ engine.State = (*Match)(nil)

// Turn says who acts: the current player, or nature for a draw or a landing.
func (m *Match) Turn() engine.Turn {
	switch m.S.Phase {
	case PhaseOver:
		return engine.Turn{Over: true}
	case PhaseDraw, PhaseLand:
		return engine.Turn{Chance: true}
	}
	return engine.Turn{Actors: []engine.Seat{engine.Seat(m.S.Current)}}
}

// Legal lists examples of the seat's legal actions. A flick's angle and
// power are continuous, so no list is complete: it gives a centred flick of
// medium power per die and base. While scoring it gives the best choice and
// scoring nothing.
func (m *Match) Legal(seat engine.Seat) []engine.Action {
	if seat == engine.ChanceSeat || !m.Turn().Has(seat) {
		return nil
	}
	var out []engine.Action
	if m.S.Phase == PhaseFlick {
		for d := range int(m.S.NHand[m.S.Current]) {
			for base := range 4 {
				out = append(out, Action{Type: ActFlick, Die: d, Flick: physics.Flick{Base: base, Power: 0.5}})
			}
		}
	}
	if m.S.Phase == PhaseScore || m.S.MayStop() {
		b := m.S.Board()
		_, best := b.Solve()
		out = append(out, Action{Type: ActScore, Choice: best}, Action{Type: ActScore, Choice: Choice{Groups: [][]int{}}})
	}
	return out
}

// Check tells whether a move is legal, and why not.
func (m *Match) Check(mv engine.Move) error {
	a, ok := mv.Action.(Action)
	if !ok {
		return engine.Refuse(engine.ErrBadAction.Rule, "not a diceflick action")
	}
	if m.S.Phase == PhaseOver {
		return engine.ErrGameOver
	}
	if !m.Turn().Has(mv.Seat) {
		if m.Turn().Chance {
			return engine.ErrChancePending
		}
		if mv.Seat == engine.ChanceSeat {
			return engine.Refuse(engine.ErrWrongAction.Rule, "no die is being drawn or is in flight")
		}
		return engine.Refusef(engine.ErrNotYourTurn.Rule, "it is %s's turn, not yours", m.name(m.S.Current))
	}
	return m.S.Check(&a)
}

func (m *Match) name(p int) string {
	if p >= 0 && p < len(m.Names) {
		return m.Names[p]
	}
	return "seat " + strconv.Itoa(p)
}

// Apply performs a legal move and reports what happened.
func (m *Match) Apply(mv engine.Move) ([]engine.Event, error) {
	if err := m.Check(mv); err != nil {
		return nil, err
	}
	a := mv.Action.(Action)
	before := m.S
	m.S.ApplyUnchecked(&a)
	return m.events(&before, &a, mv.Seat), nil
}

// SampleChance draws the pending dice or simulates the flick in flight.
// Landing needs the game's simulator; a match without one (set up only to
// replay or to run fixed scripts) cannot sample a landing, a programming
// error of whoever runs the table.
func (m *Match) SampleChance(src engine.Source) engine.Action {
	if m.S.Phase == PhaseDraw {
		return m.S.SampleDraw(src)
	}
	if m.Sim == nil {
		panic("diceflick: a landing must be sampled but the game has no physics simulator")
	}
	return m.S.SampleLanding(m.Sim, src)
}

// Players returns the seat names.
func (m *Match) Players() []string { return m.Names }

// Clone copies the match (the state is a value; components are read-only).
func (m *Match) Clone() engine.State {
	c := *m
	c.Names = append([]string(nil), m.Names...)
	return &c
}

// Result gives the totals and, when over, the winners.
func (m *Match) Result() engine.Result {
	var winners []int
	if m.S.Over() {
		winners = m.S.Winners()
	}
	return engine.NewResult(m.S.Over(), append([]int(nil), m.S.Totals[:m.S.NPlayers]...), winners)
}

// Event data of Diceflick (the "kind" of each engine.Event says which).
type (
	// DrawEvent ("draw"): dice left the bag into the player's hand.
	DrawEvent struct {
		Player string   `json:"player"`
		Dice   []string `json:"dice"`
		Bonus  bool     `json:"bonus,omitempty"`
	}
	// FlickEvent ("flick"): the player flicked a die.
	FlickEvent struct {
		Die    int           `json:"die"`
		Color  string        `json:"color"`
		Flick  physics.Flick `json:"flick"`
		Bonus  bool          `json:"bonus,omitempty"` // the optional bonus flick
		Remain int           `json:"remain"`          // flicks owed after this one
	}
	// LandEvent ("land"): where the die came to rest, with its path.
	LandEvent struct {
		Color  string          `json:"color"`
		Hole   string          `json:"hole,omitempty"` // "row,col", or empty
		Where  string          `json:"where"`          // "hole", "trench" or "out"
		Face   int             `json:"face,omitempty"`
		Bonus  bool            `json:"bonus,omitempty"`  // landed on the bonus marker
		Centre bool            `json:"centre,omitempty"` // landed on the centre marker
		Path   []physics.Point `json:"path,omitempty"`
	}
	// ScoreEvent ("score"): the choice scored, each part with its holes
	// and points, and the dice that went back to the bag.
	ScoreEvent struct {
		Player   string      `json:"player"`
		Parts    []ScorePart `json:"parts"`
		Total    int         `json:"total"`
		Best     int         `json:"best"` // the best total that was on offer
		Returned []string    `json:"returned"`
	}
	// ScorePart is one scored combination.
	ScorePart struct {
		Kind   string   `json:"kind"` // "group", "centre" or "blast"
		Color  string   `json:"color,omitempty"`
		Line   string   `json:"line,omitempty"` // a blast's "row" or "column"
		At     string   `json:"at,omitempty"`   // a blast die's hole
		Holes  []string `json:"holes"`          // what this part scores
		Points int      `json:"points"`
	}
	// RoundEvent ("round-end"): every player has played the round.
	RoundEvent struct {
		Round  int   `json:"round"` // from 1
		Totals []int `json:"totals"`
	}
	// EndEvent ("game-over"): totals and winners (ties share).
	EndEvent struct {
		Scores  []int    `json:"scores"`
		Winners []string `json:"winners"`
	}
)

func holeNames(m uint32) []string {
	out := []string{}
	for ; m != 0; m &= m - 1 {
		out = append(out, HoleName(trailing(m)))
	}
	return out
}

func (m *Match) events(before *State, a *Action, seat engine.Seat) []engine.Event {
	var ev []engine.Event
	add := func(kind string, data any) { ev = append(ev, engine.Event{Kind: kind, Seat: seat, Data: data}) }
	p := before.Current
	switch a.Type {
	case ActDraw:
		d := make([]string, len(a.Dice))
		for i, c := range a.Dice {
			d[i] = c.String()
		}
		add("draw", DrawEvent{Player: m.name(p), Dice: d, Bonus: before.FlicksLeft >= 0})
	case ActFlick:
		add("flick", FlickEvent{Die: a.Die, Color: before.Hand[p][a.Die].String(), Flick: a.Flick,
			Bonus: before.MayStop(), Remain: int(before.FlicksLeft) - 1})
	case ActLand:
		le := LandEvent{Color: before.InFlight.String(), Where: landTrench, Path: a.Path}
		if a.Out {
			le.Where = landOut
		}
		if a.Hole >= 0 {
			le.Hole, le.Where, le.Face = HoleName(a.Hole), "hole", a.Face
			le.Bonus, le.Centre = a.Hole == before.C.Bonus, a.Hole == before.C.Centre
		}
		add("land", le)
	case ActScore:
		add("score", scoreEvent(before, &a.Choice, m.name(p)))
		if before.Current == before.NPlayers-1 {
			add("round-end", RoundEvent{Round: before.Round + 1, Totals: append([]int(nil), m.S.Totals[:m.S.NPlayers]...)})
		}
		if m.S.Over() {
			r := m.Result()
			names := []string{}
			for _, w := range r.Winners {
				names = append(names, m.name(int(w)))
			}
			add("game-over", EndEvent{Scores: r.Scores, Winners: names})
		}
	}
	return ev
}

// scoreEvent is a score's parts, its total against the best on offer, and
// the dice that went back to the bag.
func scoreEvent(s *State, ch *Choice, player string) ScoreEvent {
	b := s.Board()
	best, _ := b.Solve()
	se := ScoreEvent{Player: player, Best: best, Returned: []string{}}
	var done uint32
	se.Parts, done = b.Parts(ch)
	se.Total = b.Sum(done)
	for m := done; m != 0; m &= m - 1 {
		if c := s.Arena[trailing(m)]; c.Full() {
			se.Returned = append(se.Returned, c.String())
		}
	}
	return se
}

// Parts attributes every hole a choice scores to one part, in the order
// groups, centre, blasts, as the choice counts them; done is every hole
// scored.
func (b *Board) Parts(ch *Choice) (parts []ScorePart, done uint32) {
	parts = []ScorePart{}
	for _, g := range ch.Groups {
		var gm uint32
		for _, h := range g {
			gm |= 1 << h
		}
		c, _ := b.groupColor(gm)
		parts = append(parts, ScorePart{Kind: "group", Color: c.String(), Holes: holeNames(gm), Points: b.Sum(gm)})
		done |= gm
	}
	if ch.Centre {
		c := uint32(1) << b.Centre
		parts = append(parts, ScorePart{Kind: "centre", Holes: holeNames(c), Points: b.Sum(c)})
		done |= c
	}
	for _, bl := range ch.Blasts {
		lm := b.line(bl) &^ done
		line := "row"
		if bl.Column {
			line = "column"
		}
		parts = append(parts, ScorePart{Kind: "blast", At: HoleName(bl.Hole), Line: line, Holes: holeNames(lm), Points: b.Sum(lm)})
		done |= lm
	}
	return parts, done
}
