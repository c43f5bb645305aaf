// Package postgres is the store.Store for several server nodes sharing one
// PostgreSQL database (pgx/v5, a connection pool). The schema is the same
// goose migrations as SQLite's (store/migrations), run with goose's
// Postgres dialect under a session lock (an advisory lock), so nodes
// starting at once migrate once.
//
// Durability: every write is a transaction committed with
// synchronous_commit on (Open sets it unless the URL chooses), so a commit
// has reached the WAL on disk (and the synchronous standbys, if any)
// before AppendMoves returns.
//
// Concurrency: transactions run at READ COMMITTED, and every
// read-modify-write locks what it depends on (a row lock, or a conditional
// UPDATE that PostgreSQL re-checks on the newest row version), so writes
// from many nodes never lose one another. Fences are explained in lease.go.
package postgres

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgxpool"
	"github.com/jackc/pgx/v5/stdlib"
	"github.com/pressly/goose/v3"
	"github.com/pressly/goose/v3/lock"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
	"github.com/dicehall/dicehall/store/internal/group"
	"github.com/dicehall/dicehall/store/migrations"
)

// Store is the PostgreSQL store.Store.
type Store struct {
	pool    *pgxpool.Pool
	appends *group.Committer[*appendReq] // AppendMoves' group commit (appends.go)

	closeOnce sync.Once
}

var _ store.Store = (*Store)(nil)

// IsURL reports whether a --db value names a PostgreSQL database
// (postgres:// or postgresql://) rather than a SQLite file.
func IsURL(db string) bool {
	return strings.HasPrefix(db, "postgres://") || strings.HasPrefix(db, "postgresql://")
}

// Redact is a database URL with its password replaced by "xxxxx", for logs
// and messages.
func Redact(dbURL string) string {
	u, err := url.Parse(dbURL)
	if err != nil {
		return "postgres://(unparsable URL)"
	}
	// libpq also takes passwords as parameters.
	q := u.Query()
	for _, k := range []string{"password", "sslpassword"} {
		if q.Has(k) {
			q.Set(k, "xxxxx")
			u.RawQuery = q.Encode()
		}
	}
	return u.Redacted()
}

// Open connects to the database at dbURL (postgres://user:pass@host/db?…,
// libpq's parameters and pgxpool's pool_* ones) and brings its schema up
// to date.
func Open(ctx context.Context, dbURL string) (*Store, error) {
	cfg, err := pgxpool.ParseConfig(dbURL)
	if err != nil {
		// pgx's message may quote the URL, password and all.
		return nil, fmt.Errorf("postgres: open %s: cannot parse the URL", Redact(dbURL))
	}
	if _, ok := cfg.ConnConfig.RuntimeParams["synchronous_commit"]; !ok {
		// A server configured with it off would lose acknowledged moves
		// on a crash.
		cfg.ConnConfig.RuntimeParams["synchronous_commit"] = "on"
	}
	if cfg.ConnConfig.ConnectTimeout == 0 {
		// Without connect_timeout an unreachable host would hold a
		// starting server for as long as TCP retries.
		cfg.ConnConfig.ConnectTimeout = 10 * time.Second
	}
	if !strings.Contains(dbURL, "pool_max_conns") {
		// Each commit waits for its WAL flush; PostgreSQL flushes the
		// commits that wait together at once, so more connections than
		// cores means more writes per flush. (Appends share one at a
		// time: their group commit, appends.go.)
		cfg.MaxConns = int32(max(16, 4*runtime.NumCPU()))
	}
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
	if err != nil {
		return nil, fmt.Errorf("postgres: open %s: %w", Redact(dbURL), err)
	}
	if err := migrate(ctx, pool); err != nil {
		pool.Close()
		return nil, fmt.Errorf("postgres: open %s: %w", Redact(dbURL), err)
	}
	s := &Store{pool: pool}
	s.appends = group.New(s.commitAppends, group.Options{})
	return s, nil
}

