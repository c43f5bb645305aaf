package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// The actor is the only writer of its table's row and moves (the row is
// created once by POST /api/tables, before the actor starts).

// saveMeta stores the table's metadata. touch restarts Updated: the time
// of the last join or change, by which open tables expire and lists sort.
func (t *table) saveMeta(touch bool) error {
	if touch {
		t.meta.Updated = t.s.clock.Now().UTC().Truncate(time.Millisecond)
	}
	ctx, cancel := t.storeCtx()
	defer cancel()
	if err := t.s.store.UpdateTable(ctx, t.meta, t.fence()); err != nil {
		t.s.metrics.storeError("update_table")
		switch {
		case errors.Is(err, store.ErrFenced):
			t.leaseLost("a write of the table was fenced")
		case t.writes.Err() != nil:
			t.leaseLost("the lease lapsed during a write of the table")
		}
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
	if err := t.saveMeta(restartsExpiry(old, t.meta)); err != nil {
		t.meta = old
		t.log.Error("table change not stored, undone", "err", err)
		return err
	}
	return nil
}

// restartsExpiry reports whether a change from old to meta counts as the
// table's latest change (Updated): every change does, except at a table
// still waiting for players, where only a join does. A player who leaves
// and reclaims a seat at an open table does not keep it from expiring.
func restartsExpiry(old, meta store.Table) bool {
	if old.Status != store.StatusOpen || meta.Status != store.StatusOpen {
		return true
	}
	for i := range meta.Seats {
		if i < len(old.Seats) && old.Seats[i].TokenHash == "" && meta.Seats[i].TokenHash != "" {
			return true
		}
	}
	return false
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

// maxChanceChain bounds chance moves after one action (a rules bug must not
// spin the actor forever).
const maxChanceChain = 64

// commit plays first (nil: only pending chance) and every chance move that
// follows on a copy of the state, stores them, and only then adopts the new
// state and tells every connection. A refusal is returned as the rules'
// *engine.RuleError and changes nothing. What follows from the new state
// (bots, timers) is the next reconcile's.
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
		a := next.SampleChance(engine.NewSource(engine.ChanceSeed(t.meta.Seed, k)))
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
	ctx, cancel := t.storeCtx()
	start := time.Now() // the wall clock, not t.s.clock: this measures the store
	err := t.s.store.AppendMoves(ctx, t.id, t.version, logged, t.fence())
	cancel()
	t.s.metrics.appended(t.meta.Game, first != nil, len(batch), start, err)
	if errors.Is(err, store.ErrFenced) {
		t.leaseLost("a move was fenced")
		return errStore
	}
	if err != nil && t.writes.Err() != nil {
		// Whether it landed or not, the next owner reads it from the store.
		t.leaseLost("the lease lapsed during a write of moves")
		return errStore
	}
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
		res := wireResult(t.state.Result())
		if err := t.changeMeta(func(m *store.Table) { m.Status, m.Result = store.StatusOver, &res }); err != nil {
			t.meta.Status = store.StatusOver
		} else {
			t.rate()
		}
		t.reviewLater()
	}
	began := t.observeMove(at) // the deadlines below are those of the new state
	t.publish()                // before anyone hears of the move, so a summary fetched on an update is as new
	deadlines, banks := map[engine.Seat]int64{}, map[engine.Seat]int64{}
	for _, seat := range watchers {
		deadlines[seat], banks[seat] = t.deadlineMs(seat), t.bankMs(seat)
	}
	for i, c := range batch {
		v := t.version - len(batch) + i + 1
		t.history.add(v, c.narration)
		msgs := map[engine.Seat][]byte{}
		for seat, view := range c.views {
			msgs[seat] = mustJSON(updateMsg{Type: "update", Version: v,
				Move: wireMove{Seat: c.move.Seat, Action: c.move.Action}, Events: c.events,
				Narration: c.narration, View: view, Turn: c.turn, Deadline: deadlines[seat], Bank: banks[seat]})
		}
		for cn := range t.conns {
			if cn.remote == nil {
				cn.enqueue(msgs[cn.seat])
			}
		}
		t.publishSeats(msgs) // the connections other nodes hold: once per node and seat
	}
	t.noticeTurns(began, batch[0].move.Seat) // stored and told: now those away may hear of it
	return nil
}

// storeFailed handles a move the store did not take: the state stays at the
// last version the actor knows stored; the log is reread in case the write
// landed after all, and chance and bots pause until the retry time (the
// timer wakes the actor then).
func (t *table) storeFailed(err error) {
	t.log.Error("move not stored; rebuilding from the store", "version", t.version, "err", err)
	ctx, cancel := t.storeCtx()
	defer cancel()
	if moves, merr := t.s.store.Moves(ctx, t.id); merr == nil && len(moves) != t.version {
		if rerr := t.rebuild(moves); rerr == nil {
			for c := range t.conns {
				t.welcomes[c] = true
			}
		} else {
			t.log.Error("stored moves do not replay", "err", rerr)
		}
	}
	if !t.retrying() {
		t.retryAt = t.s.clock.Now().Add(t.s.cfg.RetryDelay)
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

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(fmt.Sprintf("server: encode %T: %v", v, err)) // our own wire types always encode
	}
	return b
}
