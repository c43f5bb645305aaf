package postgres

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// Why fences are safe here.
//
// A fenced write reads the table's lease row with SELECT … FOR SHARE,
// requiring it to be held by the fence's node under its epoch and
// unexpired by the database's clock, and writes only if it is, in the same
// READ COMMITTED transaction (UpdateTable: a statement before the write;
// AppendMoves: a sub-select of its one statement). Every change of a lease
// (AcquireLease, RenewLeases, EndLease) updates that row, which needs a
// lock that conflicts with FOR SHARE; so:
//   - a change committed before the check is seen by it (each statement
//     at READ COMMITTED reads the newest committed rows, and FOR SHARE
//     re-reads a row that changed while it waited for the lock);
//   - a change that comes after the check waits for the writer's commit.
//
// So a new holder's epoch begins strictly after every write the old holder
// made under its lease, and no write of an old epoch lands after it. A
// lease that lapses between the check and the commit changes nothing:
// nobody can take the table over until the writer's lock is gone.
// (REPEATABLE READ would give the same safety, with serialization errors
// to retry instead of waits.)

// nowMs is the database server's clock in UTC milliseconds: the clock
// leases go by, whichever node asks. clock_timestamp, not now(): now() is
// the transaction's start, which may be long before a lock wait ends.
const nowMs = `floor(extract(epoch FROM clock_timestamp()) * 1000)::bigint`

// fence checks f for a write of table id inside the write's transaction
// and keeps the lease row locked until it ends: nil when the write may go
// on, ErrFenced or ErrNotFound (no such table) when not.
func fence(ctx context.Context, tx pgx.Tx, id string, f store.Fence) error {
	if f.Zero() {
		return nil
	}
	ok, err := exists(ctx, tx, `
		SELECT 1 FROM leases WHERE table_id = $1 AND node = $2 AND epoch = $3 AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs+`
		FOR SHARE`, id, f.Node, f.Epoch)
	if err != nil || ok {
		return err
	}
	if ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, id); err != nil || !ok {
		if err == nil {
			err = store.ErrNotFound
		}
		return err
	}
	return store.ErrFenced
}

// AcquireLease implements store.LeaseStore. A table's first lease is an
// INSERT (ON CONFLICT waits for a racing one and then does nothing); any
// later one locks the existing row FOR UPDATE before deciding, so racing
// nodes decide one after the other, each on the row the previous one left.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := check.LeaseArgs(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("postgres: %w", err)
	}
	var out store.Lease
	err := s.write(ctx, func(tx pgx.Tx) error {
		if ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, id); err != nil || !ok {
			if err == nil {
				err = store.ErrNotFound
			}
			return err
		}
		var epoch, until int64
		err := tx.QueryRow(ctx, `
			INSERT INTO leases (table_id, node, epoch, expires_ms, state) VALUES ($1, $2, 1, `+nowMs+` + $3, '`+check.LeaseHeld+`')
			ON CONFLICT (table_id) DO NOTHING
			RETURNING epoch, expires_ms`, id, node, ttl.Milliseconds()).Scan(&epoch, &until)
		if err == nil {
			out = check.LeaseRow(id, node, epoch, until)
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		var (
			holder, state string
			exp, now      int64
		)
		if err := tx.QueryRow(ctx, `SELECT node, epoch, expires_ms, state FROM leases WHERE table_id = $1 FOR UPDATE`, id).
			Scan(&holder, &epoch, &exp, &state); err != nil {
			return err
		}
		// The clock after the lock: the wait may have been long.
		if err := tx.QueryRow(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		live := state == check.LeaseHeld && exp > now
		until = now + ttl.Milliseconds()
		switch {
		case live && holder != node:
			out = check.LeaseRow(id, holder, epoch, exp)
			return fmt.Errorf("%w (%s)", store.ErrLeased, holder)
		case live:
			_, err = tx.Exec(ctx, `UPDATE leases SET expires_ms = $1 WHERE table_id = $2`, until, id)
		default:
			epoch++
			_, err = tx.Exec(ctx, `UPDATE leases SET node = $1, epoch = $2, expires_ms = $3, state = '`+check.LeaseHeld+`' WHERE table_id = $4`,
				node, epoch, until, id)
		}
		out = check.LeaseRow(id, node, epoch, until)
		return err
	})
	if err != nil {
		return out, s.wrap("lease", id, err)
	}
	return out, nil
}

// RenewLeases implements store.LeaseStore: one statement, which locks the
// node's live leases in table order (byte order, as a batch of appends
// takes them: appends.go; in any other order the two could each hold a
// row the other waits for), then extends them. A lease taken meanwhile by
// another node drops out: the locking read re-checks each row on its
// newest version, and what it locked stays so until the commit.
func (s *Store) RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	if err := check.LeaseArgs(node, ttl); err != nil {
		return nil, fmt.Errorf("postgres: %w", err)
	}
	const live = `node = $2 AND state = '` + check.LeaseHeld + `' AND expires_ms > ` + nowMs
	rows, err := s.pool.Query(ctx, `
		WITH mine AS (
			SELECT table_id FROM leases WHERE `+live+`
			ORDER BY table_id COLLATE "C" FOR UPDATE)
		UPDATE leases l SET expires_ms = `+nowMs+` + $1
		FROM mine WHERE l.table_id = mine.table_id
		RETURNING l.table_id, l.epoch, l.expires_ms`, ttl.Milliseconds(), node)
	if err != nil {
		return nil, fmt.Errorf("postgres: renew leases of %q: %w", node, err)
	}
	defer rows.Close()
	out := []store.Lease{}
	for rows.Next() {
		var id string
		var epoch, exp int64
		if err := rows.Scan(&id, &epoch, &exp); err != nil {
			return nil, fmt.Errorf("postgres: renew leases of %q: %w", node, err)
		}
		out = append(out, check.LeaseRow(id, node, epoch, exp))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: renew leases of %q: %w", node, err)
	}
	return out, nil
}

// EndLease implements store.LeaseStore.
func (s *Store) EndLease(ctx context.Context, l store.Lease, handOver bool) error {
	state := check.LeaseReleased
	if handOver {
		state = check.LeaseHanded
	}
	_, err := s.pool.Exec(ctx, `
		UPDATE leases SET state = $1, expires_ms = `+nowMs+`
		WHERE table_id = $2 AND node = $3 AND epoch = $4 AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs,
		state, l.Table, l.Node, l.Epoch)
	if err != nil {
		return s.wrap("end lease", l.Table, err)
	}
	return nil
}

