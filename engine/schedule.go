package engine

import (
	"fmt"
	"math"
)

// DefaultBotDelayMs is how long, in game time, a bot that is not a Pacer
// takes before its move: long enough for people to follow it. The server,
// the terminal client and PlayBots all use it unless told otherwise.
const DefaultBotDelayMs = 700

// Forever is a "now" later than every stamp: Next with it returns the
// earliest thing that will ever fall due (a simulation's clock jumps there).
const Forever int64 = math.MaxInt64

// Due is what a table plays next: a decided move, or the timeout of a
// passed deadline (exactly one is set).
type Due struct {
	Move     *Move
	Deadline *Deadline
}

// At is the game time of what is due.
func (d Due) At() int64 {
	if d.Move != nil {
		return d.Move.At
	}
	return d.Deadline.At
}

// Next is the one scheduling rule of every table: of the moves controllers
// have decided (each stamped with the game time it is played at) and the
// rules' deadlines, the earliest that has fallen due by game time now is
// played. A move stamped at or before a deadline plays first (the rules
// accept a move at the deadline itself); a deadline that passes first wins
// and its timeout is played. Ties between moves go to the lower seat, and
// skip leaves out deadlines the table already failed to time out (nil:
// none). ok is false when nothing is due by now.
func Next(deadlines []Deadline, decided []Move, now int64, skip func(Deadline) bool) (Due, bool) {
	var dl *Deadline
	for i := range deadlines {
		d := &deadlines[i]
		if d.At > now || skip != nil && skip(*d) {
			continue
		}
		if dl == nil || d.At < dl.At {
			dl = d
		}
	}
	var mv *Move
	for i := range decided {
		m := &decided[i]
		if m.At > now {
			continue
		}
		if mv == nil || m.At < mv.At || m.At == mv.At && m.Seat < mv.Seat {
			mv = m
		}
	}
	switch {
	case mv != nil && (dl == nil || mv.At <= dl.At):
		return Due{Move: mv}, true
	case dl != nil:
		return Due{Deadline: dl}, true
	}
	return Due{}, false
}

// Wake is the earliest game time at which Next will have something to
// play (a timer is armed for it); ok is false when nothing is pending.
func Wake(deadlines []Deadline, decided []Move, skip func(Deadline) bool) (int64, bool) {
	d, ok := Next(deadlines, decided, Forever, skip)
	if !ok {
		return 0, false
	}
	return d.At(), true
}

// TimeoutMove is the table's move for a passed deadline: the first action
// the rules list for SystemSeat that they accept at game time at. ok is
// false when they accept none (a rules bug the table logs, and then skips
// the deadline so it cannot spin).
func TimeoutMove(st State, at int64) (Move, bool) {
	for _, a := range st.Legal(SystemSeat) {
		m := Move{Seat: SystemSeat, At: at, Action: a}
		if st.Check(m) == nil {
			return m, true
		}
	}
	return Move{}, false
}

// MayPass reports whether a bot may let the present turn go by (answer
// nil): only when something else will move the table on, a rule deadline
// or a person among the actors. Elsewhere a bot that passes is a bug, and
// the table plays the seat's first legal action for it.
func MayPass(turn Turn, person func(Seat) bool) bool {
	if len(turn.Deadlines) > 0 {
		return true
	}
	for _, s := range turn.Actors {
		if person != nil && person(s) {
			return true
		}
	}
	return false
}

// BotMove is the move a bot's answer makes: stamped at start plus the
// bot's think time when it paces itself (Pacer), else plus delayMs.
func BotMove(ctrl Controller, seat Seat, view any, a Action, start, delayMs int64) Move {
	at := start + delayMs
	if p, ok := ctrl.(Pacer); ok {
		at = start + max(0, p.ThinkMillis(view))
	}
	return Move{Seat: seat, At: at, Action: a}
}

// Played is told every move PlayBots applies, with its events; beaten are
// the decided moves a deadline came before (their seats were too late).
type Played func(m Move, events []Event, beaten []Move)

// PlayBots plays st to the end with bots[p] in seat p and chance from src,
// on a simulated clock: every actor is asked at once, each answer is
// stamped by BotMove with DefaultBotDelayMs, and Next decides what plays,
// so a slow bot loses to a deadline exactly as at a served table. Every
// move is checked by the rules: a bot that chooses an illegal action, or
// passes where nothing else moves the table on, stops the game with an
// error. observe (may be nil) sees every move played.
func PlayBots(st State, bots []Controller, src Source, observe Played) error {
	if n := len(st.Players()); len(bots) != n {
		return fmt.Errorf("play: %d bots for %d seats", len(bots), n)
	}
	apply := func(m Move, beaten []Move) error {
		ev, err := st.Apply(m)
		if err != nil {
			who := m.Seat.String()
			if m.Seat >= 0 {
				who = fmt.Sprintf("%s bot in seat %d", bots[m.Seat].Name(), m.Seat)
			}
			return fmt.Errorf("play: %s chose %s at %d ms: %w", who, m.Action.Kind(), m.At, err)
		}
		if observe != nil {
			observe(m, ev, beaten)
		}
		return nil
	}
	var now int64 // game time of the last move
	// The cap only guards against a rules or bot bug looping for ever; the
	// longest games here take a few thousand moves.
	for steps := 0; ; steps++ {
		turn := st.Turn()
		if turn.Over {
			return nil
		}
		if steps > 1_000_000 {
			return fmt.Errorf("play: game did not end after %d moves", steps)
		}
		if turn.Chance {
			if err := apply(Move{Seat: ChanceSeat, At: now, Action: st.SampleChance(src)}, nil); err != nil {
				return err
			}
			continue
		}
		var decided []Move
		for _, seat := range turn.Actors {
			if seat < 0 || int(seat) >= len(bots) {
				continue
			}
			view := st.View(seat)
			a, err := bots[seat].Choose(view, st.Legal(seat))
			if err != nil {
				return fmt.Errorf("play: %s bot in seat %d: %w", bots[seat].Name(), seat, err)
			}
			if a != nil {
				decided = append(decided, BotMove(bots[seat], seat, view, a, now, DefaultBotDelayMs))
			}
		}
		due, ok := Next(turn.Deadlines, decided, Forever, nil)
		switch {
		case !ok:
			return fmt.Errorf("play: every actor passed and no deadline runs (actors %v)", turn.Actors)
		case due.Move != nil:
			if err := apply(*due.Move, nil); err != nil {
				return err
			}
			now = max(now, due.Move.At)
		default:
			at := max(now, due.Deadline.At)
			m, ok := TimeoutMove(st, at)
			if !ok {
				return fmt.Errorf("play: the deadline of %v at %d ms passed and the rules accept no timeout", due.Deadline.Seat, due.Deadline.At)
			}
			if err := apply(m, decided); err != nil {
				return err
			}
			now = at
		}
	}
}
