package postgres

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// appendReq is one AppendMoves call waiting for a group commit: appendSQL's
// arguments.
type appendReq struct {
	id       string
	version  int
	seats    []int32
	ats      []int64
	actions  []string
	fence    store.Fence
	deadline time.Time // the caller's, zero when it has none
}

func newAppendReq(ctx context.Context, id string, version int, moves []engine.LoggedMove, f store.Fence) *appendReq {
	r := &appendReq{id: id, version: version, fence: f,
		seats: make([]int32, len(moves)), ats: make([]int64, len(moves)), actions: make([]string, len(moves))}
	for i, m := range moves {
		r.seats[i], r.ats[i], r.actions[i] = int32(m.Seat), m.At, string(m.Action)
	}
	r.deadline, _ = ctx.Deadline()
	return r
}

// query is the request's statement (appendSQL) and its arguments.
func (r *appendReq) query() (string, []any) {
	if r.fence.Zero() {
		return appendUnfenced, []any{r.id, r.version, r.seats, r.ats, r.actions}
	}
	return appendFenced, []any{r.id, r.version, r.seats, r.ats, r.actions, r.fence.Node, r.fence.Epoch}
}

// commitAppends is the group committer's batch: the appends queued until a
// connection was ours, sent at once as a pipeline (a pgx Batch: one round
// trip) that PostgreSQL runs as one implicit transaction, committed at its
// end: one commit, one WAL flush. Each append is one statement (appendSQL)
// that checks its own fence and version and writes nothing when they
// refuse it, so no savepoint is needed to keep the others: a refusal is a
// statement that matched no row, not an error. A statement that does fail
// (bad data PostgreSQL rejects, a deadlock with another node's batch)
// rolls the whole transaction back; then each append runs again alone, so
// only the one at fault gets the error.
func (s *Store) commitAppends(ctx context.Context, take func() ([]*appendReq, []error)) error {
	conn, err := s.pool.Acquire(ctx)
	if err != nil {
		return fmt.Errorf("connection: %w", err)
	}
	defer conn.Release()
	batch, errs := take()
	if len(batch) == 0 {
		return nil // every caller gave up while we waited for a connection
	}
	ctx, cancel := batchContext(ctx, batch)
	defer cancel()
	wrote, err := runAppends(ctx, conn, batch)
	if pe := (*pgconn.PgError)(nil); errors.As(err, &pe) && len(batch) > 1 {
		// Refused by the server, so nothing of the batch was written.
		for i := range batch {
			var one []bool
			if one, errs[i] = runAppends(ctx, conn, batch[i:i+1]); errs[i] == nil {
				wrote[i] = one[0]
			}
		}
	} else if err != nil {
		return fmt.Errorf("batch of %d appends: %w", len(batch), err)
	}
	for i, r := range batch {
		if errs[i] == nil && !wrote[i] {
			errs[i] = whyNotAppended(ctx, conn, r.id, r.version, r.fence)
		}
	}
	return nil
}

// batchContext bounds a batch by the latest deadline of its callers: each
// of them waits for its batch's outcome (see group), but not longer than
// the most patient one would have waited for a lone append. No bound when
// one caller has none.
func batchContext(ctx context.Context, batch []*appendReq) (context.Context, context.CancelFunc) {
	var last time.Time
	for _, r := range batch {
		if r.deadline.IsZero() {
			return context.WithCancel(ctx)
		}
		if r.deadline.After(last) {
			last = r.deadline
		}
	}
	return context.WithDeadline(ctx, last)
}

// runAppends runs reqs in one transaction on conn and reports which of
// them wrote; an error means none did (a *pgconn.PgError: the server
// refused a statement and rolled back) or that it is unknown (the
// connection failed, perhaps during the commit). One request is its lone
// statement, as without group commit. Several are sent in the order of
// their tables (a stable sort: appends to one table keep their order), so
// batches of any node lock lease and table rows in one order, as
// RenewLeases does its leases, and never deadlock with one another.
func runAppends(ctx context.Context, conn *pgxpool.Conn, reqs []*appendReq) ([]bool, error) {
	wrote := make([]bool, len(reqs))
	if len(reqs) == 1 {
		q, args := reqs[0].query()
		var n int
		err := conn.QueryRow(ctx, q, args...).Scan(&n)
		wrote[0] = n > 0
		return wrote, err
	}
	order := make([]int, len(reqs))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(reqs[a].id, reqs[b].id) })
	b := &pgx.Batch{}
	for _, i := range order {
		q, args := reqs[i].query()
		b.Queue(q, args...)
	}
	br := conn.SendBatch(ctx, b)
	var err error
	for _, i := range order {
		var n int
		if err = br.QueryRow().Scan(&n); err != nil {
			break
		}
		wrote[i] = n > 0
	}
	// Close reads to the end of the pipeline, past the commit: only then
	// is the batch durable.
	if cerr := br.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		clear(wrote)
	}
	return wrote, err
}
