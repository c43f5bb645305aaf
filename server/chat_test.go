package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// chatOf is the line of a chat message, or the lines of a welcome.
func chatOf(t *testing.T, m msg) (line chatLine, lines []chatLine) {
	t.Helper()
	var body struct {
		Line chatLine   `json:"line"`
		Chat []chatLine `json:"chat"`
	}
	if err := json.Unmarshal(m.raw, &body); err != nil {
		t.Fatalf("%s: %v", m.raw, err)
	}
	return body.Line, body.Chat
}

func say(c *wsClient, id int, text string, name ...string) {
	c.t.Helper()
	m := map[string]any{"type": "chat", "id": id, "text": text}
	if len(name) > 0 {
		m["name"] = name[0]
	}
	c.send(m)
}

// refusedAs waits for the refusal of request id and checks its rule.
func refusedAs(t *testing.T, c *wsClient, id int, rule string) msg {
	t.Helper()
	m := c.await("refused", func(m msg) bool { return m.ID != nil && *m.ID == int64(id) })
	if m.Rule != rule {
		t.Fatalf("request %d refused as %q, want %q: %s", id, m.Rule, rule, m.raw)
	}
	return m
}

func heard(t *testing.T, c *wsClient) chatLine {
	t.Helper()
	l, _ := chatOf(t, c.await("chat", nil))
	return l
}

func TestChat(t *testing.T) {
	clock := newFakeClock()
	st := memstore.New()
	ts := startServer(t, Config{Store: st, Clock: clock, MsgRate: fast, MsgBurst: fast})
	ann, carol := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	ca, cc := ann.connect(id), carol.connect(id)
	ca.next()
	if _, lines := chatOf(t, cc.next()); lines == nil || len(lines) != 0 {
		t.Fatal("a new table's welcome carries an empty chat")
	}

	// A player writes under the seat's name; everybody hears it.
	say(ca, 1, "  hello\r\n\tall\x07!  ")
	for _, c := range []*wsClient{ca, cc} {
		if l := heard(t, c); l.Text != "hello all !" || l.Name != "ann" || l.Seat != 0 || l.Role != store.ChatPlayer || l.Index != 0 || !l.At.Equal(clock.Now()) {
			t.Fatalf("the player's line: %+v", l)
		}
	}
	// A spectator under the name given; the seat's name is not theirs.
	say(cc, 2, "hi", "ann")
	refusedAs(t, cc, 2, "chat-name-taken")
	say(cc, 3, "hi", "Greedy bot")
	refusedAs(t, cc, 3, "chat-bad-name")
	say(cc, 4, "hi")
	refusedAs(t, cc, 4, "chat-bad-name")
	say(cc, 5, "\u202egood game", " carol ")
	if l := heard(t, ca); l.Text != "good game" || l.Name != "carol" || l.Seat != -1 || l.Role != store.ChatSpectator || l.Index != 1 {
		t.Fatalf("the spectator's line: %+v", l)
	}
	heard(t, cc)
	// Empty, blank, overlong.
	for i, text := range []string{"", " \n\t\x00 ", "\u200b", strings.Repeat("é", ChatMaxRunes+1)} {
		say(ca, 10+i, text)
		rule := "chat-empty"
		if i == 3 {
			rule = "chat-too-long"
		}
		refusedAs(t, ca, 10+i, rule)
	}
	ca.send(map[string]any{"type": "chat", "id": 20})
	refusedAs(t, ca, 20, "chat-empty")
	say(ca, 21, strings.Repeat("é", ChatMaxRunes))
	if l := heard(t, cc); len([]rune(l.Text)) != ChatMaxRunes {
		t.Fatalf("a line of %d characters: %d", ChatMaxRunes, len([]rune(l.Text)))
	}

	// Five lines every ten seconds per sender: the sixth waits.
	for i := range 3 {
		say(ca, 30+i, fmt.Sprint("line ", i))
		heard(t, cc)
	}
	say(ca, 33, "one too many")
	if m := refusedAs(t, ca, 33, "chat-too-fast"); !strings.Contains(m.Message, "wait 10 s") {
		t.Fatalf("the refusal says how long to wait: %s", m.Message)
	}
	cc.quiet(30 * time.Millisecond)
	clock.Advance(ChatWindow)
	say(ca, 34, "again")
	heard(t, cc)

	// A reload sees the chat, in order, in its welcome; so does a restart.
	_, lines := chatOf(t, newPlayer(t, ts).connect(id).next())
	if len(lines) != 7 || lines[0].Text != "hello all !" || lines[6].Text != "again" || lines[6].Index != 6 {
		t.Fatalf("the welcome's chat: %+v", lines)
	}
	ts.stop()
	ts2 := startServer(t, Config{Store: st, Clock: clock, MsgRate: fast, MsgBurst: fast})
	ann.ts = ts2
	_, again := chatOf(t, ann.connect(id).next())
	if len(again) != 7 || again[6] != lines[6] {
		t.Fatalf("after a restart: %+v", again)
	}
}

