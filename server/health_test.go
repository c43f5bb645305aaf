package server

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"testing"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// brokenStore answers every query with an error, as a database that went
// away would.
type brokenStore struct{ *memstore.Store }

func (brokenStore) Count(context.Context, store.Filter) (int, error) {
	return 0, errors.New("connection refused")
}

func probe(t *testing.T, ts *testServer, path string) (int, Readiness) {
	t.Helper()
	res, err := http.Get(ts.http.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out Readiness
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return res.StatusCode, out
}

func TestHealthAndReadiness(t *testing.T) {
	ts := startServer(t, Config{})
	if code, out := probe(t, ts, "/healthz"); code != http.StatusOK || out.Status != "ok" {
		t.Errorf("/healthz: %d %+v", code, out)
	}
	if code, out := probe(t, ts, "/readyz"); code != http.StatusOK || out.Status != "ready" || out.Checks["database"] != "ok" {
		t.Errorf("/readyz: %d %+v", code, out)
	}

	// Draining: still alive, no longer ready.
	ts.Drain()
	if code, _ := probe(t, ts, "/healthz"); code != http.StatusOK {
		t.Errorf("/healthz while draining: %d", code)
	}
	if code, out := probe(t, ts, "/readyz"); code != http.StatusServiceUnavailable || out.Status != "unready" || out.Checks["serving"] == "ok" {
		t.Errorf("/readyz while draining: %d %+v", code, out)
	}

	// A store that does not answer: unready, and the check says why.
	bad := startServer(t, Config{Store: brokenStore{memstore.New()}})
	code, out := probe(t, bad, "/readyz")
	if code != http.StatusServiceUnavailable || out.Checks["database"] == "ok" || out.Checks["serving"] != "ok" {
		t.Errorf("/readyz with a broken store: %d %+v", code, out)
	}
}
