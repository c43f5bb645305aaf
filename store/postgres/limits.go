package postgres

import (
	"context"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// capLock is the transaction-scoped advisory lock CreateTableCapped holds
// while it counts and inserts: capped creates run one at a time across
// every node. They are rare (people making tables, within their budgets),
// and a lock per creator would not serialize a cap on all open tables.
const capLock = 0x6468_6361_7073 // "dhcaps"

// TakeTokens implements store.LimitStore. The bucket's row is made if
// missing (ON CONFLICT waits for a racing insert, then does nothing), then
// locked FOR UPDATE: racing takes from every node go one after the other,
// each on the row the previous one left, by the database's clock read
// after the lock.
func (s *Store) TakeTokens(ctx context.Context, key string, n int, b store.Bucket) (bool, time.Duration, error) {
	if err := check.BucketArgs(key, n, b); err != nil {
		return false, 0, fmt.Errorf("postgres: %w", err)
	}
	var (
		ok   bool
		wait time.Duration
	)
	err := s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO buckets (key, full_ms) VALUES ($1, 0) ON CONFLICT (key) DO NOTHING`, key); err != nil {
			return err
		}
		var full, now int64
		if err := tx.QueryRow(ctx, `SELECT full_ms FROM buckets WHERE key = $1 FOR UPDATE`, key).Scan(&full); err != nil {
			return err
		}
		if err := tx.QueryRow(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		var next int64
		if next, ok, wait = check.Take(full, now, n, b); !ok {
			return nil
		}
		_, err := tx.Exec(ctx, `UPDATE buckets SET full_ms = $1 WHERE key = $2`, next, key)
		return err
	})
	if err != nil {
		return false, 0, s.wrap("bucket", key, err)
	}
	return ok, wait, nil
}

// DropFullBuckets implements store.LimitStore.
func (s *Store) DropFullBuckets(ctx context.Context) (int, error) {
	n, err := affected(s.pool.Exec(ctx, `DELETE FROM buckets WHERE full_ms <= `+nowMs))
	if err != nil {
		return 0, fmt.Errorf("postgres: drop full buckets: %w", err)
	}
	return n, nil
}

// CreateTableCapped implements store.LimitStore.
func (s *Store) CreateTableCapped(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	return s.createTable(ctx, t, caps)
}

// reachedCap counts, in tx, the tables each cap's filter matches (under
// capLock: at READ COMMITTED each count sees every capped create committed
// before the lock was granted): the index of the first cap reached, or -1.
func reachedCap(ctx context.Context, tx pgx.Tx, caps []store.Cap) (int, error) {
	if len(caps) == 0 {
		return -1, nil
	}
	if _, err := tx.Exec(ctx, `SELECT pg_advisory_xact_lock($1)`, int64(capLock)); err != nil {
		return -1, err
	}
	for i, c := range caps {
		var p params
		cond := where(c.Filter, &p)
		var n int
		if err := tx.QueryRow(ctx, `SELECT COUNT(*)`+cond, p...).Scan(&n); err != nil {
			return -1, err
		}
		if n >= c.Max {
			return i, nil
		}
	}
	return -1, nil
}
