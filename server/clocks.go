package server

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Turn clocks. A human seat to act has a clock when the table's settings
// give one (turnSeconds). Nothing of it is kept in memory only: a seat's
// turn began at the time of the move that gave it the turn (its stored
// At), or when the table went live (the seats' JoinedAt) for the first
// turn, or when its player took it back from a bot (BackAt); its time bank
// is what its finished turns, from the stored moves' times, left of it.
// So a restarted or reloaded table keeps every clock to the millisecond,
// and a table reloaded more often than its clock still times out.

// Table paces and expiry policies (settings.Pace, settings.Expiry).
const (
	paceLive  = "live"
	paceTurns = "turns"

	expiryBot     = "bot"
	expirySkip    = "skip"
	expiryForfeit = "forfeit"

	// Bounds of a turn-based table's clock and time bank, in seconds.
	minTurnBasedSeconds = 5 * 60
	maxTurnBasedSeconds = 14 * 24 * 3600
	maxBankSeconds      = 30 * 24 * 3600
)

// checkPace checks the clock settings by themselves (fitsGame checks them
// against the game).
func (s settings) checkPace() error {
	switch s.Pace {
	case "", paceLive:
		if s.TurnSeconds < 0 || s.TurnSeconds > maxTurnSeconds {
			return fmt.Errorf("turnSeconds must be between 0 (no clock) and %d", maxTurnSeconds)
		}
		if s.BankSeconds != 0 || s.Expiry != "" {
			return fmt.Errorf("bankSeconds and expiry are for turn-based tables (pace %q)", paceTurns)
		}
	case paceTurns:
		if s.TurnSeconds < minTurnBasedSeconds || s.TurnSeconds > maxTurnBasedSeconds {
			return fmt.Errorf("a turn-based table's turnSeconds must be between %d (5 minutes) and %d (14 days)", minTurnBasedSeconds, maxTurnBasedSeconds)
		}
		if s.BankSeconds < 0 || s.BankSeconds > maxBankSeconds {
			return fmt.Errorf("bankSeconds must be between 0 and %d (30 days)", maxBankSeconds)
		}
		switch s.Expiry {
		case "", expiryBot, expirySkip, expiryForfeit:
		default:
			return fmt.Errorf("expiry is %q, %q or %q", expiryBot, expirySkip, expiryForfeit)
		}
	default:
		return fmt.Errorf("pace is %q (real time) or %q (turn-based)", paceLive, paceTurns)
	}
	return nil
}

// fitsGame checks that g can be played at such a table.
func (s settings) fitsGame(g engine.Game) error {
	if !s.turnBased() {
		return nil
	}
	allowed := expiries(g)
	if len(allowed) == 0 {
		return fmt.Errorf("settings: %s is played in real time only: its rules time the players in seconds", g.Info().Title)
	}
	if !slices.Contains(allowed, s.expiry()) {
		return fmt.Errorf("settings: at %s a turn-based table's expiry is one of %s", g.Info().Title, strings.Join(allowed, ", "))
	}
	return nil
}

// expiries lists the expiry policies a turn-based table of g may choose,
// from what the game says of itself: none for a game played in real time
// only; "bot" and "forfeit" when it has bots to play a seat, "skip" when
// its rules let a turn go by (engine.Skipper).
func expiries(g engine.Game) []string {
	out := []string{}
	if g.Info().RealTimeOnly {
		return out
	}
	if _, ok := g.(engine.BotProvider); ok {
		out = append(out, expiryBot)
	}
	if _, ok := g.(engine.Skipper); ok {
		out = append(out, expirySkip)
	}
	if _, ok := g.(engine.BotProvider); ok {
		out = append(out, expiryForfeit)
	}
	return out
}

// turnTimes is what the stored moves say of the turn clocks: who was to
// act after the last move that left no chance pending, when each of them
// began its turn, and how much of its time bank each seat has spent. The
// table builds it by replaying its moves (rebuild) and keeps it up as it
// stores new ones (commit): the same moves give the same clocks.
type turnTimes struct {
	actors []engine.Seat
	start  map[engine.Seat]int64 // game ms each actor's turn began
	spent  map[engine.Seat]int64 // bank ms each seat spent in its finished turns
}

func newTurnTimes() turnTimes {
	return turnTimes{start: map[engine.Seat]int64{}, spent: map[engine.Seat]int64{}}
}

// observe notes the turn after a move stamped at (game ms; 0 for the
// game's set-up). A seat that stops acting is charged to its bank what
// its turn (from liveAt at the earliest) took beyond perMove ms; a seat
// that starts acting begins a turn at `at`: those are returned. A state
// waiting for chance is passed over, so a roll within a turn does not
// restart it.
func (tt *turnTimes) observe(turn engine.Turn, at, perMove, liveAt int64) (began []engine.Seat) {
	if turn.Chance {
		return nil
	}
	now := turn.Actors
	if turn.Over {
		now = nil
	}
	for _, seat := range tt.actors {
		if !slices.Contains(now, seat) {
			if over := at - max(tt.start[seat], liveAt) - perMove; over > 0 {
				tt.spent[seat] += over
			}
			delete(tt.start, seat)
		}
	}
	for _, seat := range now {
		if !slices.Contains(tt.actors, seat) {
			tt.start[seat] = at
			began = append(began, seat)
		}
	}
	tt.actors = slices.Clone(now)
	return began
}

