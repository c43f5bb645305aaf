package sqlite

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
)

// errSpaceUnknown: the platform cannot tell the free space; Open goes on.
var errSpaceUnknown = errors.New("free space unknown on this platform")

// SQLite's defaults, for the check before the file is opened: 4096-byte
// pages, and a checkpoint once the WAL holds 1000 of them.
const (
	defaultPageSize       = 4096
	defaultAutocheckpoint = 1000
	// spaceMargin is room beyond the WAL cycle: the -shm index, the
	// journal of the migrations, the file's own header pages.
	spaceMargin = 1 << 20
)

// spaceNeeded is what one WAL cycle can take on disk: the WAL growing to
// the autocheckpoint size, then the checkpoint copying as many pages into
// the database file (which may grow by as much), plus a margin. On a disk
// with less, commits fail with "disk full" and, as the WAL can then not be
// checkpointed either, the database stays stuck across restarts.
func spaceNeeded(pageSize, autocheckpoint int64) uint64 {
	autocheckpoint = max(autocheckpoint, defaultAutocheckpoint) // ≤ 0 turns it off: the WAL grows further
	return uint64(2*autocheckpoint*pageSize) + spaceMargin
}

// spaceError refuses a disk too small for a WAL cycle, naming the path and
// both figures.
type spaceError struct {
	path       string
	free, need uint64
	pageSize   int64
	pages      int64
}

func (e *spaceError) Error() string {
	return fmt.Sprintf("sqlite: %s: the disk holding it has %s free (%d bytes) but needs %s (%d bytes: a WAL cycle of %d pages of %d bytes, once for the WAL and once for its checkpoint into the file, and 1 MiB); on less, writes fail and the WAL cannot be checkpointed: free some space and start again",
		e.path, human(e.free), e.free, human(e.need), e.need, e.pages, e.pageSize)
}

func human(n uint64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}

// checkSpace refuses to go on when the filesystem holding path has less
// free space than a WAL cycle of pages of pageSize needs.
func checkSpace(path string, free func(dir string) (uint64, error), pageSize, pages int64) error {
	have, err := free(filepath.Dir(path))
	if errors.Is(err, errSpaceUnknown) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("sqlite: %s: free space: %w", path, err)
	}
	if need := spaceNeeded(pageSize, pages); have < need {
		return &spaceError{path: path, free: have, need: need, pageSize: pageSize, pages: max(pages, defaultAutocheckpoint)}
	}
	return nil
}

// walPragmas reads the page size and the WAL autocheckpoint (in pages) of
// the database behind db.
func walPragmas(ctx context.Context, db *sql.DB) (pageSize, pages int64, err error) {
	if err := db.QueryRowContext(ctx, "PRAGMA page_size").Scan(&pageSize); err != nil {
		return 0, 0, err
	}
	if err := db.QueryRowContext(ctx, "PRAGMA wal_autocheckpoint").Scan(&pages); err != nil {
		return 0, 0, err
	}
	return pageSize, pages, nil
}
