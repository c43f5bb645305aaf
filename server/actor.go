package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// errBusy: the table's inbox is full. errGone: the table's actor has stopped
// (server closing, or a table with nothing to do; it is loaded again on
// demand).
var (
	errBusy = errors.New("the table is busy: try again")
	errGone = errors.New("the table has stopped")
)

// table is one table's actor. Everything below the inbox is owned by the
// actor goroutine (run); other goroutines only post messages to the inbox
// or read the published summary.
type table struct {
	s     *Server
	log   *slog.Logger
	id    string
	game  engine.Game
	bots  engine.BotProvider // nil: the game has no bots
	inbox chan message
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{} // closed when the actor has exited
	botWG sync.WaitGroup

	summary atomic.Pointer[TableSummary]
	holds   int // callers of Server.actor not done yet (guarded by Server.mu)
	// lease is this node's hold on the table (lease.go; zero when the
	// server runs alone), taken at leasedAt, before the actor starts;
	// lost is set once another node may have it.
	lease    store.Lease
	leasedAt time.Time
	lost     atomic.Bool
	// writes bounds the actor's store calls (storeCtx): cancelled by
	// abandonWrites once the lease is known lost, so a call stuck on a
	// store that went silent gives up then, not at StoreTimeout: it could
	// only be fenced, and the actor must stop.
	writes      context.Context
	stopWriting context.CancelFunc
	// sub takes the table's messages from the bus while the actor runs;
	// remotes are the connections other nodes hold here (bus.go).
	sub     *nats.Subscription
	rmu     sync.Mutex
	remotes map[remoteKey]*conn
	// timerGen tags the armed timer: a timer that fires after it was
	// re-armed or stopped finds another generation and does nothing.
	timerGen atomic.Int64

	// Owned by the actor goroutine.
	meta        store.Table
	set         settings
	state       engine.State
	version     int     // moves stored (and applied to state)
	history     moveLog // the narration of the last moves, for welcomes
	chats       chatState
	lastAt      int64
	loadedAt    int64 // game time the table was loaded from the store (0: created here)
	conns       map[*conn]struct{}
	welcomes    map[*conn]bool // connections to welcome afresh at the next reconcile
	ctrls       map[engine.Seat]botCtrl
	plans       map[engine.Seat]*botPlan  // each bot seat's decision for the current version
	ctrlGen     map[engine.Seat]int       // bumped when a seat changes hands, to drop stale bot moves
	handedAt    map[engine.Seat]int64     // game time a bot last took a seat over
	times       turnTimes                 // the turn clocks as the stored moves say (clocks.go)
	failedClock map[engine.Seat]time.Time // clocks whose expiry could not be applied
	failedDL    map[engine.Deadline]bool
	timer       Timer
	timerAt     time.Time
	retryAt     time.Time // a store write failed: chance and bots wait until then (zero: none)
}

// message is one inbox entry: run changes the table, the actor reconciles,
// then reply (may be nil) answers whoever waits, so the answer reflects
// everything that followed from the change.
type message struct {
	run   func()
	reply func()
}

