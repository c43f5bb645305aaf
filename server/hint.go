package server

import (
	"encoding/json"
	"errors"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Hints (docs/protocol.md, Reviews and hints): the coach tells the only
// person at a solo or practice table what it would do now, and why. The
// table's actor checks the request and clones the state; the judgement is
// worked out on another goroutine, from the seat's view only, so a hint
// never holds up the table. A connection has one hint in flight at most,
// and the server Reviews.Hints at once.

// askHint handles a hint message on the connection's reader.
func (c *conn) askHint(m clientMsg) {
	c.s.reviews.hintsAsked.Inc()
	if !c.hinting.CompareAndSwap(false, true) {
		c.t.refuse(c, m.ID, "hint-pending", "a hint is already being worked out for you: wait for it")
		return
	}
	if !c.post(m.ID, func() { c.t.hint(c, m) }) {
		c.hinting.Store(false)
	}
}

// hintsAllowed reports whether seat may have hints at a table: it is the
// only person's seat (every other seat a bot's) and the table is not rated.
func hintsAllowed(meta store.Table, seat engine.Seat) bool {
	people := 0
	for i, st := range meta.Seats {
		if st.Kind == kindHuman {
			if engine.Seat(i) != seat {
				return false
			}
			people++
		}
	}
	return people == 1 && !ratable(meta)
}

// hint checks a hint request in the actor and starts working it out.
func (t *table) hint(c *conn, m clientMsg) {
	started := false
	defer func() {
		if !started {
			c.hinting.Store(false)
		}
	}()
	if !t.seated(c, m.ID) {
		return
	}
	switch {
	case !t.live():
		t.refuse(c, m.ID, "waiting-for-players", "the game starts once every seat is taken")
		return
	case !engine.Reviewable(t.game) || !hintsAllowed(t.meta, c.seat):
		t.refuse(c, m.ID, "hint-not-allowed", "hints are for practice: a game alone or against bots only, not rated")
		return
	case t.meta.Seats[c.seat].TakenOver:
		t.refuse(c, m.ID, "taken-over", "a bot is playing your seat: reclaim it first")
		return
	case !t.state.Turn().Has(c.seat):
		t.refuse(c, m.ID, "hint-not-your-turn", "a hint is for your turn: wait until it is yours")
		return
	}
	rv := t.s.reviews
	select {
	case rv.hints <- struct{}{}:
	default:
		c.sendError(m.ID, "busy", "the coach is busy: ask again in a moment")
		return
	}
	st, seat, version := t.state.Clone(), c.seat, t.version
	opts := engine.JudgeOptions{Budget: rv.cfg.HintBudget, Seed: engine.SplitSeed(engine.BotSeed(t.meta.Seed, seat), uint64(version))}
	g, log := t.game, t.log
	started = true
	rv.wg.Add(1)
	go func() {
		defer rv.wg.Done()
		j, err := engine.Hint(g, st, seat, opts)
		<-rv.hints
		var msg []byte
		if err == nil {
			msg, err = json.Marshal(hintMsg{Type: "hint", ID: m.ID, Version: version, Hint: j})
		}
		c.hinting.Store(false) // before the answer: the client may ask again at once
		rule, ruled := engine.AsRuleError(err)
		switch {
		case err == nil:
			c.enqueue(msg)
		case errors.Is(err, engine.ErrForced):
			t.refuse(c, m.ID, "hint-forced", "there is nothing to decide here: any choice does as well")
		case ruled:
			t.refuse(c, m.ID, rule.Rule, rule.Message)
		default:
			log.Error("hint failed", "seat", int(seat), "version", version, "err", err)
			c.sendError(m.ID, "internal", "no hint could be worked out")
		}
	}()
}
