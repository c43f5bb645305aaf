package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// errBusy: the table's inbox is full. errGone: the table's actor has stopped
// (server closing, or a finished table nobody watches any more).
var (
	errBusy = errors.New("the table is busy: try again")
	errGone = errors.New("the table has stopped")
)

// table is one table's actor. Everything below the inbox is owned by the
// actor goroutine (run); other goroutines only post closures to the inbox
// or read the published summary.
type table struct {
	s     *Server
	log   *slog.Logger
	id    string
	game  engine.Game
	bots  engine.BotProvider // nil: the game has no bots
	inbox chan func()
	ctx   context.Context
	stop  context.CancelFunc
	done  chan struct{} // closed when the actor has exited
	botWG sync.WaitGroup

	summary atomic.Pointer[TableSummary]

	// Owned by the actor goroutine.
	meta     store.Table
	set      settings
	state    engine.State
	version  int // moves stored (and applied to state)
	lastAt   int64
	conns    map[*conn]struct{}
	ctrls    map[engine.Seat]botCtrl
	plans    map[engine.Seat]*botPlan // each bot seat's decision for the current version
	ctrlGen  map[engine.Seat]int      // bumped when a seat changes hands, to drop stale bot moves
	handedAt map[engine.Seat]int64    // game time a bot last took a seat over
	clocks   map[engine.Seat]time.Time
	failedDL map[engine.Deadline]bool
	timer    Timer
	timerAt  time.Time
	retrying bool // a store write failed; chance and bots wait for the retry
}

type botCtrl struct {
	kind string
	ctrl engine.Controller
}

// loadTable builds a table from the store without starting it.
func (s *Server) loadTable(ctx context.Context, id string) (*table, error) {
	meta, err := s.store.GetTable(ctx, id)
	if err != nil {
		return nil, err
	}
	moves, err := s.store.Moves(ctx, id)
	if err != nil {
		return nil, fmt.Errorf("load moves of table %s: %w", id, err)
	}
	t, err := s.newTable(meta)
	if err != nil {
		return nil, err
	}
	st, err := engine.Replay(t.game, engine.Record{Game: meta.Game, Players: t.players(), Options: meta.Options, Moves: moves})
	if err != nil {
		t.stop()
		return nil, fmt.Errorf("table %s: %w", id, err)
	}
	t.state, t.version = st, len(moves)
	if n := len(moves); n > 0 {
		t.lastAt = moves[n-1].At
	}
	// Repair a status a crash left behind: the moves are the truth.
	status := t.meta.Status
	switch {
	case st.Turn().Over:
		status = store.StatusOver
	case status == store.StatusOpen && t.seatsFilled():
		status = store.StatusLive
	}
	if status != t.meta.Status {
		t.meta.Status = status
		if err := t.saveMeta(); err != nil {
			t.stop()
			return nil, err
		}
	}
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
	return &table{
		s: s, log: s.log.With("table", meta.ID), id: meta.ID, game: g, bots: bots,
		inbox: make(chan func(), s.cfg.InboxSize), ctx: ctx, stop: stop, done: make(chan struct{}),
		meta: meta, set: set,
		conns: map[*conn]struct{}{}, ctrls: map[engine.Seat]botCtrl{}, plans: map[engine.Seat]*botPlan{},
		ctrlGen: map[engine.Seat]int{}, handedAt: map[engine.Seat]int64{}, clocks: map[engine.Seat]time.Time{}, failedDL: map[engine.Deadline]bool{},
	}, nil
}

// run is the actor loop.
func (t *table) run() {
	defer close(t.done)
	t.afterChange()
	for {
		select {
		case f := <-t.inbox:
			f()
			if t.meta.Status == store.StatusOver && len(t.conns) == 0 && t.s.forget(t) {
				// A finished table nobody watches needs no goroutine; it is
				// loaded again from the store if someone comes back.
				t.shutdown()
				return
			}
		case <-t.ctx.Done():
			t.shutdown()
			return
		}
	}
}

