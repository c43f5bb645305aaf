package sqlite

import (
	"context"
	"testing"

	"github.com/dicehall/dicehall/store/internal/group/grouptest"
)

// TestOneBatch: appends queued while the writer is busy commit together in
// one transaction, each with its own outcome (grouptest.OneBatch).
func TestOneBatch(t *testing.T) {
	s := openTemp(t)
	// Hold the one writer connection: the committer cannot begin, so
	// every append waits in its queue.
	hold := func() func() {
		conn, err := s.writer.Conn(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return func() { conn.Close() } // back to the pool: the committer begins
	}
	grouptest.OneBatch(t, s, s.appends, hold)
}

// TestAppendStress: writers racing on a few tables, some giving up at
// random moments; exactly the acknowledged appends are stored
// (grouptest.Stress).
func TestAppendStress(t *testing.T) {
	s := openTemp(t)
	grouptest.Stress(t, s, s.appends)
}
