package memstore

import (
	"context"
	"fmt"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// TakeTokens implements store.LimitStore, by the process's clock (a
// memstore is shared by the nodes of one process only).
func (s *Store) TakeTokens(ctx context.Context, key string, n int, b store.Bucket) (bool, time.Duration, error) {
	if err := ctx.Err(); err != nil {
		return false, 0, err
	}
	if err := check.BucketArgs(key, n, b); err != nil {
		return false, 0, fmt.Errorf("memstore: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false, 0, ErrClosed
	}
	next, ok, wait := check.Take(s.buckets[key], s.now().UnixMilli(), n, b)
	if ok {
		if s.buckets == nil {
			s.buckets = map[string]int64{}
		}
		s.buckets[key] = next
	}
	return ok, wait, nil
}

// DropFullBuckets implements store.LimitStore.
func (s *Store) DropFullBuckets(ctx context.Context) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return 0, ErrClosed
	}
	now, n := s.now().UnixMilli(), 0
	for k, full := range s.buckets {
		if full <= now {
			delete(s.buckets, k)
			n++
		}
	}
	return n, nil
}

// CreateTableCapped implements store.LimitStore.
func (s *Store) CreateTableCapped(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	return s.createTable(ctx, t, caps)
}
