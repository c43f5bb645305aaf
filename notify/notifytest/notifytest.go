// Package notifytest is a push service for tests: an HTTPS endpoint
// started by the test that decrypts what it is sent (RFC 8291, with the
// subscription's private keys, the key derivation written out here apart
// from the library's) and keeps it per endpoint, and the browser side of a
// subscription (fresh P-256 keys and auth secret). The notify package's
// tests and the browser tests use it.
package notifytest

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/ecdh"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hkdf"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/big"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
)

// Subscriber is a push subscription's private side: what a browser keeps.
type Subscriber struct {
	key  *ecdh.PrivateKey
	auth []byte
}

// NewSubscriber makes a subscriber with a fresh P-256 key pair and a
// 16-byte auth secret.
func NewSubscriber(t testing.TB) *Subscriber {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return &Subscriber{key: key, auth: auth}
}

// Subscription is what a page would POST for this subscriber
// (PushSubscription.toJSON()) with that endpoint.
func (b *Subscriber) Subscription(endpoint string) notify.Subscription {
	var s notify.Subscription
	s.Endpoint = endpoint
	s.Keys.P256dh = base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes())
	s.Keys.Auth = base64.RawURLEncoding.EncodeToString(b.auth)
	return s
}

// Decrypt reads an aes128gcm body (RFC 8188) encrypted for this subscriber
// (RFC 8291 section 3).
func (b *Subscriber) Decrypt(body []byte) ([]byte, error) {
	if len(body) < 21 {
		return nil, fmt.Errorf("body of %d bytes: no header", len(body))
	}
	salt, rs, idlen := body[:16], binary.BigEndian.Uint32(body[16:20]), int(body[20])
	if len(body) < 21+idlen || idlen != 65 {
		return nil, fmt.Errorf("key id of %d bytes, want 65 (the server's public key)", idlen)
	}
	asPublic, records := body[21:21+idlen], body[21+idlen:]
	if uint32(len(records)) > rs {
		return nil, fmt.Errorf("%d bytes of records with a record size of %d: more than one record", len(records), rs)
	}
	as, err := ecdh.P256().NewPublicKey(asPublic)
	if err != nil {
		return nil, err
	}
	secret, err := b.key.ECDH(as)
	if err != nil {
		return nil, err
	}
	info := append(append([]byte("WebPush: info\x00"), b.key.PublicKey().Bytes()...), asPublic...)
	ikm, err := hkdf.Key(sha256.New, secret, b.auth, string(info), 32)
	if err != nil {
		return nil, err
	}
	cek, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: aes128gcm\x00", 16)
	if err != nil {
		return nil, err
	}
	nonce, err := hkdf.Key(sha256.New, ikm, salt, "Content-Encoding: nonce\x00", 12)
	if err != nil {
		return nil, err
	}
	block, err := aes.NewCipher(cek)
	if err != nil {
		return nil, err
	}
	gcm, err := cipher.NewGCM(block)
	if err != nil {
		return nil, err
	}
	plain, err := gcm.Open(nil, nonce, records, nil)
	if err != nil {
		return nil, err
	}
	// The last record: the data, a 0x02 delimiter, zero padding.
	plain = bytes.TrimRight(plain, "\x00")
	if len(plain) == 0 || plain[len(plain)-1] != 0x02 {
		return nil, fmt.Errorf("no last-record delimiter")
	}
	return plain[:len(plain)-1], nil
}

// Pushed is one request the push service received, decrypted.
type Pushed struct {
	Path    string
	Header  http.Header
	Payload []byte         // the decrypted body
	Message notify.Message // Payload as JSON
}

// PushService is a push service started by the test: it keeps what it is
// sent (decrypted with the subscriber of the path) and answers 201, or the
// status set for a path. A request for a path no subscriber has, or that
// does not decrypt, fails the test.
type PushService struct {
	// Server is the HTTPS server (its Client trusts it).
	Server *httptest.Server
	// URL is the service's address: an endpoint is URL + a path.
	URL string

	t       testing.TB
	mu      sync.Mutex
	subs    map[string]*Subscriber
	status  map[string]int
	got     []Pushed
	arrived chan struct{} // a message came: signalled, never blocks
}

// NewPushService starts a push service, stopped when the test ends.
func NewPushService(t testing.TB) *PushService {
	p := &PushService{t: t, subs: map[string]*Subscriber{}, status: map[string]int{}, arrived: make(chan struct{}, 1)}
	p.Server = httptest.NewTLSServer(http.HandlerFunc(p.serve))
	p.URL = p.Server.URL
	t.Cleanup(p.Server.Close)
	return p
}

// Client posts to this service (it trusts the test certificate); give it
// to notify.Config.HTTPClient.
func (p *PushService) Client() *http.Client { return p.Server.Client() }

