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

// TakeTokens implements store.LimitStore. A write transaction (BEGIN
// IMMEDIATE) takes the file's write lock first: the read, the step and the
// write are one, against every process on the file.
func (s *Store) TakeTokens(ctx context.Context, key string, n int, b store.Bucket) (bool, time.Duration, error) {
	if err := check.BucketArgs(key, n, b); err != nil {
		return false, 0, fmt.Errorf("sqlite: %w", err)
	}
	var (
		ok   bool
		wait time.Duration
	)
	err := s.write(ctx, func(tx *sql.Tx) error {
		var now, full int64
		if err := tx.QueryRowContext(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		err := tx.QueryRowContext(ctx, `SELECT full_ms FROM buckets WHERE key = ?`, key).Scan(&full)
		if err != nil && !errors.Is(err, sql.ErrNoRows) {
			return err
		}
		var next int64
		if next, ok, wait = check.Take(full, now, n, b); !ok {
			return nil
		}
		_, err = tx.ExecContext(ctx, `INSERT INTO buckets (key, full_ms) VALUES (?, ?)
			ON CONFLICT (key) DO UPDATE SET full_ms = excluded.full_ms`, key, next)
		return err
	})
	if err != nil {
		return false, 0, s.wrap("bucket", key, err)
	}
	return ok, wait, nil
}

// DropFullBuckets implements store.LimitStore.
func (s *Store) DropFullBuckets(ctx context.Context) (int, error) {
	var n int
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		n, err = affected(tx.ExecContext(ctx, `DELETE FROM buckets WHERE full_ms <= `+nowMs))
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("sqlite: drop full buckets: %w", err)
	}
	return n, nil
}

// CreateTableCapped implements store.LimitStore. SQLite runs one write
// transaction at a time (BEGIN IMMEDIATE), so the counts and the insert
// of createTable are one step against every other writer of the file.
func (s *Store) CreateTableCapped(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	return s.createTable(ctx, t, caps)
}

// reachedCap counts, in tx, the tables each cap's filter matches: the
// index of the first cap reached, or -1.
func reachedCap(ctx context.Context, tx *sql.Tx, caps []store.Cap) (int, error) {
	for i, c := range caps {
		cond, args := where(c.Filter)
		var n int
		if err := tx.QueryRowContext(ctx, `SELECT COUNT(*)`+cond, args...).Scan(&n); err != nil {
			return -1, err
		}
		if n >= c.Max {
			return i, nil
		}
	}
	return -1, nil
}
