package postgres_test

import (
	"context"
	"log/slog"
	"sync"
	"testing"

	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
	"github.com/dicehall/dicehall/store/storetest"
)

func TestMain(m *testing.M) {
	slog.SetDefault(slog.New(slog.DiscardHandler)) // "migrated" lines for every database
	testpg.Main(m)
}

func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	srv := testpg.Start(t)
	var (
		mu   sync.Mutex
		urls = map[store.Store]string{} // for Reopen
	)
	storetest.Run(t,
		func(t *testing.T) store.Store {
			u := srv.CreateDB(t)
			s := open(t, u)
			mu.Lock()
			urls[s] = u
			mu.Unlock()
			return s
		},
		storetest.Reopen(func(t *testing.T, closed store.Store) store.Store {
			mu.Lock()
			u := urls[closed]
			mu.Unlock()
			return open(t, u)
		}))
}

// TestOpenConcurrently: nodes starting at once on a new database migrate
// it once (goose's session lock) and all open.
func TestOpenConcurrently(t *testing.T) {
	u := testpg.Start(t).CreateDB(t)
	const nodes = 4
	stores := make([]*postgres.Store, nodes)
	errs := make([]error, nodes)
	var wg sync.WaitGroup
	for i := range nodes {
		wg.Go(func() { stores[i], errs[i] = postgres.Open(context.Background(), u) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("node %d: %v", i, err)
		}
		defer stores[i].Close()
	}
	if err := stores[0].CreateTable(context.Background(), store.Table{ID: "t", Game: "g", Status: store.StatusOpen}); err != nil {
		t.Fatal(err)
	}
	if _, err := stores[nodes-1].GetTable(context.Background(), "t"); err != nil {
		t.Fatalf("a table made on one node, read on another: %v", err)
	}
}

func TestRedact(t *testing.T) {
	for in, want := range map[string]string{
		"postgres://dh:pw@db:5432/dh?sslmode=require":      "postgres://dh:xxxxx@db:5432/dh?sslmode=require",
		"postgresql://dh@db/dh?password=pw&sslmode=verify": "postgresql://dh@db/dh?password=xxxxx&sslmode=verify",
		"postgres://db/dh": "postgres://db/dh",
	} {
		if got := postgres.Redact(in); got != want {
			t.Errorf("Redact(%q) = %q, want %q", in, got, want)
		}
	}
	if !postgres.IsURL("postgresql://x") || !postgres.IsURL("postgres://x") || postgres.IsURL("dicehall.db") {
		t.Error("IsURL")
	}
}
