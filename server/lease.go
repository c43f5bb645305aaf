package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dicehall/dicehall/store"
)

// Ownership across nodes. With Config.Cluster set, several servers share
// one store: a node runs a table's actor only while it holds the table's
// lease (store.LeaseStore), and every write of the table's row and moves
// carries the lease's fence, so a node that lost a table can never write
// it. Leases are renewed in bulk; a sweeper adopts the live tables whose
// node died or drained (their leases lapsed or were handed over), so bots
// and clocks go on within LeaseTTL + SweepEvery of a node's death.

// Cluster configures the server as one node of several.
type Cluster struct {
	// Node names this node (default: the host and process id). Each
	// start adds "~" and a random suffix (Server.Node tells the result),
	// so a node restarted under the same name never takes over the
	// leases of its previous run: those lapse and are adopted.
	Node string
	// LeaseTTL is how long a lease lasts unless renewed: 0 = 10s. Renewals
	// come every third of it.
	LeaseTTL time.Duration
	// SweepEvery is the pause between two sweeps for orphaned tables: 0 = 2s.
	SweepEvery time.Duration
	// NATS carries commands to a table's owner and the owner's updates
	// to the nodes holding the players' connections (bus.go); nil = none:
	// a table owned elsewhere cannot be reached from this node.
	NATS *nats.Conn
}

func (c *Cluster) defaults() {
	if c.Node == "" {
		host, _ := os.Hostname()
		if host == "" {
			host = "node"
		}
		c.Node = fmt.Sprintf("%s-%d", host, os.Getpid())
	}
	var b [3]byte
	_, _ = rand.Read(b[:])
	c.Node += "~" + hex.EncodeToString(b[:])
	setDefault(&c.LeaseTTL, 10*time.Second)
	setDefault(&c.SweepEvery, 2*time.Second)
}

// errRemote: another node owns the table.
type errRemote struct{ lease store.Lease }

func (e *errRemote) Error() string {
	return fmt.Sprintf("table %s is run by node %s", e.lease.Table, e.lease.Node)
}

// clustered reports whether the server shares its store with other nodes.
func (s *Server) clustered() bool { return s.cfg.Cluster != nil }

// Node is this node's name ("" when the server runs alone).
func (s *Server) Node() string {
	if !s.clustered() {
		return ""
	}
	return s.cfg.Cluster.Node
}

// acquire takes table id's lease for this node (a server alone needs
// none: the zero lease). Another node's live lease is *errRemote.
func (s *Server) acquire(ctx context.Context, id string) (store.Lease, error) {
	if !s.clustered() {
		return store.Lease{}, nil
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StoreTimeout)
	defer cancel()
	l, err := s.store.AcquireLease(ctx, id, s.cfg.Cluster.Node, s.cfg.Cluster.LeaseTTL)
	if errors.Is(err, store.ErrLeased) {
		return store.Lease{}, &errRemote{lease: l}
	}
	return l, err
}

// fence is what the table's writes carry: its lease's.
func (t *table) fence() store.Fence { return t.lease.Fence() }

// storeCtx bounds one store call of the actor: StoreTimeout, and no longer
// than the lease is known to be held (abandonWrites).
func (t *table) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(t.writes, t.s.cfg.StoreTimeout)
}

// abandonWrites gives up the actor's store calls under way and to come,
// and has the actor stop: its lease is lost (or may be: it was not renewed
// for a whole lease time). Any goroutine: the actor may be stuck in a
// call to a store that went silent, and see its inbox only after it.
func (t *table) abandonWrites(why string) {
	if t.lease.Epoch == 0 {
		return // no lease: nothing to lose
	}
	t.stopWriting()
	_ = t.post(func() { t.leaseLost(why) })
}

// leaseLost stops an actor whose lease another node has now (or that
// lapsed): it must not run the table any more. Its connections are told
// to come back, to whichever node runs the table then. Actor goroutine.
func (t *table) leaseLost(why string) {
	if t.lease.Epoch == 0 || t.lost.Swap(true) {
		return
	}
	t.log.Warn("table lease lost: the actor stops", "why", why, "epoch", t.lease.Epoch)
	t.s.drop(t)
	t.stop()
}

