package postgres

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
)

// openOneConn is a store on a fresh database whose pool has one
// connection: a test that holds it keeps the committer from starting a
// batch, so the appends it makes meanwhile all queue for the same one.
func openOneConn(t *testing.T) *Store {
	t.Helper()
	s, err := Open(context.Background(), testpg.Start(t).CreateDB(t)+"&pool_max_conns=1")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func tagged(tag string) []engine.LoggedMove {
	return []engine.LoggedMove{{Seat: 1, At: 7, Action: fmt.Appendf(nil, `{"tag":%q}`, tag)}}
}

func makeTables(t *testing.T, s *Store, ids ...string) {
	t.Helper()
	now := time.Now()
	for _, id := range ids {
		if err := s.CreateTable(context.Background(), store.Table{ID: id, Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOneBatch: appends queued while the committer waits for a connection
// go in one batch; those refused by their own checks (a stale version, a
// fence, an absent table, the loser of a race in the same batch) write
// nothing and get their own error, and the rest are written. With a move
// PostgreSQL itself rejects in the batch ("bad": not UTF-8, which
// json.Valid lets through), the transaction fails and every append runs
// again alone: only that one fails.
func TestOneBatch(t *testing.T) {
	for _, bad := range []bool{false, true} {
		t.Run(fmt.Sprint("bad=", bad), func(t *testing.T) { oneBatch(t, bad) })
	}
}

func oneBatch(t *testing.T, bad bool) {
	s := openOneConn(t)
	ctx := context.Background()
	makeTables(t, s, "a", "b", "stale", "theirs", "mine", "race", "bad")
	for _, id := range []string{"stale", "race"} {
		if err := s.AppendMoves(ctx, id, 0, tagged(id+"0"), store.NoFence); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.AcquireLease(ctx, "theirs", "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	mine, err := s.AcquireLease(ctx, "mine", "node-a", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	before := s.appends.Stats()

	conn, err := s.pool.Acquire(ctx) // the only one: the committer waits
	if err != nil {
		t.Fatal(err)
	}
	var errBad = errors.New("any error but the sentinels")
	type call struct {
		id      string
		version int
		fence   store.Fence
		want    error // nil: written
		moves   []engine.LoggedMove
	}
	calls := []call{
		{"b", 0, store.NoFence, nil, tagged("b")}, // before "a" in the queue, after it in the batch
		{"a", 0, store.NoFence, nil, tagged("a")},
		{"stale", 0, store.NoFence, store.ErrConflict, tagged("stale-late")},
		{"theirs", 0, store.Fence{Node: "node-a", Epoch: 1}, store.ErrFenced, tagged("theirs-fenced")},
		{"ghost", 0, store.NoFence, store.ErrNotFound, tagged("ghost")},
		{"mine", 0, mine.Fence(), nil, tagged("mine")},
	}
	if bad {
		calls = append(calls, call{"bad", 0, store.NoFence, errBad,
			[]engine.LoggedMove{{Action: []byte("{\"x\":\"\xff\"}")}}})
	}
	errs := make([]error, len(calls)+2)
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { errs[i] = s.AppendMoves(ctx, c.id, c.version, c.moves, c.fence) })
	}
	// Two racers on one version in the same batch: the first in the
	// transaction wins, the second sees its write.
	for k := range 2 {
		wg.Go(func() { errs[len(calls)+k] = s.AppendMoves(ctx, "race", 1, tagged(fmt.Sprint("race", k)), store.NoFence) })
	}
	for deadline := time.Now().Add(10 * time.Second); s.appends.Queued() != len(errs); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d appends queued, want %d", s.appends.Queued(), len(errs))
		}
	}
	conn.Release()
	wg.Wait()

	st := s.appends.Stats()
	if st.Batches-before.Batches != 1 || st.Largest != len(errs) || st.Failed != 0 {
		t.Fatalf("stats %+v after %+v: want one batch of %d", st, before, len(errs))
	}
	for i, c := range calls {
		switch {
		case c.want == nil && errs[i] != nil,
			c.want == errBad && (errs[i] == nil || errors.Is(errs[i], store.ErrConflict) || errors.Is(errs[i], store.ErrNotFound)),
			c.want != nil && c.want != errBad && !errors.Is(errs[i], c.want):
			t.Errorf("append to %s: %v, want %v", c.id, errs[i], c.want)
		}
		if errors.Is(c.want, store.ErrNotFound) {
			continue
		}
		want := 0
		if c.want == nil || c.id == "stale" { // stale: its first move, before the batch
			want = 1
		}
		log, err := s.Moves(ctx, c.id)
		if err != nil || len(log) != want {
			t.Errorf("%s: %d moves, %v; want %d", c.id, len(log), err, want)
		}
		if c.want != nil {
			for _, m := range log {
				if string(m.Action) == string(c.moves[0].Action) {
					t.Errorf("%s: the refused append wrote %s", c.id, m.Action)
				}
			}
		}
	}
	race := errs[len(calls):]
	if (race[0] == nil) == (race[1] == nil) {
		t.Fatalf("racers on one version: %v and %v, want one winner", race[0], race[1])
	}
	for _, err := range race {
		if err != nil && !errors.Is(err, store.ErrConflict) {
			t.Fatalf("losing racer: %v", err)
		}
	}
	if log, err := s.Moves(ctx, "race"); err != nil || len(log) != 2 {
		t.Fatalf("race: %d moves, %v; want 2", len(log), err)
	}
}

// TestAppendsRace: writers on a few shared tables, racing on versions,
// some giving up at random moments (before their append is queued, while
// it waits, after it was taken into a batch); afterwards each table's log
// is exactly the acknowledged appends, in version order.
func TestAppendsRace(t *testing.T) {
	st, err := Open(context.Background(), testpg.Start(t).CreateDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const tables, writers = 8, 16
	rounds := 30
	if testing.Short() {
		rounds = 8
	}
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprint("r", i)
	}
	makeTables(t, st, ids...)

	var (
		mu     sync.Mutex
		acked  = map[string]map[int]string{} // table → version → the tag written there
		counts = map[string]int{}
	)
	for _, id := range ids {
		acked[id] = map[int]string{}
	}
	var wg sync.WaitGroup
	for w := range writers {
		rng := rand.New(rand.NewPCG(11, uint64(w))) // seeded: a rerun makes the same choices
		wg.Go(func() {
			for k := range rounds {
				id := ids[rng.IntN(tables)]
				tb, err := st.GetTable(context.Background(), id)
				if err != nil {
					t.Error(err)
					return
				}
				tag := fmt.Sprintf("w%d.%d", w, k)
				ctx, cancel := context.WithCancel(context.Background())
				if rng.IntN(4) == 0 {
					time.AfterFunc(time.Duration(rng.IntN(800))*time.Microsecond, cancel)
				}
				err = st.AppendMoves(ctx, id, tb.Version, tagged(tag), store.NoFence)
				cancel()
				mu.Lock()
				switch {
				case err == nil:
					acked[id][tb.Version] = tag
					counts["acked"]++
				case errors.Is(err, store.ErrConflict):
					counts["conflicts"]++
				case errors.Is(err, context.Canceled):
					counts["gave up"]++
				default:
					t.Errorf("append to %s: %v", id, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	for _, id := range ids {
		log, err := st.Moves(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != len(acked[id]) {
			t.Fatalf("%s: %d moves stored, %d acknowledged", id, len(log), len(acked[id]))
		}
		for v, m := range log {
			if want := string(tagged(acked[id][v])[0].Action); string(m.Action) != want {
				t.Fatalf("%s: move %d is %s, acknowledged %s", id, v, m.Action, want)
			}
		}
	}
	s := st.appends.Stats()
	t.Logf("%v; %d requests in %d batches (largest %d)", counts, s.Requests, s.Batches, s.Largest)
}