// loadTable builds a table from the store without starting it. It writes
// nothing: repairs are the actor's (run).
func (s *Server) loadTable(ctx context.Context, id string) (*table, error) {
	meta, err := s.store.GetTable(ctx, id)
	if err != nil {
		return nil, err
	}
	moves, err := s.store.Moves(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load moves of table %s: %w", id, err)
	}
	chats, err := s.loadChat(ctx, id)
	if err != nil {
		return nil, err
	}
	t, err := s.newTable(meta)
	if err != nil {
		return nil, err
	}
	t.chats = chats
	if err := t.rebuild(moves); err != nil {
		t.stop()
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	t.loadedAt = t.gameTime()
	t.publish()
	return t, nil
}

// newTable prepares a table's actor around its metadata (state not built).
func (s *Server) newTable(meta store.Table) (*table, error) {
	g, ok := s.games.Lookup(meta.Game)
	if !ok {
		return nil, fmt.Errorf("table %s: unknown game %q", meta.ID, meta.Game)
	}
	set, err := parseSettings(meta.Settings)
	if err != nil {
		return nil, fmt.Errorf("table %s: %w", meta.ID, err)
	}
	bots, _ := g.(engine.BotProvider)
	ctx, stop := context.WithCancel(s.ctx)
	// Not from s.ctx: a server closing still lets the writes under way end.
	writes, stopWriting := context.WithCancel(context.Background())
	return &table{
		s: s, log: s.log.With("table", meta.ID), id: meta.ID, game: g, bots: bots,
		inbox: make(chan message, s.cfg.InboxSize), ctx: ctx, stop: stop, done: make(chan struct{}),
		writes: writes, stopWriting: stopWriting,
		meta: meta, set: set, history: moveLog{keep: s.cfg.LogMoves},
		conns: map[*conn]struct{}{}, remotes: map[remoteKey]*conn{}, welcomes: map[*conn]bool{}, ctrls: map[engine.Seat]botCtrl{}, plans: map[engine.Seat]*botPlan{},
		ctrlGen: map[engine.Seat]int{}, handedAt: map[engine.Seat]int64{}, times: newTurnTimes(), failedClock: map[engine.Seat]time.Time{}, failedDL: map[engine.Deadline]bool{},
	}, nil
}

// run is the actor loop: each message, then one reconcile. An actor left
// with nothing to do stops; the table is loaded again when someone needs it.
func (t *table) run() {
	defer func() {
		t.leaveBus()
		t.endLease(t.s.isClosing())
		t.stopWriting()
		t.s.ended(t)
		close(t.done)
	}()
	if err := t.serveBus(); err != nil {
		t.log.Error("table not reachable from other nodes", "err", err)
	}
	t.repair()
	t.reconcile()
	for {
		if t.idle() && t.s.forget(t) {
			t.shutdown()
			return
		}
		select {
		case m := <-t.inbox:
			m.run()
			t.reconcile()
			if m.reply != nil {
				m.reply()
			}
		case <-t.ctx.Done():
			t.shutdown()
			return
		}
	}
}

// repair brings the row in line with the moves (the truth) after a crash
// between a move and its status write, and stores the result of a game
// that finished before results were stored.
func (t *table) repair() {
	turn := t.state.Turn()
	status := t.meta.Status
	switch {
	case turn.Over:
		status = store.StatusOver
	case status == store.StatusOpen && t.seatsFilled():
		status = store.StatusLive
	}
	if status == t.meta.Status && (status != store.StatusOver || t.meta.Result != nil) {
		return
	}
	if t.changeMeta(func(m *store.Table) {
		m.Status = status
		if status == store.StatusOver {
			res := wireResult(t.state.Result())
			m.Result = &res
		}
	}) == nil && status == store.StatusOver {
		t.rate()
		t.reviewLater()
	}
}

// reconcile brings everything that follows from the state up to date, once
// after every inbox message: pending chance, expired turn clocks, moves and
// timeouts that fell due, bot decisions, the timer, the summary, presence
// and welcomes.
func (t *table) reconcile() {
	now := t.s.clock.Now()
	if !t.retryAt.IsZero() && !now.Before(t.retryAt) {
		t.retryAt = time.Time{}
	}
	if t.live() && !t.retrying() {
		if t.state.Turn().Chance {
			if err := t.commit(nil); err != nil && !errors.Is(err, errStore) {
				t.log.Error("chance not resolved", "err", err)
			}
		}
		t.expireClocks(now)
		t.runDue()
	}
	t.dropStalePlans()
	if t.live() && !t.retrying() {
		for _, seat := range t.state.Turn().Actors {
			if t.botControlled(seat) && t.needsDecision(seat) {
				t.startBot(seat)
			}
		}
	}
	t.arm()
	t.publish()
	t.tellPresence()
	for c := range t.welcomes {
		if _, ok := t.conns[c]; ok {
			t.welcome(c)
		}
	}
	clear(t.welcomes)
}

func (t *table) retrying() bool { return !t.retryAt.IsZero() }

// idle reports whether the actor has nothing to do: nobody connected, no
// message waiting, no bot deciding or waiting to move, nothing timed.
func (t *table) idle() bool {
	if len(t.conns) > 0 || len(t.inbox) > 0 || t.retrying() {
		return false
	}
	for _, p := range t.plans {
		if p.deciding {
			return false
		}
	}
	_, waking := t.nextWake()
	return !waking
}

func (t *table) shutdown() {
	t.stop()
	t.disarm()
	if len(t.conns) > 0 {
		t.noteSeen() // the server is closing on people
	}
	code, why := statusGoingAway, "the server is shutting down"
	if t.lost.Load() {
		code, why = statusTryAgainLater, "the table moved to another server: reconnect"
	}
	for c := range t.conns {
		c.closeGracefully(code, why)
	}
	t.conns = nil
	t.botWG.Wait()
}

// arm sets the one timer at the next moment the actor must run by itself.
func (t *table) arm() {
	next, ok := t.nextWake()
	if !ok {
		t.disarm()
		return
	}
	if t.timer != nil && t.timerAt.Equal(next) {
		return
	}
	t.disarm()
	gen := t.timerGen.Load()
	t.timerAt = next
	t.timer = t.s.clock.AfterFunc(max(0, next.Sub(t.s.clock.Now())), func() {
		if t.timerGen.Load() != gen {
			return // stopped or re-armed since: a stale timer does nothing
		}
		_ = t.postWait(t.ctx, func() {
			if t.timerGen.Load() == gen {
				t.timer = nil // it fired; the reconcile after this message acts on what is due
			}
		})
	})
}

// disarm stops the timer; should it fire anyway, its generation is stale.
func (t *table) disarm() {
	t.timerGen.Add(1)
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
}

// post hands f to the actor without waiting: a full inbox is errBusy.
func (t *table) post(f func()) error {
	select {
	case <-t.done:
		return errGone
	default:
	}
	select {
	case t.inbox <- message{run: f}:
		return nil
	case <-t.done:
		return errGone
	default:
		return errBusy
	}
}

// postWait hands f to the actor, waiting for room.
func (t *table) postWait(ctx context.Context, f func()) error {
	return t.send(ctx, message{run: f})
}

func (t *table) send(ctx context.Context, m message) error {
	select {
	case t.inbox <- m:
		return nil
	case <-t.done:
		return errGone
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call runs f in the actor and returns its result once the actor has
// reconciled what f changed.
func call[T any](ctx context.Context, t *table, f func() T) (T, error) {
	reply := make(chan T, 1)
	var v, zero T
	if err := t.send(ctx, message{run: func() { v = f() }, reply: func() { reply <- v }}); err != nil {
		return zero, err
	}
	select {
	case v := <-reply:
		return v, nil
	case <-t.done:
		select {
		case v := <-reply:
			return v, nil
		default:
			return zero, errGone
		}
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

func (t *table) live() bool { return t.meta.Status == store.StatusLive }

// gameTime is the time stamped on moves: milliseconds since the table was
// created, never going backwards.
func (t *table) gameTime() int64 {
	return max(t.gameNow(), t.lastAt)
}

// gameNow is the clock's time in game milliseconds.
func (t *table) gameNow() int64 { return t.s.clock.Now().Sub(t.meta.Created).Milliseconds() }

// ruleTime turns game time (ms since the table was created) into a moment.
func (t *table) ruleTime(ms int64) time.Time {
	return t.meta.Created.Add(time.Duration(ms) * time.Millisecond)
}
