package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

const reviewColumns = `table_id, budget, node, done, total, expires_ms, ready, body, updated_ms`

func scanReview(row pgx.Row) (store.Review, error) {
	var (
		table, node, body          string
		budget, done, total, ready int
		expires, updated           int64
	)
	if err := row.Scan(&table, &budget, &node, &done, &total, &expires, &ready, &body, &updated); err != nil {
		return store.Review{}, err
	}
	return check.ReviewRow(table, budget, node, done, total, expires, ready, body, updated), nil
}

// tableFound is nil when table id exists, else store.ErrNotFound.
func tableFound(ctx context.Context, tx pgx.Tx, id string) error {
	ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = $1`, id)
	if err == nil && !ok {
		err = store.ErrNotFound
	}
	return err
}

// ClaimReview implements store.ReviewStore. The first claim is an INSERT
// (ON CONFLICT waits for a racing one and then does nothing); any later
// one locks the row FOR UPDATE before deciding, as AcquireLease does, so
// racing nodes decide one after the other.
func (s *Store) ClaimReview(ctx context.Context, id string, budget int, node string, ttl time.Duration) (store.Review, error) {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return store.Review{}, fmt.Errorf("postgres: claim review: %w", err)
	}
	var out store.Review
	err := s.write(ctx, func(tx pgx.Tx) error {
		if err := tableFound(ctx, tx, id); err != nil {
			return err
		}
		r, err := scanReview(tx.QueryRow(ctx, `
			INSERT INTO reviews (table_id, budget, node, expires_ms, updated_ms) VALUES ($1, $2, $3, `+nowMs+` + $4, `+nowMs+`)
			ON CONFLICT (table_id, budget) DO NOTHING
			RETURNING `+reviewColumns, id, budget, node, ttl.Milliseconds()))
		if err == nil {
			out = r
			return nil
		}
		if !errors.Is(err, pgx.ErrNoRows) {
			return err
		}
		if r, err = scanReview(tx.QueryRow(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE table_id = $1 AND budget = $2 FOR UPDATE`, id, budget)); err != nil {
			return err
		}
		var now int64 // the clock after the lock: the wait may have been long
		if err := tx.QueryRow(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		switch {
		case r.Ready:
			out = r
			return nil
		case r.Expires.UnixMilli() > now && r.Node != node:
			out = r
			return fmt.Errorf("%w (%s)", store.ErrClaimed, r.Node)
		}
		out, err = scanReview(tx.QueryRow(ctx, `
			UPDATE reviews SET node = $1, done = 0, total = 0, expires_ms = $2, updated_ms = $3
			WHERE table_id = $4 AND budget = $5 RETURNING `+reviewColumns,
			node, now+ttl.Milliseconds(), now, id, budget))
		return err
	})
	if err != nil {
		return out, s.wrap("claim review of", id, err)
	}
	return out, nil
}

// ReviewProgress implements store.ReviewStore.
func (s *Store) ReviewProgress(ctx context.Context, id string, budget int, node string, done, total int, ttl time.Duration) error {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return fmt.Errorf("postgres: review progress: %w", err)
	}
	n, err := affected(s.pool.Exec(ctx, `
		UPDATE reviews SET done = $1, total = $2, expires_ms = `+nowMs+` + $3, updated_ms = `+nowMs+`
		WHERE table_id = $4 AND budget = $5 AND node = $6 AND ready = 0 AND expires_ms > `+nowMs,
		done, total, ttl.Milliseconds(), id, budget, node))
	if err == nil && n == 0 {
		err = store.ErrClaimed
	}
	if err != nil {
		return s.wrap("review progress of", id, err)
	}
	return nil
}

// PutReview implements store.ReviewStore.
func (s *Store) PutReview(ctx context.Context, id string, budget int, body json.RawMessage) error {
	if err := check.ReviewBody(budget, body); err != nil {
		return fmt.Errorf("postgres: put review: %w", err)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		if err := tableFound(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `
			INSERT INTO reviews (table_id, budget, ready, body, updated_ms) VALUES ($1, $2, 1, $3, `+nowMs+`)
			ON CONFLICT (table_id, budget) DO UPDATE SET done = reviews.total, expires_ms = 0, ready = 1,
				body = excluded.body, updated_ms = excluded.updated_ms`,
			id, budget, string(body))
		return err
	})
	if err != nil {
		return s.wrap("put review of", id, err)
	}
	return nil
}

// Review implements store.ReviewStore.
func (s *Store) Review(ctx context.Context, id string, budget int) (store.Review, error) {
	r, err := scanReview(s.pool.QueryRow(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE table_id = $1 AND budget = $2`, id, budget))
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Review{}, s.wrap("review of", id, err)
	}
	return r, nil
}

// PendingReviews implements store.ReviewStore.
func (s *Store) PendingReviews(ctx context.Context, limit int) ([]store.Review, error) {
	rows, err := s.pool.Query(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE ready = 0
		ORDER BY updated_ms, table_id, budget LIMIT $1`, check.PendingLimit(limit))
	if err != nil {
		return nil, s.wrap("pending reviews", "", err)
	}
	defer rows.Close()
	out := []store.Review{}
	for rows.Next() {
		r, err := scanReview(rows)
		if err != nil {
			return nil, s.wrap("pending reviews", "", err)
		}
		out = append(out, r)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("pending reviews", "", err)
	}
	return out, nil
}
