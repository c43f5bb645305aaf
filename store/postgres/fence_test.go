package postgres_test

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
)

// TestFenceWaitsForTakeover: a fenced append that meets a takeover in
// progress (another transaction holding the lease row, about to give it a
// new epoch) waits for it, and then finds its fence gone: no write of an
// old epoch lands after a new one began. And a takeover that meets a
// fenced write in progress waits until that write is committed.
func TestFenceWaitsForTakeover(t *testing.T) {
	u := testpg.Start(t).CreateDB(t)
	st := open(t, u)
	defer st.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := st.CreateTable(ctx, store.Table{ID: "x", Game: "g", Status: store.StatusLive}); err != nil {
		t.Fatal(err)
	}
	l, err := st.AcquireLease(ctx, "x", "n1", time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	move := engine.LoggedMove{Action: []byte(`{}`)}

	// A takeover in progress: the lease row locked, the epoch moved on.
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	tx, err := conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `UPDATE leases SET node = 'n2', epoch = epoch + 1 WHERE table_id = 'x'`); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- st.AppendMoves(ctx, "x", 0, []engine.LoggedMove{move}, l.Fence()) }()
	select {
	case err := <-done:
		t.Fatalf("the fenced append did not wait for the takeover: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-done; !errors.Is(err, store.ErrFenced) {
		t.Fatalf("append after the takeover committed: %v, want ErrFenced", err)
	}
	if v := mustVersion(t, st, "x"); v != 0 {
		t.Fatalf("version %d after a fenced append", v)
	}

	// The other way: a write under n1's lease of table y holds the lease
	// row (FOR SHARE, as the append's check does) until its commit; the
	// lease lapses meanwhile; a takeover waits for the commit all the same.
	if err := st.CreateTable(ctx, store.Table{ID: "y", Game: "g", Status: store.StatusLive}); err != nil {
		t.Fatal(err)
	}
	if _, err := st.AcquireLease(ctx, "y", "n1", 300*time.Millisecond); err != nil {
		t.Fatal(err)
	}
	tx, err = conn.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Exec(ctx, `SELECT 1 FROM leases WHERE table_id = 'y' FOR SHARE`); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // n1's lease lapses
	got := make(chan error, 1)
	go func() {
		l, err := st.AcquireLease(ctx, "y", "n2", time.Hour)
		if err == nil && l.Epoch != 2 {
			err = fmt.Errorf("epoch %d, want 2", l.Epoch)
		}
		got <- err
	}()
	select {
	case err := <-got:
		t.Fatalf("the takeover did not wait for the write in progress: %v", err)
	case <-time.After(300 * time.Millisecond):
	}
	if err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("takeover after the write: %v", err)
	}
}

func mustVersion(t *testing.T, st store.Store, id string) int {
	t.Helper()
	tb, err := st.GetTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return tb.Version
}
