// Package pig is a tiny dice game used only by tests: it proves that a game
// the platform has never heard of plays through every generic path (the
// conformance suite, simulations, the server, the terminal shell) with
// nothing but its own package and the registrations docs/adding-a-game.md
// lists.
//
// Rules: on your turn roll a die as often as you like, adding its face to
// the turn's total; a 1 loses the turn's total and ends the turn; holding
// banks it. The first to reach the target wins at once.
package pig

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Game is Pig. It has no configuration.
type Game struct{}

// Info describes Pig.
func (Game) Info() engine.Info {
	return engine.Info{
		ID: "pig", Title: "Pig", MinPlayers: 1, MaxPlayers: 4, OnePlayer: "pig.practice",
		Options: []engine.OptionSpec{{Name: "target", Type: engine.OptionInt, Default: []byte("30"), Min: 10, Max: 100,
			Label: "pig.opt.target", Flag: "pig-target", Help: "points that win"}},
		Bots:       engine.NamedBots("pig", "cautious", "bold"),
		DefaultBot: "cautious",
		Messages: map[string]string{
			"pig.practice":     "practice alone",
			"pig.opt.target":   "Points to win",
			"pig.bot.cautious": "cautious", "pig.bot.bold": "bold",
			"pig.rolled": "{who} rolls a {face}",
			"pig.bust":   "{who} rolled a 1 and loses the turn",
			"pig.held":   "{who} banks {n} {n:point:points}",
			"pig.won":    "{who} wins",
		},
	}
}

// Action is a Pig move: a seat rolls or holds; nature answers a roll with
// a face.
type Action struct {
	Roll bool `json:"roll,omitempty"`
	Hold bool `json:"hold,omitempty"`
	Face int  `json:"face,omitempty"`
}

// Kind names the move.
func (a Action) Kind() string {
	switch {
	case a.Face != 0:
		return "face"
	case a.Hold:
		return "hold"
	}
	return "roll"
}

// DecodeAction reads an action strictly.
func (Game) DecodeAction(data []byte) (engine.Action, error) {
	var a Action
	if err := engine.DecodeStrict(data, &a); err != nil {
		return nil, fmt.Errorf("pig action: %w", err)
	}
	// Exactly one of roll, hold and face: the zero value is no action.
	if !engine.ExactlyOne(a.Roll, a.Hold, a.Face != 0) {
		return nil, fmt.Errorf("pig action: want one of roll, hold or face, got %s", data)
	}
	return a, nil
}

type options struct {
	Target *int `json:"target,omitempty"`
}

// New sets up a game.
func (g Game) New(players []string, raw json.RawMessage) (engine.State, error) {
	info := g.Info()
	if n := len(players); n < info.MinPlayers || n > info.MaxPlayers {
		return nil, fmt.Errorf("pig is for %d to %d players, not %d", info.MinPlayers, info.MaxPlayers, n)
	}
	target := 30
	if t := strings.TrimSpace(string(raw)); t != "" && t != "null" {
		var o options
		if err := engine.DecodeStrict(raw, &o); err != nil {
			return nil, fmt.Errorf("pig options: %w", err)
		}
		if o.Target != nil {
			if *o.Target < 10 || *o.Target > 100 {
				return nil, fmt.Errorf("pig options: target is %d, want 10 to 100", *o.Target)
			}
			target = *o.Target
		}
	}
	return &State{Names: append([]string(nil), players...), Banked: make([]int, len(players)), Target: target}, nil
}

// State is a game of Pig.
type State struct {
	Names   []string
	Banked  []int
	Target  int
	Current int
	Running int  // the turn's running total
	Rolling bool // a roll waits for nature's face
	Winner  int  // seat+1 of the winner, 0 while playing
}

func (s *State) over() bool { return s.Winner != 0 }

// Turn says who acts.
func (s *State) Turn() engine.Turn {
	switch {
	case s.over():
		return engine.Turn{Over: true}
	case s.Rolling:
		return engine.Turn{Chance: true}
	}
	return engine.Turn{Actors: []engine.Seat{engine.Seat(s.Current)}}
}

// Legal lists every legal action of seat.
func (s *State) Legal(seat engine.Seat) []engine.Action {
	if s.over() || s.Rolling || seat != engine.Seat(s.Current) {
		return nil
	}
	acts := []engine.Action{Action{Roll: true}}
	if s.Running > 0 {
		acts = append(acts, Action{Hold: true})
	}
	return acts
}

