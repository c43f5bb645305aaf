package sqlite

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

func mv(tag string) []engine.LoggedMove {
	return []engine.LoggedMove{{Seat: 1, At: 7, Action: json.RawMessage(fmt.Sprintf(`{"tag":%q}`, tag))}}
}

func mustTable(t *testing.T, s *Store, ids ...string) {
	t.Helper()
	now := time.Now()
	for _, id := range ids {
		if err := s.CreateTable(context.Background(), store.Table{ID: id, Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// TestOneBatch: appends queued while the writer is busy commit together in
// one transaction; those refused by their own checks (a stale version, a
// fence, an absent table, the loser of a race in the same batch) write
// nothing and do not hold back the rest.
func TestOneBatch(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	mustTable(t, s, "a", "b", "stale", "theirs", "mine", "race")
	for _, id := range []string{"stale", "race"} {
		if err := s.AppendMoves(ctx, id, 0, mv(id+"0"), store.NoFence); err != nil {
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

	// Hold the one writer connection: the committer cannot begin, so
	// every append below waits in its queue.
	conn, err := s.writer.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		id      string
		version int
		fence   store.Fence
		want    error // nil: written
		tag     string
	}
	calls := []call{
		{"a", 0, store.NoFence, nil, "a"},
		{"stale", 0, store.NoFence, store.ErrConflict, "stale-late"},
		{"theirs", 0, store.Fence{Node: "node-a", Epoch: 1}, store.ErrFenced, "theirs-fenced"},
		{"ghost", 0, store.NoFence, store.ErrNotFound, "ghost"},
		{"mine", 0, mine.Fence(), nil, "mine"},
		{"b", 0, store.NoFence, nil, "b"},
	}
	errs := make([]error, len(calls)+2)
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { errs[i] = s.AppendMoves(ctx, c.id, c.version, mv(c.tag), c.fence) })
	}
	// Two racers on one version in the same batch: the first in the
	// transaction wins, the second sees its write.
	for k := range 2 {
		wg.Go(func() { errs[len(calls)+k] = s.AppendMoves(ctx, "race", 1, mv(fmt.Sprint("race", k)), store.NoFence) })
	}
	for deadline := time.Now().Add(10 * time.Second); s.appends.Queued() != len(errs); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d appends queued, want %d", s.appends.Queued(), len(errs))
		}
	}
	conn.Close() // back to the pool: the committer begins
	wg.Wait()

	st := s.appends.Stats()
	if st.Batches-before.Batches != 1 || st.Largest != len(errs) {
		t.Fatalf("stats %+v after %+v: want one batch of %d", st, before, len(errs))
	}
	for i, c := range calls {
		if c.want == nil && errs[i] != nil || c.want != nil && !errors.Is(errs[i], c.want) {
			t.Errorf("append to %s: %v, want %v", c.id, errs[i], c.want)
		}
		if !errors.Is(c.want, store.ErrNotFound) {
			want := 0
			if c.want == nil {
				want = 1
			}
			if c.id == "stale" {
				want = 1 // its first move, before the batch
			}
			log, err := s.Moves(ctx, c.id)
			if err != nil || len(log) != want {
				t.Errorf("%s: %d moves, %v; want %d", c.id, len(log), err, want)
			}
			for _, m := range log {
				if string(m.Action) == string(mv(c.tag)[0].Action) && c.want != nil {
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

// TestAppendStress: many goroutines append to a few shared tables at
// once, racing on versions, some giving up (cancelled contexts) at random
// moments; afterwards each table's log is exactly the appends that were
// acknowledged, in version order, and nothing else.
func TestAppendStress(t *testing.T) {
	s := openTemp(t)
	const tables, writers = 12, 24
	attempts := 40
	if testing.Short() {
		attempts = 10
	}
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%d", i)
	}
	mustTable(t, s, ids...)

	type ack struct {
		version int
		moves   []engine.LoggedMove
	}
	var (
		mu                sync.Mutex
		acked             = map[string][]ack{}
		gaveUp, conflicts int
	)
	var wg sync.WaitGroup
	for w := range writers {
		rng := rand.New(rand.NewPCG(7, uint64(w))) // each writer's own, seeded: reruns choose alike
		wg.Go(func() {
			for k := range attempts {
				id := ids[rng.IntN(tables)]
				tb, err := s.GetTable(context.Background(), id)
				if err != nil {
					t.Error(err)
					return
				}
				moves := make([]engine.LoggedMove, 1+rng.IntN(3))
				for i := range moves {
					moves[i] = mv(fmt.Sprintf("w%d.%d.%d", w, k, i))[0]
				}
				ctx, cancel := context.WithCancel(context.Background())
				if rng.IntN(5) == 0 {
					// Give up at some point: before the append starts,
					// while it queues, or after it was taken.
					wait := time.Duration(rng.IntN(3)*rng.IntN(500)) * time.Microsecond
					go func() {
						time.Sleep(wait)
						cancel()
					}()
				}
				err = s.AppendMoves(ctx, id, tb.Version, moves, store.NoFence)
				cancel()
				mu.Lock()
				switch {
				case err == nil:
					acked[id] = append(acked[id], ack{tb.Version, moves})
				case errors.Is(err, store.ErrConflict):
					conflicts++
				case errors.Is(err, context.Canceled):
					gaveUp++
				default:
					t.Errorf("append to %s: %v", id, err)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()

	ctx := context.Background()
	total := 0
	for _, id := range ids {
		acks := acked[id]
		slices.SortFunc(acks, func(a, b ack) int { return a.version - b.version })
		var want []engine.LoggedMove
		for _, a := range acks {
			if a.version != len(want) {
				t.Fatalf("%s: acknowledged appends at version %d after %d moves: a gap or a double", id, a.version, len(want))
			}
			want = append(want, a.moves...)
		}
		log, err := s.Moves(ctx, id)
		if err != nil {
			t.Fatal(err)
		}
		if len(log) != len(want) {
			t.Fatalf("%s: %d moves stored, %d acknowledged", id, len(log), len(want))
		}
		for i := range log {
			if string(log[i].Action) != string(want[i].Action) {
				t.Fatalf("%s: move %d is %s, acknowledged %s", id, i, log[i].Action, want[i].Action)
			}
		}
		if tb, err := s.GetTable(ctx, id); err != nil || tb.Version != len(log) {
			t.Fatalf("%s: Version %d, %v; %d moves", id, tb.Version, err, len(log))
		}
		total += len(log)
	}
	st := s.appends.Stats()
	t.Logf("%d moves acknowledged; %d conflicts, %d gave up; %d requests in %d batches (largest %d)",
		total, conflicts, gaveUp, st.Requests, st.Batches, st.Largest)
}
