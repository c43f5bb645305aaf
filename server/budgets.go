package server

import (
	"context"
	"encoding/base64"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/dicehall/dicehall/store"
)

// Budgets bounds the tables people may make and the work the costly GETs
// may take (docs/protocol.md, Limits). Zero takes the default; a negative
// value means no limit.
//
// A creator is the browser that makes a table, known by a long-lived random
// cookie (creatorCookie) set on its first look at the lobby or a table (or
// its first create), or by its address when it sends none (cookies
// refused, or a script); a signed-in creator is its account on every device (creatorOf). As anybody can drop or forge a cookie, every budget
// of a creator also holds, several times over, for its address (an IPv4
// address, an IPv6 /64): a household or an office behind one address
// shares CreatorsPerAddress creators' worth.
type Budgets struct {
	// TablesPerCreator caps the tables one creator has in play at once:
	// open ones until they expire (Config.OpenExpiry) or fill, live ones
	// until their game ends or a day has passed since they started (or a
	// seat last changed hands). Finished tables do not count. 0 = 8.
	TablesPerCreator int
	// TablesPerHour caps the tables one creator makes in any hour, however
	// quickly they finish (a table of bots with no delay ends in a second).
	// 0 = 30.
	TablesPerHour int
	// CreatorsPerAddress: an address may hold this many creators' budgets
	// (TablesPerCreator and TablesPerHour, times this). 0 = 4.
	CreatorsPerAddress int
	// OpenTables caps the open tables (waiting for players, not expired)
	// across the server: at the cap, a new table with a free seat is
	// refused (503 server-full); tables that start at once (alone, or
	// with bots) and joins still go. 0 = 1000.
	OpenTables int
	// LobbyPerCreator is how many tables of one creator each lobby list
	// shows at most. 0 = 2.
	LobbyPerCreator int

	// GetRate and GetBurst limit the API's GETs (the table list, a table)
	// per address: a token bucket of GetRate a second, up to GetBurst.
	// 0 = 20 and 120 (a lobby polls three lists every 4 s: an address
	// keeps 25 lobbies open). A replay (about 500 KB to send) counts as
	// replayCost of them: a bucket of its own, of a replayCost-th of both.
	GetRate  float64
	GetBurst int
	// ReplayBuilds caps the replays built at once across the server, so
	// that the tables being played always keep a core; more wait (up to
	// replayWait, then 503 busy). 0 = half the cores, at least 1.
	ReplayBuilds int
	// ReplayBuildsPerAddress caps the replays one address has being built
	// or waiting at once; more are refused (429 rate-limited). 0 = 2.
	ReplayBuildsPerAddress int
	// ReplayCacheBytes bounds the finished tables' replays kept encoded
	// in memory (least recently used go first). 0 = 64 MiB.
	ReplayCacheBytes int64
}

// Defaults of Budgets, as docs/protocol.md states them.
const (
	DefaultTablesPerCreator       = 8
	DefaultTablesPerHour          = 30
	DefaultCreatorsPerAddress     = 4
	DefaultOpenTables             = 1000
	DefaultLobbyPerCreator        = 2
	DefaultGetRate                = 20
	DefaultGetBurst               = 120
	DefaultReplayBuildsPerAddress = 2
	DefaultReplayCacheBytes       = 64 << 20

	// replayCost: a replay GET counts as this many others.
	replayCost = 10
	// liveWindow: a live table counts in its creator's budget for this
	// long after it started (or a seat last changed hands), so that games
	// people abandon do not lock their creator out for ever.
	liveWindow = 24 * time.Hour
	// replayWait bounds the wait for a replay build slot.
	replayWait = 10 * time.Second
	// creatorCookie names the creator's cookie: '-' is in no table id, so
	// it is never a seat cookie (dh_<id>).
	creatorCookie = "dh-creator"
	// creatorMaxAge: a year; browsers cap cookies at about 400 days.
	creatorMaxAge = 365 * 24 * 3600
)

func (b *Budgets) defaults() {
	zeroDefault(&b.TablesPerCreator, DefaultTablesPerCreator)
	zeroDefault(&b.TablesPerHour, DefaultTablesPerHour)
	zeroDefault(&b.CreatorsPerAddress, DefaultCreatorsPerAddress)
	zeroDefault(&b.OpenTables, DefaultOpenTables)
	zeroDefault(&b.LobbyPerCreator, DefaultLobbyPerCreator)
	zeroDefault(&b.GetRate, DefaultGetRate)
	zeroDefault(&b.GetBurst, DefaultGetBurst)
	zeroDefault(&b.ReplayBuilds, max(1, runtime.GOMAXPROCS(0)/2))
	zeroDefault(&b.ReplayBuildsPerAddress, DefaultReplayBuildsPerAddress)
	zeroDefault(&b.ReplayCacheBytes, DefaultReplayCacheBytes)
}

