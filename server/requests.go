package server

import (
	"fmt"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Requests from connections and the HTTP join, run in the actor. Each
// changes the table and answers; what follows (bots, clocks, presence,
// welcomes) is the reconcile's.

// attach registers a connection and greets it. The connection caps count
// spectators only: a seat's connection always gets in (admit).
func (t *table) attach(c *conn) error {
	c.seat = engine.Spectator
	if i := seatOf(t.meta, c.tokenHash, c.account); i >= 0 {
		c.seat = engine.Seat(i)
	}
	if err := t.admit(c); err != nil {
		return err
	}
	t.conns[c] = struct{}{}
	if c.remote != nil {
		c.remote.admitted(c.seat) // before the welcome: the edge fans out by seat
	}
	t.welcome(c) // it says who is here: the others hear it as presence
	return nil
}

func (t *table) detach(c *conn) {
	delete(t.conns, c)
	delete(t.welcomes, c)
	if len(t.conns) == 0 {
		t.noteSeen()
	}
}

// noteSeen stores that somebody had a live table open until now, as its
// last connection goes (the lobby leaves out live tables nobody has been
// at for Config.AbandonAfter). A failed write is only logged: the time
// goes with the next change of the row.
func (t *table) noteSeen() {
	if !t.live() {
		return
	}
	t.meta.Seen = t.s.clock.Now().UTC().Truncate(time.Millisecond)
	if err := t.saveMeta(false); err != nil {
		t.log.Warn("last visit not stored", "err", err)
	}
}

func (t *table) refuse(c *conn, id *int64, rule, message string) {
	t.s.metrics.refused(rule)
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
	if t.meta.Seats[c.seat].Forfeit {
		t.refuse(c, m.ID, "forfeited", "your time ran out at this table: a bot finishes your seat")
		return
	}
	back := t.gameTime() // the seat's clock, if it is to act, starts again now
	if err := t.changeMeta(func(mt *store.Table) { mt.Seats[c.seat].TakenOver, mt.Seats[c.seat].BackAt = false, back }); err != nil {
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

func (t *table) join(seat int, name, tokenHash string, holder seatHolder) joinResult {
	if seatOf(t.meta, holder.token, holder.account) >= 0 {
		return joinResult{409, "already-seated", "you already hold a seat at this table"}
	}
	switch {
	case t.meta.Status == store.StatusOver:
		return joinResult{409, "game-over", "this game is over"}
	case t.s.expired(t.meta):
		return joinResult{410, "expired", "this table waited too long for players and has closed"}
	case seat < 0 || seat >= len(t.meta.Seats):
		return joinResult{400, "bad-seat", fmt.Sprintf("this table has seats 0 to %d", len(t.meta.Seats)-1)}
	case t.meta.Seats[seat].Kind != kindHuman:
		return joinResult{409, "seat-taken", fmt.Sprintf("seat %d is played by %s", seat+1, t.meta.Seats[seat].Name)}
	case t.meta.Seats[seat].TokenHash != "":
		// Most often a race: two people chose the same free seat.
		return joinResult{409, "seat-taken", fmt.Sprintf("seat %d was taken a moment ago by %s", seat+1, t.meta.Seats[seat].Name)}
	}
	wasLive := t.live()
	if err := t.changeMeta(func(m *store.Table) {
		m.Seats[seat].Name = name
		m.Seats[seat].TokenHash = tokenHash
		m.Seats[seat].Account = holder.account
		m.Seats[seat].JoinedAt = t.gameTime() // the first turn's clock starts at the last join
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
	for c := range t.conns {
		t.welcomes[c] = true // names and maybe status changed in everybody's view
	}
	if !wasLive && t.live() && !t.state.Turn().Chance {
		t.noticeTurns(t.times.actors, engine.Seat(seat)) // the game starts (chance first: its commit tells)
	}
	return joinResult{status: 200}
}
