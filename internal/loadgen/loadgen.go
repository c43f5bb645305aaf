// Package loadgen drives a running dicehall server (one node or several)
// the way many browsers would, and measures what players feel: moves
// committed a second, and the time from a player's action to the moment
// every screen of the table (the players' and the spectators') has the
// update. It is the engine of `dicehall loadtest`.
//
// It speaks only the public protocol (docs/protocol.md): tables are made
// and joined over HTTP, every seat and spectator holds a WebSocket, and
// drivers pick their moves among the `legal` actions of their seat's view.
package loadgen

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"math/rand/v2"
	"net"
	"net/http"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/coder/websocket"
)

// Config says what load to make. Zero values take the defaults noted.
type Config struct {
	// URLs are the nodes' base addresses (http://host:port). Connections
	// go to them in turn, and a table's seats on purpose to different
	// nodes, so that with several nodes most screens are not on the node
	// that owns the table.
	URLs []string
	// Conns is the number of WebSockets to hold: every table has Players
	// seats and Spectators watchers, so Conns/(Players+Spectators) tables.
	Conns int
	// Players is the human seats of each table, all driven; 0 = 2.
	Players int
	// Spectators watch each table besides its players (0 = none).
	Spectators int
	// Game is the game played (required): its seat views must list the
	// seat's legal actions (`legal`), as Dice Stars' do.
	Game string
	// Options are the game's table options (nil = defaults).
	Options json.RawMessage
	// Think is how long a driver waits before each action on average,
	// drawn evenly from half to one and a half times it (0 = none: it acts
	// as soon as it is its turn).
	Think time.Duration
	// ActRate caps each seat's actions a second (0 = none): the server
	// takes 20 messages a second from a connection by default.
	ActRate float64
	// Ramp spreads the making and connecting of the first tables over
	// this long; 0 = none. Nobody plays until every table is ready.
	Ramp time.Duration
	// Settle bounds the wait, after Ramp, for every table to be seated
	// and connected; then the tables start playing; 0 = 60s.
	Settle time.Duration
	// Warmup is played, once every table is ready, before the measured
	// window opens (the tables all start at once); 0 = none.
	Warmup time.Duration
	// Duration is the measured window; 0 = 30s.
	Duration time.Duration
	// Progress is how often a progress line is logged; 0 = 5s.
	Progress time.Duration
	// Seed seeds the drivers' choices (each connection draws from its own
	// generator derived from it).
	Seed uint64
	// Logger receives the progress lines and the first errors; nil =
	// slog.Default().
	Logger *slog.Logger
	// Client makes the HTTP requests and the WebSocket handshakes; nil =
	// a client of its own.
	Client *http.Client
}

