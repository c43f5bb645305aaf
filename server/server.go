// Package server is the web platform's game server: HTTP for pages, the
// lobby, joining and replays, and one WebSocket per open table page for
// live play (docs/protocol.md is the contract with the browser).
//
// Each table is one actor: a goroutine that owns the table's engine.State
// and is fed through a bounded inbox; it runs while the table has something
// to do and is loaded again on demand. A move is stored before anybody is
// told of it; chance is drawn by the server from the table's seed, so a
// restarted server resumes every table exactly where it was.
package server

import (
	"context"
	"errors"
	"fmt"
	"github.com/dicehall/dicehall/internal/clock"
	"io/fs"
	"log/slog"
	"net/http"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/web"
)

// Config configures a Server. Zero values take the defaults noted.
type Config struct {
	Store  store.Store
	Games  *engine.Registry // games/all.Registry
	Logger *slog.Logger     // nil = slog.Default()
	// BotDelay is the pause, in game time, before each move of a bot that
	// is not a Pacer, so people can follow: 0 = engine.DefaultBotDelayMs,
	// negative = none. A table's settings.botDelayMs overrides it.
	BotDelay time.Duration
	// OpenExpiry is how long an open table waits for players after its
	// last join before it leaves the lobby and refuses joins (410
	// expired): 0 = 24h, negative = never.
	OpenExpiry time.Duration

	// AbandonAfter: a live table nobody has had open (a page, player or
	// spectator) for this long is abandoned: the lobby leaves it out (its
	// players still find it among their tables). 0 = 30 minutes,
	// negative = never.
	AbandonAfter time.Duration

	// Clock drives every timer (turn clocks, rule deadlines, bot delays,
	// store retries), expiry and rate limits; nil = real time. Tests inject
	// a fake one.
	Clock Clock
	// Static is the browser client; nil = web.Static().
	Static fs.FS

	// LogMoves is how many moves' narration each table keeps for the log
	// a welcome carries (memory grows with it): 0 = DefaultLogMoves (300).
	LogMoves int

	InboxSize        int           // table inbox; 0 = 256
	SendQueue        int           // per-connection send queue; 0 = 256
	MaxConnsPerTable int           // spectators per table (seats always get in); 0 = 200, negative = none
	MsgRate          float64       // WebSocket messages a second per connection; 0 = 20
	MsgBurst         int           // 0 = 40
	PostRate         float64       // POST requests a second per client address; 0 = 2
	PostBurst        int           // 0 = 30
	MaxBody          int64         // request body limit; 0 = 16 KiB
	StoreTimeout     time.Duration // one store call; 0 = 10s
	RetryDelay       time.Duration // pause after a failed store write; 0 = 1s
	// OriginPatterns lists other origins allowed to open WebSockets and
	// POST (the server's own host always is).
	OriginPatterns []string

	// Limits bounds what one client can hold (limits.go; docs/protocol.md,
	// Limits).
	Limits Limits
	// Budgets bounds the tables people may make and what the costly GETs
	// may take (budgets.go; docs/protocol.md, Limits).
	Budgets Budgets

	// MinRatedGames is the number of rated games a player needs to appear
	// on a leaderboard: 0 = DefaultMinRatedGames.
	MinRatedGames int

	// Identity configures accounts, sessions and passkeys (auth.go).
	Identity Identity

	// Notifier hears when a seat held by an account becomes to act at a
	// turn-based table, and when such a game ends (notify.go); nil = none.
	Notifier Notifier

	// Push serves the notification API (/api/notify/..., notify_push.go):
	// the VAPID key, push subscriptions, settings; nil = that API answers
	// 404. Tables send through it unless Notifier is set (New makes Notifier
	// PushNotifier(Push) when it is nil).
	Push *notify.Service

	// Reviews configures the reviews of finished tables and the coach's
	// hints (review.go, hint.go).
	Reviews Reviews

	// Cluster, when set, makes this server one node of several sharing
	// the store (lease.go, bus.go); nil = the server runs alone.
	Cluster *Cluster

	// PublicURL, when set (https://example.org), is the only host served:
	// a request for another Host is refused (421 wrong-host), except
	// loopback names on a loopback listener; and it is the origin pages
	// must come from. "" = any host, the request's own is the origin.
	PublicURL string
}

// DefaultAbandonAfter is Config.AbandonAfter's default.
const DefaultAbandonAfter = 30 * time.Minute

