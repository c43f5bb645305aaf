package memstore

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

type ratingKey struct{ account, game string }

// begin checks the context and takes the lock (write when w), reporting a
// closed store; the caller unlocks with the returned func.
func (s *Store) begin(ctx context.Context, w bool) (func(), error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if w {
		s.mu.Lock()
	} else {
		s.mu.RLock()
	}
	unlock := s.mu.Unlock
	if !w {
		unlock = s.mu.RUnlock
	}
	if s.closed {
		unlock()
		return nil, ErrClosed
	}
	return unlock, nil
}

// CreateAccount implements store.AccountStore.
func (s *Store) CreateAccount(ctx context.Context, a store.Account) error {
	if err := check.Account(a); err != nil {
		return fmt.Errorf("memstore: create account: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[a.ID]; ok {
		return fmt.Errorf("memstore: create account %q: %w", a.ID, store.ErrExists)
	}
	for _, b := range s.accounts {
		if b.NameKey == a.NameKey {
			return fmt.Errorf("memstore: create account named %q: %w", a.NameKey, store.ErrExists)
		}
	}
	a.Created = check.Time(a.Created)
	s.accounts[a.ID] = a
	return nil
}

// GetAccount implements store.AccountStore.
func (s *Store) GetAccount(ctx context.Context, id string) (store.Account, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return store.Account{}, err
	}
	defer unlock()
	a, ok := s.accounts[id]
	if !ok {
		return store.Account{}, fmt.Errorf("memstore: account %q: %w", id, store.ErrNotFound)
	}
	return a, nil
}

// AccountByName implements store.AccountStore.
func (s *Store) AccountByName(ctx context.Context, nameKey string) (store.Account, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return store.Account{}, err
	}
	defer unlock()
	for _, a := range s.accounts {
		if a.NameKey == nameKey {
			return a, nil
		}
	}
	return store.Account{}, fmt.Errorf("memstore: account named %q: %w", nameKey, store.ErrNotFound)
}

// SetPassword implements store.AccountStore.
func (s *Store) SetPassword(ctx context.Context, id, hash string) error {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	a, ok := s.accounts[id]
	if !ok {
		return fmt.Errorf("memstore: set password of %q: %w", id, store.ErrNotFound)
	}
	a.PasswordHash = hash
	s.accounts[id] = a
	return nil
}

// DeleteAccount implements store.AccountStore.
func (s *Store) DeleteAccount(ctx context.Context, id, neutralName string) error {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[id]; !ok {
		return fmt.Errorf("memstore: delete account %q: %w", id, store.ErrNotFound)
	}
	delete(s.accounts, id)
	for k, v := range s.sessions {
		if v.Account == id {
			delete(s.sessions, k)
		}
	}
	for k, v := range s.creds {
		if v.Account == id {
			delete(s.creds, k)
		}
	}
	for k := range s.ratings {
		if k.account == id {
			delete(s.ratings, k)
		}
	}
	for k := range s.history {
		if k.account == id {
			delete(s.history, k)
		}
	}
	s.notify.forget(id)
	for _, e := range s.tables {
		seats := slices.Clone(e.table.Seats)
		changed := false
		for i := range seats {
			if seats[i].Account == id {
				seats[i].Account, seats[i].Name, seats[i].Former = "", neutralName, true
				changed = true
			}
		}
		if changed {
			e.table.Seats = seats
		}
		for i := range e.chat {
			if e.chat[i].Account == id {
				e.chat[i].Account, e.chat[i].Name = "", neutralName
			}
		}
	}
	return nil
}

// CreateSession implements store.AccountStore.
func (s *Store) CreateSession(ctx context.Context, se store.Session) error {
	if se.TokenHash == "" || se.Account == "" {
		return fmt.Errorf("memstore: create session: %w: needs a token hash and an account", check.ErrInvalid)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[se.Account]; !ok {
		return fmt.Errorf("memstore: session of %q: %w", se.Account, store.ErrNotFound)
	}
	if _, ok := s.sessions[se.TokenHash]; ok {
		return fmt.Errorf("memstore: create session: %w", store.ErrExists)
	}
	se.Created, se.Expires = check.Time(se.Created), check.Time(se.Expires)
	s.sessions[se.TokenHash] = se
	return nil
}

// GetSession implements store.AccountStore.
func (s *Store) GetSession(ctx context.Context, tokenHash string) (store.Session, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return store.Session{}, err
	}
	defer unlock()
	se, ok := s.sessions[tokenHash]
	if !ok {
		return store.Session{}, fmt.Errorf("memstore: session: %w", store.ErrNotFound)
	}
	return se, nil
}

