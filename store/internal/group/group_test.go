package group

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// gate is a Commit that records its batches and holds each one until the
// test lets it go, so what queues meanwhile is known exactly.
type gate struct {
	mu      sync.Mutex
	batches [][]int
	entered chan int      // the size of each batch as it starts
	release chan struct{} // one receive lets one batch finish
	refuse  func(req int) error
	fail    error // the transaction's failure, for every batch
}

func newGate() *gate {
	return &gate{entered: make(chan int, 100), release: make(chan struct{})}
}

func (g *gate) commit(_ context.Context, take func() ([]int, []error)) error {
	batch, errs := take()
	g.mu.Lock()
	g.batches = append(g.batches, slices.Clone(batch))
	g.mu.Unlock()
	g.entered <- len(batch)
	<-g.release
	for i, r := range batch {
		if g.refuse != nil {
			errs[i] = g.refuse(r)
		}
	}
	return g.fail
}

func (g *gate) seen() [][]int {
	g.mu.Lock()
	defer g.mu.Unlock()
	return slices.Clone(g.batches)
}

// waitQueued waits until n requests wait in c's queue (a condition the
// test creates, not a timing assumption: the deadline only bounds a hang).
func waitQueued[T any](t *testing.T, c *Committer[T], n int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); c.Queued() != n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("queued %d, want %d", c.Queued(), n)
		}
	}
}

// submitAll submits reqs from one goroutine each; the errors arrive on the
// returned channel, indexed by request.
func submitAll(ctx context.Context, c *Committer[int], reqs ...int) (wait func() map[int]error) {
	var (
		mu  sync.Mutex
		out = map[int]error{}
		wg  sync.WaitGroup
	)
	for _, r := range reqs {
		wg.Go(func() {
			err := c.Submit(ctx, r)
			mu.Lock()
			out[r] = err
			mu.Unlock()
		})
	}
	return func() map[int]error { wg.Wait(); return out }
}

// TestBatching: whatever queues while a commit runs is the next batch, in
// one call of Commit.
func TestBatching(t *testing.T) {
	g := newGate()
	c := New(g.commit, Options{})
	defer c.Close()
	ctx := context.Background()

	first := submitAll(ctx, c, 0)
	if n := <-g.entered; n != 1 {
		t.Fatalf("first batch of %d, want 1 (no waiting for company)", n)
	}
	rest := submitAll(ctx, c, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10)
	waitQueued(t, c, 10)
	g.release <- struct{}{}
	if n := <-g.entered; n != 10 {
		t.Fatalf("second batch of %d, want 10", n)
	}
	g.release <- struct{}{}
	for r, err := range first() {
		if err != nil {
			t.Errorf("request %d: %v", r, err)
		}
	}
	for r, err := range rest() {
		if err != nil {
			t.Errorf("request %d: %v", r, err)
		}
	}
	st := c.Stats()
	if st.Batches != 2 || st.Requests != 11 || st.Largest != 10 || st.Failed != 0 {
		t.Fatalf("Stats = %+v", st)
	}
	got := g.seen()[1]
	slices.Sort(got)
	if !slices.Equal(got, []int{1, 2, 3, 4, 5, 6, 7, 8, 9, 10}) {
		t.Fatalf("second batch %v", got)
	}
}

// TestMaxBatch: a long queue is taken MaxBatch at a time, oldest first.
func TestMaxBatch(t *testing.T) {
	g := newGate()
	c := New(g.commit, Options{MaxBatch: 3})
	defer c.Close()
	ctx := context.Background()
	first := submitAll(ctx, c, 0)
	<-g.entered
	var waits []func() map[int]error
	for r := 1; r <= 7; r++ {
		waits = append(waits, submitAll(ctx, c, r))
		waitQueued(t, c, r) // one at a time, so the queue's order is known
	}
	g.release <- struct{}{}
	for _, want := range []int{3, 3, 1} {
		if n := <-g.entered; n != want {
			t.Fatalf("batch of %d, want %d", n, want)
		}
		g.release <- struct{}{}
	}
	first()
	for _, w := range waits {
		w()
	}
	if got := g.seen(); fmt.Sprint(got) != "[[0] [1 2 3] [4 5 6] [7]]" {
		t.Fatalf("batches %v", got)
	}
}

