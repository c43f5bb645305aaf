package server

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/natsrv"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// startNATS runs an embedded NATS server for the test.
func startNATS(t *testing.T) string {
	t.Helper()
	ns, err := natsrv.Start("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Close)
	return ns.URL()
}

// startNode runs one node of a cluster on st and the NATS server at url.
func startNode(t *testing.T, st store.Store, url, name string) *testServer {
	t.Helper()
	return startNodeWith(t, st, url, name, Config{})
}

// startNodeWith is startNode with more of cfg (its store and cluster are
// set here).
func startNodeWith(t *testing.T, st store.Store, url, name string, cfg Config) *testServer {
	t.Helper()
	nc, err := nats.Connect(url, nats.Name(name))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	c := quickCluster(name)
	c.NATS = nc
	cfg.Store, cfg.Cluster = &crashStore{Store: st}, c
	ts := startServer(t, cfg)
	ts.nc = nc
	return ts
}

// on is the same browser (cookies) talking to another node.
func (p *player) on(ts *testServer) *player {
	return &player{t: p.t, ts: ts, jar: p.jar, client: &http.Client{Jar: p.jar, Timeout: waitLimit}}
}

func TestPlayThroughAnotherNode(t *testing.T) {
	st := memstore.New()
	url := startNATS(t)
	a := startNode(t, st, url, "a")
	b := startNode(t, st, url, "b")
	c := startNode(t, st, url, "c")
	ann := newPlayer(t, a)
	id := ann.create(duel("greedy"))
	// A connection on a keeps its actor there (an idle table is released,
	// and the next node that needs it takes it).
	newPlayer(t, a).connect(id).next()
	if l := ownerOf(t, st, id); l.Node != "a" {
		t.Fatalf("owner %q, want a", l.Node)
	}
	// Ann plays from b; a spectator watches from c; a runs the table.
	annB := ann.on(b).connect(id)
	w := annB.next()
	if w.Type != "welcome" || w.Seat != 0 {
		t.Fatalf("first message through b: %s seat %d, want a welcome at seat 0", w.Type, w.Seat)
	}
	spec := newPlayer(t, c).connect(id)
	if sw := spec.next(); sw.Type != "welcome" || sw.Seat != engine.Spectator {
		t.Fatalf("spectator through c: %s seat %d", sw.Type, sw.Seat)
	}
	if b.running(id) != nil || c.running(id) != nil {
		t.Fatalf("an edge runs the table's actor: b %v c %v; lease %+v", b.running(id) != nil, c.running(id) != nil, ownerOf(t, st, id))
	}
	took := playDiceStarsTurn(t, annB, w)
	// The spectator saw every one of those moves, in order.
	for v := w.Version + 1; v <= took.Version; v++ {
		u := spec.await("update", func(m msg) bool { return true })
		if u.Version != v {
			t.Fatalf("spectator got version %d, want %d", u.Version, v)
		}
	}
	// A refusal comes back to the one who asked, through its node.
	annB.send(map[string]any{"type": "act", "action": map[string]any{"kind": "nonsense"}, "version": 0, "id": 7})
	if r := annB.await("refused", func(m msg) bool { return m.ID != nil && *m.ID == 7 }); r.Rule == "" {
		t.Error("refusal without a rule")
	}
	// HTTP calls for the table from c are answered by a: the summary
	// knows whose turn it is (only the running actor does).
	sum := newPlayer(t, c).summary(id)
	if sum.Status != store.StatusLive || sum.Version < took.Version {
		t.Errorf("summary through c: %s at version %d, want live at %d or later", sum.Status, sum.Version, took.Version)
	}
	// Presence counts connections on every node.
	if !sum.Seats[0].Connected {
		t.Error("ann, connected through b, is not shown as connected")
	}
}

func TestOwnerDeathPlayersReconnect(t *testing.T) {
	st := memstore.New()
	url := startNATS(t)
	a := startNode(t, st, url, "a")
	b := startNode(t, st, url, "b")
	ann := newPlayer(t, a)
	id := ann.create(duel("greedy"))
	newPlayer(t, a).connect(id).next() // keeps the table on a
	annB := ann.on(b).connect(id)
	w := annB.next()
	took := playDiceStarsTurn(t, annB, w)
	a.crash()
	died := time.Now()
	// b closes the connection (the owner went silent, or b adopted the
	// table and the old link is void): the page reconnects.
	select {
	case err := <-annB.err:
		if err == nil {
			t.Fatal("closed without a reason")
		}
		t.Logf("closed after %v: %v", time.Since(died), err)
	case <-time.After(waitLimit):
		t.Fatal("the connection through b outlived the owner")
	}
	// a's lease lapses; b adopts the table (and releases it once the bot
	// has played, with nobody there).
	eventually(t, "a's lease ends", func() bool { return ownerOf(t, st, id).Node != "a" })
	again := ann.on(b).connect(id)
	w2 := again.await("welcome", func(m msg) bool { return true })
	if w2.Version < took.Version {
		t.Fatalf("welcome after the takeover at version %d, before %d", w2.Version, took.Version)
	}
	if w2.Turn.Has(0) && !w2.Turn.Chance {
		playDiceStarsTurn(t, again, w2)
	}
	checkLogReplays(t, st, id)
	_ = context.Background
}

// TestJoinRightAfterCreate: a table made on a is joined and opened through
// b at once, many times over: the owner may not listen yet, or may be
// letting the idle table go; the other node waits for it or takes the
// table, and the player never sees a refusal.
func TestJoinRightAfterCreate(t *testing.T) {
	st := memstore.New()
	url := startNATS(t)
	a := startNode(t, st, url, "a")
	b := startNode(t, st, url, "b")
	for i := range 6 { // within one address's budget of open tables
		ann := newPlayer(t, a)
		id := ann.create(map[string]any{"game": "dicestars", "name": "ann",
			"seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
		bob := newPlayer(t, b)
		if st := bob.join(id, 1, "bob"); st != http.StatusOK {
			t.Fatalf("round %d: join through b: %d", i, st)
		}
		ws, err := dialWS(b, id, bob.jar)
		if err != nil {
			t.Fatalf("round %d: %v", i, err)
		}
		c := newWSClient(t, ws)
		if w := c.next(); w.Type != "welcome" || w.Seat != 1 {
			t.Fatalf("round %d: first message through b: %s seat %d", i, w.Type, w.Seat)
		}
		_ = ws.CloseNow()
	}
}

// TestEdgeTakesTheTableItsOwnerLeft: a player reaches b while a, the
// owner, has just died with its lease still running: nobody answers on the
// bus, b waits, then takes the table itself once the lease lapses. The
// connection is then b's own, not a relay: its moves are played (they went
// to the bus, unheard, when it kept the failed relay's link).
func TestEdgeTakesTheTableItsOwnerLeft(t *testing.T) {
	st := memstore.New()
	url := startNATS(t)
	nc, err := nats.Connect(url, nats.Name("a"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(nc.Close)
	// a's lease outlives its death by a second: b must wait for it.
	a := startServer(t, Config{Store: &crashStore{Store: st}, Cluster: &Cluster{Node: "a", LeaseTTL: 1200 * time.Millisecond,
		SweepEvery: time.Hour, NATS: nc}})
	a.nc = nc
	b := startNode(t, st, url, "b")
	ann := newPlayer(t, a)
	id := ann.create(duel("greedy"))
	newPlayer(t, a).connect(id).next() // keeps the table on a
	a.crash()
	if l := ownerOf(t, st, id); l.Node != "a" {
		t.Fatalf("lease %+v right after a's death, want a's still", l)
	}
	annB := ann.on(b).connect(id)
	w := annB.await("welcome", func(m msg) bool { return true })
	if b.running(id) == nil {
		t.Fatal("b welcomed the player without running the table")
	}
	if w.Turn.Has(0) && !w.Turn.Chance {
		playDiceStarsTurn(t, annB, w)
	}
	checkLogReplays(t, st, id)
}

// TestRelayClosedBeforeAccepted: a relayed connection that its owner (or
// a silent owner) closes while its handshake is still under way is closed
// as soon as it is accepted, with the owner's code, instead of crashing
// the node on a WebSocket not there yet.
func TestRelayClosedBeforeAccepted(t *testing.T) {
	url := startNATS(t)
	a := startNode(t, memstore.New(), url, "a")
	ctx, cancel := context.WithCancel(context.Background())
	c := &conn{s: a.Server, send: make(chan []byte, 4), ctx: ctx, cancel: cancel, log: a.log, serial: a.connSeq.Add(1),
		proxy: &proxyLink{b: a.bus, table: "sometable", owner: "z"}}
	c.closeGracefully(websocket.StatusTryAgainLater, "the table moved to another server: reconnect")
	hs := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { a.serveProxied(w, r, c) }))
	defer hs.Close()
	dctx, dcancel := context.WithTimeout(context.Background(), waitLimit)
	defer dcancel()
	ws, _, err := websocket.Dial(dctx, "ws"+strings.TrimPrefix(hs.URL, "http"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Read(dctx); websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
		t.Fatalf("read: %v, want the close 1013", err)
	}
}