// Check says why a move is refused, or nil.
func (s *State) Check(m engine.Move) error {
	a, ok := m.Action.(Action)
	switch {
	case !ok:
		return engine.Refuse(engine.ErrBadAction.Rule, "not a pig action")
	case s.over():
		return engine.ErrGameOver
	case s.Rolling && m.Seat != engine.ChanceSeat:
		return engine.ErrChancePending
	case m.Seat == engine.ChanceSeat:
		if !s.Rolling {
			return engine.Refuse(engine.ErrWrongAction.Rule, "no die is rolling")
		}
		if a.Roll || a.Hold || a.Face < 1 || a.Face > 6 {
			return engine.Refuse("bad-face", "a die shows 1 to 6")
		}
		return nil
	case m.Seat != engine.Seat(s.Current):
		return engine.Refusef(engine.ErrNotYourTurn.Rule, "it is %s's turn", s.Names[s.Current])
	case a.Face != 0 || a.Roll == a.Hold:
		return engine.Refuse(engine.ErrBadAction.Rule, "roll or hold, one of them")
	case a.Hold && s.Running == 0:
		return engine.Refuse("nothing-to-bank", "roll at least once before holding")
	}
	return nil
}

// Apply performs a legal move.
func (s *State) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	a := m.Action.(Action)
	who := engine.Seat(s.Current)
	var ev []engine.Event
	switch {
	case a.Roll:
		s.Rolling = true
	case a.Face == 1:
		s.Rolling, s.Running = false, 0
		ev = append(ev, engine.Event{Kind: "bust", Seat: who})
		s.next()
	case a.Face != 0:
		s.Rolling = false
		s.Running += a.Face
		ev = append(ev, engine.Event{Kind: "rolled", Seat: who, Data: map[string]int{"face": a.Face}})
	case a.Hold:
		s.Banked[s.Current] += s.Running
		ev = append(ev, engine.Event{Kind: "held", Seat: who, Data: map[string]int{"n": s.Running}})
		s.Running = 0
		if s.Banked[s.Current] >= s.Target {
			s.Winner = s.Current + 1
			ev = append(ev, engine.Event{Kind: "won", Seat: who})
		} else {
			s.next()
		}
	}
	return ev, nil
}

func (s *State) next() { s.Current = (s.Current + 1) % len(s.Names) }

// SampleChance rolls the die.
func (s *State) SampleChance(src engine.Source) engine.Action { return Action{Face: 1 + src.IntN(6)} }

// View is public: Pig hides nothing.
func (s *State) View(engine.Seat) any {
	return map[string]any{"banked": s.Banked, "current": s.Current, "turn": s.Running, "target": s.Target, "over": s.over()}
}

// Result gives the banked points and the winner.
func (s *State) Result() engine.Result {
	var w []int
	if s.over() {
		w = []int{s.Winner - 1}
	}
	return engine.NewResult(s.over(), append([]int(nil), s.Banked...), w)
}

// Players names the seats.
func (s *State) Players() []string { return s.Names }

// Clone copies the game.
func (s *State) Clone() engine.State {
	c := *s
	c.Names = append([]string(nil), s.Names...)
	c.Banked = append([]int(nil), s.Banked...)
	return &c
}

// Narrate puts events into words.
func (Game) Narrate(e engine.Event, players []string) []engine.Message {
	args := map[string]any{"who": engine.SeatName(players, e.Seat)}
	if d, ok := e.Data.(map[string]int); ok {
		for k, v := range d {
			args[k] = v
		}
	}
	return []engine.Message{{Key: "pig." + e.Kind, Args: args}}
}

// NewBot returns a bot that holds once its turn's total reaches its limit
// (10 for cautious, 20 for bold). The seed is unused: Pig's bots are
// deterministic.
func (Game) NewBot(kind string, _ uint64) (engine.Controller, error) {
	switch kind {
	case "cautious":
		return bot{kind, 10}, nil
	case "bold":
		return bot{kind, 20}, nil
	}
	return nil, fmt.Errorf("unknown pig bot %q (have cautious, bold)", kind)
}

type bot struct {
	name  string
	limit int
}

func (b bot) Name() string { return b.name }

func (b bot) Choose(view any, legal []engine.Action) (engine.Action, error) {
	v := view.(map[string]any)
	if v["turn"].(int) >= b.limit && len(legal) > 1 {
		return Action{Hold: true}, nil
	}
	return Action{Roll: true}, nil
}
