package server

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/dicehall/dicehall/store"
)

// Limits across nodes. A node alone keeps its rate limits in memory, by its
// own clock. Nodes sharing a store (Config.Cluster) keep the limits that
// guard something the whole cluster shares (password guesses, new
// accounts) as token buckets in the store, by the database's clock
// (store.LimitStore), so that an attacker who spreads attempts over three
// nodes gets no more than on one. The table budgets count stored tables
// anyway; the store makes their counts and the insert one step
// (CreateTableCapped, budgets.go). The limits that guard a node's own
// work (POSTs and GETs per address, connections) stay each node's: see
// docs/architecture.md, "Several nodes".

// bucketPrune is how often a node clears the shared buckets that filled
// up again (rows that hold nothing a missing row would not).
const bucketPrune = 10 * time.Minute

// sharedBuckets is a cluster's store of buckets, with its pruning.
type sharedBuckets struct {
	st        store.LimitStore
	log       *slog.Logger
	lastPrune atomic.Int64 // UnixNano of the last prune begun
}

// sharedBucketsOf is the store's buckets when the server is one node of
// several, else nil: a node alone keeps its limits in memory.
func sharedBucketsOf(cfg Config) *sharedBuckets {
	if cfg.Cluster == nil {
		return nil
	}
	sb := &sharedBuckets{st: cfg.Store, log: cfg.Logger}
	sb.lastPrune.Store(time.Now().UnixNano())
	return sb
}

func (sb *sharedBuckets) take(ctx context.Context, key string, n int, b store.Bucket) (bool, time.Duration, error) {
	ok, wait, err := sb.st.TakeTokens(ctx, key, n, b)
	if last := sb.lastPrune.Load(); time.Since(time.Unix(0, last)) > bucketPrune && sb.lastPrune.CompareAndSwap(last, time.Now().UnixNano()) {
		go sb.prune()
	}
	return ok, wait, err
}

func (sb *sharedBuckets) prune() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if n, err := sb.st.DropFullBuckets(ctx); err != nil {
		sb.log.Warn("full rate-limit buckets not dropped", "err", err)
	} else if n > 0 {
		sb.log.Debug("full rate-limit buckets dropped", "n", n)
	}
}

// attemptLimiter limits attempts per key (a username, a client address):
// n in any window, a token bucket per key. In memory (ipLimiter) on a node
// alone; in the shared store in a cluster, under the limiter's kind and
// the key's hash (the store keeps no usernames or addresses for it).
type attemptLimiter struct {
	local  *ipLimiter
	shared *sharedBuckets
	kind   string
	bucket store.Bucket
}

// newAttemptLimiter is nil (no limit) when n or window is not positive.
func newAttemptLimiter(kind string, n int, window time.Duration, shared *sharedBuckets) *attemptLimiter {
	if n <= 0 || window <= 0 {
		return nil
	}
	b := store.Bucket{Rate: float64(n) / window.Seconds(), Burst: n}
	if shared != nil {
		return &attemptLimiter{shared: shared, kind: kind, bucket: b}
	}
	return &attemptLimiter{local: &ipLimiter{rate: b.Rate, burst: float64(n), m: map[string]*bucket{}}}
}

func (l *attemptLimiter) sharedKey(key string) string { return l.kind + ":" + hashToken(key) }

// take takes an attempt for key; when none is left: false, and how long
// until one is. now is the node's clock, which only a node alone goes by.
func (l *attemptLimiter) take(ctx context.Context, key string, now time.Time) (bool, time.Duration, error) {
	if l.shared != nil {
		return l.shared.take(ctx, l.sharedKey(key), 1, l.bucket)
	}
	if l.local.allow(key, now) {
		return true, 0, nil
	}
	return false, l.local.retryAfter(key, now), nil
}

// refund gives back an attempt take took (a sign-in that succeeded costs
// nothing). A shared one that cannot be given back is only logged: the
// bucket refills by itself.
func (l *attemptLimiter) refund(ctx context.Context, key string) {
	if l.shared == nil {
		l.local.refund(key)
		return
	}
	if _, _, err := l.shared.take(ctx, l.sharedKey(key), -1, l.bucket); err != nil {
		l.shared.log.Warn("attempt not given back", "kind", l.kind, "err", err)
	}
}
