package sqlite

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/pressly/goose/v3"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/migrations"
)

func openTemp(t *testing.T) *Store {
	t.Helper()
	s, err := Open(filepath.Join(t.TempDir(), "d.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestPragmas checks the durability settings reach every connection of both
// pools: a pragma set on one connection only would silently weaken others.
func TestPragmas(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	want := map[string]string{
		"journal_mode": "wal",
		"synchronous":  "2", // FULL
		"foreign_keys": "1",
		"busy_timeout": "10000",
	}
	for _, pool := range []struct {
		name      string
		db        *sql.DB
		conns     int
		queryOnly string
	}{
		{"writer", s.writer, 1, "0"},
		{"reader", s.reader, readers, "1"},
	} {
		// Hold all the pool's connections at once so each is checked.
		var conns []*sql.Conn
		for range pool.conns {
			c, err := pool.db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			conns = append(conns, c)
		}
		for i, c := range conns {
			for name, w := range want {
				var got string
				if err := c.QueryRowContext(ctx, "PRAGMA "+name).Scan(&got); err != nil {
					t.Fatalf("%s conn %d: PRAGMA %s: %v", pool.name, i, name, err)
				}
				if got != w {
					t.Errorf("%s conn %d: %s = %s, want %s", pool.name, i, name, got, w)
				}
			}
			var qo string
			if err := c.QueryRowContext(ctx, "PRAGMA query_only").Scan(&qo); err != nil {
				t.Fatal(err)
			}
			if qo != pool.queryOnly {
				t.Errorf("%s conn %d: query_only = %s, want %s", pool.name, i, qo, pool.queryOnly)
			}
		}
		for _, c := range conns {
			c.Close()
		}
	}
}

// TestForeignKeys: a move can't point at a table that does not exist.
func TestForeignKeys(t *testing.T) {
	s := openTemp(t)
	_, err := s.writer.Exec(`INSERT INTO moves (table_id, idx, seat, at_ms, action) VALUES ('ghost', 0, 0, 0, '{}')`)
	if err == nil {
		t.Fatal("inserted a move for a table that does not exist")
	}
}

// TestReadsDuringWrite: WAL lets readers run while a write transaction holds
// the write lock; a read must not wait for the writer.
func TestReadsDuringWrite(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	tb := store.Table{ID: "r", Game: "g", Status: store.StatusLive, Created: time.Now(), Updated: time.Now()}
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	tx, err := s.writer.BeginTx(ctx, nil) // BEGIN IMMEDIATE: holds the write lock
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec(`UPDATE tables SET version = 99 WHERE id = 'r'`); err != nil {
		t.Fatal(err)
	}
	rctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	got, err := s.GetTable(rctx, "r")
	if err != nil {
		t.Fatalf("GetTable during a write transaction: %v", err)
	}
	if got.Version != 0 {
		t.Fatalf("read saw uncommitted version %d", got.Version)
	}
	if _, err := s.Moves(rctx, "r"); err != nil {
		t.Fatalf("Moves during a write transaction: %v", err)
	}
	// A write from this process waits in Go for the one writer connection
	// and gives up with its context.
	wctx, wcancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer wcancel()
	err = s.AppendMoves(wctx, "r", 0, []engine.LoggedMove{{Action: json.RawMessage(`{}`)}}, store.NoFence)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("AppendMoves while the writer is busy = %v, want a deadline error", err)
	}
}

// TestMigrations: the schema is at the newest version after Open, a second
// Open applies nothing, and every migration's Down undoes its Up (so a bad
// release can be rolled back with goose).
func TestMigrations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	for range 2 {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
	}
	db, err := sql.Open("sqlite", dsn(path, false))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	p, err := goose.NewProvider(goose.DialectSQLite3, db, migrations.FS, goose.WithDisableGlobalRegistry(true))
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sources := p.ListSources()
	if len(sources) == 0 {
		t.Fatal("no migrations embedded")
	}
	newest := sources[len(sources)-1].Version
	if v, err := p.GetDBVersion(ctx); err != nil || v != newest {
		t.Fatalf("db version %d, %v; want %d", v, err, newest)
	}
	if pending, err := p.HasPending(ctx); err != nil || pending {
		t.Fatalf("pending migrations after Open: %v, %v", pending, err)
	}
	if _, err := p.DownTo(ctx, 0); err != nil {
		t.Fatalf("down: %v", err)
	}
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE name IN ('tables', 'moves')`).Scan(&n); err != nil || n != 0 {
		t.Fatalf("after down: %d of our tables left, %v", n, err)
	}
	if _, err := p.Up(ctx); err != nil {
		t.Fatalf("up again: %v", err)
	}
}

func TestOpenErrors(t *testing.T) {
	for _, path := range []string{"", ":memory:", "file:x.db", "a?b.db", filepath.Join(t.TempDir(), "no", "such", "dir", "d.db")} {
		if s, err := Open(path); err == nil {
			s.Close()
			t.Errorf("Open(%q) succeeded", path)
		}
	}
}

// TestOddPath: characters that mean something in a URI are just part of a
// file name.
func TestOddPath(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a b%20#c&d=e.db")
	for i := range 2 {
		s, err := Open(path)
		if err != nil {
			t.Fatal(err)
		}
		// The second time the table is there: the same file was opened.
		err = s.CreateTable(context.Background(), store.Table{ID: "x", Game: "g", Status: store.StatusOpen})
		s.Close()
		if i == 0 && err != nil || i == 1 && !errors.Is(err, store.ErrExists) {
			t.Fatalf("open %d: CreateTable = %v", i, err)
		}
	}
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at the given path: %v", err)
	}
}
