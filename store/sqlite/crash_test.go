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

// TestCrashChild is the child half of TestCrash: it appends batches forever
// and prints "ack V" once AppendMoves has returned for version V.
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
	ctx := context.Background()
	tb, err := s.GetTable(ctx, "crash")
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	v := tb.Version
	// Bounded: the parent kills it long before.
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); {
		n := batchAt(v)
		batch := make([]engine.LoggedMove, n)
		for k := range batch {
			batch[k] = crashMove(v + k)
		}
		if err := s.AppendMoves(ctx, "crash", v, batch, store.NoFence); err != nil {
			fmt.Println("error", err)
			os.Exit(2)
		}
		v += n
		fmt.Printf("ack %d\n", v) // os.Stdout is unbuffered: printed means written
	}
	os.Exit(3)
}

// TestCrash SIGKILLs a process that is appending moves, several times, and
// checks after each kill that every acknowledged move is there and that the
// log is a clean prefix ending on a batch boundary: no torn batch, no gap,
// no stray move.
func TestCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	path := filepath.Join(t.TempDir(), "crash.db")
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	if err := s.CreateTable(context.Background(), store.Table{ID: "crash", Game: "g", Status: store.StatusLive, Created: now, Updated: now}); err != nil {
		t.Fatal(err)
	}
	s.Close()

	rng := rand.New(rand.NewPCG(1, 2))
	version := 0
	for round := range 8 {
		killAfter := 5 + rng.IntN(35) // acks before the kill
		acked := runAndKill(t, path, killAfter, time.Duration(rng.IntN(3000))*time.Microsecond)
		if acked < version+killAfter {
			t.Fatalf("round %d: child acknowledged up to %d, expected at least %d", round, acked, version+killAfter)
		}

		s, err := sqlite.Open(path)
		if err != nil {
			t.Fatalf("round %d: reopen after SIGKILL: %v", round, err)
		}
		ctx := context.Background()
		tb, err := s.GetTable(ctx, "crash")
		if err != nil {
			t.Fatal(err)
		}
		log, err := s.Moves(ctx, "crash")
		if err != nil {
			t.Fatal(err)
		}
		s.Close()
		if tb.Version != len(log) {
			t.Fatalf("round %d: Version %d but %d moves", round, tb.Version, len(log))
		}
		// At most the one batch committed after the last ack was printed.
		if len(log) < acked || len(log) > acked+batchAt(acked) {
			t.Fatalf("round %d: %d moves stored, %d acknowledged", round, len(log), acked)
		}
		if len(log) != acked && len(log) != acked+batchAt(acked) {
			t.Fatalf("round %d: log of %d moves ends inside a batch (last ack %d)", round, len(log), acked)
		}
		for i, m := range log {
			w := crashMove(i)
			if m.Seat != w.Seat || m.At != w.At || string(m.Action) != string(w.Action) {
				t.Fatalf("round %d: move %d is {%d %d %.40s...}, want {%d %d %.40s...}", round, i, m.Seat, m.At, m.Action, w.Seat, w.At, w.Action)
			}
		}
		integrityCheck(t, path)
		t.Logf("round %d: killed after %d acks; %d moves stored, %d acknowledged", round, killAfter, len(log), acked)
		version = len(log)
	}
}

// runAndKill starts the child, SIGKILLs it delay after its killAfter-th
// ack, and returns the last version it acknowledged.
func runAndKill(t *testing.T, path string, killAfter int, delay time.Duration) int {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestCrashChild$", "-test.count=1")
	cmd.Env = append(os.Environ(), crashEnv+"="+path)
	cmd.Stderr = os.Stderr
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	acked, acks := 0, 0
	var once sync.Once
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		line := sc.Text()
		if v, ok := strings.CutPrefix(line, "ack "); ok {
			n, err := strconv.Atoi(v)
			if err != nil {
				t.Fatalf("child said %q", line)
			}
			acked = n
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
