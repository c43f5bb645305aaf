package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// Backup writes a consistent copy of the whole database to a new file at
// path while the store keeps serving (SQLite's VACUUM INTO reads one
// snapshot, so moves committed meanwhile are either all in the copy or not
// at all). The file must not exist yet: an old backup is never
// overwritten by accident. The copy is a complete database: Open it, or
// put it in the place of dicehall.db to restore.
func (s *Store) Backup(ctx context.Context, path string) error {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fmt.Errorf("sqlite: backup to %q: %w", path, err)
	}
	if _, err := os.Stat(abs); err == nil {
		return fmt.Errorf("sqlite: backup to %q: the file exists; choose a new name", path)
	} else if !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("sqlite: backup to %q: %w", path, err)
	}
	// A connection of its own (the readers are query-only, and the writer
	// goes on committing moves meanwhile): VACUUM INTO only reads this
	// database, in one snapshot.
	db, err := sql.Open("sqlite", dsn(s.path, false))
	if err != nil {
		return fmt.Errorf("sqlite: backup to %q: %w", path, err)
	}
	defer db.Close()
	if _, err := db.ExecContext(ctx, `VACUUM INTO ?`, abs); err != nil {
		_ = os.Remove(abs) // a partial copy is no backup
		return fmt.Errorf("sqlite: backup to %q: %w", path, err)
	}
	return nil
}