// DeleteSession implements store.AccountStore.
func (s *Store) DeleteSession(ctx context.Context, tokenHash string) error {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	delete(s.sessions, tokenHash)
	return nil
}

// DeleteSessions implements store.AccountStore.
func (s *Store) DeleteSessions(ctx context.Context, account string) (int, error) {
	return s.deleteSessionsIf(ctx, func(se store.Session) bool { return se.Account == account })
}

// DeleteExpiredSessions implements store.AccountStore.
func (s *Store) DeleteExpiredSessions(ctx context.Context, now time.Time) (int, error) {
	now = check.Time(now)
	return s.deleteSessionsIf(ctx, func(se store.Session) bool { return se.Expires.Before(now) })
}

func (s *Store) deleteSessionsIf(ctx context.Context, drop func(store.Session) bool) (int, error) {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return 0, err
	}
	defer unlock()
	n := 0
	for k, v := range s.sessions {
		if drop(v) {
			delete(s.sessions, k)
			n++
		}
	}
	return n, nil
}

func copyCred(c store.Credential) store.Credential {
	c.ID = bytes.Clone(c.ID)
	c.Data = check.Raw(c.Data)
	return c
}

// AddCredential implements store.AccountStore.
func (s *Store) AddCredential(ctx context.Context, c store.Credential) error {
	if err := check.Credential(c); err != nil {
		return fmt.Errorf("memstore: add credential: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[c.Account]; !ok {
		return fmt.Errorf("memstore: credential of %q: %w", c.Account, store.ErrNotFound)
	}
	if _, ok := s.creds[string(c.ID)]; ok {
		return fmt.Errorf("memstore: add credential: %w", store.ErrExists)
	}
	c = copyCred(c)
	c.Created, c.LastUsed = check.Time(c.Created), check.Time(c.LastUsed)
	s.creds[string(c.ID)] = c
	return nil
}

// Credentials implements store.AccountStore.
func (s *Store) Credentials(ctx context.Context, account string) ([]store.Credential, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := []store.Credential{}
	for _, c := range s.creds {
		if c.Account == account {
			out = append(out, copyCred(c))
		}
	}
	slices.SortFunc(out, func(a, b store.Credential) int {
		if c := a.Created.Compare(b.Created); c != 0 {
			return c
		}
		return bytes.Compare(a.ID, b.ID)
	})
	return out, nil
}

// CredentialByID implements store.AccountStore.
func (s *Store) CredentialByID(ctx context.Context, id []byte) (store.Credential, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return store.Credential{}, err
	}
	defer unlock()
	c, ok := s.creds[string(id)]
	if !ok {
		return store.Credential{}, fmt.Errorf("memstore: credential: %w", store.ErrNotFound)
	}
	return copyCred(c), nil
}

