package server

import (
	"encoding/json"
	"fmt"
	"slices"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// players are the names the rules know the seats by.
func (t *table) players() []string { return playerNames(t.meta) }

func playerNames(meta store.Table) []string {
	out := make([]string, len(meta.Seats))
	for i, st := range meta.Seats {
		out[i] = st.Name
		if out[i] == "" {
			out[i] = fmt.Sprintf("Seat %d", i+1)
		}
	}
	return out
}

// seatOfToken is the seat whose token hashes to presented, or -1.
func seatOfToken(meta store.Table, presented string) int {
	if presented == "" {
		return -1
	}
	for i, st := range meta.Seats {
		if st.TokenHash != "" && tokenEqual(st.TokenHash, presented) {
			return i
		}
	}
	return -1
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

// takeOver hands a human seat to its bot (after a leave, an expired clock or
// another player's request).
func (t *table) takeOver(seat engine.Seat, why string) error { return t.handOver(seat, why, false) }

// handOver hands a human seat to its bot; for good (the player forfeits:
// the seat cannot be taken back and ranks last) when forfeit is true.
func (t *table) handOver(seat engine.Seat, why string, forfeit bool) error {
	if t.bots == nil {
		return engine.Refuse("no-bots", fmt.Sprintf("%s has no bots to play a seat", t.game.Info().Title))
	}
	kind := t.botKind(seat)
	if err := t.changeMeta(func(m *store.Table) {
		m.Seats[seat].TakenOver = true
		m.Seats[seat].Bot = kind
		m.Seats[seat].Forfeit = m.Seats[seat].Forfeit || forfeit
	}); err != nil {
		return err
	}
	t.log.Info("seat taken over by a bot", "seat", int(seat), "bot", kind, "why", why)
	t.ctrlGen[seat]++
	t.handedAt[seat] = t.gameTime()
	t.seatChanged(seat)
	return nil
}

// seatChanged notes a change of hands at seat: the seat's own connections
// are welcomed afresh (after everybody's presence) by the reconcile.
func (t *table) seatChanged(seat engine.Seat) {
	for c := range t.conns {
		if c.seat == seat {
			t.welcomes[c] = true
		}
	}
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
		out[i] = SeatSummary{Name: st.Name, Kind: st.Kind, Bot: st.Bot, TakenOver: st.TakenOver, Former: st.Former, Forfeit: st.Forfeit,
			Taken: st.Kind == kindBot || st.TokenHash != "", Connected: t.connected(engine.Seat(i)), Profile: t.s.profileName(st.Account)}
	}
	return out
}

// publish refreshes the summary other goroutines read, and returns it.
func (t *table) publish() TableSummary {
	s := summarize(t.meta, t.game, t.state)
	s.Version = t.version
	s.Seats = t.seatSummaries()
	s.loaded, s.watched = true, len(t.conns) > 0
	if t.state != nil {
		s.actors = wireTurn(t.state.Turn()).Actors
		s.clocks = t.clocks()
	}
	t.summary.Store(&s)
	return s
}

// summarize describes a table from its row, and from its state when it is
// loaded (st nil: a table not in memory shows its stored result, if any).
func summarize(meta store.Table, g engine.Game, st engine.State) TableSummary {
	s := TableSummary{ID: meta.ID, Game: meta.Game, Title: g.Info().Title, Status: meta.Status,
		Settings: orEmpty(meta.Settings), Options: orEmpty(meta.Options),
		Created: meta.Created, Updated: meta.Updated, Version: meta.Version, Result: wireResult(engine.Result{}),
		Rematch: meta.Rematch, Rated: ratable(meta), creator: meta.Creator, seen: meta.Seen}
	switch {
	case st != nil:
		s.Result = wireResult(st.Result())
	case meta.Result != nil:
		s.Result = wireResult(*meta.Result)
	}
	if s.Result.Over && len(s.Result.Scores) == len(meta.Seats) {
		s.Places = shownPlaces(s.Result, meta.Seats)
	}
	for _, seat := range meta.Seats {
		s.Seats = append(s.Seats, SeatSummary{Name: seat.Name, Kind: seat.Kind, Bot: seat.Bot,
			TakenOver: seat.TakenOver, Former: seat.Former, Forfeit: seat.Forfeit, Taken: seat.Kind == kindBot || seat.TokenHash != ""})
	}
	return s
}

func orEmpty(r json.RawMessage) json.RawMessage {
	if len(r) == 0 {
		return json.RawMessage("{}")
	}
	return r
}

// tellPresence sends the seats to every connection whose last picture of
// them (its welcome, or the last presence) is out of date.
func (t *table) tellPresence() {
	seats := t.seatSummaries()
	var msg []byte
	for c := range t.conns {
		if slices.Equal(c.told, seats) {
			continue
		}
		if msg == nil {
			msg = mustJSON(presenceMsg{Type: "presence", Seats: seats})
		}
		c.enqueue(msg)
		c.told = seats
	}
}

func (t *table) welcome(c *conn) {
	view, err := json.Marshal(t.state.View(c.seat))
	if err != nil {
		t.log.Error("view not encodable", "seat", int(c.seat), "err", err)
		c.closeGracefully(statusInternalError, "the table cannot be shown")
		return
	}
	sum := t.publish()
	c.told = sum.Seats
	c.enqueue(mustJSON(welcomeMsg{Type: "welcome", Seat: c.seat, Table: sum, Version: t.version,
		View: view, Turn: wireTurn(t.state.Turn()), Deadline: t.deadlineMs(c.seat), Bank: t.bankMs(c.seat), Log: t.history.last(),
		Chat: wireChats(t.chats.latest)}))
}

// shownPlaces ranks a finished table's seats for the pages, 0 first: the
// game's own order (winners, then by score) with the forfeits last. A seat
// a bot merely stood in for keeps its place here; only the ratings put it
// last (ratingPlaces), so that leaving a rated game never pays.
func shownPlaces(res engine.Result, seats []store.Seat) []int {
	shown := slices.Clone(seats)
	for i := range shown {
		shown[i].TakenOver = shown[i].Forfeit
	}
	return ratingPlaces(res, shown)
}
