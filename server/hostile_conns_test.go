package server

// Hostile clients against the WebSockets, over real loopback connections
// to the server's own http.Server (HTTPServer, as `dicehall serve` runs
// it): nobody can lock a seated player out, connections are capped per
// table, per address and per seat, idle ones go, a flood is told why it is
// cut off, and a refused handshake never loads a table.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// raiseFileLimit lifts the soft limit on open files to at least n (up to
// the hard limit): the test process holds both ends of every connection.
func raiseFileLimit(t *testing.T, n uint64) {
	t.Helper()
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	if lim.Cur >= n {
		return
	}
	if lim.Max < n {
		t.Skipf("this test holds about %d descriptors; the hard limit on open files is %d", n, lim.Max)
	}
	old := lim.Cur
	lim.Cur = n
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		lim.Cur = old
		_ = syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	})
}

// loopbackAddr is 127.0.0.n, a client address of its own: Linux routes the
// whole of 127.0.0.0/8 to the loopback interface.
func loopbackAddr(t *testing.T, n int) net.IP {
	t.Helper()
	ip := net.IPv4(127, 0, 0, byte(n))
	l, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
	if err != nil {
		t.Skipf("cannot use %s as a client address here: %v", ip, err)
	}
	l.Close()
	return ip
}

// from is a dialer whose connections come from ip.
func from(ip net.IP) *net.Dialer {
	return &net.Dialer{LocalAddr: &net.TCPAddr{IP: ip}, Timeout: waitLimit}
}

func clientFrom(ip net.IP, jar http.CookieJar) *http.Client {
	return &http.Client{Jar: jar, Timeout: waitLimit, Transport: &http.Transport{DialContext: from(ip).DialContext}}
}

func (ts *testServer) wsURL(id string) string {
	return "ws" + strings.TrimPrefix(ts.http.URL, "http") + "/ws/" + id
}

// hostileWS opens a cookieless WebSocket from ip and reads its first
// message: "in" (welcomed; from then on it reads and drops everything, so
// it answers pings and never falls behind), or how it was refused.
func hostileWS(ts *testServer, ip net.IP, id string) (c *websocket.Conn, outcome string) {
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	c, resp, err := websocket.Dial(ctx, ts.wsURL(id), &websocket.DialOptions{HTTPClient: clientFrom(ip, nil)})
	if err != nil {
		if resp != nil {
			return nil, fmt.Sprintf("http %d", resp.StatusCode)
		}
		return nil, "dial: " + err.Error()
	}
	c.SetReadLimit(1 << 22)
	if _, _, err := c.Read(ctx); err != nil {
		return nil, fmt.Sprintf("close %d %s", websocket.CloseStatus(err), closeReason(err))
	}
	go func() {
		for {
			if _, _, err := c.Read(context.Background()); err != nil {
				return
			}
		}
	}()
	return c, "in"
}

func closeReason(err error) string {
	var ce websocket.CloseError
	if errors.As(err, &ce) {
		return ce.Reason
	}
	return ""
}

// rawConns opens n TCP connections from ip that never send a byte.
func rawConns(t *testing.T, ts *testServer, ip net.IP, n int) []net.Conn {
	t.Helper()
	addr := strings.TrimPrefix(ts.http.URL, "http://")
	out := make([]net.Conn, 0, n)
	for range n {
		c, err := from(ip).Dial("tcp", addr)
		if err != nil {
			t.Fatalf("raw connection from %s: %v", ip, err)
		}
		out = append(out, c)
	}
	t.Cleanup(func() {
		for _, c := range out {
			c.Close()
		}
	})
	return out
}

// held is what the server holds: HTTP connections and WebSockets.
func (ts *testServer) held() (httpConns, webSockets int) {
	ts.httpConns.mu.Lock()
	httpConns = len(ts.httpConns.conns)
	ts.httpConns.mu.Unlock()
	ts.wsConns.mu.Lock()
	for _, n := range ts.wsConns.n {
		webSockets += n
	}
	ts.wsConns.mu.Unlock()
	return
}

