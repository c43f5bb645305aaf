// Package sqlite is the default store.Store: one SQLite file, pure Go
// (modernc.org/sqlite, no cgo), schema from store/migrations via goose.
//
// Durability: the database runs in WAL mode with synchronous=FULL, so a
// commit is fsynced to the WAL before AppendMoves returns; a killed process
// or a power cut loses nothing that was acknowledged. Appends that arrive
// while a commit runs share the next transaction and its one fsync (group
// commit, store/internal/group), each checked on its own: a refused one
// writes nothing and does not hold back the others.
//
// Connections: SQLite allows one writer at a time. Writes go through a pool
// of exactly one connection, so writers in this process queue in Go (honouring
// their contexts) instead of spinning on SQLITE_BUSY, and every write
// transaction starts with BEGIN IMMEDIATE, so it takes the write lock up
// front and never fails half-way on a lock upgrade. Reads use a separate pool
// of query-only connections, which WAL lets run beside the writer.
package sqlite

import (
	"cmp"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/pressly/goose/v3"
	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
	"github.com/dicehall/dicehall/store/internal/group"
	"github.com/dicehall/dicehall/store/migrations"
)

// busyTimeout is how long a connection waits for another process's lock
// (a second server on the same file, a backup tool) before SQLITE_BUSY.
const busyTimeout = 10 * time.Second

// readers is the size of the read pool. The machine's cores, not SQLite,
// bound read throughput; a few connections keep a slow List from holding up
// GetTable.
const readers = 4

// Store is the SQLite store.Store.
type Store struct {
	path   string
	writer *sql.DB // one connection: the only writer in this process
	reader *sql.DB // query-only connections

	appends *group.Committer[*appendReq] // AppendMoves' group commit

	closeOnce sync.Once
	closeErr  error
}

var _ store.Store = (*Store)(nil)

// Open opens (creating if needed) the database file at path and brings its
// schema up to date. The directory must exist, on a filesystem with room
// for a WAL cycle (spaceNeeded: about 9 MB with SQLite's defaults);
// otherwise Open refuses, naming the free and the needed bytes.
func Open(path string) (*Store, error) { return open(path, freeSpace) }

