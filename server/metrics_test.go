package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// scrape reads the server's metrics through MetricsHandler, as Prometheus
// would: each series ("name{labels}" as exposed) to its value.
func scrape(t *testing.T, s *Server) map[string]float64 {
	t.Helper()
	rec := httptest.NewRecorder()
	s.MetricsHandler().ServeHTTP(rec, httptest.NewRequest("GET", "/metrics", nil))
	if rec.Code != http.StatusOK {
		t.Fatalf("metrics: %d %s", rec.Code, rec.Body)
	}
	out := map[string]float64{}
	for _, line := range strings.Split(rec.Body.String(), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		i := strings.LastIndexByte(line, ' ')
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("metrics line %q: %v", line, err)
		}
		out[line[:i]] = v
	}
	return out
}

// TestMetricsCountWhatHappened plays a game against a bot with two refused
// actions on the way, and checks the counters moved by exactly that.
func TestMetricsCountWhatHappened(t *testing.T) {
	ts := startServer(t, Config{MsgRate: fast, MsgBurst: fast})
	before := scrape(t, ts.Server)
	for _, name := range []string{"dicehall_websockets_open", "dicehall_websockets_accepted_total", "dicehall_tables_owned",
		"dicehall_lease_takeovers_total", "dicehall_commit_seconds_count", `dicehall_store_errors_total{op="append_moves"}`} {
		if v, ok := before[name]; !ok || v != 0 {
			t.Errorf("a new server's %s: %v (present: %v), want 0", name, v, ok)
		}
	}
	if _, ok := before["go_goroutines"]; !ok {
		t.Error("no Go runtime metrics")
	}

	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	first := c.next()
	if first.Type != "welcome" || first.Version != 0 || !first.Turn.Has(0) {
		t.Fatalf("welcome %s", first.raw)
	}
	c.send(`{"type":"act","id":1,"action":{"draw":3},"version":12}`)
	if m := c.await("refused", nil); m.Rule != "stale" {
		t.Fatalf("stale version: %s", m.raw)
	}
	c.send(`{"type":"act","id":2,"action":{"draw":"nine"}}`)
	if m := c.await("refused", nil); m.Rule != engine.ErrBadAction.Rule {
		t.Fatalf("bad action: %s", m.raw)
	}
	mid := scrape(t, ts.Server)
	want := map[string]float64{
		"dicehall_websockets_open":                                               1,
		"dicehall_websockets_accepted_total":                                     1,
		"dicehall_tables_owned":                                                  1,
		`dicehall_refused_total{rule="stale"}`:                                   1,
		fmt.Sprintf(`dicehall_refused_total{rule=%q}`, engine.ErrBadAction.Rule): 1,
		`dicehall_http_requests_total{route="POST /api/tables",status="2xx"}`:    1,
	}
	for name, v := range want {
		if mid[name] != v {
			t.Errorf("%s = %v, want %v", name, mid[name], v)
		}
	}

	updates := playToEnd(t, c, 0, rand.New(rand.NewPCG(3, 4)), first)
	actions, chance := 0, 0
	for _, u := range updates {
		if u.Move.Seat == engine.ChanceSeat {
			chance++
		} else {
			actions++
		}
	}
	end := scrape(t, ts.Server)
	if got := end[`dicehall_moves_committed_total{game="dicestars",kind="action"}`]; got != float64(actions) {
		t.Errorf("actions committed: %v, the players saw %d", got, actions)
	}
	if got := end[`dicehall_moves_committed_total{game="dicestars",kind="chance"}`]; got != float64(chance) || chance == 0 {
		t.Errorf("chance moves committed: %v, the players saw %d", got, chance)
	}
	// Each action is one commit, its chance moves with it or on their own.
	if n := end["dicehall_commit_seconds_count"]; n < float64(actions) || n > float64(actions+chance) {
		t.Errorf("%v commits for %d actions and %d chance moves", n, actions, chance)
	}
	if end["dicehall_commit_seconds_sum"] <= 0 {
		t.Error("commits took no time")
	}
	if end[`dicehall_store_errors_total{op="append_moves"}`] != 0 || end[`dicehall_store_errors_total{op="update_table"}`] != 0 {
		t.Error("store errors counted on a working store")
	}
	if end[`dicehall_refused_total{rule="stale"}`] != 1 {
		t.Error("the refusals moved while the game was played without one")
	}

	// The connection goes: the gauge comes down, the total stays, and the
	// WebSocket's request is counted as switched protocols.
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(waitLimit)
	for scrape(t, ts.Server)["dicehall_websockets_open"] != 0 {
		if time.Now().After(deadline) {
			t.Fatal("the open WebSockets gauge stayed up after the connection closed")
		}
		time.Sleep(10 * time.Millisecond)
	}
	gone := scrape(t, ts.Server)
	if gone["dicehall_websockets_accepted_total"] != 1 {
		t.Errorf("accepted: %v", gone["dicehall_websockets_accepted_total"])
	}
	for gone[`dicehall_http_requests_total{route="GET /ws/{id}",status="1xx"}`] != 1 {
		// The handler counts when it returns, just after the gauge.
		if time.Now().After(deadline) {
			t.Fatalf("the WebSocket request was not counted: %v", gone)
		}
		time.Sleep(10 * time.Millisecond)
		gone = scrape(t, ts.Server)
	}

	// The game's listener does not serve them, and another server in the
	// same process counts on its own.
	if st := ann.do("GET", "/metrics", nil, nil); st != http.StatusNotFound {
		t.Errorf("GET /metrics on the game's listener: %d", st)
	}
	if got := scrape(t, startServer(t, Config{}).Server)["dicehall_websockets_accepted_total"]; got != 0 {
		t.Errorf("a second server counts %v WebSockets it never had", got)
	}
	if got := scrape(t, ts.Server)[`dicehall_http_requests_total{route="unmatched",status="4xx"}`]; got != 1 {
		t.Errorf("GET /metrics on the game's listener counted %v times as unmatched", got)
	}
}