func (c *Config) defaults() error {
	if len(c.URLs) == 0 {
		return errors.New("no server URL")
	}
	for i, u := range c.URLs {
		u = strings.TrimRight(u, "/")
		if !strings.HasPrefix(u, "http://") && !strings.HasPrefix(u, "https://") {
			return fmt.Errorf("server URL %q: want http://host:port or https://host", u)
		}
		c.URLs[i] = u
	}
	if c.Players == 0 {
		c.Players = 2
	}
	if c.Players < 1 || c.Spectators < 0 {
		return fmt.Errorf("%d players and %d spectators a table: want at least 1 player and no negative count", c.Players, c.Spectators)
	}
	if c.Conns < c.Players+c.Spectators {
		return fmt.Errorf("%d connections cannot hold one table of %d players and %d spectators", c.Conns, c.Players, c.Spectators)
	}
	if c.Game == "" {
		return errors.New("no game: name the game to play (its seat views must list the legal actions)")
	}
	if c.Think < 0 || c.ActRate < 0 || c.Ramp < 0 || c.Duration < 0 || c.Settle < 0 || c.Warmup < 0 || c.Progress < 0 {
		return errors.New("think time, act rate, ramp, settle, warm-up, duration and progress cannot be negative")
	}
	if c.Settle == 0 {
		c.Settle = time.Minute
	}
	if c.Duration == 0 {
		c.Duration = 30 * time.Second
	}
	if c.Progress == 0 {
		c.Progress = 5 * time.Second
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.Client == nil {
		c.Client = &http.Client{Transport: &http.Transport{
			Proxy:               nil,
			MaxIdleConns:        256,
			MaxIdleConnsPerHost: 64,
			IdleConnTimeout:     20 * time.Second, // under the server's 30s
		}}
	}
	return nil
}

// Report is what a run measured. Counts and rates cover the measured
// window only (moves sent in it for the latencies).
type Report struct {
	URLs       []string `json:"urls"`
	Game       string   `json:"game"`
	Conns      int      `json:"conns"`
	Tables     int      `json:"tables"`
	Players    int      `json:"players"`
	Spectators int      `json:"spectators"`
	ThinkMs    float64  `json:"thinkMs"`
	ActRate    float64  `json:"actRate"`
	// Seconds is the measured window's length.
	Seconds float64 `json:"seconds"`
	// Moves counts the table versions committed (players' moves and
	// chance moves: each one a stored move the screens were told of);
	// Actions the players' moves among them.
	Moves         int64   `json:"moves"`
	MovesPerSec   float64 `json:"movesPerSec"`
	Actions       int64   `json:"actions"`
	ActionsPerSec float64 `json:"actionsPerSec"`
	Games         int64   `json:"games"`
	TablesMade    int64   `json:"tablesMade"`
	// Latency is from sending an action to the last of the table's
	// screens receiving its update, in milliseconds.
	Latency Latency `json:"latencyMs"`
	// MakeTable is the time to create a table and seat its players
	// (POST /api/tables and the joins), in milliseconds.
	MakeTable Latency `json:"makeTableMs"`
	// Incomplete counts actions of the window some screen never heard of
	// before its table ended (it was reconnecting, or failed).
	Incomplete int64 `json:"incomplete"`
	Refusals   int64 `json:"refusals"`
	Reconnects int64 `json:"reconnects"`
	Gaps       int64 `json:"gaps"`
	// Errors counts failures by kind ("create: 429 rate-limited", "ws
	// read: …"), the whole run included.
	Errors     map[string]int64 `json:"errors"`
	ErrorTotal int64            `json:"errorTotal"`
	// ConnsOpen is how many WebSockets were open (welcomed): at the
	// window's start, its least and most, at its end.
	ConnsOpen ConnsOpen `json:"connsOpen"`
}

// Latency summarises latency samples (milliseconds).
type Latency struct {
	Samples int     `json:"samples"`
	P50     float64 `json:"p50"`
	P90     float64 `json:"p90"`
	P99     float64 `json:"p99"`
	Max     float64 `json:"max"`
}

// ConnsOpen is the open connections seen during the window.
type ConnsOpen struct {
	Start int64 `json:"start"`
	Min   int64 `json:"min"`
	Max   int64 `json:"max"`
	End   int64 `json:"end"`
}

// Run makes the load until the window closes (or ctx ends) and reports.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.defaults(); err != nil {
		return nil, err
	}
	r := &runner{cfg: cfg, errs: map[string]int64{}, gate: make(chan struct{})}
	per := cfg.Players + cfg.Spectators
	tables := cfg.Conns / per
	log := cfg.Logger
	log.Info("loadtest starting", "nodes", len(cfg.URLs), "conns", tables*per, "tables", tables,
		"players", cfg.Players, "spectators", cfg.Spectators, "ramp", cfg.Ramp, "duration", cfg.Duration)

	var err error
	runCtx, stop := context.WithCancel(ctx)
	defer stop()
	var wg sync.WaitGroup
	ready := make(chan struct{}, tables)
	start := time.Now()
	for t := range tables {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Spread the first tables evenly over the ramp.
			if !sleep(runCtx, time.Duration(int64(cfg.Ramp)*int64(t)/int64(tables))) {
				return
			}
			r.tableLoop(runCtx, t, ready)
		}()
	}

	// Play starts once every table has been seated and connected (or
	// Settle after the ramp, whatever is missing then).
	settle := time.NewTimer(cfg.Ramp + cfg.Settle)
	defer settle.Stop()
	tick := time.NewTicker(cfg.Progress)
	defer tick.Stop()
	n := 0
	for n < tables {
		select {
		case <-ready:
			n++
			continue
		case <-tick.C:
			log.Info("loadtest ramping up", "tables ready", n, "of", tables, "conns open", r.open.Load(), "errors", r.errTotal.Load())
			continue
		case <-settle.C:
			log.Warn("loadtest: not every table is ready; playing anyway", "ready", n, "of", tables)
		case <-ctx.Done():
		}
		break
	}
	if ctx.Err() == nil && n == 0 {
		err = fmt.Errorf("no table could be made and connected in %v (errors: %v)", cfg.Ramp+cfg.Settle, r.errorCounts())
	}
	if ctx.Err() != nil || err != nil {
		stop()
		wg.Wait()
		return nil, cmp.Or(err, ctx.Err())
	}
	log.Info("loadtest playing", "after", time.Since(start).Round(time.Millisecond), "conns open", r.open.Load(), "warm-up", cfg.Warmup)
	close(r.gate)
	if !sleep(ctx, cfg.Warmup) {
		stop()
		wg.Wait()
		return nil, ctx.Err()
	}
	log.Info("loadtest measuring", "conns open", r.open.Load())
	tick.Reset(cfg.Progress) // progress lines count from the window's start
	select {
	case <-tick.C:
	default:
	}
	r.window(true)
	winStart := time.Now()
	open := ConnsOpen{Start: r.open.Load(), Min: r.open.Load(), Max: r.open.Load()}
	sampleOpen := func() {
		n := r.open.Load()
		open.Min, open.Max = min(open.Min, n), max(open.Max, n)
	}
	end := time.NewTimer(cfg.Duration)
	defer end.Stop()
	lastMoves, lastAt := int64(0), winStart
	// A finer sampling of the open connections than the progress lines.
	connTick := time.NewTicker(200 * time.Millisecond)
	defer connTick.Stop()
