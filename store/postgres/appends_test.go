package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/group/grouptest"
)

// TestOneBatch: the appends queued while the committer waits for a
// connection go in one batch, and each gets its own outcome
// (grouptest.OneBatch). With a move PostgreSQL itself rejects in the batch
// ("bad": not UTF-8, which json.Valid lets through), the transaction
// fails and every append runs again alone: only that one fails.
func TestOneBatch(t *testing.T) {
	for _, bad := range []bool{false, true} {
		t.Run(fmt.Sprint("bad=", bad), func(t *testing.T) {
			// One connection: holding it keeps the committer waiting.
			s, err := Open(context.Background(), testpg.Start(t).CreateDB(t)+"&pool_max_conns=1")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			hold := func() func() {
				conn, err := s.pool.Acquire(context.Background())
				if err != nil {
					t.Fatal(err)
				}
				return conn.Release
			}
			var extra []grouptest.Call
			if bad {
				extra = append(extra, grouptest.Call{ID: "bad", Want: grouptest.ErrAny,
					Moves: []engine.LoggedMove{{Action: []byte("{\"x\":\"\xff\"}")}}})
			}
			grouptest.OneBatch(t, s, s.appends, hold, extra...)
		})
	}
}

// TestAppendStress: writers racing on a few tables, some giving up at
// random moments; exactly the acknowledged appends are stored
// (grouptest.Stress).
func TestAppendStress(t *testing.T) {
	s, err := Open(context.Background(), testpg.Start(t).CreateDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	grouptest.Stress(t, s, s.appends)
}

// TestNoDeadlockWithRenewal: a batch of fenced appends holds its tables'
// lease rows (FOR SHARE) in table order until it commits, while the
// node's RenewLeases updates all those rows in one statement: unless both
// take them in the same order, each can hold a row the other waits for,
// and PostgreSQL breaks the deadlock after a second (deadlock_timeout) by
// failing one of them. None may happen.
func TestNoDeadlockWithRenewal(t *testing.T) {
	s, err := Open(context.Background(), testpg.Start(t).CreateDB(t))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	ctx := context.Background()
	const tables = 48
	ids := make([]string, tables)
	fences := make([]store.Fence, tables)
	for i := range ids {
		// Names whose order differs from the order they are created in
		// (the leases' physical order).
		ids[i] = fmt.Sprintf("%c%d", 'z'-i%26, i)
		grouptest.MakeTables(t, s, ids[i])
		l, err := s.AcquireLease(ctx, ids[i], "n1", time.Hour)
		if err != nil {
			t.Fatal(err)
		}
		fences[i] = l.Fence()
	}
	var deadlocks0 int64
	if err := s.pool.QueryRow(ctx, `SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&deadlocks0); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	var wg sync.WaitGroup
	renewals := 0
	wg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			if _, err := s.RenewLeases(ctx, "n1", time.Hour); err != nil {
				t.Errorf("renew: %v", err)
				return
			}
			renewals++
		}
	})
	var appends sync.WaitGroup
	rounds := 60
	if testing.Short() {
		rounds = 15
	}
	for i, id := range ids {
		appends.Go(func() {
			for v := range rounds {
				if err := s.AppendMoves(ctx, id, v, grouptest.Tagged(fmt.Sprint(id, v)), fences[i]); err != nil {
					t.Errorf("append to %s: %v", id, err)
					return
				}
			}
		})
	}
	appends.Wait()
	close(stop)
	wg.Wait()
	var deadlocks int64
	if err := s.pool.QueryRow(ctx, `SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()`).Scan(&deadlocks); err != nil {
		t.Fatal(err)
	}
	st := s.appends.Stats()
	t.Logf("%d renewals; %d appends in %d batches (largest %d); %d deadlocks", renewals, st.Requests, st.Batches, st.Largest, deadlocks-deadlocks0)
	if deadlocks != deadlocks0 {
		t.Fatalf("%d deadlocks between appends and renewals", deadlocks-deadlocks0)
	}
}
