package server

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// A table's chat (docs/protocol.md, Chat): plain text lines from its
// players and spectators, stored before anybody is told of them, kept apart
// from the moves (the log), carried by welcomes and replays.

const (
	// ChatMaxRunes bounds a line's length, in characters, after cleaning.
	ChatMaxRunes = 300
	// ChatWelcome is how many of the latest lines a welcome carries.
	ChatWelcome = 100
	// ChatMaxLines is how many lines a table's chat takes in all; then it
	// is full (a flood cannot fill the store).
	ChatMaxLines = 2000
	// ChatRate lines per ChatWindow for each sender: a seat (all its
	// connections), or a spectator's address.
	ChatRate   = 5
	ChatWindow = 10 * time.Second
	// ChatSpectatorRate lines per ChatWindow for all a table's spectators
	// together, so many addresses cannot drown the players.
	ChatSpectatorRate = 20

	// The settings' chat: who may write ("" is chatAll).
	chatAll     = "all"
	chatPlayers = "players"
)

// chatLine is a chat line on the wire (welcome, chat, replay).
type chatLine struct {
	Index int       `json:"index"`
	At    time.Time `json:"at"`
	// Seat is the sender's seat, -1 for a spectator; Role says which.
	Seat int    `json:"seat"`
	Role string `json:"role"`
	Name string `json:"name"`
	Text string `json:"text"`
	// Step (replays only) is the replay step the line was said at: the
	// number of moves made before it.
	Step *int `json:"step,omitempty"`
}

// chatMsg tells every connection of a table a new line.
type chatMsg struct {
	Type string   `json:"type"` // "chat"
	Line chatLine `json:"line"`
}

func wireChat(m store.ChatMessage) chatLine {
	return chatLine{Index: m.Index, At: m.At, Seat: m.Seat, Role: m.Role, Name: m.Name, Text: m.Text}
}

func wireChats(ms []store.ChatMessage) []chatLine {
	out := make([]chatLine, 0, len(ms))
	for _, m := range ms {
		out = append(out, wireChat(m))
	}
	return out
}

// chatRefusal is why a line is refused: a rule code and a sentence.
type chatRefusal struct{ rule, message string }

func (r *chatRefusal) Error() string { return r.message }

// cleanChat makes a line plain text: every run of control characters
// (new lines, tabs…) becomes one space, the text-direction embeddings and
// overrides that could run past the line go, the ends are trimmed; an
// empty or overlong line is refused.
func cleanChat(raw string) (string, error) {
	if !utf8.ValidString(raw) {
		raw = strings.ToValidUTF8(raw, "\uFFFD")
	}
	var b strings.Builder
	inControl := false
	for _, r := range raw {
		switch {
		case unicode.IsControl(r):
			if !inControl {
				b.WriteByte(' ')
			}
			inControl = true
			continue
		case r >= '\u202a' && r <= '\u202e', r >= '\u2066' && r <= '\u2069':
			continue
		}
		inControl = false
		b.WriteRune(r)
	}
	text := strings.TrimSpace(b.String())
	if !strings.ContainsFunc(text, shows) {
		return "", &chatRefusal{"chat-empty", "write something to send"}
	}
	if n := utf8.RuneCountInString(text); n > ChatMaxRunes {
		return "", &chatRefusal{"chat-too-long", fmt.Sprintf("a chat message is at most %d characters (this one has %d)", ChatMaxRunes, n)}
	}
	return text, nil
}

// chatWindow remembers when a sender's recent lines were sent.
type chatWindow struct{ times []time.Time }

// allow reports whether one more line may go now (n per ChatWindow, and
// records it), or how long to wait.
func (w *chatWindow) allow(now time.Time, n int) (bool, time.Duration) {
	w.prune(now)
	if len(w.times) >= n {
		return false, w.times[0].Add(ChatWindow).Sub(now)
	}
	w.times = append(w.times, now)
	return true, 0
}

func (w *chatWindow) prune(now time.Time) {
	i := 0
	for i < len(w.times) && !w.times[i].Add(ChatWindow).After(now) {
		i++
	}
	w.times = w.times[i:]
}

// chatState is a table's chat in its actor: the latest lines (for
// welcomes), how many there are, and the senders' rate windows.
type chatState struct {
	latest []store.ChatMessage
	count  int
	by     map[string]*chatWindow // "seat N" or "addr A"
	specs  chatWindow             // all spectators
}

// loadChat reads the latest lines of a table's chat.
func (s *Server) loadChat(ctx context.Context, id string) (chatState, error) {
	latest, err := s.store.ChatLatest(ctx, id, ChatWelcome)
	if err != nil {
		return chatState{}, fmt.Errorf("load chat of table %s: %w", id, err)
	}
	cs := chatState{latest: latest}
	if n := len(latest); n > 0 {
		cs.count = latest[n-1].Index + 1
	}
	return cs, nil
}