// Orphans implements store.LeaseStore.
func (s *Store) Orphans(ctx context.Context, limit int) ([]store.Lease, error) {
	if limit <= 0 {
		limit = 100
	}
	rows, err := s.pool.Query(ctx, `
		SELECT l.table_id, l.node, l.epoch, l.expires_ms FROM leases l JOIN tables t ON t.id = l.table_id
		WHERE t.status = $1 AND (l.state = '`+check.LeaseHanded+`' OR (l.state = '`+check.LeaseHeld+`' AND l.expires_ms <= `+nowMs+`))
		ORDER BY l.expires_ms, l.table_id LIMIT $2`, store.StatusLive, limit)
	if err != nil {
		return nil, fmt.Errorf("postgres: orphans: %w", err)
	}
	defer rows.Close()
	out := []store.Lease{}
	for rows.Next() {
		var id, node string
		var epoch, exp int64
		if err := rows.Scan(&id, &node, &epoch, &exp); err != nil {
			return nil, fmt.Errorf("postgres: orphans: %w", err)
		}
		out = append(out, check.LeaseRow(id, node, epoch, exp))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: orphans: %w", err)
	}
	return out, nil
}

// LeaseOf implements store.LeaseStore.
func (s *Store) LeaseOf(ctx context.Context, id string) (store.Lease, error) {
	var node string
	var epoch, exp int64
	err := s.pool.QueryRow(ctx, `
		SELECT node, epoch, expires_ms FROM leases
		WHERE table_id = $1 AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs, id).Scan(&node, &epoch, &exp)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Lease{}, s.wrap("lease of", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Lease{}, s.wrap("lease of", id, err)
	}
	return check.LeaseRow(id, node, epoch, exp), nil
}
