package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// runLeases runs the tests of LeaseStore and of fenced writes.
func (s *suite) runLeases(t *testing.T) {
	t.Run("LeaseAcquire", s.leaseAcquire)
	t.Run("LeaseFencesWrites", s.leaseFences)
	t.Run("LeaseLapses", s.leaseLapses)
	t.Run("LeaseEnd", s.leaseEnd)
	t.Run("LeaseRenewInBulk", s.leaseRenew)
	t.Run("LeaseRace", s.leaseRace)
	t.Run("LeaseTakeoverFencesOldOwner", s.leaseTakeover)
}

// lapse is a lease time short enough to wait out in a test, long enough
// for a few statements on a loaded machine.
const lapse = 400 * time.Millisecond

func liveTable(t *testing.T, st store.Store, id string) {
	t.Helper()
	tb := sampleTable(id)
	tb.Status = store.StatusLive
	mustCreate(t, st, tb)
}

func mustAcquire(t *testing.T, st store.Store, id, node string, ttl time.Duration) store.Lease {
	t.Helper()
	l, err := st.AcquireLease(ctx(t), id, node, ttl)
	if err != nil {
		t.Fatalf("AcquireLease(%s, %s): %v", id, node, err)
	}
	return l
}

func (s *suite) leaseAcquire(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "a")
	if _, err := st.AcquireLease(ctx(t), "nope", "n1", time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AcquireLease of an absent table: %v, want ErrNotFound", err)
	}
	if _, err := st.AcquireLease(ctx(t), "a", "", time.Minute); err == nil {
		t.Error("AcquireLease with no node: nil error")
	}
	if _, err := st.LeaseOf(ctx(t), "a"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LeaseOf a table never leased: %v, want ErrNotFound", err)
	}
	before := time.Now()
	l := mustAcquire(t, st, "a", "n1", time.Minute)
	if l.Table != "a" || l.Node != "n1" || l.Epoch != 1 {
		t.Errorf("first lease = %+v, want table a, node n1, epoch 1", l)
	}
	// The store's clock is the database's, near enough to this one.
	if d := l.Expires.Sub(before); d < 50*time.Second || d > 70*time.Second {
		t.Errorf("a one-minute lease expires in %v", d)
	}
	if l.Expires.Location() != time.UTC || !l.Expires.Equal(l.Expires.Truncate(time.Millisecond)) {
		t.Errorf("Expires = %v, want UTC milliseconds", l.Expires)
	}
	got, err := st.LeaseOf(ctx(t), "a")
	if err != nil || got != l {
		t.Errorf("LeaseOf = %+v, %v; want %+v", got, err, l)
	}
	// Another node is refused and told who holds it.
	held, err := st.AcquireLease(ctx(t), "a", "n2", time.Minute)
	if !errors.Is(err, store.ErrLeased) || held.Node != "n1" || held.Epoch != 1 {
		t.Errorf("AcquireLease by another node = %+v, %v; want n1's lease and ErrLeased", held, err)
	}
	// The holder again: renewed under the same epoch.
	time.Sleep(5 * time.Millisecond)
	again := mustAcquire(t, st, "a", "n1", 2*time.Minute)
	if again.Epoch != 1 || !again.Expires.After(l.Expires) {
		t.Errorf("re-acquired by its holder = %+v, want epoch 1 and a later expiry than %v", again, l.Expires)
	}
}