func (t *table) shutdown() {
	t.stop()
	if t.timer != nil {
		t.timer.Stop()
	}
	for c := range t.conns {
		c.closeGracefully(statusGoingAway, "the server is shutting down")
	}
	t.conns = nil
	t.botWG.Wait()
}

// post hands f to the actor without waiting: a full inbox is errBusy.
func (t *table) post(f func()) error {
	select {
	case <-t.done:
		return errGone
	default:
	}
	select {
	case t.inbox <- f:
		return nil
	case <-t.done:
		return errGone
	default:
		return errBusy
	}
}

// postWait hands f to the actor, waiting for room.
func (t *table) postWait(ctx context.Context, f func()) error {
	select {
	case t.inbox <- f:
		return nil
	case <-t.done:
		return errGone
	case <-ctx.Done():
		return ctx.Err()
	}
}

// call runs f in the actor and returns its result.
func call[T any](ctx context.Context, t *table, f func() T) (T, error) {
	reply := make(chan T, 1)
	var zero T
	if err := t.postWait(ctx, func() { reply <- f() }); err != nil {
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

// players are the names the rules know the seats by.
func (t *table) players() []string {
	out := make([]string, len(t.meta.Seats))
	for i, st := range t.meta.Seats {
		out[i] = st.Name
		if out[i] == "" {
			out[i] = fmt.Sprintf("Seat %d", i+1)
		}
	}
	return out
}

func (t *table) seatsFilled() bool {
	for _, st := range t.meta.Seats {
		if st.Kind == kindHuman && st.TokenHash == "" {
			return false
		}
	}
	return true
}

func (t *table) botControlled(seat engine.Seat) bool {
	if seat < 0 || int(seat) >= len(t.meta.Seats) {
		return false
	}
	st := t.meta.Seats[seat]
	return st.Kind == kindBot || st.TakenOver
}

func (t *table) humanControlled(seat engine.Seat) bool {
	if seat < 0 || int(seat) >= len(t.meta.Seats) {
		return false
	}
	st := t.meta.Seats[seat]
	return st.Kind == kindHuman && !st.TakenOver
}

func (t *table) live() bool { return t.meta.Status == store.StatusLive }

// gameTime is the time stamped on moves: milliseconds since the table was
// created, never going backwards.
func (t *table) gameTime() int64 {
	at := t.s.clock.Now().Sub(t.meta.Created).Milliseconds()
	return max(at, t.lastAt)
}

func (t *table) saveMeta() error {
	t.meta.Updated = t.s.clock.Now().UTC().Truncate(time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	defer cancel()
	if err := t.s.store.UpdateTable(ctx, t.meta); err != nil {
		return fmt.Errorf("save table %s: %w", t.id, err)
	}
	return nil
}

// changeMeta applies edit to the table's metadata and stores it; if the store
// refuses, the edit is undone.
func (t *table) changeMeta(edit func(m *store.Table)) error {
	old := t.meta
	old.Seats = slices.Clone(t.meta.Seats)
	edit(&t.meta)
	if err := t.saveMeta(); err != nil {
		t.meta = old
		t.log.Error("table change not stored, undone", "err", err)
		return err
	}
	return nil
}

// committed is one stored move with what each watching seat saw after it.
type committed struct {
	move      engine.LoggedMove
	events    json.RawMessage
	narration json.RawMessage
	views     map[engine.Seat]json.RawMessage
	turn      engine.Turn
}

// errStore marks a move the store did not take: nothing happened.
var errStore = errors.New("the move could not be saved; nothing changed")

// commit plays first (nil: only pending chance) and every chance move that
// follows on a copy of the state, stores them, and only then adopts the new
// state and tells every connection. A refusal is returned as the rules'
// *engine.RuleError and changes nothing.
func (t *table) commit(first *engine.Move) error {
	next := t.state.Clone()
	watchers := t.watchingSeats()
	players := t.players()
	var batch []committed
	record := func(m engine.Move, ev []engine.Event) error {
		data, err := json.Marshal(m.Action)
		if err != nil {
			return fmt.Errorf("encode %s action: %w", m.Action.Kind(), err)
		}
		events, err := json.Marshal(wireEvents(ev))
		if err != nil {
			return fmt.Errorf("encode events of a %s action: %w", m.Action.Kind(), err)
		}
		narration, err := json.Marshal(narrate(t.game, ev, players))
		if err != nil {
			return fmt.Errorf("encode narration of a %s action: %w", m.Action.Kind(), err)
		}
		c := committed{move: engine.LoggedMove{Seat: m.Seat, At: m.At, Action: data}, events: events,
			narration: narration, views: map[engine.Seat]json.RawMessage{}, turn: wireTurn(next.Turn())}
		for _, seat := range watchers {
			v, err := json.Marshal(next.View(seat))
			if err != nil {
				return fmt.Errorf("encode view of %v: %w", seat, err)
			}
			c.views[seat] = v
		}
		batch = append(batch, c)
		return nil
	}
	at := t.gameTime()
	if first != nil {
		// Callers stamp the move (a paced bot plays at the moment its think
		// time ended, even if the actor runs later); time never goes back.
		first.At = max(first.At, t.lastAt)
		at = first.At
		ev, err := next.Apply(*first)
		if err != nil {
			return err
		}
		if err := record(*first, ev); err != nil {
			return err
		}
	}
	for next.Turn().Chance {
		if len(batch) > maxChanceChain {
			return fmt.Errorf("table %s: more than %d chance moves in a row", t.id, maxChanceChain)
		}
		k := t.version + len(batch)
		a := next.SampleChance(engine.NewSource(engine.SplitSeed(t.meta.Seed, uint64(k))))
		m := engine.Move{Seat: engine.ChanceSeat, At: at, Action: a}
		ev, err := next.Apply(m)
		if err != nil {
			return fmt.Errorf("table %s: chance move %d refused: %w", t.id, k, err)
		}
		if err := record(m, ev); err != nil {
			return err
		}
	}
	if len(batch) == 0 {
		return nil
	}
	logged := make([]engine.LoggedMove, len(batch))
	for i, c := range batch {
		logged[i] = c.move
	}
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	err := t.s.store.AppendMoves(ctx, t.id, t.version, logged)
	cancel()
	if err != nil {
		t.storeFailed(err)
		return errStore
	}
	// Durable: from here on everybody may know.
	t.state = next
	t.version += len(batch)
	t.lastAt = at
	if t.state.Turn().Over && t.meta.Status != store.StatusOver {
		// The moves already say the game is over; a failed status write is
		// repaired at the next load.
		if err := t.changeMeta(func(m *store.Table) { m.Status = store.StatusOver }); err != nil {
			t.meta.Status = store.StatusOver
		}
	}
	t.updateClocks()
	t.publish() // before anyone hears of the move, so a summary fetched on an update is as new
	deadlines := map[engine.Seat]int64{}
	for _, seat := range watchers {
		deadlines[seat] = t.deadlineMs(seat)
	}
	for i, c := range batch {
		v := t.version - len(batch) + i + 1
		msgs := map[engine.Seat][]byte{}
		for seat, view := range c.views {
			msgs[seat] = mustJSON(updateMsg{Type: "update", Version: v,
				Move: wireMove{Seat: c.move.Seat, Action: c.move.Action}, Events: c.events,
				Narration: c.narration, View: view, Turn: c.turn, Deadline: deadlines[seat]})
		}
		for cn := range t.conns {
			cn.enqueue(msgs[cn.seat])
		}
	}
	t.afterChange()
	return nil
}

// maxChanceChain bounds chance moves after one action (a rules bug must not
// spin the actor forever).
const maxChanceChain = 64

// storeFailed handles a move the store did not take: the state stays at the
// last version the actor knows stored; the log is reread in case the write
// landed after all, and chance and bots pause until a retry.
func (t *table) storeFailed(err error) {
	t.log.Error("move not stored; rebuilding from the store", "version", t.version, "err", err)
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	defer cancel()
	if moves, merr := t.s.store.Moves(ctx, t.id); merr == nil && len(moves) != t.version {
		st, rerr := engine.Replay(t.game, engine.Record{Game: t.meta.Game, Players: t.players(), Options: t.meta.Options, Moves: moves})
		if rerr == nil {
			t.state, t.version = st, len(moves)
			if len(moves) > 0 {
				t.lastAt = moves[len(moves)-1].At
			}
			for c := range t.conns {
				t.welcome(c)
			}
		} else {
			t.log.Error("stored moves do not replay", "err", rerr)
		}
	}
	if !t.retrying {
		t.retrying = true
		time.AfterFunc(t.s.cfg.RetryDelay, func() {
			_ = t.postWait(t.ctx, func() {
				t.retrying = false
				t.afterChange()
			})
		})
	}
}

// afterChange brings everything that follows from the state up to date:
// the summary, pending chance, clocks and bots.
func (t *table) afterChange() {
	t.publish()
	if !t.live() || t.retrying {
		t.stopTimer()
		return
	}
	turn := t.state.Turn()
	if turn.Chance {
		if err := t.commit(nil); err != nil && !errors.Is(err, errStore) {
			t.log.Error("chance not resolved", "err", err)
		}
		return // commit ran afterChange again on success
	}
	t.dropStalePlans() // before the timer is armed: stale paced moves need no wake-up
	t.updateClocks()
	for _, seat := range turn.Actors {
		if t.botControlled(seat) && t.needsDecision(seat) {
			t.startBot(seat)
		}
	}
}

// watchingSeats lists the seats (Spectator included) that have connections.
func (t *table) watchingSeats() []engine.Seat {
	var out []engine.Seat
	for c := range t.conns {
		if !slices.Contains(out, c.seat) {
			out = append(out, c.seat)
		}
	}
	return out
}

// ---- bots

func (t *table) botKind(seat engine.Seat) string {
	st := t.meta.Seats[seat]
	if st.Bot != "" {
		return st.Bot
	}
	return defaultBot(t.game)
}

func defaultBot(g engine.Game) string { return g.Info().DefaultBot }

func (t *table) controller(seat engine.Seat) (engine.Controller, error) {
	if t.bots == nil {
		return nil, fmt.Errorf("%s has no bots", t.game.Info().Title)
	}
	kind := t.botKind(seat)
	if bc, ok := t.ctrls[seat]; ok && bc.kind == kind {
		return bc.ctrl, nil
	}
	ctrl, err := t.bots.NewBot(kind, engine.SplitSeed(t.meta.Seed, 1000+uint64(seat)))
	if err != nil {
		return nil, err
	}
	t.ctrls[seat] = botCtrl{kind: kind, ctrl: ctrl}
	return ctrl, nil
}

// ---- clocks

// updateClocks starts the turn clock of each human seat that has just become
// able to act and drops the clocks of seats that acted, then arms the timer.
// A seat the rules already time (a deadline in Turn.Deadlines names it) gets
// no turn clock: the rules say what its lateness means, and a second clock
// would hand a slow player to a bot in the middle of the rules' own countdown.
func (t *table) updateClocks() {
	turn := t.state.Turn()
	running := t.live() && !turn.Over && !turn.Chance && t.set.TurnSeconds > 0
	for seat := range t.clocks {
		if !running || !turn.Has(seat) || !t.humanControlled(seat) || ruleTimed(turn, seat) {
			delete(t.clocks, seat)
		}
	}
	if running {
		now := t.s.clock.Now()
		for _, seat := range turn.Actors {
			if _, ok := t.clocks[seat]; !ok && t.humanControlled(seat) && !ruleTimed(turn, seat) {
				t.clocks[seat] = now.Add(time.Duration(t.set.TurnSeconds) * time.Second)
			}
		}
	}
	t.armTimer()
}

// ruleTimed reports whether the rules name a deadline for seat.
func ruleTimed(turn engine.Turn, seat engine.Seat) bool {
	return slices.ContainsFunc(turn.Deadlines, func(d engine.Deadline) bool { return d.Seat == seat })
}

// nextDeadline is the earliest running clock (turn clock or rule deadline);
// only those of seat when only is true.
func (t *table) nextDeadline(seat engine.Seat, only bool) (time.Time, bool) {
	var next time.Time
	found := false
	consider := func(at time.Time) {
		if !found || at.Before(next) {
			next, found = at, true
		}
	}
	for s, at := range t.clocks {
		if !only || s == seat {
			consider(at)
		}
	}
	if t.live() {
		for _, d := range t.state.Turn().Deadlines {
			if !t.failedDL[d] && (!only || d.Seat == seat) {
				consider(t.ruleTime(d.At))
			}
		}
	}
	return next, found
}

// ruleTime turns game time (ms since the table was created) into a moment.
func (t *table) ruleTime(ms int64) time.Time {
	return t.meta.Created.Add(time.Duration(ms) * time.Millisecond)
}

// deadlineMs is the deadline field for a connection of seat: the seat's own
// soonest clock when one runs, else the soonest at the table (what a
// spectator, or a player waiting for a vote on their word, watches).
func (t *table) deadlineMs(seat engine.Seat) int64 {
	next, ok := t.nextDeadline(seat, true)
	if !ok {
		next, ok = t.nextDeadline(seat, false)
	}
	if !ok {
		return 0
	}
	return max(1, next.Sub(t.s.clock.Now()).Milliseconds())
}

// nextWake is when the actor must next run by itself: a clock or deadline,
// or a paced bot's move falling due.
func (t *table) nextWake() (time.Time, bool) {
	next, found := t.nextDeadline(0, false)
	for _, p := range t.plans {
		if p.pending != nil {
			if at := t.ruleTime(p.pending.At); !found || at.Before(next) {
				next, found = at, true
			}
		}
	}
	return next, found
}

func (t *table) stopTimer() {
	if t.timer != nil {
		t.timer.Stop()
		t.timer = nil
	}
}

func (t *table) armTimer() {
	next, ok := t.nextWake()
	if !ok {
		t.stopTimer()
		return
	}
	if t.timer != nil && t.timerAt.Equal(next) {
		return
	}
	t.stopTimer()
	t.timerAt = next
	t.timer = t.s.clock.AfterFunc(max(0, next.Sub(t.s.clock.Now())), func() {
		_ = t.postWait(t.ctx, t.tick)
	})
}

// tick acts on everything that has fallen due: an expired turn clock hands
// the seat to a bot; paced bot moves and rule deadlines are played in the
// order of their times.
func (t *table) tick() {
	t.timer = nil
	if !t.live() {
		return
	}
	now := t.s.clock.Now()
	for seat, at := range t.clocks {
		if !now.Before(at) {
			delete(t.clocks, seat)
			t.takeOver(seat, "clock")
		}
	}
	t.runDue()
}

// maxDueSteps bounds the moves one wake-up plays (rules whose timeout never
// moves the deadline must not spin the actor; the timer fires again).
const maxDueSteps = 64

// runDue plays, earliest first, every paced bot move and rule timeout whose
// time has come. A bot move stamped at or before a deadline goes first (the
// rules let a move at the deadline itself count); a deadline that passed
// before the bot's think time ended wins, and the bot's decision goes stale.
func (t *table) runDue() {
	for range maxDueSteps {
		if !t.live() || t.retrying {
			break
		}
		gameNow := t.s.clock.Now().Sub(t.meta.Created).Milliseconds()
		var (
			dl      *engine.Deadline
			botSeat engine.Seat
			bot     *botPlan
		)
		for _, d := range t.state.Turn().Deadlines {
			if d.At <= gameNow && !t.failedDL[d] && (dl == nil || d.At < dl.At) {
				dl = &d
			}
		}
		for seat, p := range t.plans {
			if p.pending == nil || !t.current(seat, p) || p.pending.At > gameNow {
				continue
			}
			if bot == nil || p.pending.At < bot.pending.At || p.pending.At == bot.pending.At && seat < botSeat {
				botSeat, bot = seat, p
			}
		}
		switch {
		case bot != nil && (dl == nil || bot.pending.At <= dl.At):
			t.playBot(botSeat, bot)
		case dl != nil:
			t.systemTimeout(*dl)
		default:
			t.afterChange()
			return
		}
	}
	t.afterChange()
}

// systemTimeout feeds the timeout for a passed rule deadline: the first
// action the rules list for SystemSeat that they accept now.
func (t *table) systemTimeout(d engine.Deadline) {
	at := max(d.At, t.gameTime())
	for _, a := range t.state.Legal(engine.SystemSeat) {
		err := t.commit(&engine.Move{Seat: engine.SystemSeat, At: at, Action: a})
		if err == nil || errors.Is(err, errStore) {
			return
		}
		if _, ok := engine.AsRuleError(err); !ok {
			t.log.Error("timeout failed", "deadline", d, "err", err)
			break
		}
	}
	t.failedDL[d] = true
	t.log.Warn("a deadline passed but the rules accept no timeout action", "seat", int(d.Seat), "at", d.At)
}

// ---- seats and presence

// takeOver hands a human seat to its bot (after a leave, an expired clock or
// another player's request).
func (t *table) takeOver(seat engine.Seat, why string) error {
	if t.bots == nil {
		return engine.Refuse("no-bots", fmt.Sprintf("%s has no bots to play a seat", t.game.Info().Title))
	}
	kind := t.botKind(seat)
	if err := t.changeMeta(func(m *store.Table) {
		m.Seats[seat].TakenOver = true
		m.Seats[seat].Bot = kind
	}); err != nil {
		return err
	}
	t.log.Info("seat taken over by a bot", "seat", int(seat), "bot", kind, "why", why)
	t.ctrlGen[seat]++
	t.handedAt[seat] = t.gameTime()
	delete(t.clocks, seat)
	t.seatChanged(seat)
	return nil
}

// seatChanged tells everybody about a change of hands at seat: presence to
// all, a fresh welcome to the seat's own connections.
func (t *table) seatChanged(seat engine.Seat) {
	t.updateClocks() // so the welcomes below show the clocks as they now run
	t.publish()
	t.broadcastPresence()
	for c := range t.conns {
		if c.seat == seat {
			t.welcome(c)
		}
	}
	t.afterChange()
}

func (t *table) connected(seat engine.Seat) bool {
	for c := range t.conns {
		if c.seat == seat {
			return true
		}
	}
	return false
}

func (t *table) seatSummaries() []SeatSummary {
	out := make([]SeatSummary, len(t.meta.Seats))
	for i, st := range t.meta.Seats {
		out[i] = SeatSummary{Name: st.Name, Kind: st.Kind, Bot: st.Bot, TakenOver: st.TakenOver,
			Taken: st.Kind == kindBot || st.TokenHash != "", Connected: t.connected(engine.Seat(i))}
	}
	return out
}

// publish refreshes the summary other goroutines read, and returns it.
func (t *table) publish() TableSummary {
	s := summarize(t.meta, t.game, t.state, t.version)
	s.Seats = t.seatSummaries()
	t.summary.Store(&s)
	return s
}

func summarize(meta store.Table, g engine.Game, st engine.State, version int) TableSummary {
	s := TableSummary{ID: meta.ID, Game: meta.Game, Title: g.Info().Title, Status: meta.Status,
		Settings: orEmpty(meta.Settings), Options: orEmpty(meta.Options),
		Created: meta.Created, Updated: meta.Updated, Version: version, Result: wireResult(engine.Result{})}
	if st != nil {
		s.Result = wireResult(st.Result())
	}
	for _, seat := range meta.Seats {
		s.Seats = append(s.Seats, SeatSummary{Name: seat.Name, Kind: seat.Kind, Bot: seat.Bot,
			TakenOver: seat.TakenOver, Taken: seat.Kind == kindBot || seat.TokenHash != ""})
	}
	return s
}

func orEmpty(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage("{}")
	}
	return r
}

func (t *table) broadcastPresence() { t.presenceExcept(nil) }

// presenceExcept sends presence to every connection but skip (whose welcome
// already says it).
func (t *table) presenceExcept(skip *conn) {
	msg := mustJSON(presenceMsg{Type: "presence", Seats: t.seatSummaries()})
	for c := range t.conns {
		if c != skip {
			c.enqueue(msg)
		}
	}
}

func (t *table) welcome(c *conn) {
	view, err := json.Marshal(t.state.View(c.seat))
	if err != nil {
		t.log.Error("view not encodable", "seat", int(c.seat), "err", err)
		c.closeGracefully(statusInternalError, "the table cannot be shown")
		return
	}
	c.enqueue(mustJSON(welcomeMsg{Type: "welcome", Seat: c.seat, Table: t.publish(), Version: t.version,
		View: view, Turn: wireTurn(t.state.Turn()), Deadline: t.deadlineMs(c.seat)}))
}

// ---- requests from connections (run in the actor)

// attach registers a connection and greets it.
func (t *table) attach(c *conn) error {
	if len(t.conns) >= t.s.cfg.MaxConnsPerTable {
		return errors.New("too many people at this table")
	}
	c.seat = engine.Spectator
	if c.tokenHash != "" {
		for i, st := range t.meta.Seats {
			if st.TokenHash != "" && tokenEqual(st.TokenHash, c.tokenHash) {
				c.seat = engine.Seat(i)
			}
		}
	}
	wasConnected := c.seat >= 0 && t.connected(c.seat)
	t.conns[c] = struct{}{}
	t.welcome(c)
	if c.seat >= 0 && !wasConnected {
		t.presenceExcept(c)
	}
	return nil
}

func (t *table) detach(c *conn) {
	if _, ok := t.conns[c]; !ok {
		return
	}
	delete(t.conns, c)
	if c.seat >= 0 && !t.connected(c.seat) {
		t.publish()
		t.broadcastPresence()
	}
}

func (t *table) refuse(c *conn, id *int64, rule, message string) {
	c.enqueue(mustJSON(refusedMsg{Type: "refused", ID: id, Rule: rule, Message: message}))
}

func (t *table) refuseErr(c *conn, id *int64, err error) {
	if r, ok := engine.AsRuleError(err); ok {
		t.refuse(c, id, r.Rule, r.Message)
		return
	}
	c.sendError(id, "internal", err.Error())
}

// seated checks that c holds a seat and may use it now.
func (t *table) seated(c *conn, id *int64) bool {
	if c.seat < 0 {
		t.refuse(c, id, "not-seated", "you are watching this table: only seated players can do that")
		return false
	}
	if t.meta.Status == store.StatusOver {
		t.refuse(c, id, engine.ErrGameOver.Rule, engine.ErrGameOver.Message)
		return false
	}
	return true
}

func (t *table) act(c *conn, m clientMsg, a engine.Action) {
	if !t.seated(c, m.ID) {
		return
	}
	switch {
	case m.Seat != nil && engine.Seat(*m.Seat) != c.seat:
		t.refuse(c, m.ID, "not-your-seat", fmt.Sprintf("you hold seat %d, not seat %d", c.seat, *m.Seat))
	case !t.live():
		t.refuse(c, m.ID, "waiting-for-players", "the game starts once every seat is taken")
	case t.meta.Seats[c.seat].TakenOver:
		t.refuse(c, m.ID, "taken-over", "a bot is playing your seat: reclaim it first")
	case m.Version != nil && *m.Version != t.version:
		t.refuse(c, m.ID, "stale", fmt.Sprintf("the table has moved on since version %d (it is at %d): look again", *m.Version, t.version))
	default:
		if err := t.commit(&engine.Move{Seat: c.seat, At: t.gameTime(), Action: a}); err != nil {
			t.refuseErr(c, m.ID, err)
		}
	}
}

func (t *table) leave(c *conn, m clientMsg) {
	if !t.seated(c, m.ID) {
		return
	}
	if t.meta.Seats[c.seat].TakenOver {
		t.refuse(c, m.ID, "taken-over", "a bot is already playing your seat")
		return
	}
	if err := t.takeOver(c.seat, "leave"); err != nil {
		t.refuseErr(c, m.ID, err)
	}
}

func (t *table) reclaim(c *conn, m clientMsg) {
	if !t.seated(c, m.ID) {
		return
	}
	if !t.meta.Seats[c.seat].TakenOver {
		t.refuse(c, m.ID, "not-taken-over", "you are already playing your seat")
		return
	}
	if err := t.changeMeta(func(mt *store.Table) { mt.Seats[c.seat].TakenOver = false }); err != nil {
		t.refuseErr(c, m.ID, err)
		return
	}
	t.ctrlGen[c.seat]++
	t.seatChanged(c.seat)
}

func (t *table) takeover(c *conn, m clientMsg) {
	if !t.seated(c, m.ID) {
		return
	}
	if m.Seat == nil || *m.Seat < 0 || *m.Seat >= len(t.meta.Seats) {
		t.refuse(c, m.ID, "bad-seat", "say which seat a bot should take over")
		return
	}
	seat := engine.Seat(*m.Seat)
	st := t.meta.Seats[seat]
	switch {
	case seat == c.seat:
		t.refuse(c, m.ID, "own-seat", "to hand your own seat to a bot, leave it")
	case st.Kind != kindHuman:
		t.refuse(c, m.ID, "bot-seat", "a bot already plays that seat")
	case st.TokenHash == "":
		t.refuse(c, m.ID, "seat-free", "nobody has taken that seat yet")
	case st.TakenOver:
		t.refuse(c, m.ID, "taken-over", "a bot is already playing that seat")
	case t.connected(seat):
		t.refuse(c, m.ID, "player-connected", fmt.Sprintf("%s is still connected", st.Name))
	default:
		if err := t.takeOver(seat, "requested by "+c.seat.String()); err != nil {
			t.refuseErr(c, m.ID, err)
		}
	}
}

// joinResult answers a join request.
type joinResult struct {
	status int
	code   string
	msg    string
}

func (t *table) join(seat int, name, tokenHash, presented string) joinResult {
	if presented != "" {
		for _, st := range t.meta.Seats {
			if st.TokenHash != "" && tokenEqual(st.TokenHash, presented) {
				return joinResult{409, "already-seated", "you already hold a seat at this table"}
			}
		}
	}
	switch {
	case t.meta.Status == store.StatusOver:
		return joinResult{409, "game-over", "this game is over"}
	case seat < 0 || seat >= len(t.meta.Seats):
		return joinResult{400, "bad-seat", fmt.Sprintf("this table has seats 0 to %d", len(t.meta.Seats)-1)}
	case t.meta.Seats[seat].Kind != kindHuman:
		return joinResult{409, "seat-taken", "a bot plays that seat"}
	case t.meta.Seats[seat].TokenHash != "":
		return joinResult{409, "seat-taken", "somebody already holds that seat"}
	}
	if err := t.changeMeta(func(m *store.Table) {
		m.Seats[seat].Name = name
		m.Seats[seat].TokenHash = tokenHash
		if m.Status == store.StatusOpen && t.seatsFilled() {
			m.Status = store.StatusLive
		}
	}); err != nil {
		return joinResult{500, "internal", "the seat could not be saved; try again"}
	}
	if t.version == 0 {
		// Names live in the state; no move has been made, so set it up again.
		if st, err := t.game.New(t.players(), t.meta.Options); err == nil {
			t.state = st
		} else {
			t.log.Error("set-up with the new names failed", "err", err)
		}
	}
	t.updateClocks()
	t.publish()
	t.broadcastPresence()
	for c := range t.conns {
		t.welcome(c) // names and maybe status changed in everybody's view
	}
	t.afterChange()
	return joinResult{status: 200}
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("server: encode %T: %v", v, err)) // our own wire types always encode
	}
	return b
}