// open is Open with the free-space measure given (tests fake a small disk).
func open(path string, free func(dir string) (uint64, error)) (*Store, error) {
	if path == "" || path == ":memory:" || strings.HasPrefix(path, "file:") || strings.Contains(path, "?") {
		// Each pooled connection to ":memory:" would be a separate
		// database (memstore is the in-memory store); URIs and '?' would
		// mix with the driver's own query parameters.
		return nil, fmt.Errorf("sqlite: open %q: want a plain file path (use memstore for an in-memory store)", path)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// Before the file is touched, with SQLite's defaults: a full disk
	// would fail the first pragma with a vaguer "disk is full".
	if err := checkSpace(path, free, defaultPageSize, defaultAutocheckpoint); err != nil {
		return nil, err
	}

	writer, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	writer.SetMaxOpenConns(1)
	writer.SetMaxIdleConns(1)
	writer.SetConnMaxLifetime(0)
	writer.SetConnMaxIdleTime(0)
	// Then with the file's own page size (an existing file may have larger
	// pages) and the connection's autocheckpoint.
	pageSize, pages, err := walPragmas(ctx, writer)
	if err == nil {
		err = checkSpace(path, free, pageSize, pages)
	}
	if err != nil {
		writer.Close()
		var se *spaceError
		if errors.As(err, &se) {
			return nil, err
		}
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	if err := migrate(ctx, writer); err != nil {
		writer.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}

	// The reader opens only now: the file is in WAL mode and migrated, so
	// its connections find the schema they expect.
	reader, err := sql.Open("sqlite", dsn(path, true))
	if err != nil {
		writer.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	reader.SetMaxOpenConns(readers)
	reader.SetMaxIdleConns(readers)
	if err := reader.PingContext(ctx); err != nil {
		reader.Close()
		writer.Close()
		return nil, fmt.Errorf("sqlite: open %s: %w", path, err)
	}
	s := &Store{path: path, writer: writer, reader: reader}
	s.appends = group.New(s.commitAppends, group.Options{})
	return s, nil
}

// dsn builds the connection string. Every pragma is per connection except
// journal_mode=WAL, which is stored in the file (set again: harmless).
func dsn(path string, readOnly bool) string {
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	// FULL: fsync the WAL on every commit. NORMAL would be faster but may
	// lose the last commits on a power cut, and an acknowledged move must
	// survive.
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(ON)")
	if readOnly {
		q.Add("_pragma", "query_only(ON)")
	} else {
		q.Set("_txlock", "immediate")
	}
	// A plain path, not a file: URI: the driver strips the query before
	// SQLite sees the name, so no character of path needs escaping.
	return path + "?" + q.Encode()
}

// migrate applies pending migrations. goose runs each one in a transaction
// and records it in goose_db_version.
func migrate(ctx context.Context, db *sql.DB) error {
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS,
		goose.WithDisableGlobalRegistry(true), // only our files, never Go migrations registered elsewhere
	)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// Not p.Close: it would close db.
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	// A schema change is worth a line in the server's log; "nothing to
	// do" on every start is not.
	for _, r := range results {
		slog.Info("store: migrated", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// Path returns the database file's path (to reopen it).
func (s *Store) Path() string { return s.path }

// Close closes the database, after committing the appends already
// queued (later ones fail); the last connection checkpoints the WAL into
// the main file. Closing twice is harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.closeErr = errors.Join(s.appends.Close(), s.reader.Close(), s.writer.Close())
	})
	return s.closeErr
}

func (s *Store) wrap(op, id string, err error) error {
	return fmt.Errorf("sqlite: %s %q: %w", op, id, err)
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table) error {
	_, err := s.createTable(ctx, t, nil)
	return err
}

// createTable is CreateTable within caps (CreateTableCapped, limits.go).
func (s *Store) createTable(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	if err := check.Table(t); err != nil {
		return -1, fmt.Errorf("sqlite: create: %w", err)
	}
	if t.Version != 0 {
		return -1, fmt.Errorf("sqlite: create table %q: %w: version %d, want 0", t.ID, check.ErrInvalid, t.Version)
	}
	capped := -1
	err := s.write(ctx, func(tx *sql.Tx) error {
		var err error
		if capped, err = reachedCap(ctx, tx, caps); err != nil || capped >= 0 {
			return err
		}
		return insertTable(ctx, tx, t)
	})
	if err != nil {
		return -1, s.wrap("create table", t.ID, err)
	}
	return capped, nil
}

// insertTable writes a new table's row in tx: store.ErrExists if its ID
// is taken.
func insertTable(ctx context.Context, tx *sql.Tx, t store.Table) error {
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return err
	}
	// ON CONFLICT DO NOTHING (SQLite and PostgreSQL alike) turns a taken ID
	// into zero rows instead of a driver-specific constraint error.
	n, err := affected(tx.ExecContext(ctx, `
		INSERT INTO tables (id, game, options, settings, seed, seats, status, created_ms, updated_ms, version, result, creator, creator_addr, rematch, seen_ms)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?, ?)
		ON CONFLICT (id) DO NOTHING`,
		t.ID, t.Game, jsonText(t.Options), jsonText(t.Settings), int64(t.Seed), string(seats),
		t.Status, t.Created.UnixMilli(), t.Updated.UnixMilli(), resultText(t.Result), t.Creator, t.CreatorAddr, t.Rematch, msOrZero(t.Seen)))
	if err == nil && n == 0 {
		err = store.ErrExists
	}
	if err != nil {
		return err
	}
	return setTableAccounts(ctx, tx, t.ID, t.Seats, true)
}

// GetTable implements store.Store.
func (s *Store) GetTable(ctx context.Context, id string) (store.Table, error) {
	row := s.reader.QueryRowContext(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = ?`, id)
	t, err := scanTable(row)
	if errors.Is(err, sql.ErrNoRows) {
		return store.Table{}, s.wrap("table", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Table{}, s.wrap("table", id, err)
	}
	return t, nil
}

// UpdateTable implements store.Store.
func (s *Store) UpdateTable(ctx context.Context, t store.Table, f store.Fence) error {
	if err := check.Mutable(t); err != nil {
		return fmt.Errorf("sqlite: update: %w", err)
	}
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return s.wrap("update table", t.ID, err)
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		n, err := affected(tx.ExecContext(ctx, `
			UPDATE tables SET seats = ?, status = ?, settings = ?, result = ?, rematch = ?, seen_ms = ?, updated_ms = ? WHERE id = ?`,
			string(seats), t.Status, jsonText(t.Settings), resultText(t.Result), t.Rematch, msOrZero(t.Seen), t.Updated.UnixMilli(), t.ID))
		if err == nil && n == 0 {
			err = store.ErrNotFound
		}
		if err != nil {
			return err
		}
		if no, err := fenced(ctx, tx, t.ID, f); no || err != nil {
			return cmp.Or(err, store.ErrFenced)
		}
		return setTableAccounts(ctx, tx, t.ID, t.Seats, false)
	})
	if err != nil {
		return s.wrap("update table", t.ID, err)
	}
	return nil
}

// AppendMoves implements store.Store. The fence and version checks, the
// version bump and the inserts are one transaction, shared with the other
// appends that queued meanwhile (group commit: appends.go); it returns
// after that transaction's commit is fsynced. On an error other than
// ErrConflict, ErrFenced, ErrNotFound, a validation error or ctx's, re-read
// the table's Version before retrying: an I/O error at commit can leave it
// unknown whether the moves were written.
func (s *Store) AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, f store.Fence) error {
	if err := check.Moves(moves); err != nil {
		return fmt.Errorf("sqlite: append to %q: %w", id, err)
	}
	if err := s.appends.Submit(ctx, &appendReq{id: id, version: version, moves: moves, fence: f}); err != nil {
		return s.wrap("append to", id, err)
	}
	return nil
}

// Moves implements store.Store. One statement, so one snapshot: the LEFT
// JOIN yields no row for an absent table and a row of NULLs for a table
// without moves.
func (s *Store) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	rows, err := s.reader.QueryContext(ctx, `
		SELECT m.seat, m.at_ms, m.action
		FROM tables t LEFT JOIN moves m ON m.table_id = t.id
		WHERE t.id = ?
		ORDER BY m.idx`, id)
	if err != nil {
		return nil, s.wrap("moves of", id, err)
	}
	defer rows.Close()
	found := false
	out := []engine.LoggedMove{}
	for rows.Next() {
		found = true
		var (
			seat, at sql.NullInt64
			action   []byte
		)
		if err := rows.Scan(&seat, &at, &action); err != nil {
			return nil, s.wrap("moves of", id, err)
		}
		if !seat.Valid {
			continue // the table's row with no move joined
		}
		out = append(out, engine.LoggedMove{Seat: engine.Seat(seat.Int64), At: at.Int64, Action: action})
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("moves of", id, err)
	}
	if !found {
		return nil, s.wrap("moves of", id, store.ErrNotFound)
	}
	return out, nil
}

// where builds the FROM and WHERE clauses of f (" FROM tables WHERE ...").
// The columns of tables and table_accounts have distinct names, so the
// conditions (and callers' columns) need no table names.
func where(f store.Filter) (string, []any) {
	var (
		conds []string
		args  []any
	)
	from := " FROM tables"
	if f.Account != "" {
		// The account's few tables first (table_accounts' primary key
		// leads with the account), then their rows by id: CROSS JOIN
		// keeps SQLite's planner to that order, whose other choice, a
		// status index, would read every finished table.
		from = " FROM table_accounts CROSS JOIN tables"
		conds = append(conds, "account = ?", "table_id = id")
		args = append(args, f.Account)
	}
	if f.Game != "" {
		conds = append(conds, "game = ?")
		args = append(args, f.Game)
	}
	if len(f.Status) > 0 {
		conds = append(conds, "status IN (?"+strings.Repeat(", ?", len(f.Status)-1)+")")
		for _, st := range f.Status {
			args = append(args, st)
		}
	}
	if !f.OpenSince.IsZero() {
		conds = append(conds, "(status <> ? OR updated_ms >= ?)")
		args = append(args, store.StatusOpen, f.OpenSince.UnixMilli())
	}
	if !f.LiveSince.IsZero() {
		conds = append(conds, "(status <> ? OR updated_ms >= ?)")
		args = append(args, store.StatusLive, f.LiveSince.UnixMilli())
	}
	if !f.SeenSince.IsZero() {
		conds = append(conds, "(status <> ? OR updated_ms >= ? OR seen_ms >= ?)")
		args = append(args, store.StatusLive, f.SeenSince.UnixMilli(), f.SeenSince.UnixMilli())
	}
	if !f.CreatedSince.IsZero() {
		conds = append(conds, "created_ms >= ?")
		args = append(args, f.CreatedSince.UnixMilli())
	}
	if f.Creator != "" {
		conds = append(conds, "creator = ?")
		args = append(args, f.Creator)
	}
	if f.CreatorAddr != "" {
		conds = append(conds, "creator_addr = ?")
		args = append(args, f.CreatorAddr)
	}
	if len(conds) == 0 {
		return from, nil
	}
	return from + " WHERE " + strings.Join(conds, " AND "), args
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, f store.Filter) ([]store.Table, error) {
	cond, args := where(f)
	limit := f.Limit
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	q := `SELECT ` + tableColumns + cond
	if f.PerCreator > 0 {
		// Of the latest tables that match (the index's order, ids and
		// creators only), each creator's numbered, most recent first; a
		// table with no creator is its own. (Window functions: SQLite
		// 3.25+ and PostgreSQL alike.)
		q = `SELECT ` + tableColumns + ` FROM tables WHERE id IN (
			SELECT id FROM (
				SELECT id, updated_ms, ROW_NUMBER() OVER (
					PARTITION BY CASE WHEN creator = '' THEN id ELSE creator END
					ORDER BY updated_ms DESC, id) AS nth
				FROM (SELECT id, creator, updated_ms` + cond + ` ORDER BY updated_ms DESC, id LIMIT ?) AS latest
			) AS numbered WHERE nth <= ? ORDER BY updated_ms DESC, id LIMIT ?)`
		args = append(args, check.PerCreatorScan(limit), f.PerCreator, limit)
	}
	// Ties by id, so the order is the same on every call.
	q += " ORDER BY updated_ms DESC, id LIMIT ?"
	args = append(args, limit)

	rows, err := s.reader.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("sqlite: list: %w", err)
	}
	defer rows.Close()
	out := []store.Table{} // never nil: encodes as [] like memstore's
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("sqlite: list: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("sqlite: list: %w", err)
	}
	return out, nil
}

// Count implements store.Store.
func (s *Store) Count(ctx context.Context, f store.Filter) (int, error) {
	cond, args := where(f)
	var n int
	if err := s.reader.QueryRowContext(ctx, `SELECT COUNT(*)`+cond, args...).Scan(&n); err != nil {
		return 0, fmt.Errorf("sqlite: count: %w", err)
	}
	return n, nil
}

const tableColumns = `id, game, options, settings, seed, seats, status, created_ms, updated_ms, version, result, creator, creator_addr, rematch, seen_ms`

func scanTable(row interface{ Scan(...any) error }) (store.Table, error) {
	var (
		t                   store.Table
		options, settings   []byte
		seats, result       []byte
		seed                int64
		created, updated, v int64
		seen                int64
	)
	if err := row.Scan(&t.ID, &t.Game, &options, &settings, &seed, &seats, &t.Status, &created, &updated, &v, &result, &t.Creator, &t.CreatorAddr, &t.Rematch, &seen); err != nil {
		return store.Table{}, err
	}
	if len(result) > 0 {
		t.Result = new(engine.Result)
		if err := json.Unmarshal(result, t.Result); err != nil {
			return store.Table{}, fmt.Errorf("table %q: result: %w", t.ID, err)
		}
	}
	if err := json.Unmarshal(seats, &t.Seats); err != nil {
		return store.Table{}, fmt.Errorf("table %q: seats: %w", t.ID, err)
	}
	t.Options = check.Raw(options)
	t.Settings = check.Raw(settings)
	t.Seed = uint64(seed)
	t.Created = time.UnixMilli(created).UTC()
	t.Updated = time.UnixMilli(updated).UTC()
	t.Version = int(v)
	if seen != 0 {
		t.Seen = time.UnixMilli(seen).UTC()
	}
	return t, nil
}

// msOrZero is a time in UTC milliseconds, 0 for the zero time.
func msOrZero(tm time.Time) int64 {
	if tm.IsZero() {
		return 0
	}
	return tm.UnixMilli()
}

// resultText is a result as JSON TEXT, or NULL when there is none.
func resultText(r *engine.Result) any {
	if r == nil {
		return nil
	}
	b, err := json.Marshal(r)
	if err != nil {
		return nil // a Result is ints and bools: it always encodes
	}
	return string(b)
}

// jsonText is JSON as a TEXT value, or NULL when empty.
func jsonText(r json.RawMessage) any {
	if len(r) == 0 {
		return nil
	}
	return string(r)
}