// budgetDefault sets a zero v to d; a negative v (no limit) stays.

// budgetState is the server's side of the budgets; its zero value is
// ready (it reads the Config when first used).
type budgetState struct {
	once       sync.Once
	gets       *ipLimiter // lists and tables
	replayGets *ipLimiter
	builds     chan struct{} // a token per replay being built
	replays    *replayCache

	mu       sync.Mutex
	building map[string]int // replay builds waiting or running, per address
}

func (s *Server) budget() *budgetState {
	b := &s.budgets
	b.once.Do(func() {
		c := s.cfg.Budgets
		if c.GetRate > 0 && c.GetBurst > 0 {
			b.gets = &ipLimiter{rate: c.GetRate, burst: float64(c.GetBurst), m: map[string]*bucket{}}
			b.replayGets = &ipLimiter{rate: c.GetRate / replayCost, burst: max(1, float64(c.GetBurst)/replayCost), m: map[string]*bucket{}}
		}
		if c.ReplayBuilds > 0 {
			b.builds = make(chan struct{}, c.ReplayBuilds)
		}
		b.replays = newReplayCache(max(c.ReplayCacheBytes, 0))
		b.building = map[string]int{}
	})
	return b
}

// ---- creators

// creator is who makes a table: key counts its tables (its account, the
// hash of its cookie, or its address), addr its address's; cookie is a new cookie to
// set (the request had none that could be one).
type creator struct {
	key, addr, cookie string
}

// cookieCreator is a request's creator by its creator cookie, or by its
// address when it has none.
func cookieCreator(r *http.Request) creator {
	c := creator{addr: "a:" + addrKey(r.RemoteAddr)}
	if ck, err := r.Cookie(creatorCookie); err == nil && len(ck.Value) == 43 {
		if _, err := base64.RawURLEncoding.DecodeString(ck.Value); err == nil {
			c.key = "c:" + hashToken(ck.Value)
			return c
		}
	}
	// No cookie: counted by address (a browser refusing cookies, or a
	// script); the cookie set now keys its next tables.
	c.key = c.addr
	c.cookie, _ = newToken()
	return c
}

// creatorOf is the creator of a request: a signed-in player's account
// (the same budget on every device, whatever cookies it sends), else the
// browser's creator cookie or its address (cookieCreator). The cookie is
// still given, for the tables it makes after signing out.
func (s *Server) creatorOf(r *http.Request) creator {
	c := cookieCreator(r)
	if id := s.accountID(r); id != "" {
		c.key = "u:" + id
	}
	return c
}

// greetCreator gives a browser its creator cookie on its first look at the
// lobby or a table, so that its first table is already its own (a create
// without the cookie counts against its address).
func greetCreator(w http.ResponseWriter, r *http.Request) {
	if c := cookieCreator(r); c.cookie != "" {
		setCreatorCookie(w, r, c.cookie)
	}
}

