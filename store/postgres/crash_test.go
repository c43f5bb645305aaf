package postgres_test

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/group/grouptest"
	"github.com/dicehall/dicehall/store/postgres"
)

// killURLEnv is set only in TestKillChild's process: the database it
// appends to.
const killURLEnv = "DICEHALL_PG_KILL_URL"

const killTables = 16

// killStep is how many moves the child appends at version v of a table:
// 1 to 3, fixed, so the parent knows where every batch of moves ends.
func killStep(v int) int { return 1 + v%3 }

// killMove is move v of every table's log: a function of v alone, 1.5 kB.
func killMove(v int) engine.LoggedMove { return benchMove(v) }

// TestKillChild is TestKillClient's child: it appends to killTables
// tables at once, so their appends share batches (grouptest.AppendForever).
func TestKillChild(t *testing.T) {
	u := os.Getenv(killURLEnv)
	if u == "" {
		t.Skip("runs only as TestKillClient's child process")
	}
	s, err := postgres.Open(context.Background(), u)
	if err != nil {
		fmt.Println("error", err)
		os.Exit(2)
	}
	grouptest.AppendForever(s, killIDs(), killStep, killMove)
}

// TestKillClient SIGKILLs a process appending to many tables through the
// group committer, at random moments, several times; after each kill
// every acknowledged move is stored, and each log is a clean prefix that
// ends where an append ended (a batch committed whole or not at all; at
// most one unacknowledged append per table, the one whose commit the kill
// overtook). Killing PostgreSQL itself would test its WAL, not this store.
func TestKillClient(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes")
	}
	u := testpg.Start(t).CreateDB(t)
	s := killStore(t, u)
	rng := rand.New(rand.NewPCG(14, 1))
	acked := map[string]int{} // the last version acknowledged of each table, over all rounds
	for round := range 6 {
		grouptest.KillChild(t, "TestKillChild", []string{killURLEnv + "=" + u + "&application_name=" + killApp},
			acked, 10+rng.IntN(40)*killTables, time.Duration(rng.IntN(3000))*time.Microsecond)
		waitClientsGone(t, u)
		t.Logf("round %d: %s", round, checkKilled(t, s, acked))
	}
}

// killStore opens the store at u and makes the tables k0…k<killTables-1>.
func killStore(t *testing.T, u string) *postgres.Store {
	s := open(t, u)
	t.Cleanup(func() { s.Close() })
	grouptest.MakeTables(t, s, killIDs()...)
	return s
}

func killIDs() []string {
	ids := make([]string, killTables)
	for k := range ids {
		ids[k] = fmt.Sprint("k", k)
	}
	return ids
}

// checkKilled checks every table's log after a kill, given the last
// version acknowledged of each, and says how many moves are stored.
func checkKilled(t *testing.T, s *postgres.Store, acked map[string]int) string {
	t.Helper()
	stored, ackedMoves := 0, 0
	for _, id := range killIDs() {
		stored += grouptest.CheckCrashedLog(t, s, id, acked[id], killStep, killMove)
		ackedMoves += acked[id]
	}
	return fmt.Sprintf("%d moves stored, %d acknowledged", stored, ackedMoves)
}

// killApp names the child's sessions (application_name).
const killApp = "dicehall-kill-child"

