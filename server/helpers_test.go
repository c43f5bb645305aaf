package server

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"github.com/dicehall/dicehall/internal/clock"
	"io"
	"log/slog"
	"net/http"
	"net/http/cookiejar"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// waitLimit bounds every wait in these tests.
const waitLimit = 15 * time.Second

type testServer struct {
	*Server
	http  *httptest.Server
	store store.Store
	nc    interface{ Close() } // its bus connection, if a cluster node
}

// startServer runs a server on 127.0.0.1 with a memstore unless cfg has a
// store; it closes with the test.
func startServer(t *testing.T, cfg Config) *testServer {
	t.Helper()
	if cfg.Store == nil {
		cfg.Store = memstore.New()
	}
	if cfg.Games == nil {
		cfg.Games = all.Registry
	}
	if cfg.BotDelay == 0 {
		cfg.BotDelay = 2 * time.Millisecond
	}
	if cfg.Logger == nil {
		cfg.Logger = testLogger(t)
	}
	if _, fake := cfg.Clock.(*fakeClock); fake && cfg.Limits.WSIdle == 0 {
		// Tests on a fake clock count and fire the table's timers: the
		// connections' idle timers join them only where a test sets WSIdle.
		cfg.Limits.WSIdle = -1
	}
	s, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	// The same http.Server as `dicehall serve`: its timeouts and caps.
	hs := httptest.NewUnstartedServer(nil)
	hs.Config = s.HTTPServer()
	hs.Start()
	ts := &testServer{Server: s, http: hs, store: cfg.Store}
	t.Cleanup(ts.stop)
	return ts
}

var stopOnce sync.Map

func (ts *testServer) stop() {
	if _, done := stopOnce.LoadOrStore(ts, true); done {
		return
	}
	ts.http.CloseClientConnections()
	_ = ts.Close()
	ts.http.Close()
}

// testLogger logs to the test's output, so failures show the server's side.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(testWriter{t}, &slog.HandlerOptions{Level: slog.LevelWarn}))
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimSpace(string(p)))
	return len(p), nil
}

// player is a browser: a cookie jar and an HTTP client.
type player struct {
	t      *testing.T
	ts     *testServer
	jar    *cookiejar.Jar
	client *http.Client
}

func newPlayer(t *testing.T, ts *testServer) *player {
	jar, _ := cookiejar.New(nil)
	return &player{t: t, ts: ts, jar: jar, client: &http.Client{Jar: jar, Timeout: waitLimit}}
}

// do sends a request with a JSON body (raw if it is a string) and decodes
// the answer into out (when not nil); it returns the status.
func (p *player) do(method, path string, body any, out any) int {
	p.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = strings.NewReader(b)
	default:
		data, err := json.Marshal(b)
		if err != nil {
			p.t.Fatal(err)
		}
		rd = bytes.NewReader(data)
	}
	req, err := http.NewRequest(method, p.ts.http.URL+path, rd)
	if err != nil {
		p.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	if out != nil {
		if err := json.Unmarshal(data, out); err != nil {
			p.t.Fatalf("%s %s: %d %s: %v", method, path, resp.StatusCode, data, err)
		}
	}
	return resp.StatusCode
}

// create makes a table and returns its ID.
func (p *player) create(body map[string]any) string {
	p.t.Helper()
	var out struct {
		ID   string `json:"id"`
		Seat int    `json:"seat"`
	}
	if st := p.do("POST", "/api/tables", body, &out); st != http.StatusCreated {
		p.t.Fatalf("create: status %d", st)
	}
	return out.ID
}

func (p *player) join(id string, seat int, name string) int {
	p.t.Helper()
	var out map[string]any
	return p.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": seat, "name": name}, &out)
}

func (p *player) summary(id string) TableSummary {
	p.t.Helper()
	var s TableSummary
	if st := p.do("GET", "/api/tables/"+id, nil, &s); st != http.StatusOK {
		p.t.Fatalf("get table %s: %d", id, st)
	}
	return s
}

func duel(bot string) map[string]any {
	return map[string]any{"game": "dicestars", "name": "ann",
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "bot": bot}}}
}