func (s *suite) leaseFences(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "f")
	liveTable(t, st, "g")
	// No lease at all: only the zero fence writes.
	stray := store.Fence{Node: "n1", Epoch: 1}
	if err := st.AppendMoves(ctx(t), "f", 0, moves(0, 1), stray); !errors.Is(err, store.ErrFenced) {
		t.Errorf("AppendMoves fenced by a lease that does not exist: %v, want ErrFenced", err)
	}
	l := mustAcquire(t, st, "f", "n1", time.Minute)
	mustAppendFenced := func(version int, f store.Fence) {
		t.Helper()
		if err := st.AppendMoves(ctx(t), "f", version, moves(version, 1), f); err != nil {
			t.Fatalf("AppendMoves at %d with %+v: %v", version, f, err)
		}
	}
	mustAppendFenced(0, l.Fence())
	mustAppendFenced(1, store.NoFence) // a lone server writes regardless
	for _, bad := range []store.Fence{{Node: "n1", Epoch: 2}, {Node: "n2", Epoch: 1}, {Node: "n1", Epoch: 0}} {
		if err := st.AppendMoves(ctx(t), "f", 2, moves(2, 1), bad); !errors.Is(err, store.ErrFenced) {
			t.Errorf("AppendMoves with fence %+v: %v, want ErrFenced", bad, err)
		}
		up := mustGet(t, st, "f")
		up.Status = store.StatusOver
		if err := st.UpdateTable(ctx(t), up, bad); !errors.Is(err, store.ErrFenced) {
			t.Errorf("UpdateTable with fence %+v: %v, want ErrFenced", bad, err)
		}
	}
	// Refused writes changed nothing.
	if got := mustGet(t, st, "f"); got.Version != 2 || got.Status != store.StatusLive {
		t.Errorf("after fenced writes: version %d, status %s; want 2, live", got.Version, got.Status)
	}
	checkLog(t, mustMoves(t, st, "f"), moves(0, 2))
	// The lease of one table fences nothing of another.
	if err := st.AppendMoves(ctx(t), "g", 0, moves(0, 1), l.Fence()); !errors.Is(err, store.ErrFenced) {
		t.Errorf("AppendMoves to g with f's fence: %v, want ErrFenced", err)
	}
	// A fenced write to an absent table: not found.
	if err := st.AppendMoves(ctx(t), "nope", 0, moves(0, 1), l.Fence()); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("AppendMoves to an absent table: %v, want ErrNotFound", err)
	}
	// The holder's fence: version conflicts still say so.
	if err := st.AppendMoves(ctx(t), "f", 1, moves(1, 1), l.Fence()); !errors.Is(err, store.ErrConflict) {
		t.Errorf("AppendMoves with the right fence at a stale version: %v, want ErrConflict", err)
	}
	up := mustGet(t, st, "f")
	up.Status = store.StatusOver
	if err := st.UpdateTable(ctx(t), up, l.Fence()); err != nil {
		t.Errorf("UpdateTable with the holder's fence: %v", err)
	}
	if got := mustGet(t, st, "f"); got.Status != store.StatusOver {
		t.Errorf("status %s after the holder's update, want over", got.Status)
	}
}

func (s *suite) leaseLapses(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "l")
	mustCreate(t, st, sampleTable("open")) // open: not an orphan when its lease lapses
	l := mustAcquire(t, st, "l", "n1", lapse)
	mustAcquire(t, st, "open", "n1", lapse)
	if o, err := st.Orphans(ctx(t), 10); err != nil || len(o) != 0 {
		t.Errorf("Orphans while leases are live = %+v, %v; want none", o, err)
	}
	time.Sleep(lapse + 200*time.Millisecond)
	if _, err := st.LeaseOf(ctx(t), "l"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LeaseOf a lapsed lease: %v, want ErrNotFound", err)
	}
	if err := st.AppendMoves(ctx(t), "l", 0, moves(0, 1), l.Fence()); !errors.Is(err, store.ErrFenced) {
		t.Errorf("AppendMoves with a lapsed lease: %v, want ErrFenced", err)
	}
	// Lapsed stays lost, even for its holder: a renewal does not bring it back.
	if got, err := st.RenewLeases(ctx(t), "n1", time.Minute); err != nil || len(got) != 0 {
		t.Errorf("RenewLeases after a lapse = %+v, %v; want none", got, err)
	}
	o, err := st.Orphans(ctx(t), 10)
	if err != nil || len(o) != 1 || o[0].Table != "l" || o[0].Node != "n1" || o[0].Epoch != 1 {
		t.Fatalf("Orphans = %+v, %v; want the live table l, last held by n1 under epoch 1", o, err)
	}
	// Another node adopts it under the next epoch; it is no orphan any more.
	l2 := mustAcquire(t, st, "l", "n2", time.Minute)
	if l2.Epoch != 2 || l2.Node != "n2" {
		t.Errorf("adopted lease = %+v, want n2 under epoch 2", l2)
	}
	if o, err := st.Orphans(ctx(t), 10); err != nil || len(o) != 0 {
		t.Errorf("Orphans after adoption = %+v, %v; want none", o, err)
	}
	if err := st.AppendMoves(ctx(t), "l", 0, moves(0, 1), l2.Fence()); err != nil {
		t.Errorf("AppendMoves by the new holder: %v", err)
	}
}

