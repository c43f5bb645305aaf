// Package notify tells players of their games when they are away from the
// table: Web Push to their subscribed browsers (RFC 8030, payloads
// encrypted per RFC 8291, the server identified by VAPID, RFC 8292) and
// plain-text e-mail through the operator's SMTP server. Each account
// chooses what it is told, where, and its quiet hours (store.NotifyStore
// keeps the choices and the subscriptions).
//
// It knows no game and no server: the server hands it a Notice (its
// TurnNotice, converted in server/notify_push.go) and serves the settings
// API with the types here.
//
// Quiet hours hold a notice until they end, then send it: the latest per
// table only (a newer notice of the same table replaces a held one, so a
// game that ended overnight gives one "game over" in the morning). Held
// notices live in memory: a restart in the quiet hours drops them (the
// lobby's "my games" still lists the tables waiting).
package notify

import (
	"context"
	"errors"
	"github.com/dicehall/dicehall/internal/clock"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/dicehall/dicehall/store"
)

// Notice is one thing to tell an account; the same fields as the server's
// TurnNotice.
type Notice struct {
	Account   string
	Table     string
	Game      string
	GameTitle string
	Opponent  string // who played last ("" = none to name)
	Seat      int
	Deadline  time.Time // when the move is due (zero = no clock)
	URL       string    // the table's page, relative ("/t/<id>")
	Kind      string    // KindTurn, KindReminder, KindOver
}

// Clock is the source of time: the server's, so tests drive both with one
// fake clock.
type Clock = clock.Clock

// Timer is a pending AfterFunc call.
type Timer = clock.Timer

// Config configures a Service. Zero values take the defaults noted.
type Config struct {
	Store store.NotifyStore
	// Subject is the operator's contact in the VAPID token, "mailto:..."
	// or "https://..." (push services write to it about problems).
	Subject string
	// BaseURL is the site's address (https://example.org), for the links
	// in e-mails; required when Mail is set.
	BaseURL string
	// Mail sends e-mail; nil = none (push only).
	Mail *SMTP
	// HTTPClient posts to push services; nil = one that refuses to
	// connect to loopback, private and link-local addresses (an endpoint
	// is a URL a browser gave) and follows no redirects.
	HTTPClient *http.Client
	// TurnEvery bounds "your turn" (and reminders) to one per account and
	// table in this time: 0 = DefaultTurnEvery, negative = no bound.
	TurnEvery time.Duration
	// Timeout bounds one delivery (all of an account's browsers and its
	// e-mail): 0 = 30s.
	Timeout time.Duration
	Clock   Clock        // nil = real time
	Logger  *slog.Logger // nil = slog.Default()
}

// DefaultTurnEvery is Config.TurnEvery's default.
const DefaultTurnEvery = 10 * time.Minute

// DefaultSubject is the VAPID contact when the operator names none.
const DefaultSubject = "mailto:admin@localhost"

// Service sends notices. Its methods are safe for concurrent use.
type Service struct {
	cfg   Config
	st    store.NotifyStore
	keys  VAPIDKeys
	clock Clock
	log   *slog.Logger

	mu     sync.Mutex
	closed bool
	sent   map[[2]string]time.Time // last "your turn" per account and table
	held   map[string]*held        // by account: notices waiting for quiet hours to end
}

type held struct {
	timer   Timer
	notices map[string]Notice // by table: the latest
	order   []string          // tables, in the order they were first held
}

// New makes a Service, with the server's VAPID keys: loaded from the
// store, or made and stored the first time (LoadVAPID).
func New(ctx context.Context, cfg Config) (*Service, error) {
	if cfg.Store == nil {
		return nil, errors.New("notify: a store is required")
	}
	if cfg.Mail != nil && cfg.BaseURL == "" {
		return nil, errors.New("notify: e-mail needs the site's address for its links")
	}
	if cfg.Subject == "" {
		cfg.Subject = DefaultSubject
	}
	if cfg.TurnEvery == 0 {
		cfg.TurnEvery = DefaultTurnEvery
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 30 * time.Second
	}
	if cfg.Clock == nil {
		cfg.Clock = clock.Real{}
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	if cfg.HTTPClient == nil {
		cfg.HTTPClient = publicClient()
	}
	keys, err := LoadVAPID(ctx, cfg.Store)
	if err != nil {
		return nil, err
	}
	return &Service{cfg: cfg, st: cfg.Store, keys: keys, clock: cfg.Clock, log: cfg.Logger,
		sent: make(map[[2]string]time.Time), held: make(map[string]*held)}, nil
}

// PublicKey is the VAPID public key (base64url, uncompressed P-256 point)
// browsers subscribe with (applicationServerKey).
func (s *Service) PublicKey() string { return s.keys.Public }

// EmailAvailable says whether the operator configured e-mail.
func (s *Service) EmailAvailable() bool { return s.cfg.Mail != nil }

// Close drops the held notices and stops their timers.
func (s *Service) Close() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.closed = true
	for _, h := range s.held {
		h.timer.Stop()
	}
	clear(s.held)
}