// waitClientsGone waits until the killed child's sessions have ended on
// the server: a pipeline it sent whole may still be committing after the
// kill (allowed: it was never acknowledged), and must not land between
// the checks' reads or race the next child.
func waitClientsGone(t *testing.T, u string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close(ctx)
	for {
		var n int
		if err := c.QueryRow(ctx, `SELECT count(*) FROM pg_stat_activity WHERE application_name = $1`, killApp).Scan(&n); err != nil {
			t.Fatalf("%v (sessions of the killed child: %d)", err, n)
		}
		if n == 0 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestCrashServer crashes PostgreSQL under the group committer, several
// times: it SIGKILLs the server process of one of the store's sessions,
// so the postmaster ends every other, discards shared memory (the WAL
// buffers too) and recovers from the WAL on disk, as after a crash. The
// appends in flight fail (their outcome unknown); afterwards every
// acknowledged move is stored, and each log ends where an append ended.
// An append acknowledged before its commit was in the WAL would be lost
// (and is, with synchronous_commit off).
func TestCrashServer(t *testing.T) {
	if testing.Short() {
		t.Skip("crashes a server of its own")
	}
	srv := testpg.New(t, testpg.Options{Durable: true}) // not the shared one: the crash ends every session
	u := srv.CreateDB(t) + "&application_name=" + killApp
	killStore(t, u).Close()
	rng := rand.New(rand.NewPCG(14, 2))
	acked := map[string]int{}
	for round := range 3 {
		failed := crashUnder(t, u, acked, 10+rng.IntN(40)*killTables, time.Duration(rng.IntN(3000))*time.Microsecond)
		waitRecovered(t, u)
		s := open(t, u) // a fresh pool: the old one's connections died in the crash
		t.Logf("round %d: %s; %d appends failed in the crash", round, checkKilled(t, s, acked), failed)
		s.Close()
	}
}

// crashUnder appends to every table at once through a store on u,
// recording each table's last acknowledged version in acked, and crashes
// the server delay after the acks-th acknowledgement. It returns how many
// appends failed (in the crash).
func crashUnder(t *testing.T, u string, acked map[string]int, acks int, delay time.Duration) (failed int) {
	t.Helper()
	ctx := context.Background()
	s := open(t, u)
	defer s.Close()
	var (
		mu      sync.Mutex
		seen    int
		crashed bool
		reached = make(chan struct{})
		wg      sync.WaitGroup
	)
	for _, id := range killIDs() {
		wg.Go(func() {
			tb, err := s.GetTable(ctx, id)
			if err != nil {
				t.Error(err)
				return
			}
			for v := tb.Version; ; v += killStep(v) {
				moves := make([]engine.LoggedMove, killStep(v))
				for i := range moves {
					moves[i] = killMove(v + i)
				}
				err := s.AppendMoves(ctx, id, v, moves, store.NoFence)
				mu.Lock()
				switch {
				case err != nil && !crashed:
					t.Errorf("append to %s before the crash: %v", id, err)
				case err != nil:
					failed++
				default:
					acked[id] = v + len(moves)
					if seen++; seen == acks {
						close(reached)
					}
				}
				stop := err != nil || crashed
				mu.Unlock()
				if stop {
					return
				}
			}
		})
	}
	<-reached
	time.Sleep(delay)
	c, err := pgx.Connect(ctx, u)
	if err != nil {
		t.Fatal(err)
	}
	// The busiest of the store's sessions: the committer's, most likely
	// in the middle of a batch.
	var pid int
	err = c.QueryRow(ctx, `SELECT pid FROM pg_stat_activity WHERE application_name = $1 AND pid <> pg_backend_pid()
		ORDER BY state = 'active' DESC, state_change DESC LIMIT 1`, killApp).Scan(&pid)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	crashed = true
	mu.Unlock()
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	// The postmaster ends every session when it learns of the death: c's
	// too. Until then the others may still commit (and be acknowledged).
	for deadline := time.Now().Add(20 * time.Second); c.Ping(ctx) == nil; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the server did not crash")
		}
	}
	c.Close(ctx)
	wg.Wait()
	return failed
}

// waitRecovered waits until the crashed server accepts connections again
// (it refuses them until it has replayed its WAL).
func waitRecovered(t *testing.T, u string) {
	t.Helper()
	for deadline := time.Now().Add(60 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		c, err := pgx.Connect(context.Background(), u)
		if err == nil {
			c.Close(context.Background())
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("server not back after the crash: %v", err)
		}
	}
}