// chatSender is who sends from c: a seated player by the seat's name, a
// spectator by the name given.
func (t *table) chatSender(c *conn, name string) (store.ChatMessage, error) {
	if c.seat >= 0 {
		st := t.meta.Seats[c.seat]
		return store.ChatMessage{Seat: int(c.seat), Role: store.ChatPlayer, Name: t.players()[c.seat], Account: st.Account}, nil
	}
	if t.set.Chat == chatPlayers {
		return store.ChatMessage{}, &chatRefusal{"chat-players-only", "only the players can write in this table's chat"}
	}
	m := store.ChatMessage{Seat: -1, Role: store.ChatSpectator}
	if c.accountName != "" {
		m.Name, m.Account = c.accountName, c.account
		return m, nil
	}
	clean, err := t.s.personName(name)
	if err != nil {
		return m, &chatRefusal{"chat-bad-name", "your name: " + err.Error()}
	}
	key := nameKey(clean)
	if slices.ContainsFunc(t.players(), func(p string) bool { return nameKey(p) == key }) {
		return m, &chatRefusal{"chat-name-taken", fmt.Sprintf("%q is the name of a player at this table: pick another", clean)}
	}
	m.Name = clean
	return m, nil
}

// chat stores a line and then tells every connection of the table.
func (t *table) chat(c *conn, m clientMsg) {
	refused := func(err error) {
		var r *chatRefusal
		if errors.As(err, &r) {
			t.refuse(c, m.ID, r.rule, r.message)
		}
	}
	line, err := t.chatSender(c, m.Name)
	if err != nil {
		refused(err)
		return
	}
	text := ""
	if m.Text != nil {
		text = *m.Text
	}
	if line.Text, err = cleanChat(text); err != nil {
		refused(err)
		return
	}
	if t.chats.count >= ChatMaxLines {
		t.refuse(c, m.ID, "chat-full", fmt.Sprintf("this table's chat is full (%d messages)", ChatMaxLines))
		return
	}
	now := t.s.clock.Now()
	key := "addr " + c.addr
	if c.seat >= 0 {
		key = "seat " + c.seat.String()
	}
	if t.chats.by == nil {
		t.chats.by = map[string]*chatWindow{}
	}
	w := t.chats.by[key]
	if w == nil {
		if len(t.chats.by) >= 256 { // forget the senders who went quiet
			for k, o := range t.chats.by {
				if o.prune(now); len(o.times) == 0 {
					delete(t.chats.by, k)
				}
			}
		}
		w = &chatWindow{}
		t.chats.by[key] = w
	}
	wait := func(d time.Duration) string {
		return fmt.Sprintf("wait %d s", max(1, int((d+time.Second-1)/time.Second)))
	}
	if c.seat < 0 {
		w.prune(now)
		if len(w.times) < ChatRate {
			if ok, d := t.chats.specs.allow(now, ChatSpectatorRate); !ok {
				t.refuse(c, m.ID, "chat-busy", fmt.Sprintf("the spectators are writing a lot just now: %s and try again", wait(d)))
				return
			}
		}
	}
	if ok, d := w.allow(now, ChatRate); !ok {
		t.refuse(c, m.ID, "chat-too-fast", fmt.Sprintf("at most %d chat messages every %d seconds: %s", ChatRate, int(ChatWindow/time.Second), wait(d)))
		return
	}
	// Game time orders lines and moves for the replay: a line is stamped
	// after every move made before it, and moves after it are stamped no
	// earlier than it (a move said to be at the same millisecond as a line
	// came after it).
	ms := t.gameNow()
	if t.version > 0 && t.lastAt >= ms {
		ms = t.lastAt + 1
	}
	t.lastAt = max(t.lastAt, ms)
	line.Table, line.At = t.id, t.ruleTime(ms).UTC()
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	stored, err := t.s.store.AppendChat(ctx, line)
	cancel()
	if err != nil {
		t.log.Error("chat line not stored", "err", err)
		c.sendError(m.ID, "internal", "the message could not be saved: try again")
		return
	}
	t.chats.count = stored.Index + 1
	t.chats.latest = append(t.chats.latest, stored)
	if n := len(t.chats.latest); n > ChatWelcome {
		t.chats.latest = slices.Delete(t.chats.latest, 0, n-ChatWelcome)
	}
	msg := mustJSON(chatMsg{Type: "chat", Line: wireChat(stored)})
	for o := range t.conns {
		o.enqueue(msg)
	}
}

// replayChat is a finished table's chat for its replay, each line with its
// step: how many of the moves were made before it (moves stamped earlier
// than it; see table.chat).
func replayChat(meta store.Table, chat []store.ChatMessage, moves []engine.LoggedMove) []chatLine {
	out := make([]chatLine, 0, len(chat))
	for _, m := range chat {
		l := wireChat(m)
		at := m.At.Sub(meta.Created).Milliseconds()
		step := 0
		for step < len(moves) && moves[step].At < at {
			step++
		}
		l.Step = &step
		out = append(out, l)
	}
	return out
}
