package server

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
)

func TestBadWebSocketInput(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	c.next()
	expectError := func(frame string, code string) msg {
		t.Helper()
		c.send(frame)
		m := c.await("error", nil)
		if m.Code != code || m.Message == "" {
			t.Fatalf("%.60s: got %s, want code %s", frame, m.raw, code)
		}
		return m
	}
	if m := expectError(`{"type":"shout","id":3}`, "unknown-type"); m.ID == nil || *m.ID != 3 || !strings.Contains(m.Message, "shout") {
		t.Fatalf("unknown type: %s", m.raw)
	}
	expectError(`{"type":"act",`, "malformed")
	expectError(`[1,2,3]`, "malformed")
	expectError(`{"type":"act","id":"seven"}`, "malformed")
	expectError(`{"id":4}`, "malformed")
	expectError(`{"type":"act","id":4}`, "malformed")
	// Strict decoding: an unknown field or data after the object is refused.
	expectError(`{"type":"ping","id":8,"colour":"red"}`, "malformed")
	expectError(`{"type":"ping","id":9} {}`, "malformed")
	expectError(`{"type":"ping","pad":"`+strings.Repeat("x", 9000)+`"}`, "too-large")
	// A malformed or illegal action is refused with the rules' words.
	c.send(`{"type":"act","id":5,"action":{"draw":"nine"}}`)
	if m := c.await("refused", nil); m.Rule != engine.ErrBadAction.Rule || !strings.Contains(m.Message, "draw") {
		t.Fatalf("bad action: %s", m.raw)
	}
	// A well-formed number out of range is the rules' to refuse, with the
	// same code a script gets for it.
	c.send(`{"type":"act","id":55,"action":{"draw":9}}`)
	if m := c.await("refused", nil); m.Rule != "draw-count" {
		t.Fatalf("draw of 9: %s", m.raw)
	}
	c.send(`{"type":"act","id":6,"action":{"draw":1}}`)
	if m := c.await("refused", nil); m.Rule == "" || m.Message == "" || m.Rule == engine.ErrBadAction.Rule {
		t.Fatalf("illegal action: %s", m.raw)
	}
	c.send(`{"type":"act","id":7,"action":{"draw":3},"version":12}`)
	if m := c.await("refused", nil); m.Rule != "stale" {
		t.Fatalf("stale version: %s", m.raw)
	}
	// A binary frame is not the protocol.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := c.ws.Write(ctx, websocket.MessageBinary, []byte(`{"type":"ping"}`)); err != nil {
		t.Fatal(err)
	}
	if m := c.await("error", nil); m.Code != "bad-frame" {
		t.Fatalf("binary frame: %s", m.raw)
	}
	// The connection still works, and nothing changed.
	c.send(`{"type":"ping","id":8}`)
	if m := c.await("pong", nil); *m.ID != 8 {
		t.Fatalf("pong %s", m.raw)
	}
	if v := ann.summary(id).Version; v != 0 {
		t.Fatalf("bad input changed the table to version %d", v)
	}
	// A frame past the hard limit ends the connection with "message too big".
	_ = c.ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping","pad":"`+strings.Repeat("x", hardFrameLimit)+`"}`))
	if err := c.closed(); websocket.CloseStatus(err) != websocket.StatusMessageTooBig {
		t.Fatalf("huge frame: %v", err)
	}
	if v := ann.summary(id).Version; v != 0 {
		t.Fatalf("version %d", v)
	}
}

func TestFlood(t *testing.T) {
	clock := newFakeClock() // no time passes: the bucket never refills
	ts := startServer(t, Config{Clock: clock, MsgRate: 20, MsgBurst: 40})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	c.next()
	for i := range 100 {
		c.send(map[string]any{"type": "ping", "id": i})
	}
	pongs, limited := 0, 0
	for pongs+limited < 41 {
		switch m := c.next(); m.Type {
		case "pong":
			pongs++
		case "error":
			if m.Code != "rate-limited" {
				t.Fatalf("flood: %s", m.raw)
			}
			limited++
		}
	}
	c.quiet(50 * time.Millisecond)
	if pongs != 40 || limited != 1 {
		t.Fatalf("flood of 100: %d answered, %d errors; want 40 and 1", pongs, limited)
	}
	// Time refills the bucket.
	clock.Advance(time.Second)
	c.send(map[string]any{"type": "ping", "id": 1000})
	if m := c.await("pong", nil); *m.ID != 1000 {
		t.Fatal(m.raw)
	}
	// A client that never stops is cut off.
	for i := range floodLimit + 50 {
		if err := c.ws.Write(context.Background(), websocket.MessageText, []byte(`{"type":"ping"}`)); err != nil {
			t.Logf("write %d: %v", i, err)
			break
		}
	}
	if err := c.closed(); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
		t.Fatalf("endless flood: %v", err)
	}
}

