package store

import (
	"context"
	"errors"
	"time"
)

// Leases make one node at a time the owner of a table when several server
// nodes share a store: the owner runs the table's actor and is the only
// one whose writes of the table's row and moves go through. The store's
// own clock (the database server's) decides expiry, so the nodes' clocks
// never have to agree.
//
// A lease ends in one of three ways:
//   - released (EndLease with handOver false): the owner stopped the table
//     for lack of anything to do; nobody needs to run it until someone
//     opens it again.
//   - handed over (EndLease with handOver true): the owner is draining;
//     the table is an orphan at once, for another node to adopt.
//   - lapsed: the owner did not renew it in time (it died, or lost the
//     store); the table is an orphan once the lease has expired.
//
// A lease, once lapsed, stays lost even if nobody took it: its holder must
// acquire the table again, under a new epoch.

// Sentinel errors of leases; compare with errors.Is.
var (
	// ErrFenced: a write carried a Fence that is not the table's live
	// lease (another node owns the table now, or the lease lapsed).
	// Nothing was written.
	ErrFenced = errors.New("store: the table's lease is not held")
	// ErrLeased: another node holds the table's lease.
	ErrLeased = errors.New("store: the table is leased by another node")
)

// Lease is a node's hold on a table.
type Lease struct {
	Table string `json:"table"`
	Node  string `json:"node"`
	// Epoch numbers the table's holders: each new acquisition after a
	// lease ended takes the next one (the first is 1).
	Epoch int64 `json:"epoch"`
	// Expires is when the lease lapses unless renewed, by the store's
	// clock, in UTC at millisecond precision.
	Expires time.Time `json:"expires"`
}

// Fence returns the fence that makes a write conditional on this lease.
func (l Lease) Fence() Fence { return Fence{Node: l.Node, Epoch: l.Epoch} }

// Fence makes a write of a table's row or moves conditional on a lease:
// the write goes through only if the table's lease is held by Node under
// Epoch and has not expired (by the store's clock), checked in the same
// transaction as the write; otherwise ErrFenced and nothing is written.
// The zero Fence writes unconditionally: one server alone, no leases.
type Fence struct {
	Node  string
	Epoch int64
}

// Zero reports whether f is the zero Fence (no condition).
func (f Fence) Zero() bool { return f == Fence{} }

// NoFence is the zero Fence, for writes of a server that runs alone.
var NoFence Fence

// LeaseStore keeps the tables' leases.
type LeaseStore interface {
	// AcquireLease makes node the holder of table id's lease for ttl from
	// now by the store's clock, when the table has no lease, when its
	// lease ended (released, handed over or lapsed), or when node holds it
	// already (then it is renewed under the same epoch). A new holder gets
	// the next epoch. When another node holds a live lease: that lease and
	// ErrLeased. ErrNotFound when there is no such table.
	AcquireLease(ctx context.Context, id, node string, ttl time.Duration) (Lease, error)
	// RenewLeases extends by ttl from now, in one write, every live lease
	// node holds, and returns them: a lease node had that is not among
	// them has ended (lapsed, or taken by another node).
	RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]Lease, error)
	// EndLease ends l if it is still the live lease of its table (same
	// node and epoch); otherwise it does nothing. handOver makes the table
	// an orphan at once (a draining node's live tables); without it the
	// table is released (nothing to run).
	EndLease(ctx context.Context, l Lease, handOver bool) error
	// Orphans returns up to limit leases of live tables (status live)
	// that lapsed or were handed over and nobody acquired since, the
	// longest expired first: tables whose actor must run again somewhere.
	Orphans(ctx context.Context, limit int) ([]Lease, error)
	// LeaseOf returns table id's live lease; ErrNotFound when it has none
	// (no lease, or one that ended).
	LeaseOf(ctx context.Context, id string) (Lease, error)
}
