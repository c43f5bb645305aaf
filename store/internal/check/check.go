// Package check holds the input rules every store implementation applies the
// same way, so that a server tested against memstore meets no surprise on
// sqlite (or PostgreSQL) in production.
package check

import (
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// DefaultLimit is List's limit when Filter.Limit is 0 (or negative).
const DefaultLimit = 100

// PerCreatorScan is how many of the latest matching tables List looks at
// when it keeps at most Filter.PerCreator per creator: enough for a page of
// limit tables unless a few creators fill most of them, and bounded, so a
// lobby costs the same however many tables the store holds.
func PerCreatorScan(limit int) int { return max(500, 10*limit) }

// ErrInvalid marks input a store refuses before touching anything.
var ErrInvalid = errors.New("invalid")

// Time keeps what every implementation can store exactly: UTC, milliseconds,
// no monotonic reading.
func Time(t time.Time) time.Time {
	return t.UTC().Truncate(time.Millisecond)
}

// Table checks the fields a table must have to be written.
func Table(t store.Table) error {
	if t.ID == "" {
		return fmt.Errorf("%w table: empty id", ErrInvalid)
	}
	if t.Game == "" {
		return fmt.Errorf("%w table %q: empty game", ErrInvalid, t.ID)
	}
	// JSON columns must hold JSON: a PostgreSQL jsonb column would refuse
	// anything else, so every implementation refuses it.
	if len(t.Options) > 0 && !json.Valid(t.Options) {
		return fmt.Errorf("%w table %q: options are not JSON", ErrInvalid, t.ID)
	}
	return Mutable(t)
}

// Mutable checks the fields UpdateTable writes.
func Mutable(t store.Table) error {
	switch t.Status {
	case store.StatusOpen, store.StatusLive, store.StatusOver:
	default:
		return fmt.Errorf("%w table %q: unknown status %q", ErrInvalid, t.ID, t.Status)
	}
	if len(t.Settings) > 0 && !json.Valid(t.Settings) {
		return fmt.Errorf("%w table %q: settings are not JSON", ErrInvalid, t.ID)
	}
	return nil
}

// Moves checks moves before they are appended.
func Moves(moves []engine.LoggedMove) error {
	for i, m := range moves {
		if !json.Valid(m.Action) {
			return fmt.Errorf("%w move %d: action is not JSON", ErrInvalid, i)
		}
	}
	return nil
}

// Raw copies JSON so the caller's buffer and the stored value never alias;
// empty becomes nil, so "no options" reads back the same everywhere.
func Raw(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return nil
	}
	return append(json.RawMessage(nil), r...)
}

// Result copies a stored result so that no caller aliases its slices.
func Result(r *engine.Result) *engine.Result {
	if r == nil {
		return nil
	}
	c := *r
	c.Scores = slices.Clone(r.Scores)
	c.Winners = slices.Clone(r.Winners)
	return &c
}

// Account checks an account before it is created.
func Account(a store.Account) error {
	if a.ID == "" || a.Name == "" || a.NameKey == "" {
		return fmt.Errorf("%w: account needs an ID, a name and a name key", ErrInvalid)
	}
	return nil
}

// Credential checks a passkey before it is stored.
func Credential(c store.Credential) error {
	if len(c.ID) == 0 || c.Account == "" {
		return fmt.Errorf("%w: credential needs an ID and an account", ErrInvalid)
	}
	if !json.Valid(c.Data) {
		return fmt.Errorf("%w: credential data is not JSON", ErrInvalid)
	}
	return nil
}

// Chat checks a chat message before it is stored.
func Chat(m store.ChatMessage) error {
	if m.Table == "" || m.Name == "" || (m.Role != store.ChatPlayer && m.Role != store.ChatSpectator) {
		return fmt.Errorf("%w: chat message needs a table, a name and a role", ErrInvalid)
	}
	return nil
}

// Display is a rating's leaderboard number, μ − 3σ.
func Display(r store.Rating) float64 { return r.Mu - 3*r.Sigma }

// CompareRank orders a leaderboard: the highest μ − 3σ first, then more
// games, then account ID (SQL stores order the same way).
func CompareRank(a, b store.Rating) int {
	if c := cmp.Compare(Display(b), Display(a)); c != 0 {
		return c
	}
	if c := cmp.Compare(b.Games, a.Games); c != 0 {
		return c
	}
	return cmp.Compare(a.Account, b.Account)
}

// RateAccounts checks the accounts given to RateTable: at least one, none
// empty, all distinct.
func RateAccounts(accounts []string) error {
	if len(accounts) == 0 {
		return fmt.Errorf("%w: no accounts to rate", ErrInvalid)
	}
	seen := make(map[string]bool, len(accounts))
	for _, a := range accounts {
		if a == "" || seen[a] {
			return fmt.Errorf("%w: accounts to rate must be distinct and not empty (%q)", ErrInvalid, a)
		}
		seen[a] = true
	}
	return nil
}

// Rates checks what a RateFunc returned for n accounts: n ratings with
// finite μ and σ.
func Rates(next []store.Rating, n int) error {
	if len(next) != n {
		return fmt.Errorf("%w: %d ratings for %d accounts", ErrInvalid, len(next), n)
	}
	for i, r := range next {
		if math.IsNaN(r.Mu) || math.IsInf(r.Mu, 0) || math.IsNaN(r.Sigma) || math.IsInf(r.Sigma, 0) {
			return fmt.Errorf("%w: rating %d is not finite (μ %v, σ %v)", ErrInvalid, i, r.Mu, r.Sigma)
		}
	}
	return nil
}

// LeaseArgs checks what AcquireLease and RenewLeases need: a node's name
// and a positive time to live of at least a millisecond (the precision
// the stores keep).
func LeaseArgs(node string, ttl time.Duration) error {
	if node == "" || ttl < time.Millisecond {
		return fmt.Errorf("%w lease: a node and a time to live of at least 1ms are required", ErrInvalid)
	}
	return nil
}

// Lease states, as the SQL stores keep them (migration 00007): held
// until expires_ms; released (the actor stopped with nothing to do); or
// handed over (a draining node's: an orphan at once).
const (
	LeaseHeld     = "held"
	LeaseReleased = "released"
	LeaseHanded   = "handed"
)

// LeaseRow is the store.Lease of a leases row (expires in UTC ms).
func LeaseRow(id, node string, epoch, expiresMs int64) store.Lease {
	return store.Lease{Table: id, Node: node, Epoch: epoch, Expires: time.UnixMilli(expiresMs).UTC()}
}