func (s *suite) leaseEnd(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "r")
	liveTable(t, st, "h")
	r := mustAcquire(t, st, "r", "n1", time.Minute)
	h := mustAcquire(t, st, "h", "n1", time.Minute)
	// A stale lease (wrong epoch) ends nothing.
	if err := st.EndLease(ctx(t), store.Lease{Table: "r", Node: "n1", Epoch: 7}, false); err != nil {
		t.Fatalf("EndLease of a stale lease: %v", err)
	}
	if got, err := st.LeaseOf(ctx(t), "r"); err != nil || got.Epoch != 1 {
		t.Errorf("after a stale EndLease: %+v, %v; want the lease kept", got, err)
	}
	if err := st.EndLease(ctx(t), r, false); err != nil {
		t.Fatalf("EndLease (release): %v", err)
	}
	if err := st.EndLease(ctx(t), h, true); err != nil {
		t.Fatalf("EndLease (hand over): %v", err)
	}
	for _, id := range []string{"r", "h"} {
		if _, err := st.LeaseOf(ctx(t), id); !errors.Is(err, store.ErrNotFound) {
			t.Errorf("LeaseOf %s after EndLease: %v, want ErrNotFound", id, err)
		}
	}
	if err := st.AppendMoves(ctx(t), "r", 0, moves(0, 1), r.Fence()); !errors.Is(err, store.ErrFenced) {
		t.Errorf("AppendMoves under a released lease: %v, want ErrFenced", err)
	}
	// Handed over: an orphan at once. Released: nobody needs to run it.
	o, err := st.Orphans(ctx(t), 10)
	if err != nil || len(o) != 1 || o[0].Table != "h" {
		t.Errorf("Orphans = %+v, %v; want only the handed-over table h", o, err)
	}
	// Anyone may take either now, under the next epoch.
	if l := mustAcquire(t, st, "r", "n2", time.Minute); l.Epoch != 2 {
		t.Errorf("released table taken under epoch %d, want 2", l.Epoch)
	}
	if l := mustAcquire(t, st, "h", "n1", time.Minute); l.Epoch != 2 {
		t.Errorf("handed-over table taken back under epoch %d, want 2", l.Epoch)
	}
	if o, err := st.Orphans(ctx(t), 10); err != nil || len(o) != 0 {
		t.Errorf("Orphans after both were taken = %+v, %v; want none", o, err)
	}
}

