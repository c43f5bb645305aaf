package memstore

import (
	"cmp"
	"context"
	"fmt"
	"slices"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

// notifyData is the notification part of the store, under Store.mu; its
// maps are made on first write.
type notifyData struct {
	settings map[string]store.NotifySettings   // by account
	subs     map[string]store.PushSubscription // by endpoint
	values   map[string]string                 // server values by key
}

// forget removes an account's settings and subscriptions (DeleteAccount).
func (d *notifyData) forget(account string) {
	delete(d.settings, account)
	for k, p := range d.subs {
		if p.Account == account {
			delete(d.subs, k)
		}
	}
}

// NotifySettings implements store.NotifyStore.
func (s *Store) NotifySettings(ctx context.Context, account string) (store.NotifySettings, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return store.NotifySettings{}, err
	}
	defer unlock()
	n, ok := s.notify.settings[account]
	if !ok {
		return store.NotifySettings{}, fmt.Errorf("memstore: notify settings of %q: %w", account, store.ErrNotFound)
	}
	return n, nil
}

// SetNotifySettings implements store.NotifyStore.
func (s *Store) SetNotifySettings(ctx context.Context, n store.NotifySettings) error {
	if err := check.NotifySettings(n); err != nil {
		return fmt.Errorf("memstore: set notify settings: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[n.Account]; !ok {
		return fmt.Errorf("memstore: notify settings of %q: %w", n.Account, store.ErrNotFound)
	}
	if s.notify.settings == nil {
		s.notify.settings = make(map[string]store.NotifySettings)
	}
	n.Updated = check.Time(n.Updated)
	s.notify.settings[n.Account] = n
	return nil
}

// AddPushSubscription implements store.NotifyStore.
func (s *Store) AddPushSubscription(ctx context.Context, p store.PushSubscription) error {
	if err := check.PushSubscription(p); err != nil {
		return fmt.Errorf("memstore: add push subscription: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return err
	}
	defer unlock()
	if _, ok := s.accounts[p.Account]; !ok {
		return fmt.Errorf("memstore: push subscription of %q: %w", p.Account, store.ErrNotFound)
	}
	if s.notify.subs == nil {
		s.notify.subs = make(map[string]store.PushSubscription)
	}
	p.Created = check.Time(p.Created)
	s.notify.subs[p.Endpoint] = p
	return nil
}

// PushSubscriptions implements store.NotifyStore.
func (s *Store) PushSubscriptions(ctx context.Context, account string) ([]store.PushSubscription, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return nil, err
	}
	defer unlock()
	out := []store.PushSubscription{}
	for _, p := range s.notify.subs {
		if p.Account == account {
			out = append(out, p)
		}
	}
	slices.SortFunc(out, func(a, b store.PushSubscription) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.Endpoint, b.Endpoint))
	})
	return out, nil
}

// DeletePushSubscription implements store.NotifyStore.
func (s *Store) DeletePushSubscription(ctx context.Context, endpoint string) (bool, error) {
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return false, err
	}
	defer unlock()
	_, ok := s.notify.subs[endpoint]
	delete(s.notify.subs, endpoint)
	return ok, nil
}

// ServerValue implements store.NotifyStore.
func (s *Store) ServerValue(ctx context.Context, key string) (string, error) {
	unlock, err := s.begin(ctx, false)
	if err != nil {
		return "", err
	}
	defer unlock()
	v, ok := s.notify.values[key]
	if !ok {
		return "", fmt.Errorf("memstore: server value %q: %w", key, store.ErrNotFound)
	}
	return v, nil
}

// InitServerValue implements store.NotifyStore.
func (s *Store) InitServerValue(ctx context.Context, key, value string) (string, error) {
	if err := check.ServerKey(key); err != nil {
		return "", fmt.Errorf("memstore: init server value: %w", err)
	}
	unlock, err := s.begin(ctx, true)
	if err != nil {
		return "", err
	}
	defer unlock()
	if v, ok := s.notify.values[key]; ok {
		return v, nil
	}
	if s.notify.values == nil {
		s.notify.values = make(map[string]string)
	}
	s.notify.values[key] = value
	return value, nil
}
