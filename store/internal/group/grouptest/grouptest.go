// Package grouptest holds the checks every store that group-commits
// AppendMoves (store/internal/group) must pass: store/sqlite and
// store/postgres run them with a way to hold their committer back, so that
// the appends they make meanwhile all queue for one batch.
package grouptest

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/group"
)

// Committer is what the checks read of a store's group.Committer.
type Committer interface {
	Queued() int
	Stats() group.Stats
}

// ErrAny, as a Call's Want, is a refusal that is none of the store's
// sentinels (a move the database itself rejects).
var ErrAny = errors.New("grouptest: an error other than the sentinels")

// Call is one append of OneBatch's batch.
type Call struct {
	ID      string
	Version int
	Fence   store.Fence
	Want    error // nil: written
	Moves   []engine.LoggedMove
}

// Tagged is one move whose action names tag.
func Tagged(tag string) []engine.LoggedMove {
	return []engine.LoggedMove{{Seat: 1, At: 7, Action: fmt.Appendf(nil, `{"tag":%q}`, tag)}}
}

// MakeTables creates live tables with the given IDs.
func MakeTables(t *testing.T, s store.Store, ids ...string) {
	t.Helper()
	now := time.Now()
	for _, id := range ids {
		if err := s.CreateTable(context.Background(), store.Table{ID: id, Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
}

// OneBatch: appends queued while hold keeps the committer from starting
// go in one batch; those refused by their own checks (a stale version, a
// fence, an absent table, the loser of a race in the same batch) write
// nothing and get their own error, and the rest are written. extra adds
// calls of the store's own (their tables are created). hold returns when
// the committer is held, and returns what lets it go.
func OneBatch(t *testing.T, s store.Store, c Committer, hold func() (release func()), extra ...Call) {
	t.Helper()
	ctx := context.Background()
	MakeTables(t, s, "a", "b", "stale", "theirs", "mine", "race")
	for _, x := range extra {
		MakeTables(t, s, x.ID)
	}
	for _, id := range []string{"stale", "race"} {
		if err := s.AppendMoves(ctx, id, 0, Tagged(id+"0"), store.NoFence); err != nil {
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
	before := c.Stats()

	release := hold()
	calls := append([]Call{
		{"b", 0, store.NoFence, nil, Tagged("b")}, // before "a" in the queue
		{"a", 0, store.NoFence, nil, Tagged("a")},
		{"stale", 0, store.NoFence, store.ErrConflict, Tagged("stale-late")},
		{"theirs", 0, store.Fence{Node: "node-a", Epoch: 1}, store.ErrFenced, Tagged("theirs-fenced")},
		{"ghost", 0, store.NoFence, store.ErrNotFound, Tagged("ghost")},
		{"mine", 0, mine.Fence(), nil, Tagged("mine")},
	}, extra...)
	errs := make([]error, len(calls)+2)
	var wg sync.WaitGroup
	for i, c := range calls {
		wg.Go(func() { errs[i] = s.AppendMoves(ctx, c.ID, c.Version, c.Moves, c.Fence) })
	}
	// Two racers on one version in the same batch: the first in the
	// transaction wins, the second sees its write.
	for k := range 2 {
		wg.Go(func() {
			errs[len(calls)+k] = s.AppendMoves(ctx, "race", 1, Tagged(fmt.Sprint("race", k)), store.NoFence)
		})
	}
	for deadline := time.Now().Add(10 * time.Second); c.Queued() != len(errs); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d appends queued, want %d", c.Queued(), len(errs))
		}
	}
	release()
	wg.Wait()

	st := c.Stats()
	if st.Batches-before.Batches != 1 || st.Largest != len(errs) || st.Failed != before.Failed {
		t.Fatalf("stats %+v after %+v: want one batch of %d", st, before, len(errs))
	}
	for i, c := range calls {
		checkCall(t, s, c, errs[i])
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

// checkCall checks one call of OneBatch: its error, and what its table
// holds after it.
func checkCall(t *testing.T, s store.Store, c Call, err error) {
	t.Helper()
	sentinel := errors.Is(err, store.ErrConflict) || errors.Is(err, store.ErrFenced) || errors.Is(err, store.ErrNotFound)
	switch {
	case c.Want == nil && err != nil,
		c.Want == ErrAny && (err == nil || sentinel),
		c.Want != nil && c.Want != ErrAny && !errors.Is(err, c.Want):
		t.Errorf("append to %s: %v, want %v", c.ID, err, c.Want)
	}
	if errors.Is(c.Want, store.ErrNotFound) {
		return
	}
	want := 0
	if c.Want == nil || c.ID == "stale" { // stale: its first move, before the batch
		want = 1
	}
	log, err := s.Moves(context.Background(), c.ID)
	if err != nil || len(log) != want {
		t.Errorf("%s: %d moves, %v; want %d", c.ID, len(log), err, want)
	}
	for _, m := range log {
		if c.Want != nil && string(m.Action) == string(c.Moves[0].Action) {
			t.Errorf("%s: the refused append wrote %s", c.ID, m.Action)
		}
	}
}

// Stress: many goroutines append to a few shared tables at once, racing
// on versions, some giving up (cancelled contexts) at random moments:
// before their append is queued, while it waits, after it was taken into
// a batch. Afterwards each table's log is exactly the appends that were
// acknowledged, in version order, and nothing else.
func Stress(t *testing.T, s store.Store, c Committer) {
	const tables, writers = 12, 24
	attempts := 40
	if testing.Short() {
		attempts = 10
	}
	ids := make([]string, tables)
	for i := range ids {
		ids[i] = fmt.Sprintf("t%d", i)
	}
	MakeTables(t, s, ids...)

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
					moves[i] = Tagged(fmt.Sprintf("w%d.%d.%d", w, k, i))[0]
				}
				ctx, cancel := context.WithCancel(context.Background())
				if rng.IntN(5) == 0 {
					time.AfterFunc(time.Duration(rng.IntN(3)*rng.IntN(500))*time.Microsecond, cancel)
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
		total += CheckLog(t, s, id, len(want), func(v int) engine.LoggedMove { return want[v] })
	}
	st := c.Stats()
	t.Logf("%d moves acknowledged; %d conflicts, %d gave up; %d requests in %d batches (largest %d)",
		total, conflicts, gaveUp, st.Requests, st.Batches, st.Largest)
}

// CheckLog checks that table id's log holds n moves, move(v) at version
// v, and that its Version says n; it returns n.
func CheckLog(t *testing.T, s store.Store, id string, n int, move func(v int) engine.LoggedMove) int {
	t.Helper()
	ctx := context.Background()
	tb, err := s.GetTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Version != len(log) || len(log) != n {
		t.Fatalf("%s: Version %d and %d moves, want %d", id, tb.Version, len(log), n)
	}
	for v, m := range log {
		if w := move(v); m.Seat != w.Seat || m.At != w.At || string(m.Action) != string(w.Action) {
			t.Fatalf("%s: move %d is {%d %d %.40s…}, want {%d %d %.40s…}", id, v, m.Seat, m.At, m.Action, w.Seat, w.At, w.Action)
		}
	}
	return n
}

// CheckCrashedLog checks table id's log after a crash, given the last
// version acknowledged of it and step(v), how many moves the append at
// version v had: every acknowledged move is there, and at most the one
// append after them, whole (its commit may have beaten the crash, unknown
// to its caller). It returns the log's length.
func CheckCrashedLog(t *testing.T, s store.Store, id string, acked int, step func(v int) int, move func(v int) engine.LoggedMove) int {
	t.Helper()
	log, err := s.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if len(log) != acked && len(log) != acked+step(acked) {
		t.Fatalf("%s: %d moves stored, %d acknowledged (the next append would end at %d)", id, len(log), acked, acked+step(acked))
	}
	return CheckLog(t, s, id, len(log), move)
}
