// Package script runs dicehall games from JSON scripts: a list of actions
// with the chance outcomes fixed (or drawn from a seed), the result printed
// as JSON. It is the conformance interface of `dicehall script`; the format
// is documented in docs/scripts.md and is a public contract: fields and
// action forms are only ever added.
//
// The envelope (game, players, options, seed, actions) is shared by every
// game; what one action looks like belongs to the game, through an Adapter
// registered under the game's ID.
package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/dicehall/dicehall/engine"
)

// Script is a decoded script file.
type Script struct {
	Game    string            `json:"game"`
	Players []string          `json:"players"`
	Options json.RawMessage   `json:"options,omitempty"`
	Seed    *uint64           `json:"seed,omitempty"`
	Note    string            `json:"note,omitempty"` // for people; never read
	Actions []json.RawMessage `json:"actions"`
}

// FormatError is a malformed script: it cannot be run at all. Action is the
// index of the offending action, or -1 when the problem is elsewhere.
type FormatError struct {
	Action int
	Err    error
}

func (e *FormatError) Error() string {
	if e.Action >= 0 {
		return fmt.Sprintf("action %d: %v", e.Action, e.Err)
	}
	return e.Err.Error()
}

func (e *FormatError) Unwrap() error { return e.Err }

func malformed(action int, format string, args ...any) error {
	return &FormatError{Action: action, Err: fmt.Errorf(format, args...)}
}

// Adapter plugs one game's action forms into the script format.
type Adapter interface {
	// Decode reads one script action for the game set up in st. It only
	// judges the form (unknown fields, bad names); whether the action is
	// legal is for the rules, when the step is played.
	Decode(raw json.RawMessage, st engine.State) (Step, error)
	// Report is the JSON picture of st that the script prints.
	Report(st engine.State) any
}

// OptionDefaulter is an Adapter whose scripts default an option
// differently from a table, to keep the contract scripts were written
// against when a table's default changes (Bookworm's knownChallengeSeconds).
// The options it returns are the ones the game and its record get.
type OptionDefaulter interface {
	ScriptOptions(raw json.RawMessage) (json.RawMessage, error)
}

// Step is one decoded script action. Play makes its moves on the table: the
// seat's own move and the chance outcomes that follow it, fixed by the script
// or drawn from the table's source. The runner undoes every move of a step
// that fails, so a step need not clean up after itself.
type Step interface {
	Play(t *engine.Runner) ([]engine.Event, error)
}

var (
	adaptersMu sync.RWMutex
	adapters   = map[string]Adapter{}
)

// Register makes a game's adapter known under its game ID. A second adapter
// for the same ID panics (a programming error caught at start-up).
func Register(gameID string, a Adapter) {
	adaptersMu.Lock()
	defer adaptersMu.Unlock()
	if _, dup := adapters[gameID]; dup {
		panic("script: adapter registered twice: " + gameID)
	}
	adapters[gameID] = a
}

// AdapterFor returns the adapter of a game.
func AdapterFor(gameID string) (Adapter, bool) {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	a, ok := adapters[gameID]
	return a, ok
}

// Games lists the game IDs that have an adapter, sorted.
func Games() []string {
	adaptersMu.RLock()
	defer adaptersMu.RUnlock()
	ids := make([]string, 0, len(adapters))
	for id := range adapters {
		ids = append(ids, id)
	}
	sort.Strings(ids)
	return ids
}

// Parse decodes a script strictly: unknown fields, trailing data, missing
// game or players are format errors. It does not look at the actions' forms
// (Run does, once the game is set up).
func Parse(data []byte) (*Script, error) {
	var s Script
	if err := engine.DecodeStrict(data, &s); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, malformed(-1, "empty script")
		}
		return nil, malformed(-1, "script: %w", err)
	}
	if bytes.HasPrefix(bytes.TrimSpace(data), []byte("null")) {
		return nil, malformed(-1, "script: want a JSON object, got null")
	}
	if s.Game == "" {
		return nil, malformed(-1, `script: "game" is missing`)
	}
	if len(s.Players) == 0 {
		return nil, malformed(-1, `script: "players" is missing or empty`)
	}
	seen := map[string]bool{}
	for i, p := range s.Players {
		if strings.TrimSpace(p) == "" {
			return nil, malformed(-1, "script: player %d has an empty name", i)
		}
		if seen[p] {
			return nil, malformed(-1, "script: player name %q appears twice", p)
		}
		seen[p] = true
	}
	return &s, nil
}
