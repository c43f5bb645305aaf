package postgres_test

import (
	"context"
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
)

// benchStore is a store on a fresh database of a durable server (fsync on,
// as in production), with tables b0…b<n-1>.
func benchStore(b *testing.B, tables int) *postgres.Store {
	s := open(b, testpg.Shared(b, testpg.Options{Durable: true}).CreateDB(b))
	b.Cleanup(func() { s.Close() })
	now := time.Now()
	for i := range tables {
		if err := s.CreateTable(context.Background(), store.Table{ID: fmt.Sprintf("b%d", i), Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			b.Fatal(err)
		}
	}
	return s
}

// benchMove is a move with a 1.5 kB action, as sqlite's benchmarks append.
func benchMove(i int) engine.LoggedMove {
	return engine.LoggedMove{Seat: engine.Seat(i % 3), At: int64(i),
		Action: fmt.Appendf(nil, `{"i":%d,"pad":%q}`, i, strings.Repeat(strconv.Itoa(i%10), 1500))}
}

// BenchmarkAppendMove is one durable single-move append at a time: the
// cost the server pays before it may announce a move, when it is alone.
func BenchmarkAppendMove(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	v := 0
	for b.Loop() {
		if err := s.AppendMoves(ctx, "b0", v, []engine.LoggedMove{benchMove(v)}, store.NoFence); err != nil {
			b.Fatal(err)
		}
		v++
	}
}

// BenchmarkAppendMoveFenced is BenchmarkAppendMove under a lease, as in a
// cluster: the fence's check is one more statement in the transaction.
func BenchmarkAppendMoveFenced(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	l, err := s.AcquireLease(ctx, "b0", "n1", time.Hour)
	if err != nil {
		b.Fatal(err)
	}
	v := 0
	for b.Loop() {
		if err := s.AppendMoves(ctx, "b0", v, []engine.LoggedMove{benchMove(v)}, l.Fence()); err != nil {
			b.Fatal(err)
		}
		v++
	}
}

// BenchmarkAppendMovesParallel is many tables' actors each appending one
// move at a time at once, as a busy node does: 64 goroutines, each with a
// table of its own. One op is one acknowledged (durable) move; moves/s is
// the store's throughput under that load, appends/batch how many shared a
// transaction and its WAL flush (group commit).
func BenchmarkAppendMovesParallel(b *testing.B) {
	const writers = 64
	s := benchStore(b, writers)
	ctx := context.Background()
	var next atomic.Int64
	b.SetParallelism((writers + runtime.GOMAXPROCS(0) - 1) / runtime.GOMAXPROCS(0))
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		id := fmt.Sprintf("b%d", (next.Add(1)-1)%writers)
		v := 0 // each run of the benchmark has a fresh database
		for pb.Next() {
			if err := s.AppendMoves(ctx, id, v, []engine.LoggedMove{benchMove(v)}, store.NoFence); err != nil {
				b.Error(err)
				return
			}
			v++
		}
	})
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "moves/s")
	st := postgres.AppendStats(s)
	b.ReportMetric(float64(st.Requests)/float64(max(1, st.Batches)), "appends/batch")
}

// BenchmarkMoves reads a 300-move log, as a table resuming on a node.
func BenchmarkMoves(b *testing.B) {
	s := benchStore(b, 1)
	ctx := context.Background()
	log := make([]engine.LoggedMove, 300)
	for i := range log {
		log[i] = benchMove(i)
	}
	if err := s.AppendMoves(ctx, "b0", 0, log, store.NoFence); err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if got, err := s.Moves(ctx, "b0"); err != nil || len(got) != len(log) {
			b.Fatalf("Moves = %d, %v", len(got), err)
		}
	}
}
