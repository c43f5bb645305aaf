package server

import (
	"errors"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// botPlan is a bot seat's decision for one version of the state. Every
// bot-controlled seat in Turn.Actors gets its own, so several bots (a vote)
// decide at once, each on its own clone in its own goroutine.
type botPlan struct {
	version, gen int
	deciding     bool // its goroutine has not answered yet
	// pending is a decided move waiting for its time (At: game time when
	// it is played); nil once played, or when the bot passed.
	pending *engine.Move
	legal   []engine.Action // the seat's legal actions it decided among
}

// current reports whether p was decided for the state and hands the seat is
// in now.
func (t *table) current(seat engine.Seat, p *botPlan) bool {
	return p.version == t.version && p.gen == t.ctrlGen[seat] && t.botControlled(seat) && t.state.Turn().Has(seat)
}

// needsDecision reports whether the bot at seat must be asked: it has no
// plan for this version (a bot that passed, or whose move waits for its
// time, is not asked again until the version changes). A seat still
// deciding on an older version is asked again once that answer comes back
// stale, so each seat has at most one goroutine.
func (t *table) needsDecision(seat engine.Seat) bool {
	p := t.plans[seat]
	return p == nil || !p.deciding && !t.current(seat, p)
}

// dropStalePlans forgets decisions the table has moved past, so their
// moves neither wake the actor nor get played.
func (t *table) dropStalePlans() {
	for seat, p := range t.plans {
		if !p.deciding && !t.current(seat, p) {
			delete(t.plans, seat)
		}
	}
}

// startBot lets the seat's bot decide on a copy of the state, away from the
// actor; the choice comes back through the inbox. A Pacer bot's think time
// is waited by the actor on the table's clock (so deadlines and other
// players' moves are ordered against it); other bots wait the fixed bot
// delay in real time before deciding, as people need to follow them.
func (t *table) startBot(seat engine.Seat) {
	ctrl, err := t.controller(seat)
	if err != nil {
		t.log.Error("no bot for seat", "seat", int(seat), "err", err)
		return
	}
	p := &botPlan{version: t.version, gen: t.ctrlGen[seat], deciding: true}
	t.plans[seat] = p
	// Think time counts from the view's latest move (when the seat could
	// first see it), as for a person, so a late re-plan is not penalised;
	// but a bot that took a seat over starts thinking then, not earlier.
	clone, startAt := t.state.Clone(), max(t.lastAt, t.handedAt[seat])
	pacer, paced := ctrl.(engine.Pacer)
	delay := t.s.cfg.BotDelay
	if t.set.BotDelayMs != nil {
		delay = time.Duration(*t.set.BotDelayMs) * time.Millisecond
	}
	t.botWG.Add(1)
	go func() {
		defer t.botWG.Done()
		if !paced && delay > 0 {
			tm := time.NewTimer(delay)
			select {
			case <-tm.C:
			case <-t.ctx.Done():
				tm.Stop()
				return
			}
		}
		legal := clone.Legal(seat)
		view := clone.View(seat)
		a, err := ctrl.Choose(view, legal)
		playAt := int64(-1) // not paced: played when the answer arrives
		if paced && err == nil && a != nil {
			playAt = startAt + max(0, pacer.ThinkMillis(view))
		}
		_ = t.postWait(t.ctx, func() { t.botDecided(seat, p, a, err, legal, playAt) })
	}()
}

// botDecided takes a bot's answer in the actor.
func (t *table) botDecided(seat engine.Seat, p *botPlan, a engine.Action, err error, legal []engine.Action, playAt int64) {
	p.deciding = false
	if t.plans[seat] != p || !t.current(seat, p) || !t.live() {
		// The table moved on (someone acted, a timeout fired, the seat
		// changed hands): the decision is stale; decide again if needed.
		delete(t.plans, seat)
		t.afterChange()
		return
	}
	p.legal = legal
	switch {
	case err != nil:
		t.log.Error("bot failed", "seat", int(seat), "err", err)
		t.botFallback(seat, p, t.gameTime())
		return
	case a == nil:
		if !t.mayPass() {
			t.log.Error("bot passed where nothing else can move the table on", "seat", int(seat))
			t.botFallback(seat, p, t.gameTime())
		}
		return // nothing now; asked again when the version changes
	}
	if playAt < 0 {
		playAt = t.gameTime()
	}
	p.pending = &engine.Move{Seat: seat, At: playAt, Action: a}
	t.runDue() // plays it if its time has come, else arms the timer for it
}

// mayPass reports whether a bot may let the present turn go by: only when
// something else will move the table on, a rule deadline or a person.
func (t *table) mayPass() bool {
	turn := t.state.Turn()
	if len(turn.Deadlines) > 0 {
		return true
	}
	for _, seat := range turn.Actors {
		if t.humanControlled(seat) {
			return true
		}
	}
	return false
}

// playBot plays a bot's pending move whose time has come.
func (t *table) playBot(seat engine.Seat, p *botPlan) {
	m := *p.pending
	p.pending = nil
	err := t.commit(&m)
	switch {
	case err == nil:
	case errors.Is(err, errStore):
		delete(t.plans, seat) // not stored: decide again after the retry
	default:
		t.log.Error("bot move refused", "seat", int(seat), "err", err)
		t.botFallback(seat, p, m.At)
	}
}

// botFallback stands in for a bot that failed, passed where it may not, or
// whose move was refused: where a rule deadline or a person will move the
// table on, the seat does nothing for this version (a rules clock settles
// it, as for a person); otherwise it plays its first legal action, so a bot
// bug cannot stall a game.
func (t *table) botFallback(seat engine.Seat, p *botPlan, at int64) {
	if t.mayPass() || len(p.legal) == 0 {
		return
	}
	err := t.commit(&engine.Move{Seat: seat, At: at, Action: p.legal[0]})
	switch {
	case err == nil:
	case errors.Is(err, errStore):
		delete(t.plans, seat)
	default:
		t.log.Error("bot seat stuck", "seat", int(seat), "err", err)
	}
}
