package notify

import (
	"context"
	"crypto/ecdh"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"syscall"
	"time"

	webpush "github.com/SherClockHolmes/webpush-go"

	"github.com/dicehall/dicehall/store"
)

// VAPIDKeys is the server's VAPID key pair (RFC 8292): base64url (no
// padding) of the uncompressed P-256 public point and of the private
// scalar, as webpush.GenerateVAPIDKeys makes them.
type VAPIDKeys struct {
	Public  string `json:"public"`
	Private string `json:"private"`
}

// vapidKey is the server value holding the keys, as JSON.
const vapidKey = "vapid"

// LoadVAPID returns the server's VAPID keys: the stored ones, or a new pair
// made and stored now. Several servers on one database starting at once
// all get the same pair (store.InitServerValue). Browsers subscribed with
// the public key, so it must never change.
func LoadVAPID(ctx context.Context, st store.NotifyStore) (VAPIDKeys, error) {
	v, err := st.ServerValue(ctx, vapidKey)
	if errors.Is(err, store.ErrNotFound) {
		var k VAPIDKeys
		k.Private, k.Public, err = webpush.GenerateVAPIDKeys()
		if err != nil {
			return VAPIDKeys{}, fmt.Errorf("notify: make VAPID keys: %w", err)
		}
		data, _ := json.Marshal(k)
		v, err = st.InitServerValue(ctx, vapidKey, string(data))
	}
	if err != nil {
		return VAPIDKeys{}, fmt.Errorf("notify: VAPID keys: %w", err)
	}
	var k VAPIDKeys
	if err := json.Unmarshal([]byte(v), &k); err != nil {
		return VAPIDKeys{}, fmt.Errorf("notify: stored VAPID keys: %w", err)
	}
	if err := k.check(); err != nil {
		return VAPIDKeys{}, fmt.Errorf("notify: stored VAPID keys: %w", err)
	}
	return k, nil
}

// check makes sure the pair is a P-256 key and its public half.
func (k VAPIDKeys) check() error {
	priv, err1 := base64.RawURLEncoding.DecodeString(k.Private)
	pub, err2 := base64.RawURLEncoding.DecodeString(k.Public)
	if err := errors.Join(err1, err2); err != nil {
		return err
	}
	key, err := ecdh.P256().NewPrivateKey(priv)
	if err != nil {
		return err
	}
	if string(key.PublicKey().Bytes()) != string(pub) {
		return errors.New("the public key is not the private key's")
	}
	return nil
}

// Subscription is a browser's PushSubscription as the page sends it
// (PushSubscription.toJSON()).
type Subscription struct {
	Endpoint string `json:"endpoint"`
	// ExpirationTime is what browsers send (null mostly); not kept.
	ExpirationTime *float64 `json:"expirationTime,omitempty"`
	Keys           struct {
		P256dh string `json:"p256dh"`
		Auth   string `json:"auth"`
	} `json:"keys"`
}

// maxEndpoint bounds an endpoint's length (real ones are a few hundred
// bytes).
const maxEndpoint = 1024

// Check refuses a subscription the service could not send to: an endpoint
// that is not an https URL, keys that are not a P-256 public key and a
// 16-byte secret.
func (p Subscription) Check() error {
	u, err := url.Parse(p.Endpoint)
	if err != nil || u.Scheme != "https" || u.Host == "" || u.User != nil || u.Fragment != "" || len(p.Endpoint) > maxEndpoint {
		return errors.New("the endpoint is not a push service's https address")
	}
	dh, err := decodeKey(p.Keys.P256dh)
	if err == nil {
		_, err = ecdh.P256().NewPublicKey(dh)
	}
	if err != nil {
		return errors.New("keys.p256dh is not a P-256 public key")
	}
	if auth, err := decodeKey(p.Keys.Auth); err != nil || len(auth) != 16 {
		return errors.New("keys.auth is not a 16-byte secret")
	}
	return nil
}

// decodeKey reads base64url with or without padding (browsers send none).
func decodeKey(s string) ([]byte, error) {
	return base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
}