func (c *Config) defaults() {
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Notifier == nil && c.Push != nil {
		c.Notifier = PushNotifier(c.Push)
	}
	switch {
	case c.BotDelay == 0:
		c.BotDelay = engine.DefaultBotDelayMs * time.Millisecond
	case c.BotDelay < 0:
		c.BotDelay = 0
	}
	switch {
	case c.OpenExpiry == 0:
		c.OpenExpiry = 24 * time.Hour
	case c.OpenExpiry < 0:
		c.OpenExpiry = 0
	}
	switch {
	case c.AbandonAfter == 0:
		c.AbandonAfter = DefaultAbandonAfter
	case c.AbandonAfter < 0:
		c.AbandonAfter = 0
	}
	if c.Clock == nil {
		c.Clock = clock.Real{}
	}
	if c.Static == nil {
		c.Static = web.Static()
	}
	setDefault(&c.LogMoves, DefaultLogMoves)
	setDefault(&c.MinRatedGames, DefaultMinRatedGames)
	setDefault(&c.InboxSize, 256)
	setDefault(&c.SendQueue, 256)
	setDefault(&c.MsgRate, 20)
	setDefault(&c.MsgBurst, 40)
	setDefault(&c.PostRate, 2)
	setDefault(&c.PostBurst, 30)
	setDefault(&c.MaxBody, 16<<10)
	setDefault(&c.StoreTimeout, 10*time.Second)
	setDefault(&c.RetryDelay, time.Second)
	c.Limits.defaults()
	c.Budgets.defaults()
	c.Identity.defaults()
	c.Reviews.defaults()
	if c.MaxConnsPerTable == 0 {
		c.MaxConnsPerTable = DefaultSpectators
	}
}

func setDefault[T int | int64 | float64 | time.Duration](v *T, d T) {
	if *v <= 0 {
		*v = d
	}
}

// zeroDefault sets a zero v to d; a negative v (no limit) stays.
func zeroDefault[T int | int64 | float64 | time.Duration](v *T, d T) {
	if *v == 0 {
		*v = d
	}
}

// Server is the game server. Create it with New, serve Handler, and Close
// it when done (the store stays open: it belongs to the caller).
type Server struct {
	cfg      Config
	store    store.Store
	games    *engine.Registry
	log      *slog.Logger
	clock    Clock
	ctx      context.Context // cancelled by Close: ends every table and connection
	cancel   context.CancelFunc
	handler  http.Handler
	posts    ipLimiter
	budgets  budgetState     // table budgets, GET limits, the replay cache (budgets.go)
	auth     authState       // sign-in limits, hashing slots, passkey ceremonies (auth.go)
	profiles profiles        // account names for the seats' profile links (ratings.go)
	notices  chan TurnNotice // waiting for Config.Notifier (notify.go); nil = no notifier
	bus      *bus            // the other nodes (bus.go); nil = none
	metrics  *metrics        // Prometheus metrics (metrics.go)
	reviews  *reviewer       // review workers and hint slots (review.go)

	// Limits (limits.go).
	public    *url.URL // Config.PublicURL parsed; nil = any host
	httpConns *connLimiter
	wsConns   wsCounter
	connSeq   atomic.Uint64 // numbers WebSockets in order of arrival

	mu       sync.Mutex
	closed   bool
	draining bool              // Drain was called: /readyz answers 503
	tables   map[string]*table // the running actors
	// ending holds the actors stopped for idleness until their lease is
	// ended: the table is not loaded again here before (lease.go).
	ending map[string]*table
	// loading marks a table being loaded by actor, closed when it is done:
	// one load at a time, begun only when no actor of the table runs, so
	// a load never misses the writes of an actor that started and stopped
	// during it (two joins of one seat would both win).
	loading map[string]chan struct{}
	wg      sync.WaitGroup // actors, handlers and closers
}