// TestSeatedPlayerNeverLockedOut is the lockout of the issue: a thousand
// hostile connections sit on the table and on the server (spectators
// filling the table, more filling the player's own address, idle
// connections filling the HTTP caps of 40 addresses and of the player's
// own), and the seated player still connects, is seen as present (so
// nobody can hand her seat to a bot) and plays.
func TestSeatedPlayerNeverLockedOut(t *testing.T) {
	raiseFileLimit(t, 8192)
	home := loopbackAddr(t, 1)
	// Hostile connections must sit for the whole test: no header timeout
	// cuts the idle ones here (TestHTTPTimeouts tests it).
	ts := startServer(t, Config{Limits: Limits{HeaderTimeout: time.Minute}})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(twoHumans())
	if st := bob.join(id, 1, "bob"); st != 200 {
		t.Fatalf("join: %d", st)
	}
	cb := bob.connect(id)
	cb.next()
	// Ann's connection drops (a train, a tunnel).
	ca := ann.connect(id)
	ca.next()
	cb.await("presence", func(m msg) bool { return m.Seats[0].Connected })
	ca.ws.CloseNow()
	cb.await("presence", func(m msg) bool { return !m.Seats[0].Connected })

	// The siege. 240 cookieless spectators from 20 addresses (12 each,
	// under the address cap) at ann's table: 200 get in, the rest are
	// refused, as the table's spectators are capped.
	var mu sync.Mutex
	outcomes := map[string]int{}
	var sitting []*websocket.Conn
	var wg sync.WaitGroup
	for a := range 20 {
		ip := loopbackAddr(t, 2+a)
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 12 {
				c, o := hostileWS(ts, ip, id)
				mu.Lock()
				outcomes[o]++
				if c != nil {
					sitting = append(sitting, c)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	t.Cleanup(func() {
		for _, c := range sitting {
			c.CloseNow()
		}
	})
	if outcomes["in"] != DefaultSpectators || outcomes["close 1013 "+errTableFull.Error()] != 240-DefaultSpectators {
		t.Fatalf("spectators at a table: %v", outcomes)
	}
	// From ann's own address (a neighbour behind the same NAT): spectators
	// at another table until the address's cap refuses them before the
	// upgrade (bob's seat counts there too, but is never refused).
	other := newPlayer(t, ts).create(duel("random"))
	refused := 0
	for range DefaultWSPerAddr + 6 {
		c, o := hostileWS(ts, home, other)
		switch {
		case c != nil:
			sitting = append(sitting, c)
		case o == "http 429":
			refused++
		default:
			t.Fatalf("a spectator from a full address: %s", o)
		}
	}
	if refused != 7 {
		t.Fatalf("%d spectators refused from a full address, want 7 (bob's seat is the 64th)", refused)
	}
	// Idle connections: 20 each from 40 more addresses, and enough from
	// ann's own to fill its HTTP cap.
	for a := range 40 {
		rawConns(t, ts, loopbackAddr(t, 30+a), 20)
	}
	rawConns(t, ts, home, DefaultConnsPerAddr)
	// (The server accepts them from its backlog as fast as it can.)
	var httpHeld, wsHeld int
	hostile := func() int {
		httpHeld, wsHeld = ts.held()
		return httpHeld + wsHeld - 1 // bob's WebSocket is not hostile
	}
	eventually(t, "1,000 hostile connections to sit on the server", func() bool { return hostile() >= 1000 })
	t.Logf("the server holds %d HTTP connections and %d WebSockets", httpHeld, wsHeld)
	time.Sleep(idleGrace + 100*time.Millisecond) // the idle ones are idle now

	// Ann comes back: the table is full of spectators, her address full of
	// WebSockets and HTTP connections; her seat gets her in.
	ca = ann.connect(id)
	if w := ca.next(); w.Type != "welcome" || w.Seat != 0 {
		t.Fatalf("ann, seated, got %s", w.raw)
	}
	cb.await("presence", func(m msg) bool { return m.Seats[0].Connected })
	cb.send(map[string]any{"type": "takeover", "id": 1, "seat": 0})
	if r := cb.await("refused", nil); r.Rule != "player-connected" {
		t.Fatalf("takeover of ann's seat: %s", r.raw)
	}
	ca.send(map[string]any{"type": "act", "id": 2, "action": dicestars.Draw(3, false), "version": 0})
	if u := ca.await("update", nil); u.Version != 1 || u.Move.Seat != 0 {
		t.Fatalf("ann's move: %s", u.raw)
	}
	if u := cb.await("update", nil); u.Version != 1 {
		t.Fatalf("bob saw %s", u.raw)
	}
	// The caps still hold for everybody else.
	if _, o := hostileWS(ts, loopbackAddr(t, 2), id); o != "close 1013 "+errTableFull.Error() {
		t.Fatalf("one more spectator at the full table: %s", o)
	}
	if _, o := hostileWS(ts, home, other); o != "http 429" {
		t.Fatalf("one more spectator from ann's full address: %s", o)
	}
	httpHeld, wsHeld = ts.held()
	t.Logf("after ann's move: %d HTTP connections and %d WebSockets", httpHeld, wsHeld)
}

// TestSpectatorCaps: the table's cap counts spectators only and the
// address's cap counts WebSockets across tables; a seat's connection gets
// in past both, and a spectator's place frees when it leaves.
func TestSpectatorCaps(t *testing.T) {
	ts := startServer(t, Config{MaxConnsPerTable: 2, Limits: Limits{WSPerAddr: 3}})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	w1, w2 := newPlayer(t, ts).connect(id), newPlayer(t, ts).connect(id)
	w1.next()
	w2.next()
	err := newPlayer(t, ts).connect(id).closed()
	if websocket.CloseStatus(err) != websocket.StatusTryAgainLater || closeReason(err) != errTableFull.Error() {
		t.Fatalf("third spectator: %v", err)
	}
	// The table is full of spectators, the address too: ann gets in.
	other := newPlayer(t, ts).create(duel("greedy"))
	w3 := newPlayer(t, ts).connect(other)
	w3.next()
	if _, err := dialWS(ts, other, nil); err == nil || !strings.Contains(err.Error(), "429") {
		t.Fatalf("fourth spectator from one address: %v", err)
	}
	ca := ann.connect(id)
	if w := ca.next(); w.Seat != 0 {
		t.Fatalf("ann welcomed as %d", w.Seat)
	}
	// Two spectators leave (one at each table): another one takes the
	// place at the table, the address having room again.
	w1.ws.Close(websocket.StatusNormalClosure, "")
	w3.ws.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(waitLimit)
	for {
		c, err := dialWS(ts, id, nil)
		if err == nil {
			wc := newWSClient(t, c)
			if m := wc.next(); m.Type == "welcome" {
				break
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("a spectator's place never freed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestSeatConnectionsCapped: one seat's connections coexist up to
// ConnsPerSeat; a newer one always gets in and the oldest gives way, so a
// seat token cannot be used to pile up connections.
func TestSeatConnectionsCapped(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	var conns []*wsClient
	for i := range DefaultConnsPerSeat + 3 {
		c := ann.connect(id)
		if w := c.next(); w.Seat != 0 {
			t.Fatalf("connection %d of ann's seat: %s", i, w.raw)
		}
		conns = append(conns, c)
	}
	for i, c := range conns {
		if i < 3 {
			if err := c.closed(); websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
				t.Fatalf("oldest connection %d: %v", i, err)
			}
			continue
		}
		c.send(map[string]any{"type": "ping", "id": i})
		if m := c.await("pong", nil); *m.ID != int64(i) {
			t.Fatal(m.raw)
		}
	}
	// The server lets go of a closed connection's count as its handler
	// returns, a moment after the client sees the close.
	deadline := time.Now().Add(waitLimit)
	for ws := ts.wsConns.count("127.0.0.1"); ws != DefaultConnsPerSeat; ws = ts.wsConns.count("127.0.0.1") {
		if time.Now().After(deadline) {
			t.Fatalf("the address holds %d WebSockets, want %d", ws, DefaultConnsPerSeat)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestIdleWebSockets: a connection that answers pings but sends nothing is
// closed after WSIdle unless it holds a seat in a game not over; one that
// sends keeps its place. A fake clock drives the idle timers: no sleeps.
func TestIdleWebSockets(t *testing.T) {
	const idle = time.Minute
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, Limits: Limits{WSIdle: idle}})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	seated := ann.connect(id)
	seated.next()
	quiet := newPlayer(t, ts).connect(id)
	quiet.next()
	chatty := newPlayer(t, ts).connect(id)
	chatty.next()
	// Ann is to act and nobody has a turn clock: the only timers are the
	// three connections' idle timers.
	eventually(t, "the idle timers are armed", func() bool { return clock.Pending() == 3 })
	ping := func(c *wsClient, n int) {
		t.Helper()
		c.send(map[string]any{"type": "ping", "id": n})
		c.await("pong", func(m msg) bool { return *m.ID == int64(n) })
	}

	clock.Advance(idle / 2)
	ping(chatty, 1)
	clock.Advance(idle/2 - time.Millisecond)
	ping(chatty, 2)
	// Nothing is due a millisecond before the limit: no timer has fired.
	if n := clock.Pending(); n != 3 {
		t.Fatalf("%d idle timers pending a moment before the limit, want 3", n)
	}
	clock.Advance(time.Millisecond)
	err := quiet.closed()
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure || !strings.Contains(closeReason(err), "idle") {
		t.Fatalf("idle spectator: %v", err)
	}
	// The seated one and the chatty one were looked at too, and kept.
	eventually(t, "the kept connections' timers are armed again", func() bool { return clock.Pending() == 2 })
	ping(seated, 3)
	ping(chatty, 4)

	// Once ann's game is over (she hands her seat to a bot, the bots end
	// it), her seat no longer keeps an idle connection.
	seated.send(`{"type":"leave"}`)
	deadline := time.After(waitLimit)
	for over := false; !over; {
		select {
		case m, ok := <-seated.msgs:
			if !ok {
				t.Fatalf("closed before the game ended: %v", <-seated.err)
			}
			over = m.Type == "update" && m.Turn.Over
		case <-time.After(time.Millisecond):
			clock.Advance(10 * time.Millisecond) // the bots' delays
		case <-deadline:
			t.Fatal("the bots did not end the game")
		}
	}
	clock.Advance(idle)
	err = seated.closed()
	if websocket.CloseStatus(err) != websocket.StatusNormalClosure || !strings.Contains(closeReason(err), "idle") {
		t.Fatalf("idle connection of a finished game's seat: %v", err)
	}
	if s := ann.summary(id); s.Status != store.StatusOver {
		t.Fatalf("closed while the game is %s", s.Status)
	}
}

// logCounter counts the log records whose message contains a text.
type logCounter struct {
	slog.Handler
	text string
	n    *atomic.Int64
}

func (h logCounter) Handle(ctx context.Context, r slog.Record) error {
	if strings.Contains(r.Message, h.text) {
		h.n.Add(1)
	}
	return h.Handler.Handle(ctx, r)
}

func (h logCounter) WithAttrs(as []slog.Attr) slog.Handler {
	return logCounter{h.Handler.WithAttrs(as), h.text, h.n}
}

func (h logCounter) WithGroup(g string) slog.Handler {
	return logCounter{h.Handler.WithGroup(g), h.text, h.n}
}

// TestFloodToldOnce: a client that never stops sending gets its last
// rate-limited error before the close frame (1008), however fast it
// floods, and the server logs it once.
func TestFloodToldOnce(t *testing.T) {
	warnings := &atomic.Int64{}
	clock := newFakeClock() // no time passes: the bucket never refills
	ts := startServer(t, Config{Clock: clock, Logger: slog.New(logCounter{testLogger(t).Handler(), "flooding", warnings})})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	const clients = 4
	for i := range clients {
		c := ann.connect(id)
		c.next()
		ping := []byte(`{"type":"ping"}`)
		for range 40 + floodLimit + 200 { // the burst, the flood, and more
			if err := c.ws.Write(context.Background(), websocket.MessageText, ping); err != nil {
				break
			}
		}
		var last msg
		for m := range c.msgs {
			last = m
		}
		err := <-c.err
		if websocket.CloseStatus(err) != websocket.StatusPolicyViolation {
			t.Fatalf("client %d: flood ended with %v", i, err)
		}
		if last.Type != "error" || last.Code != "rate-limited" || !strings.Contains(last.Message, "closed") {
			t.Fatalf("client %d: the last message before the close was %s", i, last.raw)
		}
	}
	time.Sleep(100 * time.Millisecond)
	if n := warnings.Load(); n != clients {
		t.Fatalf("%d flood warnings logged for %d connections", n, clients)
	}
}

// TestMalformedEchoesID: an error about a malformed message names the
// request it answers whenever the message has a whole-number id.
func TestMalformedEchoesID(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	c.next()
	for frame, want := range map[string]int64{
		`{"type":"act","id":12,"version":"seven"}`:         12,
		`{"type":"takeover","id":13,"seat":"one"}`:         13,
		`{"type":"act","id":14,"action":{"draw":3},"x":1}`: 14,
		`{"type":"ping","id":15} {}`:                       15,
		`{"type":7,"id":16}`:                               16,
	} {
		c.send(frame)
		m := c.await("error", nil)
		if m.Code != "malformed" || m.ID == nil || *m.ID != want {
			t.Fatalf("%s: %s", frame, m.raw)
		}
	}
	for _, frame := range []string{`{"type":"act","id":"seven"}`, `{"id":1.5,"type":3}`, `[1]`, `{"type":"act",`} {
		c.send(frame)
		if m := c.await("error", nil); m.Code != "malformed" || m.ID != nil {
			t.Fatalf("%s: %s", frame, m.raw)
		}
	}
}

// TestRefusedHandshakesLoadNothing: a plain GET of /ws/{id}, a handshake
// from another site or a broken one is refused before the table is looked
// up, so it can neither load a finished table's actor nor keep it; a
// handshake refused by the table's cap lets the actor stop.
func TestRefusedHandshakesLoadNothing(t *testing.T) {
	st := &countingStore{Store: memstore.New()}
	ts := startServer(t, Config{BotDelay: -1, MaxConnsPerTable: 1, Store: st})
	p := newPlayer(t, ts)
	var out struct{ ID string }
	bots := map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}}}
	if code := p.do("POST", "/api/tables", bots, &out); code != 201 {
		t.Fatal(code)
	}
	id := out.ID
	eventually(t, "the game to end and its actor to stop", func() bool {
		return p.summary(id).Status == store.StatusOver && ts.running(id) == nil
	})
	loads := st.moves.Load()
	handshake := func(h map[string]string) http.Header {
		out := http.Header{}
		for k, v := range map[string]string{"Connection": "Upgrade", "Upgrade": "websocket", "Sec-WebSocket-Version": "13", "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="} {
			out.Set(k, v)
		}
		for k, v := range h {
			if v == "" {
				out.Del(k)
			} else {
				out.Set(k, v)
			}
		}
		return out
	}
	for name, c := range map[string]struct {
		h    http.Header
		want int
	}{
		"plain GET":      {http.Header{}, http.StatusUpgradeRequired},
		"no Upgrade":     {handshake(map[string]string{"Upgrade": ""}), http.StatusUpgradeRequired},
		"other site":     {handshake(map[string]string{"Origin": "https://evil.example"}), http.StatusForbidden},
		"null origin":    {handshake(map[string]string{"Origin": "null"}), http.StatusForbidden},
		"bad version":    {handshake(map[string]string{"Sec-WebSocket-Version": "8"}), http.StatusBadRequest},
		"bad key":        {handshake(map[string]string{"Sec-WebSocket-Key": "short"}), http.StatusBadRequest},
		"no key":         {handshake(map[string]string{"Sec-WebSocket-Key": ""}), http.StatusBadRequest},
		"POST handshake": {handshake(nil), http.StatusMethodNotAllowed},
	} {
		method := "GET"
		if name == "POST handshake" {
			method = "POST"
		}
		for range 10 {
			req, _ := http.NewRequest(method, ts.http.URL+"/ws/"+id, nil)
			req.Header = c.h.Clone()
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
			if resp.StatusCode != c.want {
				t.Fatalf("%s: %d, want %d", name, resp.StatusCode, c.want)
			}
		}
	}
	if n := st.moves.Load() - loads; n != 0 || ts.running(id) != nil {
		t.Fatalf("refused handshakes loaded the table %d times (running: %v)", n, ts.running(id) != nil)
	}
	// A spectator in, another refused by the cap, the first gone: the
	// actor stops.
	w := newPlayer(t, ts).connect(id)
	w.next()
	if err := newPlayer(t, ts).connect(id).closed(); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
		t.Fatalf("second spectator: %v", err)
	}
	w.ws.Close(websocket.StatusNormalClosure, "")
	eventually(t, "the actor to stop", func() bool { return ts.running(id) == nil })
}
