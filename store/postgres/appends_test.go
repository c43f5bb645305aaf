package postgres

import (
	"context"
	"fmt"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/testpg"
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