// migrate applies pending migrations, holding goose's advisory lock for
// the session: a node that starts while another migrates waits, then finds
// nothing to do.
func migrate(ctx context.Context, pool *pgxpool.Pool) error {
	// Retried every second (goose's default is 5 s: a node starting
	// beside another would wait that long for a lock held a few ms), for
	// up to 5 minutes.
	locker, err := lock.NewPostgresSessionLocker(lock.WithLockTimeout(1, 300))
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	db := stdlib.OpenDBFromPool(pool)
	defer db.Close() // leaves the pool open
	p, err := goose.NewProvider(goose.DialectPostgres, db, migrations.FS,
		goose.WithDisableGlobalRegistry(true), // only our files
		goose.WithSessionLocker(locker),
	)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	// Checked without the lock, so nodes restarting on a database that is
	// up to date never wait for one another.
	pending, err := p.HasPending(ctx)
	if err != nil {
		return fmt.Errorf("migrations: %w", err)
	}
	if !pending {
		return nil
	}
	results, err := p.Up(ctx)
	if err != nil {
		return fmt.Errorf("migrate: %w", err)
	}
	for _, r := range results {
		slog.Info("store: migrated", "version", r.Source.Version, "file", r.Source.Path, "duration", r.Duration)
	}
	return nil
}

// Close commits the appends already queued, then closes the pool.
// Closing twice is harmless.
func (s *Store) Close() error {
	s.closeOnce.Do(func() {
		s.appends.Close()
		s.pool.Close()
	})
	return nil
}

func (s *Store) wrap(op, id string, err error) error {
	return fmt.Errorf("postgres: %s %q: %w", op, id, err)
}

// querier is what the pool and a transaction have in common.
type querier interface {
	Exec(ctx context.Context, sql string, args ...any) (pgconn.CommandTag, error)
	Query(ctx context.Context, sql string, args ...any) (pgx.Rows, error)
	QueryRow(ctx context.Context, sql string, args ...any) pgx.Row
}

// write runs fn in a READ COMMITTED transaction and commits it; an error
// or a panic from fn rolls it back.
func (s *Store) write(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.ReadCommitted}, fn)
}

// read runs fn in a read-only REPEATABLE READ transaction: its queries see
// one snapshot.
func (s *Store) read(ctx context.Context, fn func(tx pgx.Tx) error) error {
	return pgx.BeginTxFunc(ctx, s.pool, pgx.TxOptions{IsoLevel: pgx.RepeatableRead, AccessMode: pgx.ReadOnly}, fn)
}

