// Package store keeps tables and their move logs. The server writes every
// move here before it tells anyone about it, so a restarted server resumes
// every table exactly where it was.
//
// Implementations: sqlite (the default, embedded), memstore (tests) and
// PostgreSQL for several server nodes, which share tables through leases
// (lease.go). Every implementation must pass the conformance suite
// in store/storetest.
package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// Sentinel errors; compare with errors.Is.
var (
	ErrNotFound = errors.New("store: not found")
	ErrExists   = errors.New("store: already exists")
	// ErrConflict: a versioned write found another version than expected
	// (someone else wrote first). Nothing was written.
	ErrConflict = errors.New("store: version conflict")
)

// Table status values.
const (
	StatusOpen = "open" // waiting for people to fill seats
	StatusLive = "live" // being played
	StatusOver = "over" // finished (or abandoned)
)

// Seat is one seat of a table.
type Seat struct {
	Name string `json:"name"`
	// Kind is "human" or "bot".
	Kind string `json:"kind"`
	// Bot is the bot kind for a bot seat, and for a human seat the bot that
	// has taken it over (TakenOver true) after a leave or an expired clock.
	Bot       string `json:"bot,omitempty"`
	TakenOver bool   `json:"takenOver,omitempty"`
	// TokenHash is the hex SHA-256 of the secret seat token; empty for a
	// free human seat and for bot seats. The token itself is never stored.
	TokenHash string `json:"tokenHash,omitempty"`
	// Account is the account holding the seat ("" for a guest, a bot, a
	// free seat): a signed-in player's seat, or a guest's claimed when
	// the guest made an account.
	Account string `json:"account,omitempty"`
	// Former marks the seat of an account since deleted (DeleteAccount):
	// its Name is then the neutral name, which pages may word in their
	// own language. Only the store and the server set it, never a
	// player, so a guest who types the neutral name is not taken for one.
	Former bool `json:"former,omitempty"`
	// JoinedAt and BackAt are game times (milliseconds since the table
	// was created, as engine.Move.At): when the holder took the seat, and
	// when they last took it back from a bot (0: never). The server's turn
	// clocks count from them and from the moves' times, so a reloaded
	// table keeps every clock exactly.
	JoinedAt int64 `json:"joinedAt,omitempty"`
	BackAt   int64 `json:"backAt,omitempty"`
	// Forfeit: the holder ran out of time at a table whose expiry is
	// "forfeit": a bot finishes the seat (TakenOver) and it cannot be
	// taken back.
	Forfeit bool `json:"forfeit,omitempty"`
}

// Table is a table's metadata. Its moves are stored apart.
type Table struct {
	ID   string `json:"id"`
	Game string `json:"game"`
	// Options are the game's options (engine.Game.New); Settings the
	// table's own (clocks, ...), as JSON.
	Options  json.RawMessage `json:"options,omitempty"`
	Settings json.RawMessage `json:"settings,omitempty"`
	// Seed derives the table's chance outcomes (engine.ChanceSeed(Seed,
	// move index)) and its bots' seeds (engine.BotSeed); the outcomes
	// themselves are in the moves.
	Seed   uint64 `json:"seed"`
	Seats  []Seat `json:"seats"`
	Status string `json:"status"`
	// Created and Updated come back in UTC at millisecond precision, the
	// precision every implementation can keep.
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Version is the number of moves stored.
	Version int `json:"version"`
	// Result is the outcome, stored when the game ends so a lobby lists
	// finished tables without replaying their moves; nil until then.
	Result *engine.Result `json:"result,omitempty"`
	// Creator and CreatorAddr say who made the table, for the budgets of
	// tables a creator and an address may have, and for a lobby that
	// shows few of each creator's tables: opaque keys the server chooses
	// (a hash of the creator's cookie, later an account; the client's
	// address or network). Written by CreateTable, never changed; "" for
	// tables made before they were kept.
	Creator     string `json:"creator,omitempty"`
	CreatorAddr string `json:"creatorAddr,omitempty"`
	// Rematch is the ID of the table made to play this one again, once
	// someone asked for it; "" until then.
	Rematch string `json:"rematch,omitempty"`
	// Seen is the last time somebody had the table's page open (the
	// server writes it when the last one closes); zero = not recorded.
	// The lobby leaves out live tables nobody has been at for long.
	Seen time.Time `json:"seen,omitempty"`
}

// Filter selects tables for List and Count.
type Filter struct {
	Status []string // any of these; empty = all
	Game   string   // empty = all
	Limit  int      // 0 = a default of 100 (List only)
	// OpenSince leaves out open tables last updated before it (tables
	// nobody joined in time have expired); zero keeps them all.
	OpenSince time.Time
	// LiveSince leaves out live tables last updated before it; zero keeps
	// them all.
	LiveSince time.Time
	// SeenSince leaves out live tables nobody has been at since: both
	// their Seen and their Updated before it. Zero keeps them all.
	SeenSince time.Time
	// CreatedSince leaves out tables created before it; zero keeps them all.
	CreatedSince time.Time
	// Creator and CreatorAddr keep only the tables with that Creator, that
	// CreatorAddr; empty = all.
	Creator     string
	CreatorAddr string
	// PerCreator keeps at most this many tables of each creator, the most
	// recently updated (List only); tables with no creator count each as
	// their own. It looks at the latest max(500, 10×Limit) matching
	// tables only, so a list costs the same however many the store holds
	// (a page may then be short). 0 = no limit.
	PerCreator int
	// Account keeps only the tables where a seat's Account is this one;
	// empty = all.
	Account string
}

// Store keeps tables and moves, and the accounts, ratings and chats
// around them (accounts.go). Implementations are safe for concurrent use.
type Store interface {
	// CreateTable stores a new table (Version must be 0). ErrExists if the
	// ID is taken. ID, Game and a known Status are required; Options and
	// Settings, when set, must be JSON; otherwise an error that is none of
	// the sentinels.
	CreateTable(ctx context.Context, t Table) error
	// GetTable loads a table's metadata. ErrNotFound if absent.
	GetTable(ctx context.Context, id string) (Table, error)
	// UpdateTable replaces a table's seats, status, settings, result,
	// rematch, Seen and Updated times (not its moves or Version), if f
	// allows it (ErrFenced otherwise: lease.go). ErrNotFound if absent.
	UpdateTable(ctx context.Context, t Table, f Fence) error
	// AppendMoves appends moves to a table's log if and only if the log
	// holds exactly version moves and f allows it, and bumps the version,
	// atomically and durably: when it returns nil the moves survive a
	// crash. ErrConflict if the version differs, ErrFenced if f does not
	// hold the table's lease (lease.go), ErrNotFound if the table is absent. Every
	// Action must be JSON; one bad move refuses the whole batch. Updated is
	// left alone (UpdateTable sets it). After any other error the outcome
	// may be unknown (an I/O error at commit): re-read the Version.
	AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, f Fence) error
	// Moves returns a table's log, oldest first (empty, not nil, when it
	// has none). ErrNotFound if the table is absent.
	Moves(ctx context.Context, id string) ([]engine.LoggedMove, error)
	// List returns tables matching f, most recently updated first (empty,
	// not nil, when none match).
	List(ctx context.Context, f Filter) ([]Table, error)
	// Count returns how many tables match f (Limit and PerCreator aside).
	Count(ctx context.Context, f Filter) (int, error)

	LeaseStore
	LimitStore
	AccountStore
	RatingStore
	ChatStore
	NotifyStore
	ReviewStore

	// Close releases the store. Closing twice is harmless.
	Close() error
}
