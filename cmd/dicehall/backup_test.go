package main

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/sqlite"
)

// TestBackupWhileServing: `dicehall backup` copies the database a running
// server is using; the copy opens and holds the table made before it.
func TestBackupWhileServing(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	dir := t.TempDir()
	db := filepath.Join(dir, "dicehall.db")
	s := startServe(t, buildDicehall(t), db)
	resp, err := http.Post(s.url+"/api/tables", "application/json",
		strings.NewReader(`{"game":"dicestars","name":"ann","seats":[{"kind":"human"},{"kind":"human"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated {
		t.Fatalf("create: %d", resp.StatusCode)
	}

	out := filepath.Join(dir, "copy.db")
	if msg, code := runDicehall(t, "", "backup", "--db", db, out); code != 0 || !strings.Contains(msg, "backed up") {
		t.Fatalf("backup: %d %s", code, msg)
	}
	if _, code := runDicehall(t, "", "backup", "--db", db, out); code == 0 {
		t.Error("a backup over an existing file succeeded")
	}
	if _, code := runDicehall(t, "", "backup", "--db", filepath.Join(dir, "none.db"), filepath.Join(dir, "x.db")); code == 0 {
		t.Error("a backup of a missing database succeeded")
	}
	st, err := sqlite.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if n, err := st.Count(context.Background(), store.Filter{}); err != nil || n != 1 {
		t.Errorf("the copy holds %d tables (%v), want 1", n, err)
	}
}