// TestRefusedAlone: a request its checks refuse gets its own error; the
// rest of its batch commits.
func TestRefusedAlone(t *testing.T) {
	g := newGate()
	errOdd := errors.New("odd")
	g.refuse = func(r int) error {
		if r%2 == 1 {
			return fmt.Errorf("request %d: %w", r, errOdd)
		}
		return nil
	}
	c := New(g.commit, Options{})
	defer c.Close()
	ctx := context.Background()
	first := submitAll(ctx, c, 0)
	<-g.entered
	rest := submitAll(ctx, c, 1, 2, 3, 4)
	waitQueued(t, c, 4)
	g.release <- struct{}{}
	<-g.entered
	g.release <- struct{}{}
	first()
	for r, err := range rest() {
		if (r%2 == 1) != errors.Is(err, errOdd) || (err != nil && !strings.Contains(err.Error(), fmt.Sprint(r))) {
			t.Errorf("request %d: %v", r, err)
		}
	}
}

// TestCommitFails: the transaction's failure is every request's outcome.
func TestCommitFails(t *testing.T) {
	g := newGate()
	g.fail = errors.New("disk I/O error")
	g.refuse = func(int) error { return nil }
	c := New(g.commit, Options{})
	defer c.Close()
	ctx := context.Background()
	first := submitAll(ctx, c, 0)
	<-g.entered
	rest := submitAll(ctx, c, 1, 2, 3)
	waitQueued(t, c, 3)
	g.release <- struct{}{}
	<-g.entered
	g.release <- struct{}{}
	for _, res := range []map[int]error{first(), rest()} {
		for r, err := range res {
			if !errors.Is(err, g.fail) {
				t.Errorf("request %d: %v, want the commit's error", r, err)
			}
		}
	}
	if st := c.Stats(); st.Failed != 2 {
		t.Fatalf("Stats = %+v", st)
	}
}

// TestCancelBeforePickup: a caller that gives up while its request waits
// gets ctx.Err() and its request never reaches Commit; one whose request
// was already taken gets the batch's outcome.
func TestCancelBeforePickup(t *testing.T) {
	g := newGate()
	c := New(g.commit, Options{})
	defer c.Close()

	takenCtx, cancelTaken := context.WithCancel(context.Background())
	taken := submitAll(takenCtx, c, 0)
	<-g.entered // request 0 is in the running batch

	waitCtx, cancelWait := context.WithCancel(context.Background())
	waiting := submitAll(waitCtx, c, 1)
	others := submitAll(context.Background(), c, 2)
	waitQueued(t, c, 2)
	cancelWait()
	if err := waiting()[1]; !errors.Is(err, context.Canceled) {
		t.Fatalf("canceled in the queue: %v, want context.Canceled", err)
	}
	cancelTaken() // too late: its batch decides
	g.release <- struct{}{}
	<-g.entered
	g.release <- struct{}{}
	if err := taken()[0]; err != nil {
		t.Fatalf("canceled after pickup: %v, want the commit's nil", err)
	}
	if err := others()[2]; err != nil {
		t.Fatalf("request 2: %v", err)
	}
	if got := fmt.Sprint(g.seen()); got != "[[0] [2]]" {
		t.Fatalf("batches %s: the canceled request reached Commit", got)
	}

	done, cancel := context.WithCancel(context.Background())
	cancel()
	if err := c.Submit(done, 3); !errors.Is(err, context.Canceled) {
		t.Fatalf("Submit with an ended ctx: %v", err)
	}
}

// TestCloseDrains: Close commits what is queued, then refuses.
func TestCloseDrains(t *testing.T) {
	g := newGate()
	c := New(g.commit, Options{})
	ctx := context.Background()
	first := submitAll(ctx, c, 0)
	<-g.entered
	rest := submitAll(ctx, c, 1, 2)
	waitQueued(t, c, 2)
	closed := make(chan error)
	go func() { closed <- c.Close() }()
	// Close is waiting for the drain; new requests are refused already.
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(time.Millisecond) {
		c.mu.Lock()
		closing := c.closed
		c.mu.Unlock()
		if closing {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("Close did not start")
		}
	}
	if err := c.Submit(ctx, 9); !errors.Is(err, ErrClosed) {
		t.Fatalf("Submit during Close: %v", err)
	}
	g.release <- struct{}{}
	<-g.entered
	g.release <- struct{}{}
	if err := <-closed; err != nil {
		t.Fatal(err)
	}
	for _, res := range []map[int]error{first(), rest()} {
		for r, err := range res {
			if err != nil {
				t.Errorf("request %d: %v", r, err)
			}
		}
	}
	if err := c.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
}