loop:
	for {
		select {
		case <-connTick.C:
			sampleOpen()
		case now := <-tick.C:
			moves := r.moves.Load()
			recent := r.takeRecent()
			log.Info("loadtest", "elapsed", now.Sub(winStart).Round(time.Second), "conns open", r.open.Load(),
				"moves/s", rate(moves-lastMoves, now.Sub(lastAt)), "p99 ms", summarize(recent).P99,
				"refusals", r.refusals.Load(), "errors", r.errTotal.Load(), "reconnects", r.reconnects.Load())
			lastMoves, lastAt = moves, now
		case <-end.C:
			break loop
		case <-ctx.Done():
			break loop
		}
	}
	sampleOpen()
	open.End = r.open.Load()
	elapsed := time.Since(winStart)
	r.window(false)
	stop()
	wg.Wait()

	rep := &Report{URLs: cfg.URLs, Game: cfg.Game, Conns: tables * per, Tables: tables, Players: cfg.Players,
		Spectators: cfg.Spectators, ThinkMs: ms(cfg.Think), ActRate: cfg.ActRate, Seconds: elapsed.Seconds(),
		Moves: r.moves.Load(), Actions: r.actions.Load(), Games: r.games.Load(), TablesMade: r.made.Load(),
		Incomplete: r.incomplete.Load(), Refusals: r.refusals.Load(), Reconnects: r.reconnects.Load(),
		Gaps: r.gaps.Load(), ErrorTotal: r.errTotal.Load(), ConnsOpen: open}
	rep.MovesPerSec = rate(rep.Moves, elapsed)
	rep.ActionsPerSec = rate(rep.Actions, elapsed)
	rep.Errors = r.errorCounts()
	r.mu.Lock()
	rep.Latency = summarize(r.samples)
	rep.MakeTable = summarize(r.makes)
	r.mu.Unlock()
	return rep, ctx.Err()
}

// runner holds a run's shared counters.
type runner struct {
	cfg  Config
	gate chan struct{} // closed when the tables may start playing

	measuring atomic.Bool
	open      atomic.Int64 // welcomed WebSockets now
	// Counted in the window only:
	moves, actions, games, made, incomplete, refusals, reconnects, gaps atomic.Int64
	errTotal                                                            atomic.Int64

	mu      sync.Mutex
	samples []float64 // latencies (ms) of the window's actions
	makes   []float64 // times (ms) to create and seat a table
	recent  []float64 // since the last progress line
	errs    map[string]int64
}

func (r *runner) window(on bool) { r.measuring.Store(on) }

// count adds to a counter of the window.
func (r *runner) count(c *atomic.Int64, n int64) {
	if r.measuring.Load() {
		c.Add(n)
	}
}

// fail counts an error by kind, whenever it happens (ramp included), and
// logs the first of each kind.
func (r *runner) fail(kind string, err error) {
	if errors.Is(err, context.Canceled) {
		return // the run, or the table, is ending: not the server's doing
	}
	r.errTotal.Add(1)
	key := kind
	if err != nil {
		key = kind + ": " + classify(err)
	}
	r.mu.Lock()
	r.errs[key]++
	first := r.errs[key] == 1
	r.mu.Unlock()
	if first {
		r.cfg.Logger.Warn("loadtest error (first of its kind)", "kind", kind, "err", err)
	}
}