// UpdateCredential implements store.AccountStore.
func (s *Store) UpdateCredential(ctx context.Context, c store.Credential) error {
	if len(c.Data) > 0 && !json.Valid(c.Data) {
		return fmt.Errorf("memstore: update credential: %w: data is not JSON", check.ErrInvalid)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	old, ok := s.creds[string(c.ID)]
	if !ok {
		return fmt.Errorf("memstore: update credential: %w", store.ErrNotFound)
	}
	old.Data = check.Raw(c.Data)
	old.LastUsed = check.Time(c.LastUsed)
	s.creds[string(c.ID)] = old
	return nil
}

// DeleteCredential implements store.AccountStore.
func (s *Store) DeleteCredential(ctx context.Context, account string, id []byte) error {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	c, ok := s.creds[string(id)]
	if !ok || c.Account != account {
		return fmt.Errorf("memstore: delete credential: %w", store.ErrNotFound)
	}
	delete(s.creds, string(id))
	return nil
}

// RateTable implements store.RatingStore.
func (s *Store) RateTable(ctx context.Context, table, game string, accounts []string, at time.Time, rate store.RateFunc) (bool, error) {
	if err := check.RateAccounts(accounts); err != nil {
		return false, fmt.Errorf("memstore: rate table %q: %w", table, err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return false, err
	}
	defer unlock()
	e, ok := s.tables[table]
	if !ok {
		return false, fmt.Errorf("memstore: rate table %q: %w", table, store.ErrNotFound)
	}
	if e.rated {
		return false, nil
	}
	prior := make([]store.Rating, len(accounts))
	for i, a := range accounts {
		if _, ok := s.accounts[a]; !ok {
			return false, fmt.Errorf("memstore: rate table %q: account %q: %w", table, a, store.ErrNotFound)
		}
		prior[i] = s.ratings[ratingKey{a, game}]
		prior[i].Account, prior[i].Game = a, game
	}
	next, err := rate(slices.Clone(prior))
	if err != nil {
		return false, fmt.Errorf("memstore: rate table %q: %w", table, err)
	}
	if err := check.Rates(next, len(accounts)); err != nil {
		return false, fmt.Errorf("memstore: rate table %q: %w", table, err)
	}
	at = check.Time(at)
	for i, a := range accounts {
		k := ratingKey{a, game}
		r := next[i]
		r.Account, r.Game, r.Games, r.Updated, r.Name = a, game, prior[i].Games+1, at, ""
		s.ratings[k] = r
		s.history[k] = append(s.history[k], store.RatingPoint{Table: table, Mu: r.Mu, Sigma: r.Sigma, At: at})
	}
	e.rated = true
	return true, nil
}

// Rated implements store.RatingStore.
func (s *Store) Rated(ctx context.Context, table string) (bool, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return false, err
	}
	defer unlock()
	e, ok := s.tables[table]
	return ok && e.rated, nil
}

// Ratings implements store.RatingStore.
func (s *Store) Ratings(ctx context.Context, account string) ([]store.Rating, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := []store.Rating{}
	for k, r := range s.ratings {
		if k.account == account {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b store.Rating) int { return cmp.Compare(a.Game, b.Game) })
	return out, nil
}

// Leaderboard implements store.RatingStore.
func (s *Store) Leaderboard(ctx context.Context, game string, minGames, offset, limit int) ([]store.Rating, int, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, 0, err
	}
	defer unlock()
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	var all []store.Rating
	for k, r := range s.ratings {
		if k.game == game && r.Games >= minGames {
			r.Name = s.accounts[k.account].Name
			all = append(all, r)
		}
	}
	slices.SortFunc(all, check.CompareRank)
	total := len(all)
	offset = min(max(offset, 0), total)
	out := append([]store.Rating{}, all[offset:min(total, offset+limit)]...)
	return out, total, nil
}

// RatingHistory implements store.RatingStore.
func (s *Store) RatingHistory(ctx context.Context, account, game string, limit int) ([]store.RatingPoint, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	h := s.history[ratingKey{account, game}]
	return append([]store.RatingPoint{}, h[max(0, len(h)-limit):]...), nil
}

// AppendChat implements store.ChatStore.
func (s *Store) AppendChat(ctx context.Context, m store.ChatMessage) (store.ChatMessage, error) {
	if err := check.Chat(m); err != nil {
		return store.ChatMessage{}, fmt.Errorf("memstore: chat: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return store.ChatMessage{}, err
	}
	defer unlock()
	e, ok := s.tables[m.Table]
	if !ok {
		return store.ChatMessage{}, fmt.Errorf("memstore: chat of %q: %w", m.Table, store.ErrNotFound)
	}
	m.Index = len(e.chat)
	m.At = check.Time(m.At)
	e.chat = append(e.chat, m)
	return m, nil
}

// Chat implements store.ChatStore.
func (s *Store) Chat(ctx context.Context, table string, from, limit int) ([]store.ChatMessage, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	e, ok := s.tables[table]
	if !ok {
		return nil, fmt.Errorf("memstore: chat of %q: %w", table, store.ErrNotFound)
	}
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	from = min(max(from, 0), len(e.chat))
	return append([]store.ChatMessage{}, e.chat[from:min(len(e.chat), from+limit)]...), nil
}

// ChatLatest implements store.ChatStore.
func (s *Store) ChatLatest(ctx context.Context, table string, limit int) ([]store.ChatMessage, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	e, ok := s.tables[table]
	if !ok {
		return nil, fmt.Errorf("memstore: chat of %q: %w", table, store.ErrNotFound)
	}
	if limit <= 0 {
		limit = check.DefaultLimit
	}
	return append([]store.ChatMessage{}, e.chat[max(0, len(e.chat)-limit):]...), nil
}
