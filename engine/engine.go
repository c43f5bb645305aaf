// Package engine holds what every dicehall game shares: the game and state
// interfaces, seats, typed rule errors, chance sources and game records.
//
// The package does no I/O. Games live in games/<name> and register themselves
// with a Registry; clients (terminal, web, scripts, simulations) only talk to
// the interfaces declared here, so adding a game never changes a client.
package engine

import (
	"encoding/json"
	"fmt"
)

// Seat is a player's position at the table, counted from 0 in turn order.
type Seat int

const (
	// ChanceSeat is nature: it "acts" when the rules need an outcome (dice
	// drawn, faces rolled, noise on a flick). Its actions are recorded in the
	// log like anyone else's, so a replay never re-runs a random generator.
	ChanceSeat Seat = -1
	// SystemSeat acts for the table itself: expired clocks become ordinary
	// timeout actions from this seat. The rules decide what they mean.
	SystemSeat Seat = -2
	// Spectator asks for the public view: what everybody may see.
	Spectator Seat = -3
)

func (s Seat) String() string {
	switch s {
	case ChanceSeat:
		return "chance"
	case SystemSeat:
		return "system"
	case Spectator:
		return "spectator"
	}
	return fmt.Sprintf("seat %d", int(s))
}

// Action is one game's move. Each game defines its concrete type; it must
// encode to JSON (the log and the wire carry that form) and decode back
// through Game.DecodeAction.
type Action interface {
	// Kind names the sort of move ("draw", "take", "vote", "flick", ...).
	Kind() string
}

// Move is an action made by a seat at a moment of game time. Time is an input:
// the rules never read a clock, they read At (milliseconds since the game
// started, as stamped by whoever runs the table).
type Move struct {
	Seat   Seat
	At     int64
	Action Action
}

// Event is something that happened while a move was applied. Clients animate
// events and replays step through them; their Data is JSON-encodable.
type Event struct {
	Kind string `json:"kind"`
	Seat Seat   `json:"seat"`
	Data any    `json:"data,omitempty"`
}

// Deadline says that Seat must act by game time At (milliseconds). When it
// passes, the table feeds a timeout action from SystemSeat.
type Deadline struct {
	Seat Seat  `json:"seat"`
	At   int64 `json:"at"`
}

// Turn tells who may act now. Strict turn order is the special case of one
// actor; a vote lets several seats act at once.
type Turn struct {
	Actors    []Seat     `json:"actors"`
	Chance    bool       `json:"chance"` // nature must act before anyone else
	Deadlines []Deadline `json:"deadlines,omitempty"`
	Over      bool       `json:"over"`
}

// Has reports whether seat may act now.
func (t Turn) Has(seat Seat) bool {
	if seat == ChanceSeat {
		return t.Chance
	}
	for _, a := range t.Actors {
		if a == seat {
			return true
		}
	}
	return false
}

// Result is the outcome of a game, final once Over is true.
type Result struct {
	Over    bool   `json:"over"`
	Scores  []int  `json:"scores"`
	Winners []Seat `json:"winners"`
}

// State is one game in progress. It is mutable and owned by one goroutine;
// Clone gives an independent copy for bots and what-if questions.
type State interface {
	// Turn says who may act now.
	Turn() Turn
	// Legal lists the legal actions of seat right now (none for ChanceSeat:
	// chance outcomes come from SampleChance or a script). For discrete
	// actions it is exhaustive: an action is legal exactly when it is
	// listed. A game whose actions are continuous (a flick's angle and
	// power) lists one representative of each distinct choice and says so
	// in its documentation; every listed action is legal, and the first is
	// a safe default a table may play for a seat (a bot fallback).
	Legal(seat Seat) []Action
	// Check tells whether the move is legal without changing anything.
	Check(m Move) error
	// Apply checks and performs the move, and returns what happened. An
	// illegal move returns a *RuleError and leaves the state untouched.
	Apply(m Move) ([]Event, error)
	// SampleChance draws nature's next action from src. Only valid while
	// Turn().Chance is true.
	SampleChance(src Source) Action
	// View is everything seat may see, as a JSON-encodable value. Spectator
	// gets the public view. Bots receive exactly the view a person would.
	View(seat Seat) any
	// Result gives the scores so far and, once over, the winners.
	Result() Result
	// Players returns the names of the seats.
	Players() []string
	// Clone returns an independent deep copy.
	Clone() State
}

// Game describes one game to the platform.
type Game interface {
	// Info is the game's description: name, seats, options, bots and its
	// English catalogue. It is the same on every call.
	Info() Info
	// New sets up a game for the named players with the game's options
	// (nil means defaults).
	New(players []string, options json.RawMessage) (State, error)
	// DecodeAction turns the JSON form of an action back into the game's
	// action type.
	DecodeAction(data []byte) (Action, error)
}

// Controller chooses moves for a seat: a bot, or a person behind a client.
// It receives only what the seat may see.
type Controller interface {
	Name() string
	// Choose returns the seat's next action given its view and legal actions.
	// A nil action with a nil error means "nothing now": the seat may act
	// but chooses not to (not challenging a word, abstaining from a vote).
	Choose(view any, legal []Action) (Action, error)
}

// Pacer is implemented by controllers whose speed is part of their play
// (Bookworm: a hard bot answers fast, an easy one hesitates and may run out
// of time). ThinkMillis says how long, in game time, the bot takes before
// its action for this view is played; the table waits that long and stamps
// the move accordingly, so a deadline that passes first wins. Controllers
// without it act after the table's fixed bot delay.
type Pacer interface {
	ThinkMillis(view any) int64
}

// BotProvider is implemented by games that ship bots (listed in Info.Bots).
// Servers use it to seat bots and to let a bot take over a seat; the bot
// sees only the seat's view.
type BotProvider interface {
	// NewBot returns a seeded bot of the given kind.
	NewBot(kind string, seed uint64) (Controller, error)
}

// NewResult builds a Result from per-seat scores and, once the game is over,
// the winning seats (never nil then, so it encodes as []).
func NewResult(over bool, scores []int, winners []int) Result {
	r := Result{Over: over, Scores: scores}
	if over {
		r.Winners = make([]Seat, 0, len(winners))
		for _, w := range winners {
			r.Winners = append(r.Winners, Seat(w))
		}
	}
	return r
}