// errorCounts copies the errors counted by kind.
func (r *runner) errorCounts() map[string]int64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	return maps.Clone(r.errs)
}

func (r *runner) sample(d time.Duration) {
	v := ms(d)
	r.mu.Lock()
	r.samples = append(r.samples, v)
	r.recent = append(r.recent, v)
	r.mu.Unlock()
}

func (r *runner) takeRecent() []float64 {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := r.recent
	r.recent = nil
	return out
}

// tableLoop plays tables one after the other in slot t until ctx ends: a
// table whose game is over makes way for a new one. The next table is made
// (created and joined) while the current one plays, as people would have
// found their next game meanwhile: the connections held stay near Conns.
func (r *runner) tableLoop(ctx context.Context, t int, ready chan<- struct{}) {
	rng := rand.New(rand.NewPCG(r.cfg.Seed, uint64(t)))
	first := true
	next := r.makeAsync(ctx, t, 0)
	for round := 1; ctx.Err() == nil; round++ {
		var m made
		select {
		case m = <-next:
		case <-ctx.Done():
			return
		}
		next = r.makeAsync(ctx, t, round)
		if m.err != nil {
			// Do not hammer a server that refuses: wait a little.
			sleep(ctx, time.Second)
			continue
		}
		// Every table starts playing at once (r.gate), when all are
		// seated and connected: the ramp makes no moves.
		r.playTable(ctx, t, m, rng, func() {
			if first {
				first = false
				ready <- struct{}{}
			}
		})
	}
}

// made is a table made and seated, ready to be played.
type made struct {
	id     string
	tokens []string // by seat
	err    error
}

// makeAsync makes a table in the background.
func (r *runner) makeAsync(ctx context.Context, t, round int) <-chan made {
	out := make(chan made, 1)
	go func() { out <- r.makeTable(ctx, t, round) }()
	return out
}

// makeTable creates table number round of slot t and seats its players.
func (r *runner) makeTable(ctx context.Context, t, round int) made {
	cfg := r.cfg
	start, measured := time.Now(), r.measuring.Load()
	seats := make([]map[string]string, cfg.Players)
	for i := range seats {
		seats[i] = map[string]string{"kind": "human"}
	}
	name := func(seat int) string { return fmt.Sprintf("load%d-%d-%c", t, round, 'a'+rune(seat)) }
	body := map[string]any{"game": cfg.Game, "name": name(0), "seats": seats}
	if len(cfg.Options) > 0 {
		body["options"] = cfg.Options
	}
	var m made
	tok0, err := r.post(ctx, r.node(t, 0), "/api/tables", body, &struct {
		ID *string `json:"id"`
	}{&m.id}, "")
	if err != nil {
		r.fail("create", err)
		return made{err: err}
	}
	m.tokens = []string{tok0}
	for s := 1; s < cfg.Players; s++ {
		tok, err := r.post(ctx, r.node(t, s), "/api/tables/"+m.id+"/join", map[string]any{"seat": s, "name": name(s)}, nil, m.id)
		if err != nil {
			r.fail("join", err)
			return made{err: err}
		}
		m.tokens = append(m.tokens, tok)
	}
	r.count(&r.made, 1)
	// Only tables begun in the window: one begun in the ramp that ends
	// in it would stand for the slow ones only.
	if measured && r.measuring.Load() {
		r.mu.Lock()
		r.makes = append(r.makes, ms(time.Since(start)))
		r.mu.Unlock()
	}
	return m
}

// node is the node of a table's i-th connection: round-robin from the
// table's own offset, so a table's seats sit on different nodes.
func (r *runner) node(t, i int) string { return r.cfg.URLs[(t+i)%len(r.cfg.URLs)] }