// observeMove is observe for the table's state after a move stamped at.
func (t *table) observeMove(at int64) []engine.Seat {
	return t.times.observe(t.state.Turn(), at, t.perMoveMs(), t.liveAt())
}

func (t *table) perMoveMs() int64 { return int64(t.set.TurnSeconds) * 1000 }

// liveAt is the game time the table went live: its last seat's join.
func (t *table) liveAt() int64 { return liveAt(t.meta) }

func liveAt(meta store.Table) int64 {
	var at int64
	for _, st := range meta.Seats {
		if st.Kind == kindHuman {
			at = max(at, st.JoinedAt)
		}
	}
	return at
}

// bankLeft is the bank seat has not spent in its finished turns (ms).
func (t *table) bankLeft(seat engine.Seat) int64 {
	if !t.set.turnBased() {
		return 0
	}
	return max(0, int64(t.set.BankSeconds)*1000-t.times.spent[seat])
}

// clocked reports whether seat's turn clock runs: a human-played seat to
// act at a live table with a clock, whose turn the rules do not time
// themselves (a deadline in Turn.Deadlines names it: the rules say what
// its lateness means, and a second clock would hand a slow player to a
// bot in the middle of the rules' own countdown).
func (t *table) clocked(seat engine.Seat) bool {
	if !t.live() || t.set.TurnSeconds <= 0 {
		return false
	}
	turn := t.state.Turn()
	return !turn.Over && !turn.Chance && turn.Has(seat) && t.humanControlled(seat) && !ruleTimed(turn, seat)
}

// clockAt is when seat's clock runs out, bank included.
func (t *table) clockAt(seat engine.Seat) (time.Time, bool) {
	if !t.clocked(seat) {
		return time.Time{}, false
	}
	start := max(t.times.start[seat], t.liveAt(), t.meta.Seats[seat].BackAt)
	return t.ruleTime(start + t.perMoveMs() + t.bankLeft(seat)), true
}

// clocks are the running turn clocks, each when it runs out; those whose
// expiry could not be applied are left out (they would spin the actor).
func (t *table) clocks() map[engine.Seat]time.Time {
	out := map[engine.Seat]time.Time{}
	if t.set.TurnSeconds <= 0 || !t.live() {
		return out
	}
	for _, seat := range t.state.Turn().Actors {
		if at, ok := t.clockAt(seat); ok && !t.failedClock[seat].Equal(at) {
			out[seat] = at
		}
	}
	return out
}

// ruleTimed reports whether the rules name a deadline for seat.
func ruleTimed(turn engine.Turn, seat engine.Seat) bool {
	return slices.ContainsFunc(turn.Deadlines, func(d engine.Deadline) bool { return d.Seat == seat })
}

// expireClocks applies the table's expiry to every seat whose clock (and
// bank) ran out.
func (t *table) expireClocks(now time.Time) {
	for seat, at := range t.clocks() {
		if now.Before(at) || t.retrying() {
			continue
		}
		if again, ok := t.clockAt(seat); !ok || !again.Equal(at) {
			continue // an earlier expiry moved the table on
		}
		if err := t.expire(seat); err != nil && !errors.Is(err, errStore) {
			t.log.Warn("an expired clock could not be applied", "seat", int(seat), "err", err)
			t.failedClock[seat] = at
		}
	}
}

// expire applies the expiry policy to seat, whose time ran out: its turn
// skipped when the policy and the rules allow it, else the seat handed to
// its bot, for good when the policy is "forfeit".
func (t *table) expire(seat engine.Seat) error {
	switch t.set.expiry() {
	case expirySkip:
		if sk, ok := t.game.(engine.Skipper); ok {
			if a, ok := sk.Skip(t.state, seat); ok {
				err := t.commit(&engine.Move{Seat: engine.SystemSeat, At: t.gameTime(), Action: a})
				if err == nil || errors.Is(err, errStore) {
					t.log.Info("turn skipped: the clock ran out", "seat", int(seat))
					return err
				}
				t.log.Warn("the rules refused to skip a turn: a bot plays it", "seat", int(seat), "err", err)
			}
		}
	case expiryForfeit:
		return t.handOver(seat, "clock: forfeit", true)
	}
	return t.takeOver(seat, "clock")
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
	for s, at := range t.clocks() {
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

// bankMs is the bank field for a connection of seat at a turn-based table:
// the time bank the seat has left now (while its turn's own time has run
// out, the bank is what remains of its clock).
func (t *table) bankMs(seat engine.Seat) int64 {
	if seat < 0 || !t.set.turnBased() {
		return 0
	}
	left := t.bankLeft(seat)
	if at, ok := t.clockAt(seat); ok {
		left = min(left, max(0, at.Sub(t.s.clock.Now()).Milliseconds()))
	}
	return left
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
	for _, at := range t.clocks() {
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