// TestMetricsRefusalCodesBounded: rule codes are labels, so a flood of
// made-up ones must not make a series each.
func TestMetricsRefusalCodesBounded(t *testing.T) {
	ts := startServer(t, Config{})
	m := ts.metrics
	m.refused("Not A Code")
	m.refused(strings.Repeat("x", 41))
	for i := range 2 * maxRefusalCodes {
		m.refused(fmt.Sprintf("code-%d", i))
	}
	m.refused("code-0") // known: still its own
	got := scrape(t, ts.Server)
	series, total := 0, 0.0
	for name, v := range got {
		if strings.HasPrefix(name, "dicehall_refused_total{") {
			series++
			total += v
		}
	}
	if series != maxRefusalCodes+1 {
		t.Errorf("%d refusal series, want %d and other", series, maxRefusalCodes)
	}
	if want := float64(2 + 2*maxRefusalCodes + 1); total != want {
		t.Errorf("%v refusals counted, want %v", total, want)
	}
	if v := got[`dicehall_refused_total{rule="other"}`]; v < 2+maxRefusalCodes {
		t.Errorf("other: %v", v)
	}
	if v := got[`dicehall_refused_total{rule="code-0"}`]; v != 2 {
		t.Errorf("code-0: %v", v)
	}
}

// BenchmarkMetricsCommit is what the instrumentation adds to a commit (a
// move, two chance moves and the latency): nanoseconds and no allocation,
// against a store commit's tens of microseconds at the least.
func BenchmarkMetricsCommit(b *testing.B) {
	m := newMetrics(&Server{games: all.Registry})
	b.ReportAllocs()
	for b.Loop() {
		m.appended("dicestars", true, 3, time.Now(), nil)
	}
}
