package sqlite_test

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
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
// and prints "ack TABLE V" once AppendMoves has returned for version V.
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
	var out sync.Mutex
	for _, id := range ids {
		go func() {
			ctx := context.Background()
			tb, err := s.GetTable(ctx, id)
			if err != nil {
				fmt.Println("error", err)
				os.Exit(2)
			}
			v := tb.Version
			for {
				n := batchAt(v)
				batch := make([]engine.LoggedMove, n)
				for k := range batch {
					batch[k] = crashMove(v + k)
				}
				if err := s.AppendMoves(ctx, id, v, batch, store.NoFence); err != nil {
					fmt.Println("error", err)
					os.Exit(2)
				}
				v += n
				out.Lock()
				fmt.Printf("ack %s %d\n", id, v) // os.Stdout is unbuffered: printed means written
				out.Unlock()
			}
		}()
	}
	// Bounded: the parent kills it long before.
	time.Sleep(30 * time.Second)
	os.Exit(3)
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
	stored := map[string]int{}
	for round := range rounds {
		killAfter := 5 + rng.IntN(35)*len(ids) // acks before the kill
		acked := runAndKill(t, path, len(ids), killAfter, time.Duration(rng.IntN(3000))*time.Microsecond)

		s, err := sqlite.Open(path)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		total, ackedTotal := 0, 0
		for _, id := range ids {
			n := checkCrashLog(t, s, round, id, acked[id])
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

// checkCrashLog checks table id's log after a kill, given the last
// version acknowledged for it, and returns its length.
func checkCrashLog(t *testing.T, s *sqlite.Store, round int, id string, acked int) int {
	t.Helper()
	ctx := context.Background()
	tb, err := s.GetTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	log, err := s.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if tb.Version != len(log) {
		t.Fatalf("round %d: %s: Version %d but %d moves", round, id, tb.Version, len(log))
	}
	// At most the one batch committed after the last ack was printed.
	if len(log) < acked || len(log) > acked+batchAt(acked) {
		t.Fatalf("round %d: %s: %d moves stored, %d acknowledged", round, id, len(log), acked)
	}
	if len(log) != acked && len(log) != acked+batchAt(acked) {
		t.Fatalf("round %d: %s: log of %d moves ends inside a batch (last ack %d)", round, id, len(log), acked)
	}
	for i, m := range log {
		w := crashMove(i)
		if m.Seat != w.Seat || m.At != w.At || string(m.Action) != string(w.Action) {
			t.Fatalf("round %d: %s: move %d is {%d %d %.40s...}, want {%d %d %.40s...}", round, id, i, m.Seat, m.At, m.Action, w.Seat, w.At, w.Action)
		}
	}
	return len(log)
}

// runAndKill starts the child on tables tables, SIGKILLs it delay after
// its killAfter-th ack, and returns the last version it acknowledged of
// each table.
func runAndKill(t *testing.T, path string, tables, killAfter int, delay time.Duration) map[string]int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	if tables > 1 {
		cmd.Env = append(cmd.Env, crashTablesEnv+"="+strconv.Itoa(tables))
	}
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked, acks := map[string]int{}, 0
	var once sync.Once
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if rest, ok := strings.CutPrefix(line, "ack "); ok {
			id, v, _ := strings.Cut(rest, " ")
			n, err := strconv.Atoi(v)
			if err != nil || n < acked[id] {
				t.Fatalf("child said %q after acknowledging %d", line, acked[id])
			}
			acked[id] = n
			if acks++; acks == killAfter {
				once.Do(func() {
					// Kill from another goroutine so acks printed
					// meanwhile are still read and counted.
					time.AfterFunc(delay, func() { cmd.Process.Signal(syscall.SIGKILL) })
				})
			}
			continue
		}
		if strings.HasPrefix(line, "error") {
			cmd.Process.Kill()
			cmd.Wait()
			t.Fatalf("child: %s", line)
		}
	}
	err = cmd.Wait()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.Sys().(syscall.WaitStatus).Signal() != syscall.SIGKILL {
		t.Fatalf("child ended with %v, want killed by SIGKILL", err)
	}
	if acks < killAfter {
		t.Fatalf("child acknowledged %d batches before it died, expected at least %d", acks, killAfter)
	}
	return acked
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