func TestChatPlayersOnly(t *testing.T) {
	ts := startServer(t, Config{MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	bad := duel("random")
	bad["settings"] = map[string]any{"chat": "nobody"}
	var out struct{ Error apiError }
	if s := ann.do("POST", "/api/tables", bad, &out); s != http.StatusBadRequest || out.Error.Code != "bad-settings" {
		t.Fatalf("chat setting %q: %d %+v", "nobody", s, out)
	}
	req := duel("random")
	req["settings"] = map[string]any{"chat": "players"}
	id := ann.create(req)
	if s := ann.summary(id); !strings.Contains(string(s.Settings), `"chat":"players"`) {
		t.Fatalf("settings %s", s.Settings)
	}
	ca, cc := ann.connect(id), newPlayer(t, ts).connect(id)
	first := ca.next()
	cc.next()
	say(cc, 1, "hello", "carol")
	if m := refusedAs(t, cc, 1, "chat-players-only"); m.Message != "only the players can write in this table's chat" {
		t.Fatalf("refusal: %s", m.Message)
	}
	say(ca, 2, "players only")
	if l := heard(t, cc); l.Text != "players only" {
		t.Fatalf("the spectator reads: %+v", l)
	}
	// A rematch keeps the setting.
	playToEnd(t, ca, 0, rand.New(rand.NewPCG(9, 10)), first)
	s, next, _ := ann.rematchOf(id)
	if s != http.StatusCreated {
		t.Fatalf("rematch: %d", s)
	}
	if sum := ann.summary(next); string(sum.Settings) != string(ann.summary(id).Settings) {
		t.Fatalf("the rematch's settings %s", sum.Settings)
	}
}

// chatFlaky fails AppendChat while failing is set.
type chatFlaky struct {
	store.Store
	failing atomic.Bool
}

func (f *chatFlaky) AppendChat(ctx context.Context, m store.ChatMessage) (store.ChatMessage, error) {
	if f.failing.Load() {
		return store.ChatMessage{}, errors.New("disk full")
	}
	return f.Store.AppendChat(ctx, m)
}

func TestChatStoredBeforeTold(t *testing.T) {
	fs := &chatFlaky{Store: memstore.New()}
	ts := startServer(t, Config{Store: fs, MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	ca, cc := ann.connect(id), newPlayer(t, ts).connect(id)
	ca.next()
	cc.next()
	fs.failing.Store(true)
	say(ca, 1, "lost")
	if m := ca.await("error", nil); m.Code != "internal" || *m.ID != 1 {
		t.Fatalf("unsaved line: %s", m.raw)
	}
	fs.failing.Store(false)
	say(ca, 2, "kept")
	// The first chat line the other connection hears is the kept one: the
	// unsaved line was never told (presence frames may come in between).
	if l := heard(t, cc); l.Text != "kept" || l.Index != 0 {
		t.Fatalf("after recovery: %+v", l)
	}
}

// A flood from spectators is bounded: a few lines a window from each
// address, a few more from all of them, and a table's chat has an end.
func TestChatFloodBounded(t *testing.T) {
	clock := newFakeClock()
	st := memstore.New()
	ts := startServer(t, Config{Store: st, Clock: clock, MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	// Every connection comes from 127.0.0.1: one address.
	var spam []*wsClient
	for range 2 {
		c := newPlayer(t, ts).connect(id)
		c.next()
		spam = append(spam, c)
	}
	for i := range 100 {
		say(spam[0], i, "spam", "troll")
	}
	refusedAs(t, spam[0], 99, "chat-too-fast")
	say(spam[1], 100, "spam", "troll2")
	refusedAs(t, spam[1], 100, "chat-too-fast")
	ctx := context.Background()
	if lines, _ := st.Chat(ctx, id, 0, 0); len(lines) != ChatRate {
		t.Fatalf("%d lines stored from one address in one window", len(lines))
	}
	// The player still writes.
	ca := ann.connect(id)
	ca.next()
	say(ca, 1, "still here")
	heard(t, ca)
	ts.stop()

	// Near the end of a table's chat: the last lines go, then it is full.
	for i := 6; i < ChatMaxLines-1; i++ {
		if _, err := st.AppendChat(ctx, store.ChatMessage{Table: id, Seat: 0, Role: store.ChatPlayer, Name: "ann", Text: "x", At: clock.Now()}); err != nil {
			t.Fatal(err)
		}
	}
	ts2 := startServer(t, Config{Store: st, Clock: clock, MsgRate: fast, MsgBurst: fast})
	ann.ts = ts2
	ca = ann.connect(id)
	if _, lines := chatOf(t, ca.next()); len(lines) != ChatWelcome || lines[ChatWelcome-1].Index != ChatMaxLines-2 {
		t.Fatalf("the welcome carries the latest %d lines: %d, last %+v", ChatWelcome, len(lines), lines[len(lines)-1])
	}
	say(ca, 2, "last")
	if l := heard(t, ca); l.Index != ChatMaxLines-1 {
		t.Fatalf("the last line: %+v", l)
	}
	say(ca, 3, "too many")
	refusedAs(t, ca, 3, "chat-full")
}

func TestChatInReplay(t *testing.T) {
	ts := startServer(t, Config{MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("random"))
	ca := ann.connect(id)
	first := ca.next()
	say(ca, 1, "good luck")
	heard(t, ca)
	playToEnd(t, ca, 0, rand.New(rand.NewPCG(11, 12)), first)
	say(ca, 2, "good game")
	heard(t, ca)

	get := func(etag string) (int, replayBody, string) {
		req, _ := http.NewRequest("GET", ts.http.URL+"/api/tables/"+id+"/replay", nil)
		if etag != "" {
			req.Header.Set("If-None-Match", etag)
		}
		resp, err := ann.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var body replayBody
		if resp.StatusCode == http.StatusOK {
			if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
				t.Fatal(err)
			}
		}
		return resp.StatusCode, body, resp.Header.Get("ETag")
	}
	s, rep, etag := get("")
	if s != http.StatusOK || len(rep.Chat) != 2 {
		t.Fatalf("replay: %d, chat %+v", s, rep.Chat)
	}
	last := len(rep.Steps) - 1
	if c := rep.Chat[0]; c.Text != "good luck" || c.Step == nil || *c.Step != 0 || c.At.IsZero() {
		t.Fatalf("a line before the first move: step %d %+v, moves %s", *c.Step, c, rep.Steps[1].Move.Action)
	}
	if c := rep.Chat[1]; c.Text != "good game" || c.Step == nil || *c.Step != last {
		t.Fatalf("a line after the end (step %d): %+v", last, c)
	}
	if s, _, _ := get(etag); s != http.StatusNotModified {
		t.Fatalf("the same replay: %d", s)
	}
	// A line said after the end is a new replay.
	say(ca, 3, "rematch?")
	heard(t, ca)
	if s, rep, _ := get(etag); s != http.StatusOK || len(rep.Chat) != 3 {
		t.Fatalf("after one more line: %d, %d lines", s, len(rep.Chat))
	}
}
