package loadgen

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store/memstore"
)

// startServers runs n in-process servers sharing one memstore, with the
// limits a load from one address needs lifted (as serve --limits-off).
func startServers(t *testing.T, n int) []string {
	t.Helper()
	st := memstore.New()
	var urls []string
	for range n {
		srv, err := server.New(server.Config{Store: st, Games: all.Registry, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
			MaxConnsPerTable: -1, PostRate: 1e6, PostBurst: 1e6, MsgRate: 1e6, MsgBurst: 1e6,
			Limits:  server.Limits{ConnsPerAddr: -1, WSPerAddr: -1},
			Budgets: server.Budgets{TablesPerCreator: -1, TablesPerHour: -1, CreatorsPerAddress: -1, OpenTables: -1}})
		if err != nil {
			t.Fatal(err)
		}
		hs := httptest.NewUnstartedServer(nil)
		hs.Config = srv.HTTPServer()
		hs.Start()
		t.Cleanup(func() {
			hs.CloseClientConnections()
			_ = srv.Close()
			hs.Close()
		})
		urls = append(urls, hs.URL)
	}
	return urls
}

// TestRunSmall: twenty connections for a couple of seconds play moves,
// every action reaches every screen, and nothing goes wrong.
func TestRunSmall(t *testing.T) {
	urls := startServers(t, 1)
	var logs bytes.Buffer
	rep, err := Run(context.Background(), Config{URLs: urls, Game: "dicestars", Conns: 20, Spectators: 3, Ramp: 200 * time.Millisecond,
		Duration: 2 * time.Second, Progress: time.Second, Seed: 7, Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", rep)
	if rep.Tables != 4 || rep.Conns != 20 {
		t.Errorf("%d tables, %d connections: want 4 tables of 5 screens", rep.Tables, rep.Conns)
	}
	if rep.Moves == 0 || rep.Actions == 0 || rep.Actions > rep.Moves {
		t.Errorf("moves %d, actions %d: want some moves, of which the actions", rep.Moves, rep.Actions)
	}
	if rep.Latency.Samples == 0 || rep.Latency.P50 <= 0 || rep.Latency.P99 < rep.Latency.P50 || rep.Latency.Max < rep.Latency.P99 {
		t.Errorf("latency %+v: want samples in order p50 ≤ p99 ≤ max", rep.Latency)
	}
	if rep.ErrorTotal != 0 || rep.Refusals != 0 || rep.Reconnects != 0 || rep.Gaps != 0 || rep.Incomplete != 0 {
		t.Errorf("errors %v (%d), refusals %d, reconnects %d, gaps %d, incomplete %d: want none", rep.Errors, rep.ErrorTotal, rep.Refusals, rep.Reconnects, rep.Gaps, rep.Incomplete)
	}
	if rep.ConnsOpen.Start != 20 || rep.ConnsOpen.Max > 20 {
		t.Errorf("connections open %+v: want 20 at the start, never more", rep.ConnsOpen)
	}
	if !bytes.Contains(logs.Bytes(), []byte("loadtest measuring")) {
		t.Errorf("no progress logged:\n%s", logs.String())
	}
}

// TestNodesRoundRobin: with several nodes, a table's seats sit on
// different ones, and the tables start on each in turn.
func TestNodesRoundRobin(t *testing.T) {
	r := &runner{cfg: Config{URLs: []string{"http://a", "http://b", "http://c"}}}
	for tb := range 6 {
		if r.node(tb, 0) == r.node(tb, 1) || r.node(tb, 1) == r.node(tb, 2) {
			t.Fatalf("table %d: seats on %s, %s, %s", tb, r.node(tb, 0), r.node(tb, 1), r.node(tb, 2))
		}
		if want := r.cfg.URLs[tb%3]; r.node(tb, 0) != want {
			t.Fatalf("table %d starts on %s, want %s", tb, r.node(tb, 0), want)
		}
	}
}

func TestConfigRefusesNonsense(t *testing.T) {
	for _, c := range []Config{
		{},
		{URLs: []string{"127.0.0.1:8080"}, Conns: 10, Game: "dicestars"},
		{URLs: []string{"http://x"}, Conns: 3, Spectators: 3, Game: "dicestars"},
		{URLs: []string{"http://x"}, Conns: 10, Spectators: -1, Game: "dicestars"},
		{URLs: []string{"http://x"}, Conns: 10, Think: -time.Second, Game: "dicestars"},
		{URLs: []string{"http://x"}, Conns: 10}, // no game
	} {
		if err := c.defaults(); err == nil {
			t.Errorf("%+v: accepted", c)
		}
	}
}

func TestSummarize(t *testing.T) {
	var s []float64
	for i := 100; i >= 1; i-- {
		s = append(s, float64(i))
	}
	l := summarize(s)
	if l.Samples != 100 || l.P50 != 50 || l.P90 != 90 || l.P99 != 99 || l.Max != 100 {
		t.Errorf("%+v", l)
	}
	if s[0] != 100 {
		t.Error("summarize sorted its argument")
	}
	if (summarize(nil) != Latency{}) {
		t.Error("no samples: want zeros")
	}
}

// TestRunNoServer: when no table can be made, Run says so after the
// settle time instead of reporting an empty window.
func TestRunNoServer(t *testing.T) {
	hs := httptest.NewServer(nil) // answers 404 to everything
	hs.Close()
	_, err := Run(context.Background(), Config{URLs: []string{hs.URL}, Game: "dicestars", Conns: 5, Settle: 300 * time.Millisecond,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err == nil || !strings.Contains(err.Error(), "no table could be made") {
		t.Fatalf("err %v, want no table could be made", err)
	}
}
