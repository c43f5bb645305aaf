// Package memstore is an in-memory store.Store for tests and for running a
// server without a disk. It keeps nothing across restarts.
package memstore

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// ErrClosed is returned by every method after Close.
var ErrClosed = errors.New("memstore: closed")

// Store is an in-memory store.Store. Values go in and out as deep copies so
// callers can never alias what is stored.
type Store struct {
	mu     sync.RWMutex
	tables map[string]*entry
	closed bool

	accounts map[string]store.Account    // by ID
	sessions map[string]store.Session    // by token hash
	creds    map[string]store.Credential // by string(ID)
	ratings  map[ratingKey]store.Rating
	history  map[ratingKey][]store.RatingPoint
	notify   notifyData       // notify.go
	buckets  map[string]int64 // limits.go: when each bucket is full again, UTC ms
}

type entry struct {
	table store.Table
	moves []engine.LoggedMove
	chat  []store.ChatMessage
	rated bool
	lease *lease // nil: never leased

	reviews map[int]*store.Review // by budget (review.go); nil: none
}

var _ store.Store = (*Store)(nil)

// New returns an empty store.
func New() *Store {
	return &Store{
		tables:   make(map[string]*entry),
		accounts: make(map[string]store.Account),
		sessions: make(map[string]store.Session),
		creds:    make(map[string]store.Credential),
		ratings:  make(map[ratingKey]store.Rating),
		history:  make(map[ratingKey][]store.RatingPoint),
	}
}

// CreateTable implements store.Store.
func (s *Store) CreateTable(ctx context.Context, t store.Table) error {
	_, err := s.createTable(ctx, t, nil)
	return err
}

// createTable is CreateTable within caps (CreateTableCapped): the counts
// and the insert under one lock.
func (s *Store) createTable(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	if err := ctx.Err(); err != nil {
		return -1, err
	}
	if err := check.Table(t); err != nil {
		return -1, fmt.Errorf("memstore: create: %w", err)
	}
	if t.Version != 0 {
		return -1, fmt.Errorf("memstore: create table %q: %w: version %d, want 0", t.ID, check.ErrInvalid, t.Version)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return -1, ErrClosed
	}
	for i, c := range caps {
		if s.count(c.Filter) >= c.Max {
			return i, nil
		}
	}
	if _, ok := s.tables[t.ID]; ok {
		return -1, fmt.Errorf("memstore: create table %q: %w", t.ID, store.ErrExists)
	}
	t = copyTable(t)
	t.Created = check.Time(t.Created)
	t.Updated = check.Time(t.Updated)
	s.tables[t.ID] = &entry{table: t}
	return -1, nil
}

// GetTable implements store.Store.
func (s *Store) GetTable(ctx context.Context, id string) (store.Table, error) {
	if err := ctx.Err(); err != nil {
		return store.Table{}, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return store.Table{}, ErrClosed
	}
	e, ok := s.tables[id]
	if !ok {
		return store.Table{}, fmt.Errorf("memstore: table %q: %w", id, store.ErrNotFound)
	}
	return copyTable(e.table), nil
}

// UpdateTable implements store.Store.
func (s *Store) UpdateTable(ctx context.Context, t store.Table, f store.Fence) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := check.Mutable(t); err != nil {
		return fmt.Errorf("memstore: update: %w", err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	e, ok := s.tables[t.ID]
	if !ok {
		return fmt.Errorf("memstore: update table %q: %w", t.ID, store.ErrNotFound)
	}
	if !e.fenceHolds(f, s.now()) {
		return fmt.Errorf("memstore: update table %q: %w", t.ID, store.ErrFenced)
	}
	// Only the mutable fields come from t.
	next := e.table
	next.Seats = t.Seats
	next.Status = t.Status
	next.Settings = t.Settings
	next.Result = t.Result
	next.Rematch = t.Rematch
	next.Seen = check.Time(t.Seen)
	next.Updated = check.Time(t.Updated)
	e.table = copyTable(next)
	return nil
}

// AppendMoves implements store.Store.
func (s *Store) AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, f store.Fence) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := check.Moves(moves); err != nil {
		return fmt.Errorf("memstore: append to %q: %w", id, err)
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	e, ok := s.tables[id]
	if !ok {
		return fmt.Errorf("memstore: append to %q: %w", id, store.ErrNotFound)
	}
	if !e.fenceHolds(f, s.now()) {
		return fmt.Errorf("memstore: append to %q: %w", id, store.ErrFenced)
	}
	if e.table.Version != version {
		return fmt.Errorf("memstore: append to %q at version %d (stored %d): %w", id, version, e.table.Version, store.ErrConflict)
	}
	for _, m := range moves {
		e.moves = append(e.moves, copyMove(m))
	}
	e.table.Version += len(moves)
	return nil
}