// New starts a server. Every live table is loaded and replayed, so bots,
// chance, turn clocks and rule deadlines go on by themselves; an actor with
// nothing to do (people only, no clock) stops at once. Open and finished
// tables, and the stopped ones, are loaded when someone needs them.
func New(cfg Config) (*Server, error) {
	if cfg.Store == nil || cfg.Games == nil {
		return nil, errors.New("server: a store and a game registry are required")
	}
	cfg.defaults()
	if cfg.Cluster != nil {
		c := *cfg.Cluster
		c.defaults()
		cfg.Cluster = &c
	}
	public, err := parsePublicURL(cfg.PublicURL)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	s := &Server{cfg: cfg, store: cfg.Store, games: cfg.Games, log: cfg.Logger, clock: cfg.Clock,
		ctx: ctx, cancel: cancel, tables: map[string]*table{}, ending: map[string]*table{}, loading: map[string]chan struct{}{},
		posts:  ipLimiter{rate: cfg.PostRate, burst: float64(cfg.PostBurst), m: map[string]*bucket{}},
		public: public, httpConns: newConnLimiter(cfg.Limits.ConnsPerAddr, cfg.Logger), auth: newAuthState(cfg.Identity, sharedBucketsOf(cfg))}
	s.metrics = newMetrics(s)
	s.reviews = newReviewer(s)
	s.handler = s.routes()
	if err := s.startBus(); err != nil {
		cancel()
		return nil, err
	}
	s.startNotices()

	lctx, lcancel := context.WithTimeout(ctx, time.Minute)
	defer lcancel()
	metas, err := s.store.List(lctx, store.Filter{Status: []string{store.StatusLive}, Limit: 1 << 30})
	if err != nil {
		cancel()
		return nil, fmt.Errorf("server: list tables: %w", err)
	}
	resumed := 0
	for _, m := range metas {
		t, err := s.loadOwned(lctx, m.ID)
		var remote *errRemote
		if errors.As(err, &remote) {
			continue // another node runs it
		}
		if err != nil {
			// One broken table must not keep the others down.
			s.log.Error("table not resumed", "table", m.ID, "err", err)
			continue
		}
		if _, err := s.start(t, false); err != nil {
			cancel()
			return nil, err
		}
		resumed++
	}
	if s.clustered() {
		go s.keepLeases()
		go s.sweepOrphans()
	}
	// Ratings a crash or a store failure left unapplied (ratings.go).
	if n, err := s.sweepRatings(lctx, ratingSweepStart); err != nil {
		s.log.Error("rating sweep", "err", err)
	} else if n > 0 {
		s.log.Info("rating sweep", "rated", n)
	}
	s.sweepRatingsLater()
	s.reviews.sweep(lctx) // reviews a stop left unfinished (review.go)
	s.log.Info("server ready", "tables_resumed", resumed, "node", s.Node())
	return s, nil
}

// Handler serves every route of docs/protocol.md and the static files.
func (s *Server) Handler() http.Handler { return s.handler }

// Close stops every table and closes every connection, waiting a few
// seconds at most for them to say goodbye.
func (s *Server) Close() error {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return nil
	}
	s.closed = true
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	for _, t := range tables {
		t.stop()
	}
	for _, t := range tables {
		<-t.done
	}
	s.reviews.stop()
	if s.bus != nil {
		s.bus.close()
	}
	if !waitTimeout(&s.wg, 3*time.Second) {
		s.cancel() // connections that did not answer the close frame are cut
		if !waitTimeout(&s.wg, 3*time.Second) {
			return errors.New("server: connections still open after close")
		}
	}
	s.cancel()
	return nil
}

func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	done := make(chan struct{})
	go func() { wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}

// goTracked runs f in a goroutine that Close waits for.
func (s *Server) goTracked(f func()) {
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		f()
	}()
}

// track counts a request that outlives its handler's return path (a
// WebSocket); false once the server is closing.
func (s *Server) track() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.wg.Add(1)
	return true
}

var errClosed = errors.New("server: closed")

// start runs a table's actor and makes it findable. If another actor of the
// same table got there first, that one is returned and t never runs. held
// holds the returned actor for the caller (see actor).
func (s *Server) start(t *table, held bool) (*table, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return nil, errClosed
	}
	if other, ok := s.tables[t.id]; ok {
		t.stop()
		if held {
			other.holds++
		}
		return other, nil
	}
	s.tables[t.id] = t
	if held {
		t.holds++
	}
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		t.run()
	}()
	return t, nil
}

// forget removes an actor about to stop for idleness from the table map:
// from then on the table is loaded afresh when someone needs it. An actor
// somebody holds is not forgotten (their message is on its way).
func (s *Server) forget(t *table) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if t.holds > 0 {
		return false
	}
	if s.tables[t.id] == t {
		delete(s.tables, t.id)
		s.ending[t.id] = t
	}
	return true
}

// ended forgets an exited actor that was waiting for its lease to end.
func (s *Server) ended(t *table) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.ending[t.id] == t {
		delete(s.ending, t.id)
	}
}

// isClosing reports whether Close has begun.
func (s *Server) isClosing() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// loadOwned takes the table's lease (when clustered: *errRemote if another
// node has it) and loads it, not started.
func (s *Server) loadOwned(ctx context.Context, id string) (*table, error) {
	l, err := s.acquire(ctx, id)
	if err != nil {
		return nil, err
	}
	at := time.Now()
	t, err := s.loadTable(ctx, id)
	if err != nil {
		if l.Epoch != 0 {
			ectx, cancel := context.WithTimeout(context.Background(), s.cfg.StoreTimeout)
			_ = s.store.EndLease(ectx, l, false)
			cancel()
		}
		return nil, err
	}
	t.lease, t.leasedAt = l, at
	return t, nil
}

