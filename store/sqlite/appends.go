package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/group"
)

// appendReq is one AppendMoves call waiting for a group commit.
type appendReq struct {
	id      string
	version int
	moves   []engine.LoggedMove
	fence   store.Fence
}

// commitAppends is the group committer's batch: one BEGIN IMMEDIATE, then
// the appends queued until the write lock was ours, each in a savepoint of
// its own (its fence and version checked there, by the database clock, as
// a lone append would be), one COMMIT and so one fsync.
func (s *Store) commitAppends(ctx context.Context, take func() ([]*appendReq, []error)) error {
	tx, err := s.writer.BeginTx(ctx, nil)
	if err != nil {
		return fmt.Errorf("begin: %w", err)
	}
	defer tx.Rollback() // after Commit: a no-op
	batch, errs := take()
	if len(batch) == 0 {
		return nil // every caller gave up while we waited for the lock
	}
	insert, err := tx.PrepareContext(ctx, `INSERT INTO moves (table_id, idx, seat, at_ms, action) VALUES (?, ?, ?, ?, ?)`)
	if err != nil {
		return fmt.Errorf("prepare: %w", err)
	}
	defer insert.Close()
	exec := func(ctx context.Context, stmt string) error {
		_, err := tx.ExecContext(ctx, stmt)
		return err
	}
	apply := func(ctx context.Context, i int) error { return appendTx(ctx, tx, insert, batch[i]) }
	if err := group.Each(ctx, len(batch), exec, apply, errs); err != nil {
		return err
	}
	if err := tx.Commit(); err != nil {
		return fmt.Errorf("commit of %d appends: %w", len(batch), err)
	}
	return nil
}

// appendTx is one append inside the batch's transaction: ErrFenced,
// ErrNotFound or ErrConflict when its checks refuse it (after writing
// nothing, or in its savepoint, which is then rolled back).
func appendTx(ctx context.Context, tx *sql.Tx, insert *sql.Stmt, r *appendReq) error {
	if no, err := fenced(ctx, tx, r.id, r.fence); no || err != nil {
		if err == nil {
			if ok, xerr := exists(ctx, tx, `SELECT 1 FROM tables WHERE id = ?`, r.id); xerr != nil || !ok {
				err = cmp.Or(xerr, store.ErrNotFound)
			} else {
				err = store.ErrFenced
			}
		}
		return err
	}
	n, err := affected(tx.ExecContext(ctx,
		`UPDATE tables SET version = version + ? WHERE id = ? AND version = ?`,
		len(r.moves), r.id, r.version))
	if err != nil {
		return err
	}
	if n == 0 {
		// Absent, or another version: tell which.
		var stored int64
		err := tx.QueryRowContext(ctx, `SELECT version FROM tables WHERE id = ?`, r.id).Scan(&stored)
		if errors.Is(err, sql.ErrNoRows) {
			return store.ErrNotFound
		}
		if err != nil {
			return err
		}
		return fmt.Errorf("at version %d (stored %d): %w", r.version, stored, store.ErrConflict)
	}
	for i, m := range r.moves {
		if _, err := insert.ExecContext(ctx, r.id, r.version+i, int64(m.Seat), m.At, string(m.Action)); err != nil {
			return err
		}
	}
	return nil
}
