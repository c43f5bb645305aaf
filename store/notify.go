package store

import (
	"context"
	"time"
)

// NotifySettings are an account's choices about being told of its games
// away from the table (package notify sends; the account page sets them).
type NotifySettings struct {
	Account string `json:"account"`
	// Push: Web Push to the account's subscribed browsers.
	Push bool `json:"push"`
	// Email is the address mail goes to ("" = none); EmailOn sends to it.
	Email   string `json:"email"`
	EmailOn bool   `json:"emailOn"`
	// Turns: "your turn" (and deadline reminders); Results: "game over".
	Turns   bool `json:"turns"`
	Results bool `json:"results"`
	// Quiet hours: from QuietFrom to QuietTo ("HH:MM", 24-hour clock) in
	// the IANA time zone QuietTZ; all three "" = none.
	QuietFrom string `json:"quietFrom,omitempty"`
	QuietTo   string `json:"quietTo,omitempty"`
	QuietTZ   string `json:"quietTZ,omitempty"`
	// Lang is the language notices are written in ("en", "fr"), the
	// page's when it saved them.
	Lang    string    `json:"lang"`
	Updated time.Time `json:"updated"`
}

// PushSubscription is one browser's Web Push subscription (the Push API's
// PushSubscription): where to send and the keys to encrypt for it.
type PushSubscription struct {
	// Endpoint is the push service's URL for this browser; unique.
	Endpoint string `json:"endpoint"`
	Account  string `json:"account"`
	// P256dh and Auth are the browser's keys, base64url as the browser
	// gives them.
	P256dh  string    `json:"p256dh"`
	Auth    string    `json:"auth"`
	Created time.Time `json:"created"`
}

// NotifyStore keeps notification settings, push subscriptions and the
// server's own values (its VAPID keys). DeleteAccount removes an account's
// settings and subscriptions.
type NotifyStore interface {
	// NotifySettings loads an account's settings; ErrNotFound if it never
	// saved any.
	NotifySettings(ctx context.Context, account string) (NotifySettings, error)
	// SetNotifySettings stores an account's settings, replacing the
	// earlier ones; ErrNotFound if the account is absent.
	SetNotifySettings(ctx context.Context, n NotifySettings) error

	// AddPushSubscription stores a subscription; one with the same
	// Endpoint is replaced (and moves to this account: the browser signed
	// into another one). ErrNotFound if the account is absent. Endpoint,
	// Account, P256dh and Auth are required.
	AddPushSubscription(ctx context.Context, p PushSubscription) error
	// PushSubscriptions lists an account's subscriptions, oldest first
	// (empty, not nil, when none).
	PushSubscriptions(ctx context.Context, account string) ([]PushSubscription, error)
	// DeletePushSubscription removes the subscription with this endpoint
	// and reports whether there was one.
	DeletePushSubscription(ctx context.Context, endpoint string) (bool, error)

	// ServerValue loads one of the server's own values; ErrNotFound if
	// never set.
	ServerValue(ctx context.Context, key string) (string, error)
	// InitServerValue stores value under key unless the key has a value
	// already, and returns the value the key holds after it: servers
	// starting at once all get the first one written.
	InitServerValue(ctx context.Context, key, value string) (string, error)
}
