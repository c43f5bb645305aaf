package server

import (
	"encoding/json"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// The wire forms of docs/protocol.md. Field names are the contract with the
// browser: only ever add.

// apiError is the body of every HTTP error and the payload of WebSocket
// "error" messages.
type apiError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

type errorBody struct {
	Error apiError `json:"error"`
}

// TableSummary is the public description of a table (lobby, table page).
type TableSummary struct {
	ID       string          `json:"id"`
	Game     string          `json:"game"`
	Title    string          `json:"title"`
	Status   string          `json:"status"`
	Seats    []SeatSummary   `json:"seats"`
	Settings json.RawMessage `json:"settings"`
	Options  json.RawMessage `json:"options"`
	Created  time.Time       `json:"created"`
	Updated  time.Time       `json:"updated"`
	Version  int             `json:"version"`
	Result   engine.Result   `json:"result"`
	// Places ranks a finished table's seats, 0 first (shownPlaces:
	// winners, then by score, a forfeit last); absent until the game is
	// over.
	Places []int `json:"places,omitempty"`
	// Rematch is the table made to play this one again, once asked for.
	Rematch string `json:"rematch,omitempty"`
	// Rated: the table counts for the ratings (finished), or will if
	// nothing changes that (open, live): see ratable.
	Rated bool `json:"rated"`

	// Never sent:
	creator string                    // store.Table.Creator, for the lobby's count per creator
	actors  []engine.Seat             // who is to act, when the table is loaded
	clocks  map[engine.Seat]time.Time // when their turn clocks run out
	loaded  bool                      // from a loaded table: actors and watched are known
	watched bool                      // somebody has the table's page open now
	seen    time.Time                 // store.Table.Seen: when somebody last had it open
}

// SeatSummary is one seat as everybody sees it (never its token).
type SeatSummary struct {
	Name      string `json:"name"`
	Kind      string `json:"kind"`
	Bot       string `json:"bot"`
	Taken     bool   `json:"taken"`
	Connected bool   `json:"connected"`
	TakenOver bool   `json:"takenOver"`
	// Forfeit: the player ran out of time at a table whose expiry is
	// "forfeit"; a bot finishes the seat.
	Forfeit bool `json:"forfeit,omitempty"`
	// Profile is the name of the account holding the seat, for a link to
	// its profile (/u/{profile}); "" for a guest, a bot, a free seat.
	Profile string `json:"profile,omitempty"`
	// Former: the seat was a since deleted account's, and Name is the
	// neutral name, which pages say in their own language. The server
	// sets it (store.Seat.Former), never a player's typed name.
	Former bool `json:"former,omitempty"`
}

// createRequest is the body of POST /api/tables.
type createRequest struct {
	Game     string          `json:"game"`
	Name     string          `json:"name"`
	Options  json.RawMessage `json:"options"`
	Settings json.RawMessage `json:"settings"`
	Seats    []seatRequest   `json:"seats"`
}

type seatRequest struct {
	Kind string `json:"kind"`
	Bot  string `json:"bot"`
}

// joinRequest is the body of POST /api/tables/{id}/join.
type joinRequest struct {
	Seat *int   `json:"seat"`
	Name string `json:"name"`
}

// settings are a table's own settings (not the game's options).
type settings struct {
	// TurnSeconds is the turn clock of human seats; 0 = no clock. Up to a
	// day at a real-time table, 5 minutes to 14 days at a turn-based one.
	TurnSeconds int `json:"turnSeconds"`
	// Pace is "live" (the default, also ""): people play together, or
	// "turns": a turn-based table, played a move or two a day, whose
	// players have a time bank and whose expiry says what running out of
	// time means (clocks.go).
	Pace string `json:"pace,omitempty"`
	// BankSeconds (turn-based tables) is each player's time bank for
	// absences: when a turn's clock runs out, the bank is spent before
	// the expiry applies.
	BankSeconds int `json:"bankSeconds,omitempty"`
	// Expiry (turn-based tables) is what happens when a seat's clock and
	// bank have run out: "bot" (the default, also ""; a bot plays the
	// seat until its player takes it back), "skip" (the turn is skipped,
	// for games whose rules allow it: engine.Skipper) or "forfeit" (a bot
	// finishes the seat, which ranks last).
	Expiry string `json:"expiry,omitempty"`
	// BotDelayMs overrides the server's pause before bot moves.
	BotDelayMs *int `json:"botDelayMs,omitempty"`
	// Chat says who may write in the table's chat: "all" (the default,
	// also "") or "players" (spectators read only).
	Chat string `json:"chat,omitempty"`
	// Rated false makes a friendly game that changes no rating; absent
	// or true, the table is rated if its seats allow (ratings.go).
	Rated *bool `json:"rated,omitempty"`
}

func (s settings) rated() bool { return s.Rated == nil || *s.Rated }

// turnBased reports whether the table is played at one's own pace.
func (s settings) turnBased() bool { return s.Pace == paceTurns }

// expiry is what running out of time means: always expiryBot at a
// real-time table.
func (s settings) expiry() string {
	if !s.turnBased() || s.Expiry == "" {
		return expiryBot
	}
	return s.Expiry
}

// clientMsg is any message from a browser; Type says which fields count.
type clientMsg struct {
	Type    string          `json:"type"`
	ID      *int64          `json:"id,omitempty"`
	Action  json.RawMessage `json:"action,omitempty"`
	Version *int            `json:"version,omitempty"`
	Seat    *int            `json:"seat,omitempty"`
	// Text and Name are a chat line's (Name: a spectator's name).
	Text *string `json:"text,omitempty"`
	Name string  `json:"name,omitempty"`
}

type wireMove struct {
	Seat   engine.Seat     `json:"seat"`
	Action json.RawMessage `json:"action"`
}

type welcomeMsg struct {
	Type     string          `json:"type"` // "welcome"
	Seat     engine.Seat     `json:"seat"`
	Table    TableSummary    `json:"table"`
	Version  int             `json:"version"`
	View     json.RawMessage `json:"view"`
	Turn     engine.Turn     `json:"turn"`
	Deadline int64           `json:"deadline"`
	// Bank is the seat's time bank left, in ms, at a turn-based table.
	Bank int64 `json:"bank,omitempty"`
	// Log is the narration of the last moves (up to Config.LogMoves), oldest
	// first, each with the version after it: what a page shows as what
	// happened, after a reload or when watching from the middle.
	Log []logEntry `json:"log"`
	// Chat is the latest lines of the table's chat (up to ChatWelcome),
	// oldest first.
	Chat []chatLine `json:"chat"`
}

type updateMsg struct {
	Type    string          `json:"type"` // "update"
	Version int             `json:"version"`
	Move    wireMove        `json:"move"`
	Events  json.RawMessage `json:"events"`
	// Narration is the events in words, as keys of the game's catalogue
	// (GET /api/games messages) with their arguments, in order.
	Narration json.RawMessage `json:"narration"`
	View      json.RawMessage `json:"view"`
	Turn      engine.Turn     `json:"turn"`
	Deadline  int64           `json:"deadline"`
	Bank      int64           `json:"bank,omitempty"`
}

type refusedMsg struct {
	Type    string `json:"type"` // "refused"
	ID      *int64 `json:"id,omitempty"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

type presenceMsg struct {
	Type  string        `json:"type"` // "presence"
	Seats []SeatSummary `json:"seats"`
}

type errorMsg struct {
	Type    string `json:"type"` // "error"
	ID      *int64 `json:"id,omitempty"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

// hintMsg answers a hint: the coach's judgement for the seat's turn at
// version (a later update makes it stale).
type hintMsg struct {
	Type    string           `json:"type"` // "hint"
	ID      *int64           `json:"id,omitempty"`
	Version int              `json:"version"`
	Hint    engine.Judgement `json:"hint"`
}

type pongMsg struct {
	Type string `json:"type"` // "pong"
	ID   *int64 `json:"id,omitempty"`
}

// replayStep is one step of GET /api/tables/{id}/replay.
type replayStep struct {
	Move      *wireMove        `json:"move,omitempty"`
	Events    []engine.Event   `json:"events"`
	Narration []engine.Message `json:"narration"`
	View      json.RawMessage  `json:"view"`
	Turn      engine.Turn      `json:"turn"`
}

type replayBody struct {
	Players []string     `json:"players"`
	Seat    engine.Seat  `json:"seat"`
	Steps   []replayStep `json:"steps"`
	// Chat is the table's chat, oldest first, each line with its step.
	Chat []chatLine `json:"chat"`
}

// wireTurn gives a Turn the JSON shape clients can rely on: lists, never null.
func wireTurn(t engine.Turn) engine.Turn {
	if t.Actors == nil {
		t.Actors = []engine.Seat{}
	}
	return t
}

func wireResult(r engine.Result) engine.Result {
	if r.Scores == nil {
		r.Scores = []int{}
	}
	if r.Winners == nil {
		r.Winners = []engine.Seat{}
	}
	return r
}

func wireEvents(ev []engine.Event) []engine.Event {
	if ev == nil {
		return []engine.Event{}
	}
	return ev
}

// narrate is the messages of a move's events, in order, for the public
// names of the seats. Every connection receives the same events, so every
// connection receives the same narration: it says nothing the events do not.
func narrate(g engine.Game, ev []engine.Event, players []string) []engine.Message {
	out := []engine.Message{}
	for _, e := range ev {
		out = append(out, engine.Narrate(g, e, players)...)
	}
	return out
}
