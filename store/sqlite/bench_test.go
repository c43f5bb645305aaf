package sqlite_test

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"sync/atomic"
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
		if err := s.AppendMoves(ctx, "b", v, []engine.LoggedMove{crashMove(v)}, store.NoFence); err != nil {
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
	if err := s.AppendMoves(ctx, "b", 0, log, store.NoFence); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, err := s.Moves(ctx, "b"); err != nil || len(got) != len(log) {
			b.Fatalf("Moves = %d, %v", len(got), err)
		}
	}
}

// BenchmarkLobbyList is the lobby's list of finished tables (newest 100,
// at most 2 per creator, results decoded) among 100,000 stored ones: its
// cost must not grow with the store.
func BenchmarkLobbyList(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	res := &engine.Result{Over: true, Scores: []int{10, 7}, Winners: []engine.Seat{0}}
	for i := range 100_000 {
		at := base.Add(time.Duration(i) * time.Second)
		t := store.Table{ID: fmt.Sprintf("t%06d", i), Game: "g", Status: store.StatusOver,
			Created: at, Updated: at, Creator: fmt.Sprintf("c%d", i%300), Result: res}
		if err := s.CreateTable(ctx, t); err != nil {
			b.Fatal(err)
		}
	}
	f := store.Filter{Status: []string{store.StatusOver}, Limit: 100, PerCreator: 2}
	for b.Loop() {
		if got, err := s.List(ctx, f); err != nil || len(got) == 0 {
			b.Fatalf("List = %d, %v", len(got), err)
		}
	}
}

// BenchmarkAppendMovesParallel is many tables' actors each appending one
// move at a time at once, as a busy server does: 64 goroutines, each with a
// table of its own. One op is one acknowledged (fsynced) move; moves/s is
// the store's throughput under that load.
func BenchmarkAppendMovesParallel(b *testing.B) {
	s := benchStore(b)
	ctx := context.Background()
	const writers = 64
	now := time.Now()
	for i := range writers {
		if err := s.CreateTable(ctx, store.Table{ID: fmt.Sprintf("p%d", i), Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			b.Fatal(err)
		}
	}
	var next atomic.Int64
	b.SetParallelism((writers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("p%d", (next.Add(1)-1)%writers)
		v := 0 // each run of the benchmark has a fresh store
		for pb.Next() {
			if err := s.AppendMoves(ctx, id, v, []engine.LoggedMove{crashMove(v)}, store.NoFence); err != nil {
				b.Error(err)
				return
			}
			v++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
}
