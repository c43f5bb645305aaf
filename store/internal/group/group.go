// Package group commits many callers' writes in one transaction: group
// commit. A durable commit costs one fsync however much it writes, so a
// store whose writers each wait for their own fsync is capped near
// 1/fsync commits a second however idle the processor is. A Committer
// queues the writes callers Submit, and one goroutine runs whatever queued
// while the previous commit ran as one batch: one transaction, one commit,
// one fsync; then each caller learns its own outcome.
//
// The package knows nothing of databases: the store gives a Commit
// function that begins the transaction, takes the batch, applies each
// request (Each runs them in savepoints, with statements the store
// executes), and commits. It serves database/sql (store/sqlite) and pgx
// (store/postgres, which sends a batch as one pipeline instead: its
// appends refuse by matching no row, so need no savepoints) alike.
//
// Outcomes:
//   - A request refused by its own checks (a version conflict, a fence, an
//     absent table, invalid input) gets its own error and wrote nothing;
//     the rest of its batch is unaffected.
//   - When the transaction as a whole fails (the commit, or a statement
//     that aborts it), every request of the batch gets that error. After a
//     failed COMMIT the outcome is unknown (an I/O error may strike after
//     the data reached the disk): the caller must read back before it
//     retries, as for any single write.
//   - A caller whose ctx ends while its request still waits in the queue
//     gets ctx.Err() and its request is never applied. Requests wait there
//     until a transaction has begun (the database's write lock is held,
//     for SQLite), so a caller can always give up on a busy database.
//     Once the request is taken into a batch, the caller waits for that
//     batch and gets its true outcome whatever its ctx does: a write is
//     never left in doubt just because its caller stopped waiting. (By
//     then the batch needs only its statements and one commit.)
package group

import (
	"context"
	"errors"
	"fmt"
	"sync"
)

// ErrClosed is returned by Submit after Close.
var ErrClosed = errors.New("group: committer closed")

// DefaultMaxBatch bounds a batch when Options.MaxBatch is not set: large
// enough that a busy server's moves share an fsync, small enough that one
// transaction stays short (a SQLite write lock held for a few
// milliseconds).
const DefaultMaxBatch = 256

// Commit runs one batch in one transaction. It begins the transaction,
// then calls take, once, for the batch: the requests that queued until
// then, and one error slot for each. It applies every request, setting
// errs[i] to request i's own refusal (a refused request must have written
// nothing: see Each), and commits. A non-nil return is the transaction's
// failure (nothing written, or after a failed commit perhaps everything)
// and becomes every request's outcome; when Commit fails before calling
// take (the transaction could not begin), the requests queued at that
// moment get the error. ctx is the committer's, never a caller's.
type Commit[T any] func(ctx context.Context, take func() (batch []T, errs []error)) error

// Options tune a Committer.
type Options struct {
	// MaxBatch is the most requests in one transaction (DefaultMaxBatch
	// when 0). Requests beyond it wait for the next commit.
	MaxBatch int
}

// Stats counts a Committer's work since New.
type Stats struct {
	Batches  int64 // transactions run (calls of Commit)
	Requests int64 // requests given to Commit
	Largest  int   // the largest batch
	Failed   int64 // batches whose Commit returned an error
}

// Committer batches requests of type T. Its methods are safe for
// concurrent use.
type Committer[T any] struct {
	commit Commit[T]
	max    int

	mu      sync.Mutex
	cond    *sync.Cond // signalled when the queue grows or the committer closes
	queue   []*request[T]
	waiting int // requests in queue not abandoned by their callers
	closed  bool
	stats   Stats

	stopped chan struct{} // closed when the goroutine has returned
}

type request[T any] struct {
	ctx  context.Context
	req  T
	err  error
	done chan struct{} // closed when err is set

	taken     bool // in a batch: the caller must wait for its outcome
	abandoned bool // the caller left before it was taken: skip it
}

// New starts a Committer whose batches commit runs. Close stops it.
func New[T any](commit Commit[T], opt Options) *Committer[T] {
	c := &Committer[T]{commit: commit, max: opt.MaxBatch, stopped: make(chan struct{})}
	if c.max <= 0 {
		c.max = DefaultMaxBatch
	}
	c.cond = sync.NewCond(&c.mu)
	go c.run()
	return c
}

// Submit queues req and waits for its outcome: nil once the batch holding
// it has committed, the request's own error if Commit refused it, the
// batch's error if the transaction failed, ctx.Err() if ctx ended before
// the request was taken into a batch (then it was never applied), or
// ErrClosed after Close.
func (c *Committer[T]) Submit(ctx context.Context, req T) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	r := &request[T]{ctx: ctx, req: req, done: make(chan struct{})}
	c.mu.Lock()
	if c.closed {
		c.mu.Unlock()
		return ErrClosed
	}
	c.queue = append(c.queue, r)
	c.waiting++
	c.cond.Signal()
	c.mu.Unlock()

	select {
	case <-r.done:
		return r.err
	case <-ctx.Done():
	}
	c.mu.Lock()
	if !r.taken {
		r.abandoned = true
		c.waiting--
		c.mu.Unlock()
		return ctx.Err()
	}
	c.mu.Unlock()
	<-r.done // taken: its batch decides
	return r.err
}