func (s *suite) leaseRenew(t *testing.T) {
	st := s.store(t)
	var mine []store.Lease
	for i := range 5 {
		id := fmt.Sprintf("t%d", i)
		liveTable(t, st, id)
		node := "n1"
		if i == 4 {
			node = "n2"
		}
		l := mustAcquire(t, st, id, node, lapse)
		if node == "n1" {
			mine = append(mine, l)
		}
	}
	if err := st.EndLease(ctx(t), mine[3], false); err != nil {
		t.Fatal(err)
	}
	got, err := st.RenewLeases(ctx(t), "n1", time.Minute)
	if err != nil {
		t.Fatalf("RenewLeases: %v", err)
	}
	want := map[string]bool{"t0": true, "t1": true, "t2": true}
	if len(got) != len(want) {
		t.Fatalf("RenewLeases = %+v, want t0, t1, t2", got)
	}
	for _, l := range got {
		if !want[l.Table] || l.Node != "n1" || l.Epoch != 1 || time.Until(l.Expires) < 30*time.Second {
			t.Errorf("renewed lease %+v: want one of t0-t2, n1, epoch 1, a minute to go", l)
		}
	}
	time.Sleep(lapse + 200*time.Millisecond)
	// The renewed ones held; n2's, not renewed, lapsed.
	for id := range want {
		if _, err := st.LeaseOf(ctx(t), id); err != nil {
			t.Errorf("LeaseOf %s after the renewal: %v", id, err)
		}
	}
	if _, err := st.LeaseOf(ctx(t), "t4"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("LeaseOf t4 (n2's, not renewed): %v, want ErrNotFound", err)
	}
	if got, err := st.RenewLeases(ctx(t), "nobody", time.Minute); err != nil || len(got) != 0 {
		t.Errorf("RenewLeases of a node with none = %+v, %v", got, err)
	}
}

func (s *suite) leaseRace(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "race")
	const nodes = 8
	var wg sync.WaitGroup
	errs := make([]error, nodes)
	for i := range nodes {
		wg.Go(func() {
			_, errs[i] = st.AcquireLease(ctx(t), "race", fmt.Sprintf("n%d", i), time.Minute)
		})
	}
	wg.Wait()
	won := 0
	for i, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, store.ErrLeased):
			t.Errorf("node %d: %v, want nil or ErrLeased", i, err)
		}
	}
	if won != 1 {
		t.Errorf("%d nodes acquired the lease at once, want exactly 1", won)
	}
}

// leaseTakeover: two nodes write one table's log as fast as they can; the
// lease moves from one to the other. Every move in the log was written by
// the node holding the lease at the time, and the log has no hole or
// double.
func (s *suite) leaseTakeover(t *testing.T) {
	st := s.store(t)
	liveTable(t, st, "x")
	l1 := mustAcquire(t, st, "x", "n1", lapse)
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var fencedAfter int
	var mu sync.Mutex
	writer := func(l store.Lease, seat engine.Seat) {
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			tb, err := st.GetTable(ctx(t), "x")
			if err != nil {
				t.Error(err)
				return
			}
			m := move(tb.Version)
			m.Seat = seat
			err = st.AppendMoves(ctx(t), "x", tb.Version, []engine.LoggedMove{m}, l.Fence())
			switch {
			case errors.Is(err, store.ErrFenced):
				mu.Lock()
				fencedAfter++
				mu.Unlock()
				return // a node that lost its lease stops writing
			case err != nil && !errors.Is(err, store.ErrConflict):
				t.Error(err)
				return
			}
		}
	}
	wg.Add(1)
	go writer(l1, 1)
	time.Sleep(lapse + 200*time.Millisecond) // n1 never renews: its lease lapses while it writes
	l2 := mustAcquire(t, st, "x", "n2", time.Minute)
	wg.Add(1)
	go writer(l2, 2)
	time.Sleep(100 * time.Millisecond)
	close(stop)
	wg.Wait()
	if fencedAfter != 1 {
		t.Errorf("the old holder was fenced %d times, want once (then it stops)", fencedAfter)
	}
	log := mustMoves(t, st, "x")
	n2 := false
	for i, m := range log {
		if m.Seat == 2 {
			n2 = true
		} else if n2 {
			t.Fatalf("move %d was written by n1 after n2 took the table over", i)
		}
	}
	if !n2 {
		t.Error("n2 wrote nothing after taking the table over")
	}
	if got := mustGet(t, st, "x").Version; got != len(log) {
		t.Errorf("version %d, log of %d moves", got, len(log))
	}
}
