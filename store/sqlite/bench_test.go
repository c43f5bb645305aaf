package sqlite_test

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/sqlite"
)

func benchStore(b *testing.B) *sqlite.Store {
	s, err := sqlite.Open(filepath.Join(b.TempDir(), "bench.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	now := time.Now()
	if err := s.CreateTable(context.Background(), store.Table{ID: "b", Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
		b.Fatal(err)
	}
	return s
}

// BenchmarkAppendMove is one durable (fsynced) single-move append: the cost
// the server pays before it may announce a move.
func BenchmarkAppendMove(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	v := 0
	for b.Loop() {
		if err := s.AppendMoves(ctx, "b", v, []engine.LoggedMove{crashMove(v)}); err != nil {
			b.Fatal(err)
		}
		v++
	}
}

// BenchmarkMoves reads a 300-move log, as a table resuming after a restart.
func BenchmarkMoves(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	log := make([]engine.LoggedMove, 300)
	for i := range log {
		log[i] = crashMove(i)
	}
	if err := s.AppendMoves(ctx, "b", 0, log); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, err := s.Moves(ctx, "b"); err != nil || len(got) != len(log) {
			b.Fatalf("Moves = %d, %v", len(got), err)
		}
	}
}
