package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

const reviewColumns = `table_id, budget, node, done, total, expires_ms, ready, body, updated_ms`

func scanReview(row interface{ Scan(...any) error }) (store.Review, error) {
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
func tableFound(ctx context.Context, tx *sql.Tx, id string) error {
	ok, err := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = ?`, id)
	if err == nil && !ok {
		err = store.ErrNotFound
	}
	return err
}

// ClaimReview implements store.ReviewStore.
func (s *Store) ClaimReview(ctx context.Context, id string, budget int, node string, ttl time.Duration) (store.Review, error) {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return store.Review{}, fmt.Errorf("sqlite: claim review: %w", err)
	}
	var out store.Review
	err := s.write(ctx, func(tx *sql.Tx) error {
		var now int64
		if err := tx.QueryRowContext(ctx, `SELECT `+nowMs).Scan(&now); err != nil {
			return err
		}
		if err := tableFound(ctx, tx, id); err != nil {
			return err
		}
		r, err := scanReview(tx.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE table_id = ? AND budget = ?`, id, budget))
		switch {
		case errors.Is(err, sql.ErrNoRows):
		case err != nil:
			return err
		case r.Ready:
			out = r
			return nil
		case r.Expires.UnixMilli() > now && r.Node != node:
			out = r
			return fmt.Errorf("%w (%s)", store.ErrClaimed, r.Node)
		}
		_, err = tx.ExecContext(ctx, `
			INSERT INTO reviews (table_id, budget, node, done, total, expires_ms, ready, body, updated_ms)
			VALUES (?, ?, ?, 0, 0, ?, 0, '', ?)
			ON CONFLICT (table_id, budget) DO UPDATE SET node = excluded.node, done = 0, total = 0,
				expires_ms = excluded.expires_ms, updated_ms = excluded.updated_ms`,
			id, budget, node, now+ttl.Milliseconds(), now)
		if err != nil {
			return err
		}
		out = store.Review{Table: id, Budget: budget, Node: node, Expires: fromMs(now + ttl.Milliseconds()), Updated: fromMs(now)}
		return nil
	})
	if err != nil {
		return out, s.wrap("claim review of", id, err)
	}
	return out, nil
}

// ReviewProgress implements store.ReviewStore.
func (s *Store) ReviewProgress(ctx context.Context, id string, budget int, node string, done, total int, ttl time.Duration) error {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return fmt.Errorf("sqlite: review progress: %w", err)
	}
	n, err := affected(s.writer.ExecContext(ctx, `
		UPDATE reviews SET done = ?, total = ?, expires_ms = `+nowMs+` + ?, updated_ms = `+nowMs+`
		WHERE table_id = ? AND budget = ? AND node = ? AND ready = 0 AND expires_ms > `+nowMs,
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
		return fmt.Errorf("sqlite: put review: %w", err)
	}
	err := s.write(ctx, func(tx *sql.Tx) error {
		if err := tableFound(ctx, tx, id); err != nil {
			return err
		}
		_, err := tx.ExecContext(ctx, `
			INSERT INTO reviews (table_id, budget, node, done, total, expires_ms, ready, body, updated_ms)
			VALUES (?, ?, '', 0, 0, 0, 1, ?, `+nowMs+`)
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
	r, err := scanReview(s.reader.QueryRowContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE table_id = ? AND budget = ?`, id, budget))
	if errors.Is(err, sql.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.Review{}, s.wrap("review of", id, err)
	}
	return r, nil
}

// PendingReviews implements store.ReviewStore.
func (s *Store) PendingReviews(ctx context.Context, limit int) ([]store.Review, error) {
	rows, err := s.reader.QueryContext(ctx, `SELECT `+reviewColumns+` FROM reviews WHERE ready = 0
		ORDER BY updated_ms, table_id, budget LIMIT ?`, check.PendingLimit(limit))
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