// Close stops taking requests (Submit returns ErrClosed), commits those
// already queued, and returns when the last batch is done. Calling it
// again is harmless.
func (c *Committer[T]) Close() error {
	c.mu.Lock()
	c.closed = true
	c.cond.Broadcast()
	c.mu.Unlock()
	<-c.stopped
	return nil
}

// Stats returns the counts so far.
func (c *Committer[T]) Stats() Stats {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.stats
}

// Queued is how many requests wait for a batch (not yet taken).
func (c *Committer[T]) Queued() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waiting
}

func (c *Committer[T]) run() {
	defer close(c.stopped)
	for c.wait() {
		var (
			batch []*request[T]
			errs  []error
			took  bool
		)
		take := func() ([]T, []error) {
			if took {
				panic("group: take called twice in one batch")
			}
			took = true
			batch = c.take()
			reqs := make([]T, len(batch))
			for i, r := range batch {
				reqs[i] = r.req
			}
			errs = make([]error, len(batch))
			return reqs, errs
		}
		err := c.commit(context.Background(), take)
		if !took {
			if err == nil {
				continue // nothing taken, nothing to tell
			}
			batch = c.take()
		}
		c.finish(batch, errs, err)
	}
}

// wait waits until a request is queued (true) or the committer is closed
// with nothing left (false). No waiting for a batch to fill: whatever
// queued while the last commit ran is the next batch.
func (c *Committer[T]) wait() bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for c.waiting == 0 && !c.closed {
		c.cond.Wait()
	}
	return c.waiting > 0
}

// take takes up to max waiting requests, oldest first.
func (c *Committer[T]) take() []*request[T] {
	c.mu.Lock()
	defer c.mu.Unlock()
	var batch []*request[T]
	k := 0
	for ; k < len(c.queue) && len(batch) < c.max; k++ {
		r := c.queue[k]
		if r.abandoned {
			continue
		}
		c.waiting--
		r.taken = true
		if err := r.ctx.Err(); err != nil {
			// Its caller is leaving and not yet back for the lock:
			// the same outcome as if it had been.
			r.err = err
			close(r.done)
			continue
		}
		batch = append(batch, r)
	}
	n := copy(c.queue, c.queue[k:])
	clear(c.queue[n:])
	c.queue = c.queue[:n]
	return batch
}

// finish tells each request of a batch its outcome: the batch's failure,
// or its own.
func (c *Committer[T]) finish(batch []*request[T], errs []error, err error) {
	c.mu.Lock()
	c.stats.Batches++
	c.stats.Requests += int64(len(batch))
	c.stats.Largest = max(c.stats.Largest, len(batch))
	if err != nil {
		c.stats.Failed++
	}
	c.mu.Unlock()
	for i, r := range batch {
		if err != nil {
			r.err = err
		} else {
			r.err = errs[i]
		}
		close(r.done)
	}
}

// Exec runs one statement in the batch's transaction: for database/sql,
// tx.ExecContext; for pgx, tx.Exec (dropping the command tag).
type Exec func(ctx context.Context, stmt string) error

// Each applies the n requests of a batch in one transaction, each inside a
// savepoint of its own: when apply(ctx, i) fails, the request's writes are
// rolled back to its savepoint and errs[i] gets apply's error, and the
// other requests go on. The SAVEPOINT statements are the same in SQLite
// and PostgreSQL (where a failed statement would otherwise abort the whole
// transaction). Each returns an error only when the transaction itself is
// lost (a savepoint statement failed, e.g. after an I/O error rolled the
// transaction back): then the batch must not be committed.
func Each(ctx context.Context, n int, exec Exec, apply func(ctx context.Context, i int) error, errs []error) error {
	const sp = "group_request"
	for i := range n {
		if err := exec(ctx, "SAVEPOINT "+sp); err != nil {
			return fmt.Errorf("group: savepoint: %w", err)
		}
		if err := apply(ctx, i); err != nil {
			errs[i] = err
			if rerr := exec(ctx, "ROLLBACK TO SAVEPOINT "+sp); rerr != nil {
				return fmt.Errorf("group: roll back request %d (%w): %w", i, err, rerr)
			}
		}
		if err := exec(ctx, "RELEASE SAVEPOINT "+sp); err != nil {
			return fmt.Errorf("group: release savepoint: %w", err)
		}
	}
	return nil
}