// Settings loads an account's settings (the defaults if it saved none).
func (s *Service) Settings(ctx context.Context, account string) (Settings, error) {
	return FromStore(s.st.NotifySettings(ctx, account))
}

// Notify tells an account what the notice says, as its settings ask: now,
// after its quiet hours, or not at all. It returns when the notice is sent
// or held; failures are logged (a push service answering 404 or 410 ends
// the subscription).
func (s *Service) Notify(ctx context.Context, n Notice) {
	if n.Account == "" || n.Table == "" {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, s.cfg.Timeout)
	defer cancel()
	s.notify(ctx, n)
}

func (s *Service) notify(ctx context.Context, n Notice) {
	set, err := s.Settings(ctx, n.Account)
	if err != nil {
		s.log.Error("notify: settings not read", "account", n.Account, "err", err)
		return
	}
	if !wanted(set, n.Kind) {
		return
	}
	now := s.clock.Now()
	if end, quiet := set.Quiet.quietUntil(now); quiet {
		s.hold(n, end.Sub(now))
		return
	}
	if !s.allow(n, now) {
		return
	}
	s.deliver(ctx, n, set, now)
}

// wanted says whether the settings ask for this kind of notice on some
// channel.
func wanted(set Settings, kind string) bool {
	if !set.Push && !set.EmailOn {
		return false
	}
	if kind == KindOver {
		return set.Results
	}
	return set.Turns
}

// allow applies the "your turn" bound, and counts this one.
func (s *Service) allow(n Notice, now time.Time) bool {
	if n.Kind == KindOver || s.cfg.TurnEvery < 0 {
		return true
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	key := [2]string{n.Account, n.Table}
	if last, ok := s.sent[key]; ok && now.Sub(last) < s.cfg.TurnEvery {
		return false
	}
	if len(s.sent) > 10_000 { // forget what no longer bounds anything
		for k, t := range s.sent {
			if now.Sub(t) >= s.cfg.TurnEvery {
				delete(s.sent, k)
			}
		}
	}
	s.sent[key] = now
	return true
}

// hold keeps a notice until the account's quiet hours end (in d).
func (s *Service) hold(n Notice, d time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return
	}
	h := s.held[n.Account]
	if h == nil {
		h = &held{notices: make(map[string]Notice)}
		s.held[n.Account] = h
		account := n.Account
		h.timer = s.clock.AfterFunc(d, func() { s.release(account) })
	}
	if _, ok := h.notices[n.Table]; !ok {
		h.order = append(h.order, n.Table)
	}
	h.notices[n.Table] = n
}

// release sends an account's held notices (each as if it came now: the
// settings may have changed, quiet hours too).
func (s *Service) release(account string) {
	s.mu.Lock()
	h := s.held[account]
	delete(s.held, account)
	s.mu.Unlock()
	if h == nil {
		return
	}
	for _, table := range h.order {
		ctx, cancel := context.WithTimeout(context.Background(), s.cfg.Timeout)
		s.notify(ctx, h.notices[table])
		cancel()
	}
}

// deliver sends a notice on the account's channels.
func (s *Service) deliver(ctx context.Context, n Notice, set Settings, now time.Time) {
	m := message(n, set.Lang, now)
	if set.Push {
		s.push(ctx, n, m, now)
	}
	if set.EmailOn && set.Email != "" && s.cfg.Mail != nil {
		if err := s.cfg.Mail.Send(ctx, set.Email, s.mail(m, set.Lang, now)); err != nil {
			s.log.Warn("notify: e-mail not sent", "account", n.Account, "err", err)
		}
	}
}
