package sqlite_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/group/grouptest"
	"github.com/dicehall/dicehall/store/sqlite"
)

// crashEnv names the database the crash child writes to; set only in the
// child process.
const crashEnv = "DICEHALL_SQLITE_CRASH_DB"

// crashMove is move i of the crash test's log: a function of i alone, padded
// so a batch spans several database pages (a torn write would show).
func crashMove(i int) engine.LoggedMove {
	return engine.LoggedMove{
		Seat:   engine.Seat(i % 3),
		At:     int64(i),
		Action: json.RawMessage(fmt.Sprintf(`{"i":%d,"pad":%q}`, i, strings.Repeat(strconv.Itoa(i%10), 1500))),
	}
}

// batchAt is how many moves the child appends at version v; the sizes are
// fixed so the parent knows every version a batch can end at.
func batchAt(v int) int { return 1 + v%4 }

// crashTablesEnv, in the child, is how many tables it appends to at once
// (crash0, crash1, ...); unset: the one table "crash".
const crashTablesEnv = "DICEHALL_SQLITE_CRASH_TABLES"

// TestCrashChild is the child half of TestCrash and TestCrashGroupCommit:
// it appends batches forever, to each table from a goroutine of its own,
// printing an ack for each (grouptest.AppendForever).
func TestCrashChild(t *testing.T) {
	path := os.Getenv(crashEnv)
	if path == "" {
		t.Skip("runs only as TestCrash's child process")
	}
	s, err := sqlite.Open(path)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	ids := []string{"crash"}
	if n, _ := strconv.Atoi(os.Getenv(crashTablesEnv)); n > 0 {
		ids = crashTables(n)
	}
	grouptest.AppendForever(s, ids, batchAt, crashMove)
}

func crashTables(n int) []string {
	ids := make([]string, n)
	for i := range ids {
		ids[i] = fmt.Sprintf("crash%d", i)
	}
	return ids
}

// TestCrash SIGKILLs a process that is appending moves, several times, and
// checks after each kill that every acknowledged move is there and that the
// log is a clean prefix ending on a batch boundary: no torn batch, no gap,
// no stray move.
func TestCrash(t *testing.T) { crashRounds(t, []string{"crash"}, 8) }

// TestCrashGroupCommit is TestCrash with 16 tables written at once, so
// their appends share transactions and fsyncs (group commit): a kill
// between a batch's commit and its callers' acks, or during the commit,
// must still lose no acknowledged move of any table.
func TestCrashGroupCommit(t *testing.T) { crashRounds(t, crashTables(16), 6) }

func crashRounds(t *testing.T, ids []string, rounds int) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	for _, id := range ids {
		if err := s.CreateTable(context.Background(), store.Table{ID: id, Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
			t.Fatal(err)
		}
	}
	s.Close()

	rng := rand.New(rand.NewPCG(1, uint64(len(ids))))
	stored, acked := map[string]int{}, map[string]int{}
	env := []string{crashEnv + "=" + path, crashTablesEnv + "=" + strconv.Itoa(len(ids))}
	if len(ids) == 1 {
		env = env[:1]
	}
	for round := range rounds {
		killAfter := 5 + rng.IntN(35)*len(ids) // acks before the kill
		grouptest.KillChild(t, "TestCrashChild", env, acked, killAfter, time.Duration(rng.IntN(3000))*time.Microsecond)

		s, err := sqlite.Open(path)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		total, ackedTotal := 0, 0
		for _, id := range ids {
			n := grouptest.CheckCrashedLog(t, s, id, acked[id], batchAt, crashMove)
			if n < stored[id] {
				t.Fatalf("round %d: %s has %d moves, had %d", round, id, n, stored[id])
			}
			stored[id] = n
			total += n
			ackedTotal += acked[id]
		}
		s.Close()
		integrityCheck(t, path)
		t.Logf("round %d: killed after %d acks; %d moves stored, %d acknowledged", round, killAfter, total, ackedTotal)
	}
}

// integrityCheck runs SQLite's own consistency check on the file.
func integrityCheck(t *testing.T, path string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var res string
	if err := db.QueryRow("PRAGMA integrity_check").Scan(&res); err != nil {
		t.Fatal(err)
	}
	if res != "ok" {
		t.Fatalf("integrity_check: %s", res)
	}
}

// TestTwoHandles: two Stores on one file (as two server processes would be)
// race on the same version; busy_timeout and BEGIN IMMEDIATE make exactly one
// win and the other see ErrConflict, never SQLITE_BUSY.
func TestTwoHandles(t *testing.T) {
	path := filepath.Join(t.TempDir(), "two.db")
	a, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	b, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	ctx := context.Background()
	now := time.Now()
	if err := a.CreateTable(ctx, store.Table{ID: "t", Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
		t.Fatal(err)
	}
	if _, err := b.GetTable(ctx, "t"); err != nil {
		t.Fatalf("second handle does not see the table: %v", err)
	}
	stores := []*sqlite.Store{a, b}
	v := 0
	for round := range 20 {
		errs := make([]error, 4)
		var wg sync.WaitGroup
		for w := range errs {
			wg.Go(func() {
				errs[w] = stores[w%2].AppendMoves(ctx, "t", v, []engine.LoggedMove{crashMove(v)}, store.NoFence)
			})
		}
		wg.Wait()
		wins := 0
		for w, err := range errs {
			if err == nil {
				wins++
			} else if !errors.Is(err, store.ErrConflict) {
				t.Fatalf("round %d writer %d: %v", round, w, err)
			}
		}
		if wins != 1 {
			t.Fatalf("round %d: %d writers won", round, wins)
		}
		v++
	}
	for _, s := range stores {
		log, err := s.Moves(ctx, "t")
		if err != nil || len(log) != v {
			t.Fatalf("Moves = %d, %v; want %d", len(log), err, v)
		}
	}
}
