package testpg_test

import (
	"context"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/internal/testpg"
)

func TestMain(m *testing.M) { testpg.Main(m) }

// TestCreateDB: two databases on the shared server are apart, and each
// takes a connection.
func TestCreateDB(t *testing.T) {
	srv := testpg.Start(t)
	ctx := context.Background()
	a, b := srv.CreateDB(t), srv.CreateDB(t)
	if a == b {
		t.Fatalf("CreateDB gave %s twice", a)
	}
	for _, u := range []string{a, b} {
		c, err := pgx.Connect(ctx, u)
		if err != nil {
			t.Fatal(err)
		}
		var one int
		if err := c.QueryRow(ctx, "SELECT 1").Scan(&one); err != nil || one != 1 {
			t.Fatalf("SELECT 1 on %s = %d, %v", u, one, err)
		}
		c.Close(ctx)
	}
	if testpg.Start(t) != srv {
		t.Fatal("Start started a second shared server")
	}
}

// TestNewDurable: a server of a test's own, with fsync on, is stopped when
// the test ends.
func TestNewDurable(t *testing.T) {
	srv := testpg.New(t, testpg.Options{Durable: true})
	ctx := context.Background()
	c, err := pgx.Connect(ctx, srv.URL("postgres"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	var fsync string
	if err := c.QueryRow(ctx, "SHOW fsync").Scan(&fsync); err != nil || fsync != "on" {
		t.Fatalf("fsync = %q, %v; want on", fsync, err)
	}
}