// drop removes a running actor from the table map (its lease is lost).
func (s *Server) drop(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
	}
}

// endLease ends an exiting actor's lease: released when it stopped for
// lack of anything to do; handed over, for another node to adopt at once,
// when this node is closing on a live table. A lost lease is not ours to
// end.
func (t *table) endLease(closing bool) {
	if t.lease.Epoch == 0 || t.lost.Load() {
		return
	}
	handOver := closing && t.live()
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	defer cancel()
	if err := t.s.store.EndLease(ctx, t.lease, handOver); err != nil {
		// It lapses by itself; the sweeper adopts it then if it is live.
		t.log.Warn("lease not ended", "err", err, "handOver", handOver)
	}
}

// keepLeases renews this node's leases in bulk, every third of the lease
// time, and stops the actors whose lease did not come back. When the
// store cannot be reached for a whole lease time, every lease has lapsed:
// all actors stop (their writes would be fenced anyway).
func (s *Server) keepLeases() {
	c := s.cfg.Cluster
	every := c.LeaseTTL / 3
	lastOK := time.Now()
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(every):
		}
		started := time.Now()
		ctx, cancel := context.WithTimeout(s.ctx, every)
		held, err := s.store.RenewLeases(ctx, c.Node, c.LeaseTTL)
		cancel()
		if err != nil {
			if s.ctx.Err() != nil {
				return
			}
			s.log.Error("leases not renewed", "err", err, "since", time.Since(lastOK).Round(time.Millisecond))
			if time.Since(lastOK) >= c.LeaseTTL {
				for _, t := range s.runningTables() {
					t.abandonWrites("the store could not be reached to renew the lease")
				}
			}
			continue
		}
		lastOK = started
		keep := make(map[string]int64, len(held))
		for _, l := range held {
			keep[l.Table] = l.Epoch
		}
		for _, t := range s.runningTables() {
			// A lease taken after the renewal began may not be in it.
			if t.lease.Epoch != 0 && t.leasedAt.Before(started) && keep[t.id] != t.lease.Epoch {
				t.abandonWrites("the lease was not renewed")
			}
		}
	}
}

// sweepOrphans adopts, every SweepEvery, the live tables whose node died
// or drained: their actors start here (and stop again at once if they have
// nothing to do).
func (s *Server) sweepOrphans() {
	c := s.cfg.Cluster
	for {
		select {
		case <-s.ctx.Done():
			return
		case <-time.After(c.SweepEvery):
		}
		ctx, cancel := context.WithTimeout(s.ctx, s.cfg.StoreTimeout)
		orphans, err := s.store.Orphans(ctx, 50)
		cancel()
		if err != nil {
			if s.ctx.Err() == nil {
				s.log.Error("orphan sweep", "err", err)
			}
			continue
		}
		for _, o := range orphans {
			if s.adopt(o) {
				s.tookOver(o)
			}
		}
	}
}

// adopt starts an orphaned table here; false when another node got it
// first or it could not be loaded.
func (s *Server) adopt(o store.Lease) bool {
	_, release, err := s.actor(s.ctx, o.Table)
	var remote *errRemote
	switch {
	case errors.As(err, &remote):
		return false
	case err != nil:
		if s.ctx.Err() == nil {
			s.log.Error("orphaned table not adopted", "table", o.Table, "err", err)
		}
		return false
	}
	release()
	return true
}

// tookOver records a table adopted from a node that died or drained.
func (s *Server) tookOver(o store.Lease) {
	s.metrics.leaseTakeover()
	s.log.Info("table adopted", "table", o.Table, "from", o.Node, "epoch", o.Epoch+1)
}

// runningTables lists the actors in memory.
func (s *Server) runningTables() []*table {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		out = append(out, t)
	}
	return out
}