// TestBusyBegin: while the transaction cannot begin (another writer holds
// the database), requests stay in the queue, where their callers may give
// up; a failure to begin reaches the requests still queued.
func TestBusyBegin(t *testing.T) {
	begin := make(chan error)
	var seen [][]int
	c := New(func(_ context.Context, take func() ([]int, []error)) error {
		if err := <-begin; err != nil {
			return err
		}
		batch, _ := take()
		seen = append(seen, batch)
		return nil
	}, Options{})
	defer c.Close()

	gone, cancel := context.WithCancel(context.Background())
	leaving := submitAll(gone, c, 1)
	staying := submitAll(context.Background(), c, 2)
	waitQueued(t, c, 2)
	cancel()
	if err := leaving()[1]; !errors.Is(err, context.Canceled) {
		t.Fatalf("caller that gave up during a busy begin: %v", err)
	}
	busy := errors.New("database is locked")
	begin <- busy
	if err := staying()[2]; !errors.Is(err, busy) {
		t.Fatalf("begin failed: request got %v", err)
	}
	ok := submitAll(context.Background(), c, 3)
	begin <- nil
	if err := ok()[3]; err != nil {
		t.Fatal(err)
	}
	if fmt.Sprint(seen) != "[[3]]" {
		t.Fatalf("batches %v", seen)
	}
}

// fakeTx is a transaction of writes with SQL-like savepoints, for Each.
type fakeTx struct {
	writes []string
	marks  []int
	fail   string // a statement that fails
}

func (tx *fakeTx) exec(_ context.Context, stmt string) error {
	if stmt == tx.fail {
		return errors.New("transaction rolled back")
	}
	switch {
	case strings.HasPrefix(stmt, "SAVEPOINT "):
		tx.marks = append(tx.marks, len(tx.writes))
	case strings.HasPrefix(stmt, "ROLLBACK TO SAVEPOINT "):
		tx.writes = tx.writes[:tx.marks[len(tx.marks)-1]] // the savepoint stays
	case strings.HasPrefix(stmt, "RELEASE SAVEPOINT "):
		tx.marks = tx.marks[:len(tx.marks)-1]
	default:
		return fmt.Errorf("unexpected %q", stmt)
	}
	return nil
}

// TestEach: a request that fails half-way leaves no write; the others'
// stay, and the savepoints are balanced.
func TestEach(t *testing.T) {
	tx := &fakeTx{}
	errs := make([]error, 4)
	refused := errors.New("conflict")
	err := Each(context.Background(), 4, tx.exec, func(_ context.Context, i int) error {
		tx.writes = append(tx.writes, fmt.Sprintf("%d.a", i))
		if i == 1 || i == 2 {
			return refused // after writing: the savepoint must undo it
		}
		tx.writes = append(tx.writes, fmt.Sprintf("%d.b", i))
		return nil
	}, errs)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(tx.writes, " "); got != "0.a 0.b 3.a 3.b" {
		t.Fatalf("writes %q", got)
	}
	if len(tx.marks) != 0 {
		t.Fatalf("%d savepoints left open", len(tx.marks))
	}
	if errs[0] != nil || errs[3] != nil || !errors.Is(errs[1], refused) || !errors.Is(errs[2], refused) {
		t.Fatalf("errs %v", errs)
	}

	// A transaction lost under a request: the whole batch must fail.
	tx = &fakeTx{fail: "ROLLBACK TO SAVEPOINT group_request"}
	errs = make([]error, 2)
	err = Each(context.Background(), 2, tx.exec, func(context.Context, int) error { return refused }, errs)
	if err == nil || !errors.Is(err, refused) {
		t.Fatalf("Each with a lost transaction: %v", err)
	}
}
