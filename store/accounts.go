package store

import (
	"context"
	"encoding/json"
	"time"
)

// Account is a registered player. A guest has none: a guest is a name and
// seat cookies in one browser.
type Account struct {
	// ID is opaque and chosen by the server; it never changes and is what
	// seats, sessions, credentials and ratings refer to.
	ID string `json:"id"`
	// Name is the username as its owner typed it (shown at tables and on
	// the profile). NameKey is its canonical form (the server folds case
	// and width), unique among accounts: CreateAccount refuses a second
	// account with the same NameKey.
	Name    string `json:"name"`
	NameKey string `json:"nameKey"`
	// PasswordHash is the password's argon2id hash in PHC form; "" for an
	// account that signs in with passkeys only.
	PasswordHash string `json:"passwordHash,omitempty"`
	// Created comes back in UTC at millisecond precision.
	Created time.Time `json:"created"`
}

// Session is a signed-in browser. The session cookie's secret is never
// stored; TokenHash is its hex SHA-256.
type Session struct {
	TokenHash string    `json:"tokenHash"`
	Account   string    `json:"account"`
	Created   time.Time `json:"created"`
	// Expires: the server refuses the session after it (GetSession still
	// returns it; DeleteExpiredSessions removes it).
	Expires time.Time `json:"expires"`
}

// Credential is a passkey (a WebAuthn public-key credential) of an account.
type Credential struct {
	// ID is the credential's ID as the authenticator made it; unique.
	ID      []byte `json:"id"`
	Account string `json:"account"`
	// Data is what the WebAuthn library needs to check an assertion (the
	// public key, sign count, flags, transports…), as JSON.
	Data json.RawMessage `json:"data"`
	// Name is a label for the account page ("Passkey added 3 May").
	Name     string    `json:"name,omitempty"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed,omitempty"`
}

// AccountStore keeps accounts, their sessions and their passkeys.
type AccountStore interface {
	// CreateAccount stores a new account. ErrExists if its ID or its
	// NameKey is taken. ID, Name and NameKey are required.
	CreateAccount(ctx context.Context, a Account) error
	// GetAccount loads an account by ID; ErrNotFound if absent.
	GetAccount(ctx context.Context, id string) (Account, error)
	// AccountByName loads an account by NameKey; ErrNotFound if absent.
	AccountByName(ctx context.Context, nameKey string) (Account, error)
	// SetPassword replaces an account's PasswordHash; ErrNotFound if absent.
	SetPassword(ctx context.Context, id, hash string) error
	// DeleteAccount removes an account with its sessions, passkeys,
	// ratings and rating history, and gives its seats (Seat.Account) and
	// chat lines the neutral name instead of its own, with no account (its
	// seats marked Seat.Former), so its finished games stay whole in
	// replays. ErrNotFound if absent.
	DeleteAccount(ctx context.Context, id, neutralName string) error

	// CreateSession stores a session; ErrExists if the hash is taken,
	// ErrNotFound if the account is absent.
	CreateSession(ctx context.Context, s Session) error
	// GetSession loads a session by token hash, expired or not;
	// ErrNotFound if absent.
	GetSession(ctx context.Context, tokenHash string) (Session, error)
	// DeleteSession removes one session (signing out); absent is no error.
	DeleteSession(ctx context.Context, tokenHash string) error
	// DeleteSessions removes every session of an account (signing out
	// everywhere) and says how many there were.
	DeleteSessions(ctx context.Context, account string) (int, error)
	// DeleteExpiredSessions removes the sessions expired before now.
	DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error)

	// AddCredential stores a passkey; ErrExists if its ID is taken,
	// ErrNotFound if the account is absent. Data must be JSON.
	AddCredential(ctx context.Context, c Credential) error
	// Credentials lists an account's passkeys, oldest first (empty, not
	// nil, when it has none).
	Credentials(ctx context.Context, account string) ([]Credential, error)
	// CredentialByID loads a passkey by its ID; ErrNotFound if absent.
	CredentialByID(ctx context.Context, id []byte) (Credential, error)
	// UpdateCredential replaces a passkey's Data and LastUsed (after a
	// sign-in: the sign count moves); ErrNotFound if absent.
	UpdateCredential(ctx context.Context, c Credential) error
	// DeleteCredential removes one of an account's passkeys; ErrNotFound
	// if the account has no passkey with that ID.
	DeleteCredential(ctx context.Context, account string, id []byte) error
}

