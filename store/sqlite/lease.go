package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// nowMs is the database's clock in UTC milliseconds: the clock leases go
// by, whichever process on the machine asks.
const nowMs = `CAST(unixepoch('subsec') * 1000 AS INTEGER)`

// fenced reports whether f forbids a write to table id now, inside the
// write's transaction.
func fenced(ctx context.Context, tx *sql.Tx, id string, f store.Fence) (bool, error) {
	if f.Zero() {
		return false, nil
	}
	ok, err := exists(ctx, tx, `SELECT 1 FROM leases WHERE table_id = ? AND node = ? AND epoch = ? AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs,
		id, f.Node, f.Epoch)
	return !ok, err
}

// AcquireLease implements store.LeaseStore.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := check.LeaseArgs(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("sqlite: %w", err)
	}
	var out store.Lease
	err := s.write(ctx, func(tx *sql.Tx) error {
		var now int64
		if err := tx.QueryRowContext(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		if ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = ?`, id); err != nil || !ok {
			if err == nil {
				err = store.ErrNotFound
			}
			return err
		}
		var (
			holder, state string
			epoch, exp    int64
		)
		err := tx.QueryRowContext(ctx, `SELECT node, epoch, expires_ms, state FROM leases WHERE table_id = ?`, id).Scan(&holder, &epoch, &exp, &state)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		live := err == nil && state == check.LeaseHeld && exp > now
		until := now + ttl.Milliseconds()
		switch {
		case live && holder != node:
			out = check.LeaseRow(id, holder, epoch, exp)
			return fmt.Errorf("%w (%s)", store.ErrLeased, holder)
		case live:
			_, err = tx.ExecContext(ctx, `UPDATE leases SET expires_ms = ? WHERE table_id = ?`, until, id)
		default:
			epoch++
			_, err = tx.ExecContext(ctx, `
				INSERT INTO leases (table_id, node, epoch, expires_ms, state) VALUES (?, ?, ?, ?, '`+check.LeaseHeld+`')
				ON CONFLICT (table_id) DO UPDATE SET node = excluded.node, epoch = excluded.epoch, expires_ms = excluded.expires_ms, state = excluded.state`,
				id, node, epoch, until)
		}
		out = check.LeaseRow(id, node, epoch, until)
		return err
	})
	if err != nil {
		return out, s.wrap("lease", id, err)
	}
	return out, nil
}

// RenewLeases implements store.LeaseStore.
func (s *Store) RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	if err := check.LeaseArgs(node, ttl); err != nil {
		return nil, fmt.Errorf("sqlite: %w", err)
	}
	out := []store.Lease{}
	err := s.write(ctx, func(tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `
			UPDATE leases SET expires_ms = `+nowMs+` + ?
			WHERE node = ? AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs+`
			RETURNING table_id, epoch, expires_ms`, ttl.Milliseconds(), node)
		if err != nil {
			return err
		}
		defer rows.Close()
		for rows.Next() {
			var id string
			var epoch, exp int64
			if err := rows.Scan(&id, &epoch, &exp); err != nil {
				return err
			}
			out = append(out, check.LeaseRow(id, node, epoch, exp))
		}
		return rows.Err()
	})
	if err != nil {
		return nil, fmt.Errorf("sqlite: renew leases of %q: %w", node, err)
	}
	return out, nil
}

// EndLease implements store.LeaseStore.
func (s *Store) EndLease(ctx context.Context, l store.Lease, handOver bool) error {
	state := check.LeaseReleased
	if handOver {
		state = check.LeaseHanded
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		_, err := tx.ExecContext(ctx, `
			UPDATE leases SET state = ?, expires_ms = `+nowMs+`
			WHERE table_id = ? AND node = ? AND epoch = ? AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs,
			state, l.Table, l.Node, l.Epoch)
		return err
	})
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
	rows, err := s.reader.QueryContext(ctx, `
		SELECT l.table_id, l.node, l.epoch, l.expires_ms FROM leases l JOIN tables t ON t.id = l.table_id
		WHERE t.status = ? AND (l.state = '`+check.LeaseHanded+`' OR (l.state = '`+check.LeaseHeld+`' AND l.expires_ms <= `+nowMs+`))
		ORDER BY l.expires_ms, l.table_id LIMIT ?`, store.StatusLive, limit)
	if err != nil {
		return nil, fmt.Errorf("sqlite: orphans: %w", err)
	}
	defer rows.Close()
	out := []store.Lease{}
	for rows.Next() {
		var id, node string
		var epoch, exp int64
		if err := rows.Scan(&id, &node, &epoch, &exp); err != nil {
			return nil, fmt.Errorf("sqlite: orphans: %w", err)
		}
		out = append(out, check.LeaseRow(id, node, epoch, exp))
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: orphans: %w", err)
	}
	return out, nil
}

// LeaseOf implements store.LeaseStore.
func (s *Store) LeaseOf(ctx context.Context, id string) (store.Lease, error) {
	var node string
	var epoch, exp int64
	err := s.reader.QueryRowContext(ctx, `
		SELECT node, epoch, expires_ms FROM leases
		WHERE table_id = ? AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs, id).Scan(&node, &epoch, &exp)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Lease{}, s.wrap("lease of", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Lease{}, s.wrap("lease of", id, err)
	}
	return check.LeaseRow(id, node, epoch, exp), nil
}
