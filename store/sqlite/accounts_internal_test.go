package sqlite

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

// TestAccountQueryPlans: the account queries that grow with the store use
// their indexes, not a scan of every table or rating.
func TestAccountQueryPlans(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	plan := func(q string, args ...any) string {
		t.Helper()
		rows, err := s.reader.QueryContext(ctx, "EXPLAIN QUERY PLAN "+q, args...)
		if err != nil {
			t.Fatal(err)
		}
		defer rows.Close()
		var lines []string
		for rows.Next() {
			var id, parent, unused int
			var detail string
			if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
				t.Fatal(err)
			}
			lines = append(lines, detail)
		}
		return strings.Join(lines, "\n")
	}
	cond, args := where(store.Filter{Account: "a", Status: []string{store.StatusOver}})
	for _, c := range []struct {
		name, q string
		args    []any
		want    []string // substrings of the plan
	}{
		{"List by account", `SELECT id` + cond + ` ORDER BY updated_ms DESC, id LIMIT 10`, args,
			[]string{"SEARCH table_accounts", "SEARCH tables USING INDEX sqlite_autoindex_tables_1 (id=?)"}},
		{"Leaderboard", `SELECT r.account, a.name FROM ratings r JOIN accounts a ON a.id = r.account
			WHERE r.game = ? AND r.games >= ? ORDER BY r.display DESC, r.games DESC, r.account LIMIT 10 OFFSET 0`,
			[]any{"g", 1}, []string{"ratings_leaderboard"}},
		{"DeleteAccount's tables", `SELECT t.id, t.seats FROM tables t JOIN table_accounts ta ON ta.table_id = t.id WHERE ta.account = ?`,
			[]any{"a"}, []string{"table_accounts"}},
		{"expired sessions", `DELETE FROM sessions WHERE expires_ms < ?`, []any{1}, []string{"sessions_expires"}},
		{"chat of an account", `UPDATE chat SET account = '', name = ? WHERE account = ? AND account <> ''`, []any{"x", "a"}, []string{"chat_account"}},
	} {
		p := plan(c.q, c.args...)
		for _, w := range c.want {
			if !strings.Contains(p, w) {
				t.Errorf("%s: plan does not use %s:\n%s", c.name, w, p)
			}
		}
		// The leaderboard reads a page in the index's order; an account's
		// tables (few) may be sorted.
		if c.name == "Leaderboard" && strings.Contains(p, "TEMP B-TREE") {
			t.Errorf("%s: sorts every match:\n%s", c.name, p)
		}
	}
}

// TestRatePanics: a RateFunc that panics rolls its transaction back and
// leaves the one writer connection free.
func TestRatePanics(t *testing.T) {
	s := openTemp(t)
	ctx := context.Background()
	now := time.Now()
	for _, id := range []string{"a", "b"} {
		if err := s.CreateAccount(ctx, store.Account{ID: id, Name: id, NameKey: id, Created: now}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.CreateTable(ctx, store.Table{ID: "t", Game: "g", Status: store.StatusOver, Created: now, Updated: now}); err != nil {
		t.Fatal(err)
	}
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("no panic")
			}
		}()
		s.RateTable(ctx, "t", "g", []string{"a", "b"}, now, func([]store.Rating) ([]store.Rating, error) { panic("rate") })
	}()
	wctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	ok, err := s.RateTable(wctx, "t", "g", []string{"a", "b"}, now, func(p []store.Rating) ([]store.Rating, error) { return p, nil })
	if err != nil || !ok {
		t.Fatalf("RateTable after a panic = %v, %v; want true, nil", ok, err)
	}
}

// TestRateTwoHandles: two Stores on one file (two processes, say) rating
// the same table: BEGIN IMMEDIATE makes the check and the mark one step,
// so one of them rates it.
func TestRateTwoHandles(t *testing.T) {
	s1 := openTemp(t)
	s2, err := Open(s1.Path())
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	ctx := context.Background()
	now := time.Now()
	if err := s1.CreateAccount(ctx, store.Account{ID: "a", Name: "a", NameKey: "a", Created: now}); err != nil {
		t.Fatal(err)
	}
	const tables = 8
	for i := range tables {
		if err := s1.CreateTable(ctx, store.Table{ID: string(rune('A' + i)), Game: "g", Status: store.StatusOver, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
	inc := func(p []store.Rating) ([]store.Rating, error) {
		return []store.Rating{{Mu: p[0].Mu + 1, Sigma: 1}}, nil
	}
	type res struct {
		ok  bool
		err error
	}
	out := make(chan res, 2*tables)
	for i := range tables {
		for _, s := range []*Store{s1, s2} {
			go func() {
				ok, err := s.RateTable(ctx, string(rune('A'+i)), "g", []string{"a"}, now, inc)
				out <- res{ok, err}
			}()
		}
	}
	wins := 0
	for range 2 * tables {
		r := <-out
		if r.err != nil {
			t.Fatal(r.err)
		}
		if r.ok {
			wins++
		}
	}
	rs, err := s2.Ratings(ctx, "a")
	if err != nil || wins != tables || len(rs) != 1 || rs[0].Games != tables || rs[0].Mu != tables {
		t.Fatalf("%d wins, ratings %+v, %v; want %d wins, %d games, μ %d", wins, rs, err, tables, tables, tables)
	}
}
