package check

import (
	"fmt"

	"github.com/dicehall/dicehall/store"
)

// NotifySettings checks the fields settings must have to be written (the
// server checks their meaning: times, zone, address).
func NotifySettings(n store.NotifySettings) error {
	if n.Account == "" {
		return fmt.Errorf("%w notify settings: empty account", ErrInvalid)
	}
	return nil
}

// PushSubscription checks the fields a subscription must have.
func PushSubscription(p store.PushSubscription) error {
	if p.Endpoint == "" || p.Account == "" || p.P256dh == "" || p.Auth == "" {
		return fmt.Errorf("%w push subscription: endpoint, account and keys are required", ErrInvalid)
	}
	return nil
}

// ServerKey checks a server value's key.
func ServerKey(key string) error {
	if key == "" {
		return fmt.Errorf("%w server value: empty key", ErrInvalid)
	}
	return nil
}