// actor returns the running actor of a table, loading it from the store if
// needed (a table whose actor stopped, someone opens again). The actor is
// held: it does not stop for idleness before release is called, so the
// caller's message reaches it even when the table has nothing else to do.
// loadActor is actor for an HTTP request: when the table cannot be had it
// answers the request (404 not-found, 503 unavailable) and returns false.
func (s *Server) loadActor(w http.ResponseWriter, r *http.Request, id, what string) (*table, func(), bool) {
	t, release, err := s.actor(r.Context(), id)
	if !s.answerActorErr(w, id, what, err) {
		return nil, nil, false
	}
	return t, release, true
}

// answerActorErr answers a request whose table could not be had (404
// not-found, 503 unavailable) and returns false; true when err is nil.
func (s *Server) answerActorErr(w http.ResponseWriter, id, what string, err error) bool {
	var remote *errRemote
	switch {
	case err == nil:
		return true
	case errors.Is(err, store.ErrNotFound):
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
	case errors.As(err, &remote):
		w.Header().Set("Retry-After", "2")
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the table is run by another server that cannot be reached from here now")
	default:
		s.log.Error(what+": table not loaded", "table", id, "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
	}
	return false
}

// callTable runs f on table id's actor for an HTTP request, loading the
// table if need be and trying again when the actor stopped in between
// (errGone). It answers the request itself when it cannot run f.
func callTable[T any](s *Server, w http.ResponseWriter, r *http.Request, id, what string, f func(t *table) T) (T, bool) {
	var zero T
	for attempt := 0; ; attempt++ {
		t, release, ok := s.loadActor(w, r, id, what)
		if !ok {
			return zero, false
		}
		res, err := call(r.Context(), t, func() T { return f(t) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			continue
		}
		if err != nil {
			writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
			return zero, false
		}
		return res, true
	}
}

func (s *Server) actor(ctx context.Context, id string) (t *table, release func(), err error) {
	for {
		s.mu.Lock()
		t, ok := s.tables[id]
		if ok {
			t.holds++
		}
		ending, loading, closed := s.ending[id], s.loading[id], s.closed
		var loaded chan struct{}
		if !ok && !closed && ending == nil && loading == nil {
			loaded = make(chan struct{})
			s.loading[id] = loaded
		}
		s.mu.Unlock()
		switch {
		case ok:
		case closed:
			return nil, nil, errClosed
		case ending != nil:
			// Its lease is being ended: take the table again after.
			select {
			case <-ending.done:
				continue
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		case loading != nil:
			// Somebody else is loading it: take theirs (or load it again
			// if theirs failed).
			select {
			case <-loading:
				continue
			case <-ctx.Done():
				return nil, nil, ctx.Err()
			}
		default:
			if t, err = s.loadHeld(ctx, id, loaded); err != nil {
				return nil, nil, err
			}
		}
		return t, func() { s.release(t) }, nil
	}
}

// loadHeld loads and starts table id, held, for the one caller of actor
// that marked it loading; the mark goes when the actor is findable (or the
// load failed).
func (s *Server) loadHeld(ctx context.Context, id string, loaded chan struct{}) (*table, error) {
	defer func() {
		s.mu.Lock()
		delete(s.loading, id)
		s.mu.Unlock()
		close(loaded)
	}()
	t, err := s.loadOwned(ctx, id)
	if err != nil {
		return nil, err
	}
	return s.start(t, true)
}

// release ends a hold; the actor is nudged to see whether it is idle now.
func (s *Server) release(t *table) {
	s.mu.Lock()
	t.holds--
	free := t.holds == 0
	s.mu.Unlock()
	if free {
		_ = t.post(func() {})
	}
}

// running returns a table's actor if it is in memory.
func (s *Server) running(id string) *table {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.tables[id]
}

// abandoned reports whether a live table has had nobody at it (its page
// open) for Config.AbandonAfter: since its last change or visit.
func (s *Server) abandoned(sum TableSummary) bool {
	if sum.Status != store.StatusLive || s.cfg.AbandonAfter <= 0 || sum.watched {
		return false
	}
	since := s.clock.Now().Add(-s.cfg.AbandonAfter)
	return sum.Updated.Before(since) && sum.seen.Before(since)
}

// expired reports whether an open table has waited longer than
// Config.OpenExpiry since its last change (its creation or last join).
func (s *Server) expired(meta store.Table) bool {
	return meta.Status == store.StatusOpen && s.cfg.OpenExpiry > 0 && s.clock.Now().Sub(meta.Updated) > s.cfg.OpenExpiry
}