// exists reports whether query (a SELECT of one row) finds a row.
func exists(ctx context.Context, q querier, query string, args ...any) (bool, error) {
	var one int
	err := q.QueryRow(ctx, query, args...).Scan(&one)
	if errors.Is(err, pgx.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// affected is the number of rows an Exec changed.
func affected(tag pgconn.CommandTag, err error) (int, error) {
	if err != nil {
		return 0, err
	}
	return int(tag.RowsAffected()), nil
}

// params numbers a query's arguments as they are added ($1, $2, …).
type params []any

func (p *params) add(v any) string {
	*p = append(*p, v)
	return "$" + strconv.Itoa(len(*p))
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table) error {
	_, err := s.createTable(ctx, t, nil)
	return err
}

// createTable is CreateTable within caps (CreateTableCapped, limits.go).
func (s *Store) createTable(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	if err := check.Table(t); err != nil {
		return -1, fmt.Errorf("postgres: create: %w", err)
	}
	if t.Version != 0 {
		return -1, fmt.Errorf("postgres: create table %q: %w: version %d, want 0", t.ID, check.ErrInvalid, t.Version)
	}
	capped := -1
	err := s.write(ctx, func(tx pgx.Tx) error {
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
func insertTable(ctx context.Context, tx pgx.Tx, t store.Table) error {
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return err
	}
	n, err := affected(tx.Exec(ctx, `
		INSERT INTO tables (id, game, options, settings, seed, seats, status, created_ms, updated_ms, version, result, creator, creator_addr, rematch, seen_ms)
		VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, 0, $10, $11, $12, $13, $14)
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
	t, err := scanTable(s.pool.QueryRow(ctx, `SELECT `+tableColumns+` FROM tables WHERE id = $1`, id))
	if errors.Is(err, pgx.ErrNoRows) {
		return store.Table{}, s.wrap("table", id, store.ErrNotFound)
	}
	if err != nil {
		return store.Table{}, s.wrap("table", id, err)
	}
	return t, nil
}

// UpdateTable implements store.Store. The fence is checked first, under a
// lock on the lease row that lasts until the commit (lease.go).
func (s *Store) UpdateTable(ctx context.Context, t store.Table, f store.Fence) error {
	if err := check.Mutable(t); err != nil {
		return fmt.Errorf("postgres: update: %w", err)
	}
	seats, err := json.Marshal(t.Seats)
	if err != nil {
		return s.wrap("update table", t.ID, err)
	}
	err = s.write(ctx, func(tx pgx.Tx) error {
		if err := fence(ctx, tx, t.ID, f); err != nil {
			return err
		}
		n, err := affected(tx.Exec(ctx, `
			UPDATE tables SET seats = $1, status = $2, settings = $3, result = $4, rematch = $5, seen_ms = $6, updated_ms = $7 WHERE id = $8`,
			string(seats), t.Status, jsonText(t.Settings), resultText(t.Result), t.Rematch, msOrZero(t.Seen), t.Updated.UnixMilli(), t.ID))
		if err == nil && n == 0 {
			err = store.ErrNotFound
		}
		if err != nil {
			return err
		}
		return setTableAccounts(ctx, tx, t.ID, t.Seats, false)
	})
	if err != nil {
		return s.wrap("update table", t.ID, err)
	}
	return nil
}

// appendSQL is one AppendMoves in one statement (alone, one round trip and
// its own implicit transaction; in a group commit, one statement of the
// batch's transaction: appends.go): the version check and bump (the
// UPDATE; a writer racing on the same version waits for the first one's
// row lock, and PostgreSQL then re-checks the condition on the row the
// first one committed, so exactly one of them matches), and the moves,
// inserted only if the UPDATE matched. It returns 1 when it wrote, 0 when
// it did not. The fenced form adds the lease check, FOR SHARE (lease.go).
const appendSQL = `
	WITH v AS (
		UPDATE tables SET version = version + cardinality($3::integer[])
		WHERE id = $1 AND version = $2 %s
		RETURNING id),
	ins AS (
		INSERT INTO moves (table_id, idx, seat, at_ms, action)
		SELECT v.id, $2 + m.n - 1, m.seat, m.at, m.action
		FROM v, unnest($3::integer[], $4::bigint[], $5::text[]) WITH ORDINALITY AS m(seat, at, action, n))
	SELECT count(*) FROM v`

var (
	appendUnfenced = fmt.Sprintf(appendSQL, "")
	appendFenced   = fmt.Sprintf(appendSQL, `AND EXISTS (
			SELECT 1 FROM leases WHERE table_id = $1 AND node = $6 AND epoch = $7 AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs+`
			FOR SHARE)`)
)

// AppendMoves implements store.Store: the fence, the version check and
// bump, and the inserts are one statement (appendSQL), run in one
// transaction with the other appends that queued meanwhile (group commit:
// appends.go), and acknowledged once that transaction's commit is durable.
// When it wrote nothing, a second look tells why. On an error other than
// ErrConflict, ErrFenced, ErrNotFound, a validation error or ctx's, re-read
// the table's Version before retrying: a connection lost during the commit
// leaves it unknown whether the moves were written.
func (s *Store) AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, f store.Fence) error {
	if err := check.Moves(moves); err != nil {
		return fmt.Errorf("postgres: append to %q: %w", id, err)
	}
	if err := s.appends.Submit(ctx, newAppendReq(ctx, id, version, moves, f)); err != nil {
		return s.wrap("append to", id, err)
	}
	return nil
}

// whyNotAppended says why an append wrote nothing, in the order a
// transaction would have found it: no table, the fence, the version. It
// reads after the fact, so a lease that lapsed meanwhile may turn a
// conflict into ErrFenced: either way nothing was written.
func whyNotAppended(ctx context.Context, q querier, id string, version int, f store.Fence) error {
	var stored int64
	err := q.QueryRow(ctx, `SELECT version FROM tables WHERE id = $1`, id).Scan(&stored)
	if errors.Is(err, pgx.ErrNoRows) {
		return store.ErrNotFound
	}
	if err != nil {
		return err
	}
	if !f.Zero() {
		ok, err := exists(ctx, q, `
			SELECT 1 FROM leases WHERE table_id = $1 AND node = $2 AND epoch = $3 AND state = '`+check.LeaseHeld+`' AND expires_ms > `+nowMs,
			id, f.Node, f.Epoch)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrFenced
		}
	}
	return fmt.Errorf("at version %d (stored %d): %w", version, stored, store.ErrConflict)
}

// Moves implements store.Store. One statement, so one snapshot: the LEFT
// JOIN yields no row for an absent table and a row of NULLs for a table
// without moves.
func (s *Store) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT m.seat, m.at_ms, m.action
		FROM tables t LEFT JOIN moves m ON m.table_id = t.id
		WHERE t.id = $1
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
			seat   *int32
			at     *int64
			action []byte
		)
		if err := rows.Scan(&seat, &at, &action); err != nil {
			return nil, s.wrap("moves of", id, err)
		}
		if seat == nil {
			continue // the table's row with no move joined
		}
		out = append(out, engine.LoggedMove{Seat: engine.Seat(*seat), At: *at, Action: action})
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("moves of", id, err)
	}
	if !found {
		return nil, s.wrap("moves of", id, store.ErrNotFound)
	}
	return out, nil
}

// where builds the FROM and WHERE clauses of f (" FROM tables WHERE ..."),
// adding its arguments to p.
func where(f store.Filter, p *params) string {
	var conds []string
	from := " FROM tables"
	if f.Account != "" {
		from = " FROM table_accounts JOIN tables ON table_id = id"
		conds = append(conds, "account = "+p.add(f.Account))
	}
	if f.Game != "" {
		conds = append(conds, "game = "+p.add(f.Game))
	}
	if len(f.Status) > 0 {
		conds = append(conds, "status = ANY("+p.add(f.Status)+")")
	}
	if !f.OpenSince.IsZero() {
		conds = append(conds, "(status <> "+p.add(store.StatusOpen)+" OR updated_ms >= "+p.add(f.OpenSince.UnixMilli())+")")
	}
	if !f.LiveSince.IsZero() {
		conds = append(conds, "(status <> "+p.add(store.StatusLive)+" OR updated_ms >= "+p.add(f.LiveSince.UnixMilli())+")")
	}
	if !f.SeenSince.IsZero() {
		since := p.add(f.SeenSince.UnixMilli())
		conds = append(conds, "(status <> "+p.add(store.StatusLive)+" OR updated_ms >= "+since+" OR seen_ms >= "+since+")")
	}
	if !f.CreatedSince.IsZero() {
		conds = append(conds, "created_ms >= "+p.add(f.CreatedSince.UnixMilli()))
	}
	if f.Creator != "" {
		conds = append(conds, "creator = "+p.add(f.Creator))
	}
	if f.CreatorAddr != "" {
		conds = append(conds, "creator_addr = "+p.add(f.CreatorAddr))
	}
	if len(conds) == 0 {
		return from
	}
	return from + " WHERE " + strings.Join(conds, " AND ")
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, f store.Filter) ([]store.Table, error) {
	var p params
	cond := where(f, &p)
	limit := f.Limit
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	q := `SELECT ` + tableColumns + cond
	if f.PerCreator > 0 {
		// Of the latest tables that match, each creator's numbered, most
		// recent first; a table with no creator is its own.
		q = `SELECT ` + tableColumns + ` FROM tables WHERE id IN (
			SELECT id FROM (
				SELECT id, updated_ms, ROW_NUMBER() OVER (
					PARTITION BY CASE WHEN creator = '' THEN id ELSE creator END
					ORDER BY updated_ms DESC, id) AS nth
				FROM (SELECT id, creator, updated_ms` + cond + ` ORDER BY updated_ms DESC, id LIMIT ` + p.add(check.PerCreatorScan(limit)) + `) AS latest
			) AS numbered WHERE nth <= ` + p.add(f.PerCreator) + ` ORDER BY updated_ms DESC, id LIMIT ` + p.add(limit) + `)`
	}
	// Ties by id, so the order is the same on every call.
	q += " ORDER BY updated_ms DESC, id LIMIT " + p.add(limit)

	rows, err := s.pool.Query(ctx, q, p...)
	if err != nil {
		return nil, fmt.Errorf("postgres: list: %w", err)
	}
	defer rows.Close()
	out := []store.Table{}
	for rows.Next() {
		t, err := scanTable(rows)
		if err != nil {
			return nil, fmt.Errorf("postgres: list: %w", err)
		}
		out = append(out, t)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("postgres: list: %w", err)
	}
	return out, nil
}

// Count implements store.Store.
func (s *Store) Count(ctx context.Context, f store.Filter) (int, error) {
	var p params
	cond := where(f, &p)
	var n int
	if err := s.pool.QueryRow(ctx, `SELECT COUNT(*)`+cond, p...).Scan(&n); err != nil {
		return 0, fmt.Errorf("postgres: count: %w", err)
	}
	return n, nil
}

const tableColumns = `id, game, options, settings, seed, seats, status, created_ms, updated_ms, version, result, creator, creator_addr, rematch, seen_ms`

func scanTable(row pgx.Row) (store.Table, error) {
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
	t.Seen = fromMs(seen)
	return t, nil
}

// msOrZero is a time in UTC milliseconds, 0 for the zero time.
func msOrZero(tm time.Time) int64 {
	if tm.IsZero() {
		return 0
	}
	return tm.UnixMilli()
}

// fromMs is a stored time: UTC, the zero time for 0 (not recorded).
func fromMs(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
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