func setCreatorCookie(w http.ResponseWriter, r *http.Request, value string) {
	http.SetCookie(w, &http.Cookie{Name: creatorCookie, Value: value, Path: "/", MaxAge: creatorMaxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

// refusal is a budget's answer: an HTTP status, a code and a sentence.
type refusal struct {
	status        int
	code, message string
}

// budgetCap is a budget as the store checks it (store.Cap), with the
// refusal to answer when it is spent.
type budgetCap struct {
	limit int
	f     store.Filter
	ref   refusal
}

// budgetCaps are the budgets a new table of c must fit: what c has in play
// and made lately, and what is open across the server (when the new table
// will be open). The store counts them and stores the table as one step
// (store.LimitStore.CreateTableCapped), on every node that shares it, so
// that racing creates cannot both take the last place.
func (s *Server) budgetCaps(c creator, open bool) []budgetCap {
	b := s.cfg.Budgets
	now := s.clock.Now()
	inPlay := store.Filter{Status: []string{store.StatusOpen, store.StatusLive}, LiveSince: now.Add(-liveWindow)}
	if s.cfg.OpenExpiry > 0 {
		inPlay.OpenSince = now.Add(-s.cfg.OpenExpiry)
	}
	recent := store.Filter{CreatedSince: now.Add(-time.Hour)}
	perAddr := func(n int) int {
		if n <= 0 || b.CreatorsPerAddress <= 0 {
			return -1
		}
		return n * b.CreatorsPerAddress
	}
	checks := []budgetCap{
		{b.TablesPerCreator, withCreator(inPlay, c.key, ""), refusal{http.StatusTooManyRequests, "too-many-tables",
			fmt.Sprintf("you already have %d tables waiting for players or being played: finish or leave one, or wait until one closes", b.TablesPerCreator)}},
		{perAddr(b.TablesPerCreator), withCreator(inPlay, "", c.addr), refusal{http.StatusTooManyRequests, "too-many-tables",
			fmt.Sprintf("your network already has %d tables waiting for players or being played: finish or leave one, or wait until one closes", perAddr(b.TablesPerCreator))}},
		{b.TablesPerHour, withCreator(recent, c.key, ""), refusal{http.StatusTooManyRequests, "too-many-new-tables",
			fmt.Sprintf("you have made %d tables in the last hour: wait a while before making another", b.TablesPerHour)}},
		{perAddr(b.TablesPerHour), withCreator(recent, "", c.addr), refusal{http.StatusTooManyRequests, "too-many-new-tables",
			fmt.Sprintf("your network has made %d tables in the last hour: wait a while before making another", perAddr(b.TablesPerHour))}},
	}
	if open {
		all := store.Filter{Status: []string{store.StatusOpen}, OpenSince: inPlay.OpenSince}
		checks = append(checks, budgetCap{b.OpenTables, all, refusal{http.StatusServiceUnavailable, "server-full",
			fmt.Sprintf("this server already has %d tables waiting for players: join one of them, or play alone or with bots", b.OpenTables)}})
	}
	out := checks[:0]
	for _, ch := range checks {
		if ch.limit > 0 {
			out = append(out, ch)
		}
	}
	return out
}

func withCreator(f store.Filter, key, addr string) store.Filter {
	f.Creator, f.CreatorAddr = key, addr
	return f
}

// ---- GETs that cost work

// allowGet applies the per-address limit of the API's GETs (replays: their
// own), answering 429 itself when it is spent.
func (s *Server) allowGet(w http.ResponseWriter, r *http.Request, replay bool) bool {
	b := s.budget()
	l, what, rate := b.gets, "requests", s.cfg.Budgets.GetRate
	if replay {
		l, what, rate = b.replayGets, "replays", rate/replayCost
	}
	if l == nil || l.allow(addrKey(r.RemoteAddr), s.clock.Now()) {
		return true
	}
	w.Header().Set("Retry-After", "1")
	writeError(w, http.StatusTooManyRequests, "rate-limited",
		fmt.Sprintf("too many %s: at most %g a second from one address; wait a moment", what, rate))
	return false
}

// buildSlot waits for a place to build a replay: the address's (refused at
// once when taken: 429) then the server's (waited for, up to replayWait:
// 503). release gives both back.
func (s *Server) buildSlot(ctx context.Context, addr string) (release func(), ref *refusal) {
	b := s.budget()
	per := s.cfg.Budgets.ReplayBuildsPerAddress
	b.mu.Lock()
	if per > 0 && b.building[addr] >= per {
		b.mu.Unlock()
		return nil, &refusal{http.StatusTooManyRequests, "rate-limited",
			fmt.Sprintf("%d replays from your address are already being prepared: wait for them", per)}
	}
	b.building[addr]++
	b.mu.Unlock()
	done := func() {
		b.mu.Lock()
		if b.building[addr]--; b.building[addr] <= 0 {
			delete(b.building, addr)
		}
		b.mu.Unlock()
	}
	if b.builds == nil {
		return done, nil
	}
	wctx, cancel := context.WithTimeout(ctx, replayWait)
	defer cancel()
	select {
	case b.builds <- struct{}{}:
		return func() { <-b.builds; done() }, nil
	case <-wctx.Done():
		done()
		return nil, &refusal{http.StatusServiceUnavailable, "busy", "the server is busy preparing other replays: try again in a moment"}
	}
}

func (r *refusal) Error() string { return r.message }

func (r *refusal) write(w http.ResponseWriter) {
	if r.status == http.StatusTooManyRequests || r.status == http.StatusServiceUnavailable {
		w.Header().Set("Retry-After", "1")
	}
	writeError(w, r.status, r.code, r.message)
}