func (p *PushService) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.subs[r.URL.Path]
	if b == nil || r.Method != http.MethodPost {
		p.t.Errorf("push service: %s %s: no such subscription", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	plain, err := b.Decrypt(body)
	if err != nil {
		p.t.Errorf("push service: %s: not decrypted: %v", r.URL.Path, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var m notify.Message
	if err := json.Unmarshal(plain, &m); err != nil {
		p.t.Errorf("push service: payload %q: %v", plain, err)
	}
	p.got = append(p.got, Pushed{Path: r.URL.Path, Header: r.Header.Clone(), Payload: plain, Message: m})
	select {
	case p.arrived <- struct{}{}:
	default:
	}
	if st := p.status[r.URL.Path]; st != 0 {
		w.WriteHeader(st)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// Subscribe makes a subscriber for the endpoint URL+path and returns it
// with its subscription (what the page would POST).
func (p *PushService) Subscribe(t testing.TB, path string) (*Subscriber, notify.Subscription) {
	t.Helper()
	b := NewSubscriber(t)
	p.mu.Lock()
	p.subs[path] = b
	p.mu.Unlock()
	sub := b.Subscription(p.URL + path)
	if err := sub.Check(); err != nil {
		t.Fatalf("subscription refused: %v", err)
	}
	return b, sub
}

// SetStatus makes the service answer status to the pushes for path.
func (p *PushService) SetStatus(path string, status int) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.status[path] = status
}

// Received is every message received so far, in order.
func (p *PushService) Received() []Pushed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.got)
}

// For is the messages received so far for path, in order.
func (p *PushService) For(path string) []Pushed {
	var out []Pushed
	for _, m := range p.Received() {
		if m.Path == path {
			out = append(out, m)
		}
	}
	return out
}

// WaitFor waits (generously) until the service holds n messages for path
// ("" = for any), and fails the test if it holds another number then.
func (p *PushService) WaitFor(t testing.TB, path string, n int) []Pushed {
	t.Helper()
	got := func() []Pushed {
		if path == "" {
			return p.Received()
		}
		return p.For(path)
	}
	deadline := time.After(10 * time.Second)
	for {
		msgs := got()
		if len(msgs) >= n {
			if len(msgs) != n {
				t.Fatalf("push service got %d messages for %q, want %d: %+v", len(msgs), path, n, msgs)
			}
			return msgs
		}
		select {
		case <-p.arrived:
		case <-time.After(50 * time.Millisecond):
		case <-deadline:
			t.Fatalf("push service got %d messages for %q, want %d: %+v", len(msgs), path, n, msgs)
		}
	}
}

// CheckVAPID checks a request's VAPID Authorization (RFC 8292): the key is
// the server's, the JWT's ES256 signature verifies with it, its audience
// is the push service's origin, its subject the operator's contact, and it
// expires within a day (of the real time: the library signs with it).
func CheckVAPID(t testing.TB, h http.Header, publicKey, audience, subject string) {
	t.Helper()
	auth := h.Get("Authorization")
	rest, ok := strings.CutPrefix(auth, "vapid ")
	if !ok {
		t.Fatalf("Authorization %q: not vapid", auth)
	}
	var tok, k string
	for _, part := range strings.Split(rest, ",") {
		name, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch name {
		case "t":
			tok = v
		case "k":
			k = v
		}
	}
	if k != publicKey {
		t.Fatalf("VAPID k = %q, want the server's key %q", k, publicKey)
	}
	raw, err := base64.RawURLEncoding.DecodeString(k)
	if err != nil {
		t.Fatal(err)
	}
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), raw)
	if err != nil {
		t.Fatal(err)
	}
	parts := strings.Split(tok, ".")
	if len(parts) != 3 {
		t.Fatalf("JWT %q: not three parts", tok)
	}
	head, _ := base64.RawURLEncoding.DecodeString(parts[0])
	var hd struct{ Alg, Typ string }
	if err := json.Unmarshal(head, &hd); err != nil || hd.Alg != "ES256" {
		t.Fatalf("JWT header %s: want alg ES256", head)
	}
	sig, err := base64.RawURLEncoding.DecodeString(parts[2])
	if err != nil || len(sig) != 64 {
		t.Fatalf("JWT signature of %d bytes, want 64 (r||s)", len(sig))
	}
	digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		t.Fatal("the VAPID JWT's signature does not verify with the server's public key")
	}
	body, _ := base64.RawURLEncoding.DecodeString(parts[1])
	var claims struct {
		Aud string `json:"aud"`
		Sub string `json:"sub"`
		Exp int64  `json:"exp"`
	}
	if err := json.Unmarshal(body, &claims); err != nil {
		t.Fatal(err)
	}
	if claims.Aud != audience || claims.Sub != subject {
		t.Fatalf("JWT claims %s: want aud %q, sub %q", body, audience, subject)
	}
	if exp := time.Unix(claims.Exp, 0); exp.Before(time.Now()) || exp.After(time.Now().Add(24*time.Hour)) {
		t.Fatalf("JWT expires %v: want within a day (RFC 8292)", exp)
	}
}
