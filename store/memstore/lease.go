package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// lease is a table's lease row. ended: released or handed over.
type lease struct {
	node     string
	epoch    int64
	expires  time.Time
	ended    bool
	released bool // ended with nothing to run (not an orphan)
}

// now is the store's clock for leases (the process's: a memstore is
// shared by the nodes of one process only).
func (s *Store) now() time.Time { return check.Time(time.Now()) }

func (l *lease) live(now time.Time) bool { return l != nil && !l.ended && l.expires.After(now) }

func (e *entry) fenceHolds(f store.Fence, now time.Time) bool {
	if f.Zero() {
		return true
	}
	l := e.lease
	return l.live(now) && l.node == f.Node && l.epoch == f.Epoch
}

func (e *entry) leaseOut(id string) store.Lease {
	return store.Lease{Table: id, Node: e.lease.node, Epoch: e.lease.epoch, Expires: e.lease.expires}
}

// AcquireLease implements store.LeaseStore.
func (s *Store) AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (store.Lease, error) {
	if err := ctx.Err(); err != nil {
		return store.Lease{}, err
	}
	if err := check.LeaseArgs(node, ttl); err != nil {
		return store.Lease{}, fmt.Errorf("memstore: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return store.Lease{}, ErrClosed
	}
	e, ok := s.tables[id]
	if !ok {
		return store.Lease{}, fmt.Errorf("memstore: lease %q: %w", id, store.ErrNotFound)
	}
	now := s.now()
	switch l := e.lease; {
	case l.live(now) && l.node != node:
		return e.leaseOut(id), fmt.Errorf("memstore: lease %q: %w (%s)", id, store.ErrLeased, l.node)
	case l.live(now):
		l.expires = check.Time(now.Add(ttl))
	default:
		var epoch int64
		if l != nil {
			epoch = l.epoch
		}
		e.lease = &lease{node: node, epoch: epoch + 1, expires: check.Time(now.Add(ttl))}
	}
	return e.leaseOut(id), nil
}

// RenewLeases implements store.LeaseStore.
func (s *Store) RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := check.LeaseArgs(node, ttl); err != nil {
		return nil, fmt.Errorf("memstore: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, ErrClosed
	}
	now := s.now()
	out := []store.Lease{}
	for id, e := range s.tables {
		if l := e.lease; l.live(now) && l.node == node {
			l.expires = check.Time(now.Add(ttl))
			out = append(out, e.leaseOut(id))
		}
	}
	return out, nil
}

// EndLease implements store.LeaseStore.
func (s *Store) EndLease(ctx context.Context, l store.Lease, handOver bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	e, ok := s.tables[l.Table]
	if !ok {
		return nil
	}
	now := s.now()
	if cur := e.lease; cur.live(now) && cur.node == l.Node && cur.epoch == l.Epoch {
		cur.ended, cur.released = true, !handOver
		cur.expires = now
	}
	return nil
}

// Orphans implements store.LeaseStore.
func (s *Store) Orphans(ctx context.Context, limit int) ([]store.Lease, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	now := s.now()
	out := []store.Lease{}
	for id, e := range s.tables {
		if l := e.lease; l != nil && !l.live(now) && !l.released && e.table.Status == store.StatusLive {
			out = append(out, e.leaseOut(id))
		}
	}
	slices.SortFunc(out, func(a, b store.Lease) int {
		return cmp.Or(a.Expires.Compare(b.Expires), cmp.Compare(a.Table, b.Table))
	})
	if limit > 0 && len(out) > limit {
		out = out[:limit]
	}
	return out, nil
}

// LeaseOf implements store.LeaseStore.
func (s *Store) LeaseOf(ctx context.Context, id string) (store.Lease, error) {
	if err := ctx.Err(); err != nil {
		return store.Lease{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.Lease{}, ErrClosed
	}
	e, ok := s.tables[id]
	if !ok || !e.lease.live(s.now()) {
		return store.Lease{}, fmt.Errorf("memstore: lease of %q: %w", id, store.ErrNotFound)
	}
	return e.leaseOut(id), nil
}
