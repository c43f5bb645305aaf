package server

import (
	"errors"
	"slices"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// updateClocks starts the turn clock of each human seat that has just become
// able to act and drops the clocks of seats that acted. A seat the rules
// already time (a deadline in Turn.Deadlines names it) gets no turn clock:
// the rules say what its lateness means, and a second clock would hand a
// slow player to a bot in the middle of the rules' own countdown.
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
}

// ruleTimed reports whether the rules name a deadline for seat.
func ruleTimed(turn engine.Turn, seat engine.Seat) bool {
	return slices.ContainsFunc(turn.Deadlines, func(d engine.Deadline) bool { return d.Seat == seat })
}

// expireClocks hands every seat whose turn clock ran out to its bot.
func (t *table) expireClocks(now time.Time) {
	for seat, at := range t.clocks {
		if !now.Before(at) {
			delete(t.clocks, seat)
			_ = t.takeOver(seat, "clock")
		}
	}
}

// failed reports a deadline whose timeout the rules refused: it is skipped
// so it cannot spin the actor.
func (t *table) failed(d engine.Deadline) bool { return t.failedDL[d] }

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
			if !t.failed(d) && (!only || d.Seat == seat) {
				consider(t.ruleTime(d.At))
			}
		}
	}
	return next, found
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

// nextWake is when the actor must next run by itself: the store retry
// while one is pending; else a turn clock running out, or what engine.Wake
// says of the rule deadlines and the bots' decided moves.
func (t *table) nextWake() (time.Time, bool) {
	if t.retrying() {
		return t.retryAt, true
	}
	var next time.Time
	found := false
	for _, at := range t.clocks {
		if !found || at.Before(next) {
			next, found = at, true
		}
	}
	if !t.live() {
		return next, found
	}
	if ms, ok := engine.Wake(t.state.Turn().Deadlines, t.decided(), t.failed); ok {
		if at := t.ruleTime(ms); !found || at.Before(next) {
			next, found = at, true
		}
	}
	return next, found
}

// maxDueSteps bounds the moves one reconcile plays (rules whose timeout
// never moves the deadline must not spin the actor; the timer fires again).
const maxDueSteps = 64

// runDue plays, in the order engine.Next gives, every decided bot move and
// rule timeout whose time has come: a bot move stamped at or before a
// deadline goes first; a deadline that passed before the bot's think time
// ended wins, and the bot's decision goes stale.
func (t *table) runDue() {
	for range maxDueSteps {
		if !t.live() || t.retrying() {
			return
		}
		due, ok := engine.Next(t.state.Turn().Deadlines, t.decided(), t.gameNow(), t.failed)
		switch {
		case !ok:
			return
		case due.Move != nil:
			t.playBot(due.Move.Seat)
		default:
			t.systemTimeout(*due.Deadline)
		}
	}
}

// systemTimeout feeds the timeout for a passed rule deadline
// (engine.TimeoutMove).
func (t *table) systemTimeout(d engine.Deadline) {
	m, ok := engine.TimeoutMove(t.state, max(d.At, t.gameTime()))
	if ok {
		err := t.commit(&m)
		if err == nil || errors.Is(err, errStore) {
			return
		}
		t.log.Error("timeout failed", "deadline", d, "err", err)
	}
	t.failedDL[d] = true
	t.log.Warn("a deadline passed but the rules accept no timeout action", "seat", int(d.Seat), "at", d.At)
}