// playTable connects every screen of a table made and plays until the game
// is over or ctx ends.
func (r *runner) playTable(ctx context.Context, t int, m made, rng *rand.Rand, ready func()) {
	cfg := r.cfg
	tctx, cancel := context.WithCancel(ctx)
	defer cancel()
	tb := &table{r: r, id: m.id, screens: cfg.Players + cfg.Spectators, recs: map[int]*rec{}}
	conns := make([]*conn, 0, tb.screens)
	for i := range tb.screens {
		c := &conn{tb: tb, url: r.node(t, i), seat: -3}
		if i < cfg.Players {
			c.seat, c.token = i, m.tokens[i]
			c.rng = rand.New(rand.NewPCG(rng.Uint64(), uint64(i)))
		}
		conns = append(conns, c)
	}
	// Connect every screen before anyone acts, so the first moves reach
	// them all.
	var wg sync.WaitGroup
	errs := make(chan error, len(conns))
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.connect(tctx); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	defer func() {
		for _, c := range conns {
			c.close()
		}
	}()
	if err := <-errs; err != nil {
		return
	}
	ready()
	over := make(chan struct{})
	var once sync.Once
	for _, c := range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if c.run(tctx) {
				once.Do(func() { close(over) })
				return
			}
			// One screen failing for good ends the table: a new one
			// takes its place.
			cancel()
		}()
	}
	wg.Wait()
	select {
	case <-over:
		r.count(&r.games, 1)
	default:
	}
	tb.finish()
}

// table is one table being played: which actions wait for which screens.
type table struct {
	r       *runner
	id      string
	screens int

	mu   sync.Mutex
	seen int          // the highest version any screen has heard of
	recs map[int]*rec // by the version the action will make
}

// rec is an action sent and the screens that have its update.
type rec struct {
	seat     int
	sent     time.Time
	measured bool // sent in the window
	got      int
	last     time.Time
}

// sent notes an action about to make version v.
func (tb *table) sent(v, seat int, at time.Time) {
	tb.mu.Lock()
	tb.recs[v] = &rec{seat: seat, sent: at, measured: tb.r.measuring.Load()}
	tb.mu.Unlock()
}

// dropped forgets an action the server refused.
func (tb *table) dropped(v int) {
	tb.mu.Lock()
	delete(tb.recs, v)
	tb.mu.Unlock()
}

// received notes that a screen has the update making version v.
func (tb *table) received(v, seat int, at time.Time) {
	r := tb.r
	tb.mu.Lock()
	defer tb.mu.Unlock()
	if v > tb.seen {
		r.count(&r.moves, int64(v-tb.seen))
		if seat >= 0 {
			r.count(&r.actions, 1)
		}
		tb.seen = v
	}
	rc := tb.recs[v]
	if rc == nil {
		return
	}
	if rc.seat != seat {
		// Another move made this version: the action was refused or
		// overtaken (its refusal is counted apart).
		delete(tb.recs, v)
		return
	}
	rc.got++
	rc.last = at
	if rc.got == tb.screens {
		delete(tb.recs, v)
		if rc.measured {
			r.sample(rc.last.Sub(rc.sent))
		}
	}
}

// finish counts the actions some screen never heard of before the table
// ended (those still on their way when the window closes are not).
func (tb *table) finish() {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	for _, rc := range tb.recs {
		if rc.measured && tb.r.measuring.Load() {
			tb.r.incomplete.Add(1)
		}
	}
	tb.recs = nil
}

// ---- figures

func ms(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }

func rate(n int64, d time.Duration) float64 {
	if d <= 0 {
		return 0
	}
	return float64(n) / d.Seconds()
}

// summarize gives the percentiles of samples (nearest rank), sorting a copy.
func summarize(samples []float64) Latency {
	if len(samples) == 0 {
		return Latency{}
	}
	s := slices.Clone(samples)
	sort.Float64s(s)
	at := func(p float64) float64 {
		i := int(p*float64(len(s))+0.999999) - 1
		return s[min(max(i, 0), len(s)-1)]
	}
	return Latency{Samples: len(s), P50: at(0.50), P90: at(0.90), P99: at(0.99), Max: s[len(s)-1]}
}

// sleep waits d or until ctx ends, and reports whether d passed.
func sleep(ctx context.Context, d time.Duration) bool {
	if d <= 0 {
		return ctx.Err() == nil
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// classify names an error by its kind, without what differs from one
// connection to the next (addresses, table IDs), so that errors can be
// counted by kind.
func classify(err error) string {
	var he *httpError
	var ne net.Error
	var errno syscall.Errno
	switch {
	case errors.As(err, &he):
		return fmt.Sprintf("%d %s", he.status, he.code)
	case websocket.CloseStatus(err) != -1:
		return fmt.Sprintf("closed %d", websocket.CloseStatus(err))
	case errors.Is(err, context.DeadlineExceeded):
		return "timeout"
	case errors.As(err, &errno):
		return errno.Error()
	case errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF):
		return "connection closed"
	case errors.As(err, &ne) && ne.Timeout():
		return "timeout"
	}
	return "other"
}
