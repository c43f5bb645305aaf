package store

import (
	"context"
	"time"
)

// Limits several server nodes share. A node alone keeps its rate limits in
// memory; nodes sharing a store must count together, or an attacker who
// spreads password guesses (or new accounts, or new tables) over three
// nodes would get three times the allowance.

// Bucket is a token bucket's shape: it holds Burst tokens at most and
// gains Rate tokens a second; a bucket never used, or unused for long
// enough, is full.
type Bucket struct {
	Rate  float64
	Burst int
}

// Cap bounds, for CreateTableCapped, the tables that may match Filter
// (Limit and PerCreator aside) when a new one is stored: fewer than Max.
type Cap struct {
	Filter Filter
	Max    int
}

// LimitStore keeps the limits the nodes of a cluster share.
type LimitStore interface {
	// TakeTokens takes n tokens from the bucket named key, of shape b, by
	// the store's clock. When the bucket holds fewer than n, nothing is
	// taken: false, and how long until it will hold n. A negative n gives
	// -n tokens back (never more than the bucket holds when full), and is
	// never refused. Invalid (an error that is none of the sentinels): an
	// empty key or one longer than 200 bytes, n 0 or more than Burst, a
	// Rate not above 0, a Burst below 1.
	TakeTokens(ctx context.Context, key string, n int, b Bucket) (ok bool, wait time.Duration, err error)
	// DropFullBuckets forgets the buckets that have filled up again (they
	// hold what a bucket never used holds) and says how many went.
	DropFullBuckets(ctx context.Context) (int, error)
	// CreateTableCapped stores t as CreateTable does (its errors too) if,
	// before it, fewer than Max tables match each cap's Filter; it
	// returns the index of the first cap that was reached (nothing
	// stored), or -1 when t was stored. The counts and the insert are one
	// step against every other CreateTableCapped of the store, on every
	// node that shares it, so that racing creates cannot both take a
	// cap's last place. No caps: CreateTable.
	CreateTableCapped(ctx context.Context, t Table, caps []Cap) (int, error)
}
