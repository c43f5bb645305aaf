package engine

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"sync"
)

// LoggedMove is one move as stored: the action in its JSON form. Chance
// outcomes are logged as moves of ChanceSeat.
type LoggedMove struct {
	Seat   Seat            `json:"seat"`
	At     int64           `json:"at,omitempty"`
	Action json.RawMessage `json:"action"`
}

// Record is a complete game record: enough to rebuild every state of the game
// exactly, with no random generator involved.
type Record struct {
	Game    string          `json:"game"`
	Players []string        `json:"players"`
	Options json.RawMessage `json:"options,omitempty"`
	Seed    uint64          `json:"seed,omitempty"` // informational: chance is in Moves
	Moves   []LoggedMove    `json:"moves"`
}

// Log appends a move to the record.
func (r *Record) Log(m Move) error {
	data, err := json.Marshal(m.Action)
	if err != nil {
		return fmt.Errorf("encode %s action: %w", m.Action.Kind(), err)
	}
	r.Moves = append(r.Moves, LoggedMove{Seat: m.Seat, At: m.At, Action: data})
	return nil
}

// Replay rebuilds the game of a record. It returns the state after the last
// move, or the error of the first move that fails (with its index).
func Replay(g Game, r Record) (State, error) {
	st, err := g.New(r.Players, r.Options)
	if err != nil {
		return nil, fmt.Errorf("replay setup: %w", err)
	}
	for i, lm := range r.Moves {
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return st, fmt.Errorf("replay move %d: %w", i, err)
		}
		if _, err := st.Apply(Move{Seat: lm.Seat, At: lm.At, Action: a}); err != nil {
			return st, fmt.Errorf("replay move %d: %w", i, err)
		}
	}
	return st, nil
}

// Registry maps game IDs to games. Clients look games up here.
type Registry struct {
	mu    sync.RWMutex
	games map[string]Game
}

// Register adds a game; a second game with the same ID panics (a programming
// error caught at start-up).
func (r *Registry) Register(g Game) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.games == nil {
		r.games = map[string]Game{}
	}
	if _, dup := r.games[g.Info().ID]; dup {
		panic("engine: game registered twice: " + g.Info().ID)
	}
	r.games[g.Info().ID] = g
}

// Lookup finds a game by ID.
func (r *Registry) Lookup(id string) (Game, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	g, ok := r.games[id]
	return g, ok
}

// IDs lists the registered games, sorted.
func (r *Registry) IDs() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	ids := make([]string, 0, len(r.games))
	for id := range r.games {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// DecodeWire decodes an action's wire form W strictly and converts it with
// conv into *dst, which changes only on success. what names the action in a
// decoding error ("dice stars action: unknown field ..."); conv words its
// own errors.
func DecodeWire[W, A any](data []byte, dst *A, what string, conv func(*W) (A, error)) error {
	var w W
	if err := DecodeStrict(data, &w); err != nil {
		return fmt.Errorf("%s: %w", what, err)
	}
	a, err := conv(&w)
	if err != nil {
		return err
	}
	*dst = a
	return nil
}

// ExactlyOne reports whether exactly one of present is true: an action's
// JSON names one form (draw, roll, take...), never none or two.
func ExactlyOne(present ...bool) bool {
	n := 0
	for _, p := range present {
		if p {
			n++
		}
	}
	return n == 1
}

// DecodeStrict decodes one JSON value into v, refusing fields v does not
// have and anything after the value: actions and options are contracts, and
// a misspelt field must not pass silently.
func DecodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	// Token, not More: More reports false before a stray '}' or ']'.
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return errors.New("unexpected data after the object")
	}
	return nil
}
