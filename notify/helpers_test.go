package notify_test

import (
	"bytes"
	"context"
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
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// fakeClock is a clock moved by the test; due timers run in their own
// goroutines, like time.AfterFunc's.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c    *fakeClock
	at   time.Time
	f    func()
	done bool
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) notify.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// advance moves the clock and starts the timers now due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		go f()
	}
}

// browser is a push subscription's private side: what a browser keeps.
type browser struct {
	key  *ecdh.PrivateKey
	auth []byte
}

func newBrowser(t *testing.T) *browser {
	t.Helper()
	key, err := ecdh.P256().GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	auth := make([]byte, 16)
	_, _ = rand.Read(auth)
	return &browser{key: key, auth: auth}
}

// subscription is what the page would POST for this browser.
func (b *browser) subscription(endpoint string) notify.Subscription {
	var s notify.Subscription
	s.Endpoint = endpoint
	s.Keys.P256dh = base64.RawURLEncoding.EncodeToString(b.key.PublicKey().Bytes())
	s.Keys.Auth = base64.RawURLEncoding.EncodeToString(b.auth)
	return s
}

// decrypt reads an aes128gcm body (RFC 8188) encrypted for this browser
// (RFC 8291 section 3): the key derivation written out here, apart from
// the library's.
func (b *browser) decrypt(body []byte) ([]byte, error) {
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

// pushed is one request the push endpoint received, decrypted.
type pushed struct {
	path    string
	header  http.Header
	message notify.Message
}

// pushService is a push service started by the test: it keeps what it is
// sent (decrypted with the browser of the path) and answers 201, or the
// status set for a path.
type pushService struct {
	t        *testing.T
	srv      *httptest.Server
	mu       sync.Mutex
	browsers map[string]*browser
	status   map[string]int
	got      []pushed
}

func newPushService(t *testing.T) *pushService {
	p := &pushService{t: t, browsers: map[string]*browser{}, status: map[string]int{}}
	p.srv = httptest.NewTLSServer(http.HandlerFunc(p.serve))
	t.Cleanup(p.srv.Close)
	return p
}

func (p *pushService) serve(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	p.mu.Lock()
	defer p.mu.Unlock()
	b := p.browsers[r.URL.Path]
	if b == nil || r.Method != http.MethodPost {
		p.t.Errorf("push service: %s %s: no such subscription", r.Method, r.URL.Path)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	plain, err := b.decrypt(body)
	if err != nil {
		p.t.Errorf("push service: %s: not decrypted: %v", r.URL.Path, err)
		w.WriteHeader(http.StatusBadRequest)
		return
	}
	var m notify.Message
	if err := json.Unmarshal(plain, &m); err != nil {
		p.t.Errorf("push service: payload %q: %v", plain, err)
	}
	p.got = append(p.got, pushed{path: r.URL.Path, header: r.Header.Clone(), message: m})
	if st := p.status[r.URL.Path]; st != 0 {
		w.WriteHeader(st)
		return
	}
	w.WriteHeader(http.StatusCreated)
}

// subscribe makes a browser with the endpoint path and stores its
// subscription for an account.
func (p *pushService) subscribe(t *testing.T, st store.Store, account, path string) *browser {
	t.Helper()
	b := newBrowser(t)
	p.mu.Lock()
	p.browsers[path] = b
	p.mu.Unlock()
	sub := b.subscription(p.srv.URL + path)
	if err := sub.Check(); err != nil {
		t.Fatalf("subscription refused: %v", err)
	}
	if err := st.AddPushSubscription(context.Background(), store.PushSubscription{Endpoint: sub.Endpoint, Account: account,
		P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
	return b
}

func (p *pushService) received() []pushed {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.got)
}

// waitFor waits (generously) until the push service holds n messages.
func (p *pushService) waitFor(t *testing.T, n int) []pushed {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := p.received()
		if len(got) >= n || time.Now().After(deadline) {
			if len(got) != n {
				t.Fatalf("push service got %d messages, want %d: %+v", len(got), n, got)
			}
			return got
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// checkVAPID checks a request's VAPID Authorization (RFC 8292): the key is
// the server's, the JWT's ES256 signature verifies with it, its audience
// is the push service's origin, its subject the operator's contact, and it
// expires within a day.
func checkVAPID(t *testing.T, h http.Header, publicKey, audience, subject string) {
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

// fixture is a Service over a memstore with one account.
type fixture struct {
	st    *memstore.Store
	svc   *notify.Service
	clock *fakeClock
	push  *pushService
}

func newFixture(t *testing.T, cfg notify.Config) *fixture {
	t.Helper()
	f := &fixture{st: memstore.New(), push: newPushService(t)}
	f.clock = &fakeClock{now: time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)}
	if err := f.st.CreateAccount(context.Background(), store.Account{ID: "acc-ann", Name: "Ann", NameKey: "ann", Created: f.clock.now}); err != nil {
		t.Fatal(err)
	}
	cfg.Store = f.st
	cfg.Clock = f.clock
	cfg.HTTPClient = f.push.srv.Client()
	if cfg.Subject == "" {
		cfg.Subject = "mailto:ops@example.org"
	}
	svc, err := notify.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	f.svc = svc
	return f
}

func (f *fixture) settings(t *testing.T, s notify.Settings) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetNotifySettings(context.Background(), s.ToStore("acc-ann", f.clock.Now())); err != nil {
		t.Fatal(err)
	}
}

func turn(table string) notify.Notice {
	return notify.Notice{Account: "acc-ann", Table: table, Game: "dicestars", GameTitle: "Dice Stars",
		Opponent: "Bob", Seat: 0, URL: "/t/" + table, Kind: notify.KindTurn}
}