func TestBadHTTPInput(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	cases := []struct {
		name   string
		body   any
		status int
		code   string
	}{
		{"not JSON", `{"game":`, 400, "malformed"},
		{"no body", ``, 400, "malformed"},
		{"two values", `{"game":"dicestars"} {}`, 400, "malformed"},
		{"unknown field", map[string]any{"game": "dicestars", "name": "a", "colour": "red", "seats": []map[string]any{{"kind": "human"}}}, 400, "malformed"},
		{"unknown seat field", map[string]any{"game": "dicestars", "name": "a", "seats": []map[string]any{{"kind": "human", "colour": "red"}}}, 400, "malformed"},
		{"too large", `{"game":"dicestars","name":"` + strings.Repeat("a", 20<<10) + `"}`, 413, "too-large"},
		{"unknown game", map[string]any{"game": "chess", "name": "a", "seats": []map[string]any{{"kind": "human"}}}, 400, "unknown-game"},
		{"no name", map[string]any{"game": "dicestars", "name": "  ", "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-name"},
		{"long name", map[string]any{"game": "dicestars", "name": strings.Repeat("é", 25), "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-name"},
		{"control char", map[string]any{"game": "dicestars", "name": "a\u0007b", "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-name"},
		{"bidi override", map[string]any{"game": "dicestars", "name": "a\u202eb", "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-name"},
		{"no seats", map[string]any{"game": "dicestars", "name": "a"}, 400, "bad-seats"},
		{"five seats", map[string]any{"game": "dicestars", "name": "a", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}, {"kind": "human"}}}, 400, "bad-seats"},
		{"bad kind", map[string]any{"game": "dicestars", "name": "a", "seats": []map[string]any{{"kind": "human"}, {"kind": "alien"}}}, 400, "bad-seats"},
		{"bad bot", map[string]any{"game": "dicestars", "name": "a", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "bot": "genius"}}}, 400, "bad-seats"},
		{"creator not seated", map[string]any{"game": "dicestars", "name": "a", "seats": []map[string]any{{"kind": "bot"}, {"kind": "human"}}}, 400, "bad-seats"},
		{"bad options", map[string]any{"game": "dicestars", "name": "a", "options": map[string]any{"colour": 1}, "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-options"},
		{"bad settings", map[string]any{"game": "dicestars", "name": "a", "settings": map[string]any{"turnSeconds": -1}, "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-settings"},
		{"unknown setting", map[string]any{"game": "dicestars", "name": "a", "settings": map[string]any{"speed": 1}, "seats": []map[string]any{{"kind": "human"}}}, 400, "bad-settings"},
	}
	for _, c := range cases {
		var e errorBody
		if st := p.do("POST", "/api/tables", c.body, &e); st != c.status || e.Error.Code != c.code || e.Error.Message == "" {
			t.Errorf("%s: %d %+v, want %d %s", c.name, st, e, c.status, c.code)
		}
	}
	var list []TableSummary
	if st := p.do("GET", "/api/tables", nil, &list); st != 200 || len(list) != 0 {
		t.Fatalf("refused creates left tables: %d %v", st, list)
	}
	var e errorBody
	if st := p.do("GET", "/api/tables?status=done", nil, &e); st != 400 || e.Error.Code != "bad-status" {
		t.Fatalf("bad status filter: %d %+v", st, e)
	}
	if st := p.do("GET", "/api/tables/NOPE", nil, &e); st != 404 || e.Error.Code != "not-found" {
		t.Fatalf("bad id: %d %+v", st, e)
	}
	id := p.create(twoHumans())
	bob := newPlayer(t, ts)
	for _, body := range []any{map[string]any{"name": "bob"}, map[string]any{"seat": 5, "name": "bob"}, map[string]any{"seat": 1, "name": ""}} {
		if st := bob.do("POST", "/api/tables/"+id+"/join", body, &e); st != 400 {
			t.Fatalf("join %v: %d %+v", body, st, e)
		}
	}
	// A plain GET is no handshake (refused before any table is looked
	// up); a handshake for no table is 404.
	resp, err := http.Get(ts.http.URL + "/ws/nosuch")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusUpgradeRequired {
		t.Fatalf("plain GET of a websocket: %d", resp.StatusCode)
	}
	if _, err := dialWS(ts, "nosuch", nil); err == nil || !strings.Contains(err.Error(), "404") {
		t.Fatalf("websocket to no table: %v", err)
	}
}

// TestNamesAreText: markup in a name is kept as typed; escaping it is the
// page's job, and JSON carries it safely.
func TestNamesAreText(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	name := `<b onclick=x>"hi"</b>`
	id := p.create(map[string]any{"game": "dicestars", "name": "  " + name + " ", "seats": []map[string]any{{"kind": "human"}}})
	if got := p.summary(id).Seats[0].Name; got != name {
		t.Fatalf("name stored as %q", got)
	}
	c := p.connect(id)
	if w := c.next(); w.Table.Seats[0].Name != name || w.view(t).Players[0].Name != name {
		t.Fatalf("welcome names %q", w.Table.Seats[0].Name)
	}
}

// TestSlowClient: a client that never reads is disconnected when its queue
// fills, and everybody else keeps receiving every update.
func TestSlowClient(t *testing.T) {
	ts := startServer(t, Config{SendQueue: 64, BotDelay: time.Millisecond})
	// Tiny socket buffers on the server's side, so the kernel cannot absorb
	// the whole game for the client that never reads.
	ts.http.Close()
	ts.http = httptest.NewUnstartedServer(ts.Handler())
	ts.http.Listener = smallBufListener{mustListen(t)}
	ts.http.Start()

	p := newPlayer(t, ts)
	var out struct{ ID string }
	bots := map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}},
		"settings": map[string]any{"botDelayMs": 1}}
	if st := p.do("POST", "/api/tables", bots, &out); st != 201 {
		t.Fatal(st)
	}
	slowConn := dialSlowTo(t, ts, out.ID) // before the game gets far
	fast := p.connect(out.ID)
	w := fast.next()
	version := w.Version
	for {
		m := fast.next()
		if m.Type != "update" {
			continue
		}
		if m.Version != version+1 {
			t.Fatalf("fast client: version %d after %d", m.Version, version)
		}
		version = m.Version
		if m.Turn.Over {
			break
		}
	}
	// The slow one was cut off: reading what it has buffered ends in an
	// error well before the end of the game.
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	slowConn.SetReadLimit(1 << 22)
	got := 0
	for {
		if _, _, err := slowConn.Read(ctx); err != nil {
			if ctx.Err() != nil {
				t.Fatal("the slow client was never disconnected")
			}
			break
		}
		got++
	}
	if got >= version {
		t.Fatalf("the slow client received all %d messages", got)
	}
	t.Logf("game of %d moves; the slow client got %d messages before it was cut off", version, got)
}

type smallBufListener struct{ net.Listener }

func (l smallBufListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

func mustListen(t *testing.T) net.Listener {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func dialSlow() *http.Client {
	return &http.Client{Transport: &http.Transport{DialContext: (&net.Dialer{
		Control: func(_, _ string, rc syscall.RawConn) error {
			var serr error
			err := rc.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, 4096)
			})
			if err != nil {
				return err
			}
			return serr
		},
	}).DialContext}}
}

// dialSlowTo opens a WebSocket with a tiny receive buffer and never reads it.
func dialSlowTo(t *testing.T, ts *testServer, id string) *websocket.Conn {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/ws/"+id, &websocket.DialOptions{HTTPClient: dialSlow()})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = c.CloseNow() })
	return c
}
