package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store/postgres"
)

// TestServePostgres runs the real binary on a PostgreSQL database (--db
// postgres://…): a table made over HTTP is in the database, and the log
// names the database without its password.
func TestServePostgres(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	srv := testpg.New(t, testpg.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A role with a password (the test server trusts loopback and ignores
	// it, but the URL carries it as a production one would).
	const secret = "s3cret-pw"
	admin, err := pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"CREATE ROLE dh LOGIN PASSWORD '" + secret + "'", "CREATE DATABASE dh OWNER dh"} {
		if _, err := admin.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	admin.Close(ctx)
	url := fmt.Sprintf("postgres://dh:%s@127.0.0.1:%d/dh?sslmode=disable", secret, srv.Port())

	s := startServe(t, buildDicehall(t), url)
	resp, err := http.Post(s.url+"/api/tables", "application/json",
		strings.NewReader(`{"game":"dicestars","name":"ann","seats":[{"kind":"human"},{"kind":"human"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || created.ID == "" {
		t.Fatalf("create: %d", resp.StatusCode)
	}
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		s.exited <- err
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(serveWait):
		t.Fatal("serve did not stop on SIGTERM")
	}
	log := s.stderr.String()
	if strings.Contains(log, secret) {
		t.Errorf("the log shows the database password:\n%s", log)
	}
	if !strings.Contains(log, "postgres://dh:xxxxx@127.0.0.1") {
		t.Errorf("the log does not name the database:\n%s", log)
	}

	st, err := postgres.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tb, err := st.GetTable(ctx, created.ID)
	if err != nil || tb.Game != "dicestars" || len(tb.Seats) != 2 {
		t.Fatalf("the table in PostgreSQL: %+v, %v", tb, err)
	}
}

// TestBackupRefusesPostgres: backup copies SQLite files only, and says to
// use pg_dump for PostgreSQL, without repeating the password.
func TestBackupRefusesPostgres(t *testing.T) {
	backupDB = "postgres://dh:s3cret-pw@db.example/dh"
	defer func() { backupDB = "dicehall.db" }()
	err := backupCmd.RunE(backupCmd, []string{t.TempDir() + "/copy.db"})
	if err == nil || !strings.Contains(err.Error(), "pg_dump") || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("backup of a postgres URL: %v", err)
	}
}

// TestServeUnreachablePostgres: a database that cannot be reached stops
// serve, with an error that names it without its password.
func TestServeUnreachablePostgres(t *testing.T) {
	const url = "postgres://dh:s3cret-pw@127.0.0.1:1/dh?connect_timeout=2"
	if _, code := runDicehall(t, "", "serve", "--addr", "127.0.0.1:0", "--db", url); code == 0 {
		t.Fatal("serve on an unreachable database succeeded")
	}
	_, err := openStore(context.Background(), url)
	if err == nil || !strings.Contains(err.Error(), "postgres://dh:xxxxx@127.0.0.1:1/dh") || strings.Contains(err.Error(), "s3cret-pw") {
		t.Fatalf("openStore on an unreachable database: %v", err)
	}
}