// msg is any server message, decoded loosely.
type msg struct {
	Type     string          `json:"type"`
	ID       *int64          `json:"id"`
	Seat     engine.Seat     `json:"seat"`
	Table    *TableSummary   `json:"table"`
	Version  int             `json:"version"`
	View     json.RawMessage `json:"view"`
	Turn     engine.Turn     `json:"turn"`
	Deadline int64           `json:"deadline"`
	Bank     int64           `json:"bank"`
	Move     *wireMove       `json:"move"`
	Events   []engine.Event  `json:"events"`
	// Narration stays raw: the replay's must be the same bytes.
	Narration json.RawMessage `json:"narration"`
	Rule      string          `json:"rule"`
	Message   string          `json:"message"`
	Code      string          `json:"code"`
	Seats     []SeatSummary   `json:"seats"`
	Log       []logEntry      `json:"log"`
	raw       []byte
}

func (m msg) view(t *testing.T) dicestars.View {
	t.Helper()
	var v dicestars.View
	if err := json.Unmarshal(m.View, &v); err != nil {
		t.Fatalf("view of a %s: %v", m.Type, err)
	}
	return v
}

// wsClient is one WebSocket connection; a goroutine reads into msgs.
type wsClient struct {
	t    *testing.T
	ts   *testServer // the server it was dialled to by player.connect
	ws   *websocket.Conn
	msgs chan msg
	err  chan error // the read error that ended the connection
}

func (p *player) connect(id string) *wsClient {
	p.t.Helper()
	c, err := dialWS(p.ts, id, p.jar)
	if err != nil {
		p.t.Fatal(err)
	}
	w := newWSClient(p.t, c)
	w.ts = p.ts
	return w
}

func dialWS(ts *testServer, id string, jar http.CookieJar) (*websocket.Conn, error) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	url := "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/ws/" + id
	c, _, err := websocket.Dial(ctx, url, &websocket.DialOptions{HTTPClient: &http.Client{Jar: jar}})
	if err != nil {
		return nil, fmt.Errorf("dial %s: %w", url, err)
	}
	c.SetReadLimit(1 << 22)
	return c, nil
}

func newWSClient(t *testing.T, c *websocket.Conn) *wsClient {
	w := &wsClient{t: t, ws: c, msgs: make(chan msg, 10_000), err: make(chan error, 1)}
	go func() {
		for {
			_, data, err := c.Read(context.Background())
			if err != nil {
				w.err <- err
				close(w.msgs)
				return
			}
			var m msg
			if err := json.Unmarshal(data, &m); err != nil {
				w.err <- fmt.Errorf("bad server message %s: %w", data, err)
				close(w.msgs)
				return
			}
			m.raw = data
			w.msgs <- m
		}
	}()
	t.Cleanup(func() { _ = c.CloseNow() })
	return w
}

func (w *wsClient) send(v any) {
	w.t.Helper()
	var data []byte
	if s, ok := v.(string); ok {
		data = []byte(s)
	} else {
		var err error
		if data, err = json.Marshal(v); err != nil {
			w.t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	if err := w.ws.Write(ctx, websocket.MessageText, data); err != nil {
		w.t.Fatalf("send: %v", err)
	}
}

// next returns the next message, failing the test after waitLimit.
func (w *wsClient) next() msg {
	w.t.Helper()
	select {
	case m, ok := <-w.msgs:
		if !ok {
			w.t.Fatalf("connection ended: %v", <-w.err)
		}
		return m
	case <-time.After(waitLimit):
		w.t.Fatal("no message from the server")
	}
	return msg{}
}

// await skips messages until one of type typ satisfies ok (nil: any).
func (w *wsClient) await(typ string, ok func(msg) bool) msg {
	w.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case m, open := <-w.msgs:
			if !open {
				w.t.Fatalf("connection ended waiting for %s: %v", typ, <-w.err)
			}
			if m.Type == typ && (ok == nil || ok(m)) {
				return m
			}
		case <-deadline:
			w.t.Fatalf("no %s message", typ)
		}
	}
}

// quiet checks that no message arrives for a short while.
func (w *wsClient) quiet(d time.Duration) {
	w.t.Helper()
	select {
	case m, ok := <-w.msgs:
		if ok {
			w.t.Fatalf("unexpected message %s", m.raw)
		}
	case <-time.After(d):
	}
}

// closed waits until the server has closed the connection.
func (w *wsClient) closed() error {
	w.t.Helper()
	deadline := time.After(waitLimit)
	for {
		select {
		case _, ok := <-w.msgs:
			if !ok {
				return <-w.err
			}
		case <-deadline:
			w.t.Fatal("the connection stayed open")
		}
	}
}

// fakeClock is the fake clock (clock.Fake) the server tests move by hand.
type fakeClock = clock.Fake

func newFakeClock() *fakeClock {
	return clock.NewFake(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
}
