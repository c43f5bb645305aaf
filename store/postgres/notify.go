package postgres

import (
	"context"
	"errors"
	"fmt"
	"github.com/jackc/pgx/v5"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/internal/check"
)

func bit(b bool) int {
	if b {
		return 1
	}
	return 0
}

// NotifySettings implements store.NotifyStore.
func (s *Store) NotifySettings(ctx context.Context, account string) (store.NotifySettings, error) {
	n := store.NotifySettings{Account: account}
	var push, emailOn, turns, results int
	var updated int64
	err := s.pool.QueryRow(ctx, `
		SELECT push, email, email_on, turns, results, quiet_from, quiet_to, quiet_tz, lang, updated_ms
		FROM notify_settings WHERE account = $1`, account).
		Scan(&push, &n.Email, &emailOn, &turns, &results, &n.QuietFrom, &n.QuietTo, &n.QuietTZ, &n.Lang, &updated)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return store.NotifySettings{}, s.wrap("notify settings of", account, err)
	}
	n.Push, n.EmailOn, n.Turns, n.Results = push != 0, emailOn != 0, turns != 0, results != 0
	n.Updated = fromMs(updated)
	return n, nil
}

// SetNotifySettings implements store.NotifyStore.
func (s *Store) SetNotifySettings(ctx context.Context, n store.NotifySettings) error {
	if err := check.NotifySettings(n); err != nil {
		return fmt.Errorf("postgres: set notify settings: %w", err)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1`, n.Account)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO notify_settings (account, push, email, email_on, turns, results, quiet_from, quiet_to, quiet_tz, lang, updated_ms)
			VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)
			ON CONFLICT (account) DO UPDATE SET push = excluded.push, email = excluded.email,
				email_on = excluded.email_on, turns = excluded.turns, results = excluded.results,
				quiet_from = excluded.quiet_from, quiet_to = excluded.quiet_to, quiet_tz = excluded.quiet_tz,
				lang = excluded.lang, updated_ms = excluded.updated_ms`,
			n.Account, bit(n.Push), n.Email, bit(n.EmailOn), bit(n.Turns), bit(n.Results),
			n.QuietFrom, n.QuietTo, n.QuietTZ, n.Lang, msOrZero(n.Updated))
		return err
	})
	if err != nil {
		return s.wrap("set notify settings of", n.Account, err)
	}
	return nil
}

// AddPushSubscription implements store.NotifyStore.
func (s *Store) AddPushSubscription(ctx context.Context, p store.PushSubscription) error {
	if err := check.PushSubscription(p); err != nil {
		return fmt.Errorf("postgres: add push subscription: %w", err)
	}
	err := s.write(ctx, func(tx pgx.Tx) error {
		ok, err := exists(ctx, tx, `SELECT 1 FROM accounts WHERE id = $1`, p.Account)
		if err != nil {
			return err
		}
		if !ok {
			return store.ErrNotFound
		}
		_, err = tx.Exec(ctx, `
			INSERT INTO push_subscriptions (endpoint, account, p256dh, auth, created_ms) VALUES ($1, $2, $3, $4, $5)
			ON CONFLICT (endpoint) DO UPDATE SET account = excluded.account, p256dh = excluded.p256dh,
				auth = excluded.auth, created_ms = excluded.created_ms`,
			p.Endpoint, p.Account, p.P256dh, p.Auth, p.Created.UnixMilli())
		return err
	})
	if err != nil {
		return s.wrap("add push subscription of", p.Account, err)
	}
	return nil
}

// PushSubscriptions implements store.NotifyStore.
func (s *Store) PushSubscriptions(ctx context.Context, account string) ([]store.PushSubscription, error) {
	rows, err := s.pool.Query(ctx, `
		SELECT endpoint, p256dh, auth, created_ms FROM push_subscriptions
		WHERE account = $1 ORDER BY created_ms, endpoint`, account)
	if err != nil {
		return nil, s.wrap("push subscriptions of", account, err)
	}
	defer rows.Close()
	out := []store.PushSubscription{}
	for rows.Next() {
		p := store.PushSubscription{Account: account}
		var created int64
		if err := rows.Scan(&p.Endpoint, &p.P256dh, &p.Auth, &created); err != nil {
			return nil, s.wrap("push subscriptions of", account, err)
		}
		p.Created = fromMs(created)
		out = append(out, p)
	}
	if err := rows.Err(); err != nil {
		return nil, s.wrap("push subscriptions of", account, err)
	}
	return out, nil
}

// DeletePushSubscription implements store.NotifyStore.
func (s *Store) DeletePushSubscription(ctx context.Context, endpoint string) (bool, error) {
	n, err := affected(s.pool.Exec(ctx, `DELETE FROM push_subscriptions WHERE endpoint = $1`, endpoint))
	if err != nil {
		return false, s.wrap("delete push subscription", "", err)
	}
	return n > 0, nil
}

// ServerValue implements store.NotifyStore.
func (s *Store) ServerValue(ctx context.Context, key string) (string, error) {
	var v string
	err := s.pool.QueryRow(ctx, `SELECT val FROM server_values WHERE name = $1`, key).Scan(&v)
	if errors.Is(err, pgx.ErrNoRows) {
		err = store.ErrNotFound
	}
	if err != nil {
		return "", s.wrap("server value", key, err)
	}
	return v, nil
}

// InitServerValue implements store.NotifyStore.
func (s *Store) InitServerValue(ctx context.Context, key, value string) (string, error) {
	if err := check.ServerKey(key); err != nil {
		return "", fmt.Errorf("postgres: init server value: %w", err)
	}
	var v string
	err := s.write(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO server_values (name, val) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING`, key, value); err != nil {
			return err
		}
		return tx.QueryRow(ctx, `SELECT val FROM server_values WHERE name = $1`, key).Scan(&v)
	})
	if err != nil {
		return "", s.wrap("init server value", key, err)
	}
	return v, nil
}