// Moves implements store.Store.
func (s *Store) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	e, ok := s.tables[id]
	if !ok {
		return nil, fmt.Errorf("memstore: moves of %q: %w", id, store.ErrNotFound)
	}
	out := make([]engine.LoggedMove, len(e.moves))
	for i, m := range e.moves {
		out[i] = copyMove(m)
	}
	return out, nil
}

// matches reports whether t passes f's conditions (Limit and PerCreator
// aside).
func matches(t store.Table, f store.Filter) bool {
	switch {
	case f.Game != "" && t.Game != f.Game,
		len(f.Status) > 0 && !slices.Contains(f.Status, t.Status),
		t.Status == store.StatusOpen && t.Updated.Before(check.Time(f.OpenSince)),
		t.Status == store.StatusLive && t.Updated.Before(check.Time(f.LiveSince)),
		t.Status == store.StatusLive && !f.SeenSince.IsZero() && t.Updated.Before(check.Time(f.SeenSince)) && t.Seen.Before(check.Time(f.SeenSince)),
		t.Created.Before(check.Time(f.CreatedSince)),
		f.Creator != "" && t.Creator != f.Creator,
		f.CreatorAddr != "" && t.CreatorAddr != f.CreatorAddr,
		f.Account != "" && !slices.ContainsFunc(t.Seats, func(s store.Seat) bool { return s.Account == f.Account }):
		return false
	}
	return true
}

// List implements store.Store.
func (s *Store) List(ctx context.Context, f store.Filter) ([]store.Table, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	limit := f.Limit
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return nil, ErrClosed
	}
	var hits []*entry
	for _, e := range s.tables {
		if matches(e.table, f) {
			hits = append(hits, e)
		}
	}
	// Newest first; ties by ID so pages are stable (the SQL stores agree).
	slices.SortFunc(hits, func(a, b *entry) int {
		if c := b.table.Updated.Compare(a.table.Updated); c != 0 {
			return c
		}
		return cmp.Compare(a.table.ID, b.table.ID)
	})
	if f.PerCreator > 0 {
		hits = hits[:min(len(hits), check.PerCreatorScan(limit))]
		seen := map[string]int{}
		kept := hits[:0]
		for _, e := range hits {
			key := "c:" + e.table.Creator
			if e.table.Creator == "" {
				key = "t:" + e.table.ID // no creator: its own
			}
			if seen[key]++; seen[key] <= f.PerCreator {
				kept = append(kept, e)
			}
		}
		hits = kept
	}
	if len(hits) > limit {
		hits = hits[:limit]
	}
	out := make([]store.Table, len(hits))
	for i, e := range hits {
		out[i] = copyTable(e.table)
	}
	return out, nil
}

// Count implements store.Store.
func (s *Store) Count(ctx context.Context, f store.Filter) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	if s.closed {
		return 0, ErrClosed
	}
	return s.count(f), nil
}

// count is Count under s.mu.
func (s *Store) count(f store.Filter) int {
	n := 0
	for _, e := range s.tables {
		if matches(e.table, f) {
			n++
		}
	}
	return n
}

// Close implements store.Store. Closing twice is harmless.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	s.tables = nil
	return nil
}

func copyTable(t store.Table) store.Table {
	t.Options = check.Raw(t.Options)
	t.Settings = check.Raw(t.Settings)
	if t.Seats != nil {
		t.Seats = slices.Clone(t.Seats)
	}
	t.Result = check.Result(t.Result)
	return t
}

func copyMove(m engine.LoggedMove) engine.LoggedMove {
	m.Action = check.Raw(m.Action)
	return m
}