// push sends a message to each of the account's browsers.
func (s *Service) push(ctx context.Context, n Notice, m Message, now time.Time) {
	subs, err := s.st.PushSubscriptions(ctx, n.Account)
	if err != nil {
		s.log.Error("notify: subscriptions not read", "account", n.Account, "err", err)
		return
	}
	if len(subs) == 0 {
		return
	}
	payload, _ := json.Marshal(m)
	ttl, urgency := delivery(n, now)
	opts := &webpush.Options{
		HTTPClient: s.cfg.HTTPClient,
		// webpush-go v1.4.0 puts "mailto:" before any subject that is not
		// an https URL: give it the bare address.
		Subscriber:      strings.TrimPrefix(s.cfg.Subject, "mailto:"),
		Topic:           topic(n.Table),
		TTL:             int(ttl / time.Second),
		Urgency:         urgency,
		VAPIDPublicKey:  s.keys.Public,
		VAPIDPrivateKey: s.keys.Private,
	}
	for _, p := range subs {
		sub := &webpush.Subscription{Endpoint: p.Endpoint, Keys: webpush.Keys{Auth: p.Auth, P256dh: p.P256dh}}
		resp, err := webpush.SendNotificationWithContext(ctx, payload, sub, opts)
		if err != nil {
			s.log.Warn("notify: push not sent", "account", n.Account, "err", err)
			continue
		}
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 4<<10))
		resp.Body.Close()
		switch {
		case resp.StatusCode == http.StatusNotFound || resp.StatusCode == http.StatusGone:
			// The browser unsubscribed, or the subscription expired.
			if _, err := s.st.DeletePushSubscription(ctx, p.Endpoint); err != nil {
				s.log.Error("notify: ended subscription not removed", "account", n.Account, "err", err)
			}
		case resp.StatusCode/100 != 2:
			s.log.Warn("notify: push refused", "account", n.Account, "status", resp.StatusCode)
		}
	}
}

// delivery is how long a push service keeps a message for an offline
// browser, and how urgent it is: a "your turn" is worth delivering until
// its deadline (four days with no clock), high when under an hour is left;
// "game over" for a day, low.
func delivery(n Notice, now time.Time) (time.Duration, webpush.Urgency) {
	const maxTTL = 28 * 24 * time.Hour // what push services keep at most
	if n.Kind == KindOver {
		return 24 * time.Hour, webpush.UrgencyLow
	}
	if n.Deadline.IsZero() {
		return 4 * 24 * time.Hour, webpush.UrgencyNormal
	}
	left := n.Deadline.Sub(now)
	urgency := webpush.UrgencyNormal
	if left < time.Hour || n.Kind == KindReminder {
		urgency = webpush.UrgencyHigh
	}
	return min(max(left, time.Minute), maxTTL), urgency
}

// topic is the Topic header (RFC 8030 5.4, at most 32 base64url
// characters): one per table, so a push service keeping messages for an
// offline browser keeps only a table's latest.
func topic(table string) string {
	sum := sha256.Sum256([]byte(table))
	return base64.RawURLEncoding.EncodeToString(sum[:])[:32]
}

// publicClient posts to push services only: no loopback, private,
// link-local or otherwise special address (the endpoint comes from a
// browser), no proxy, no redirect.
func publicClient() *http.Client {
	dialer := &net.Dialer{Timeout: 10 * time.Second, Control: func(_, address string, _ syscall.RawConn) error {
		ap, err := netip.ParseAddrPort(address)
		if err != nil {
			return err
		}
		if a := ap.Addr().Unmap(); !a.IsGlobalUnicast() || a.IsPrivate() || cgnat.Contains(a) {
			return fmt.Errorf("notify: %s is not a public address", a)
		}
		return nil
	}}
	return &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{DialContext: dialer.DialContext, TLSHandshakeTimeout: 10 * time.Second,
			MaxIdleConnsPerHost: 4, IdleConnTimeout: time.Minute},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
}

var cgnat = netip.MustParsePrefix("100.64.0.0/10")