// Rating is an account's rating at one game (Weng–Lin: μ and σ), with the
// number of rated games it rests on.
type Rating struct {
	Account string    `json:"account"`
	Game    string    `json:"game"`
	Mu      float64   `json:"mu"`
	Sigma   float64   `json:"sigma"`
	Games   int       `json:"games"`
	Updated time.Time `json:"updated"`
	// Name is the account's name, filled in by Leaderboard (read-only).
	Name string `json:"name,omitempty"`
}

// RatingPoint is an account's rating at one game right after one rated
// table: the profile's chart.
type RatingPoint struct {
	Table string    `json:"table"`
	Mu    float64   `json:"mu"`
	Sigma float64   `json:"sigma"`
	At    time.Time `json:"at"`
}

// RateFunc turns the ratings before a table (in the order of the accounts
// given to RateTable; an account never rated at the game comes with Games
// 0 and Mu = Sigma = 0) into the ratings after it, in the same order. The
// store sets Account, Game, Games (+1) and Updated itself.
type RateFunc func(prior []Rating) ([]Rating, error)

// RatingStore keeps ratings, applied exactly once per table.
type RatingStore interface {
	// RateTable applies a finished table's ratings in one transaction: if
	// the table was rated already it changes nothing and returns false;
	// otherwise it reads the accounts' ratings at the game, calls rate,
	// stores the new ratings and a RatingPoint per account, marks the
	// table rated and returns true. An error from rate aborts it all.
	// ErrNotFound if the table or one of the accounts is absent; accounts
	// must be distinct (and not empty).
	RateTable(ctx context.Context, table, game string, accounts []string, at time.Time, rate RateFunc) (bool, error)
	// Rated reports whether a table's ratings were applied.
	Rated(ctx context.Context, table string) (bool, error)
	// Ratings lists an account's ratings, one per game it was rated at,
	// by game ID (empty, not nil, when none).
	Ratings(ctx context.Context, account string) ([]Rating, error)
	// Leaderboard lists a game's ratings with at least minGames games, the
	// highest Mu − 3·Sigma first (ties: more games first, then account
	// ID), from offset, at most limit (0 = a default of 100), and how
	// many there are in all. Name is filled in.
	Leaderboard(ctx context.Context, game string, minGames, offset, limit int) ([]Rating, int, error)
	// RatingHistory lists an account's rating points at a game, oldest
	// first, the latest limit of them (0 = a default of 100).
	RatingHistory(ctx context.Context, account, game string, limit int) ([]RatingPoint, error)
}

// Chat message sender roles.
const (
	ChatPlayer    = "player"
	ChatSpectator = "spectator"
)

// ChatMessage is one line of a table's chat. The chat is kept apart from
// the moves: it never changes the game, and a replay shows it beside them.
type ChatMessage struct {
	Table string `json:"table"`
	// Index is the message's position in the table's chat (0-based),
	// given by AppendChat.
	Index int       `json:"index"`
	At    time.Time `json:"at"`
	// Seat is the sender's seat, or -1 for a spectator; Role says which.
	Seat int    `json:"seat"`
	Role string `json:"role"`
	// Account is the sender's account ("" for a guest); Name the name
	// shown.
	Account string `json:"account,omitempty"`
	Name    string `json:"name"`
	// Text is plain text; the server bounds its length.
	Text string `json:"text"`
}

// ChatStore keeps tables' chats.
type ChatStore interface {
	// AppendChat stores a message at the end of its table's chat and
	// returns it with its Index (At in UTC milliseconds). ErrNotFound if
	// the table is absent.
	AppendChat(ctx context.Context, m ChatMessage) (ChatMessage, error)
	// Chat lists a table's messages with Index ≥ from, oldest first, at
	// most limit (0 = a default of 100; empty, not nil, when none).
	// ErrNotFound if the table is absent.
	Chat(ctx context.Context, table string, from, limit int) ([]ChatMessage, error)
	// ChatLatest lists a table's last limit messages, oldest first.
	ChatLatest(ctx context.Context, table string, limit int) ([]ChatMessage, error)
}
