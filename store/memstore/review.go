package memstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// reviewOut copies a review row for a caller.
func reviewOut(r *store.Review) store.Review {
	c := *r
	c.Body = check.Raw(r.Body)
	return c
}

// claimLive reports whether r is a claim that has not lapsed at now.
func claimLive(r *store.Review, now time.Time) bool {
	return r != nil && !r.Ready && r.Expires.After(now)
}

// reviewsOf locks the store (for writing when w) and finds table id.
func (s *Store) reviewsOf(ctx context.Context, id string, w bool) (*entry, func(), error) {
	unlock, err := s.begin(ctx, w)
	if err != nil {
		return nil, nil, err
	}
	e, ok := s.tables[id]
	if !ok {
		unlock()
		return nil, nil, fmt.Errorf("memstore: review of %q: %w", id, store.ErrNotFound)
	}
	if w && e.reviews == nil {
		e.reviews = map[int]*store.Review{}
	}
	return e, unlock, nil
}

// ClaimReview implements store.ReviewStore.
func (s *Store) ClaimReview(ctx context.Context, id string, budget int, node string, ttl time.Duration) (store.Review, error) {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return store.Review{}, fmt.Errorf("memstore: claim review: %w", err)
	}
	e, unlock, err := s.reviewsOf(ctx, id, true)
	if err != nil {
		return store.Review{}, err
	}
	defer unlock()
	now := s.now()
	r := e.reviews[budget]
	switch {
	case r != nil && r.Ready:
		return reviewOut(r), nil
	case claimLive(r, now) && r.Node != node:
		return reviewOut(r), fmt.Errorf("memstore: review of %q: %w (%s)", id, store.ErrClaimed, r.Node)
	}
	r = &store.Review{Table: id, Budget: budget, Node: node, Expires: check.Time(now.Add(ttl)), Updated: now}
	e.reviews[budget] = r
	return reviewOut(r), nil
}

// ReviewProgress implements store.ReviewStore.
func (s *Store) ReviewProgress(ctx context.Context, id string, budget int, node string, done, total int, ttl time.Duration) error {
	if err := check.ReviewArgs(budget, ttl); err != nil {
		return fmt.Errorf("memstore: review progress: %w", err)
	}
	e, unlock, err := s.reviewsOf(ctx, id, true)
	if err != nil {
		return err
	}
	defer unlock()
	now := s.now()
	r := e.reviews[budget]
	if !claimLive(r, now) || r.Node != node {
		return fmt.Errorf("memstore: review of %q: %w", id, store.ErrClaimed)
	}
	r.Done, r.Total, r.Expires, r.Updated = done, total, check.Time(now.Add(ttl)), now
	return nil
}

// PutReview implements store.ReviewStore.
func (s *Store) PutReview(ctx context.Context, id string, budget int, body json.RawMessage) error {
	if err := check.ReviewBody(budget, body); err != nil {
		return fmt.Errorf("memstore: put review: %w", err)
	}
	e, unlock, err := s.reviewsOf(ctx, id, true)
	if err != nil {
		return err
	}
	defer unlock()
	r := &store.Review{Table: id, Budget: budget, Ready: true, Body: check.Raw(body), Updated: s.now()}
	if old := e.reviews[budget]; old != nil {
		r.Node, r.Done, r.Total = old.Node, old.Total, old.Total
	}
	e.reviews[budget] = r
	return nil
}

// Review implements store.ReviewStore.
func (s *Store) Review(ctx context.Context, id string, budget int) (store.Review, error) {
	e, unlock, err := s.reviewsOf(ctx, id, false)
	if err != nil {
		return store.Review{}, err
	}
	defer unlock()
	if r := e.reviews[budget]; r != nil {
		return reviewOut(r), nil
	}
	return store.Review{}, fmt.Errorf("memstore: review of %q: %w", id, store.ErrNotFound)
}

// PendingReviews implements store.ReviewStore.
func (s *Store) PendingReviews(ctx context.Context, limit int) ([]store.Review, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := []store.Review{}
	for _, e := range s.tables {
		for _, r := range e.reviews {
			if !r.Ready {
				out = append(out, reviewOut(r))
			}
		}
	}
	slices.SortFunc(out, func(a, b store.Review) int {
		return cmp.Or(a.Updated.Compare(b.Updated), cmp.Compare(a.Table, b.Table), cmp.Compare(a.Budget, b.Budget))
	})
	if n := check.PendingLimit(limit); len(out) > n {
		out = out[:n]
	}
	return out, nil
}
