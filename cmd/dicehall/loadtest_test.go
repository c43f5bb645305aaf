package main

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/internal/loadgen"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store/memstore"
)

// TestLoadtestAgainstServer: loadtest against an in-process server with
// serve's --limits-off reports moves and latencies, and no trouble.
func TestLoadtestAgainstServer(t *testing.T) {
	srv, err := server.New(limitsOff(true, server.Config{Store: memstore.New(), Games: all.Registry,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
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
	// No act-rate cap: --limits-off lifts the server's message rate.
	out, code := runDicehall(t, "", "loadtest", "--game", "dicestars", "--url", hs.URL, "--conns", "12", "--spectators", "1", "--ramp", "0s", "--warmup", "0s",
		"--duration", "1500ms", "--act-rate", "0", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var rep loadgen.Report
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if rep.Tables != 4 || rep.Moves == 0 || rep.Latency.Samples == 0 || rep.Latency.P99 <= 0 || rep.ErrorTotal != 0 {
		t.Errorf("report %s: want 4 tables, moves, latencies and no errors", out)
	}
	var text strings.Builder
	printLoadReport(&text, &rep)
	for _, want := range []string{"4 tables of 2 players + 1 spectators", "p99", "0 errors"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the report for people lacks %q:\n%s", want, text.String())
		}
	}
}

func TestLoadtestRefusesBadFlags(t *testing.T) {
	for _, bad := range [][]string{{"--game", ""}, {"--options", "{"}, {"--conns", "3"}, {"--url", "127.0.0.1:8080"}, {"--think", "-1s"}} {
		if _, code := runDicehall(t, "", append([]string{"loadtest", "--game", "dicestars", "--duration", "1s"}, bad...)...); code != 2 {
			t.Errorf("loadtest %v: exit %d, want 2", bad, code)
		}
	}
}
