package server

import (
	"errors"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// botPlan is a bot seat's decision for one version of the state. Every
// bot-controlled seat in Turn.Actors gets its own, so several bots (a vote)
// decide at once, each on its own clone in its own goroutine.
type botPlan struct {
	version, gen int
	deciding     bool // its goroutine has not answered yet
	// pending is a decided move waiting for its time (At: the game time
	// engine.BotMove stamped); nil once played, or when the bot passed.
	pending *engine.Move
	// fallback: pending is the seat's first legal action, played for a
	// bot that failed; if the rules refuse even that, the seat is stuck.
	fallback bool
}

type botCtrl struct {
	kind string
	ctrl engine.Controller
}

func (t *table) botKind(seat engine.Seat) string {
	st := t.meta.Seats[seat]
	if st.Bot != "" {
		return st.Bot
	}
	return defaultBot(t.game)
}

// botSeatName is the name of the k-th bot seat (from 1) of a kind at a
// table: "Greedy bot", "Greedy bot 2". People may not take these names
// (reservedName).
func botSeatName(kind string, k int) string {
	base := strings.ToUpper(kind[:1]) + kind[1:] + " bot"
	if k > 1 {
		return fmt.Sprintf("%s %d", base, k)
	}
	return base
}

// defaultBot is the bot of a bot seat that names none, and of a human seat
// taken over without one: the game's own choice.
func defaultBot(g engine.Game) string { return g.Info().DefaultBot }

func (t *table) controller(seat engine.Seat) (engine.Controller, error) {
	if t.bots == nil {
		return nil, fmt.Errorf("%s has no bots", t.game.Info().Title)
	}
	kind := t.botKind(seat)
	if bc, ok := t.ctrls[seat]; ok && bc.kind == kind {
		return bc.ctrl, nil
	}
	ctrl, err := t.bots.NewBot(kind, engine.BotSeed(t.meta.Seed, seat))
	if err != nil {
		return nil, err
	}
	t.ctrls[seat] = botCtrl{kind: kind, ctrl: ctrl}
	return ctrl, nil
}

// botDelayMs is the pause before a bot that is not a Pacer plays: the
// table's botDelayMs setting, else the server's BotDelay.
func (t *table) botDelayMs() int64 {
	if t.set.BotDelayMs != nil {
		return int64(*t.set.BotDelayMs)
	}
	return t.s.cfg.BotDelay.Milliseconds()
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

// decided is the bots' moves waiting for their time, for engine.Next.
func (t *table) decided() []engine.Move {
	var out []engine.Move
	for seat, p := range t.plans {
		if p.pending != nil && t.current(seat, p) {
			out = append(out, *p.pending)
		}
	}
	return out
}

// startBot lets the seat's bot decide on a copy of the state, away from the
// actor; the choice comes back through the inbox, stamped by engine.BotMove
// (a Pacer's think time, else the bot delay) from when the seat could first
// see the view, as for a person; a bot that took a seat over, or whose
// table was just loaded (after a restart), starts thinking then, not
// earlier, so a table does not rush through the time it was away. The move plays when the table's clock reaches
// its stamp, in engine.Next's order with deadlines and other bots.
func (t *table) startBot(seat engine.Seat) {
	ctrl, err := t.controller(seat)
	if err != nil {
		t.log.Error("no bot for seat", "seat", int(seat), "err", err)
		return
	}
	p := &botPlan{version: t.version, gen: t.ctrlGen[seat], deciding: true}
	t.plans[seat] = p
	clone, start, delay := t.state.Clone(), max(t.lastAt, t.handedAt[seat], t.loadedAt), t.botDelayMs()
	t.botWG.Add(1)
	go func() {
		defer t.botWG.Done()
		view := clone.View(seat)
		a, err := ctrl.Choose(view, clone.Legal(seat))
		var m *engine.Move
		if err == nil && a != nil {
			bm := engine.BotMove(ctrl, seat, view, a, start, delay)
			m = &bm
		}
		_ = t.postWait(t.ctx, func() { t.botDecided(seat, p, m, err) })
	}()
}

// botDecided takes a bot's answer in the actor; the reconcile that follows
// plays it if its time has come, else arms the timer for it.
func (t *table) botDecided(seat engine.Seat, p *botPlan, m *engine.Move, err error) {
	p.deciding = false
	if t.plans[seat] != p || !t.current(seat, p) || !t.live() {
		// The table moved on (someone acted, a timeout fired, the seat
		// changed hands): the decision is stale; reconcile asks again.
		delete(t.plans, seat)
		return
	}
	switch {
	case err != nil:
		t.log.Error("bot failed", "seat", int(seat), "err", err)
		t.botFallback(seat, p, t.gameTime())
	case m == nil:
		if !t.mayPass() {
			t.log.Error("bot passed where nothing else can move the table on", "seat", int(seat))
			t.botFallback(seat, p, t.gameTime())
		}
		// Else nothing now; asked again when the version changes.
	default:
		p.pending = m
	}
}

// mayPass reports whether a bot may let the present turn go by
// (engine.MayPass: a rule deadline or a person will move the table on).
func (t *table) mayPass() bool {
	return engine.MayPass(t.state.Turn(), t.humanControlled)
}

// playBot plays the decided move of seat, which engine.Next found due.
func (t *table) playBot(seat engine.Seat) {
	p := t.plans[seat]
	m := *p.pending
	p.pending = nil
	err := t.commit(&m)
	switch {
	case err == nil:
	case errors.Is(err, errStore):
		delete(t.plans, seat) // not stored: decide again after the retry
	case p.fallback:
		t.log.Error("bot seat stuck: the rules refuse its first legal action", "seat", int(seat), "err", err)
	default:
		t.log.Error("bot move refused", "seat", int(seat), "err", err)
		t.botFallback(seat, p, m.At)
	}
}

// botFallback stands in for a bot that failed, passed where it may not, or
// whose move was refused: where a rule deadline or a person will move the
// table on, the seat does nothing for this version (a rules clock settles
// it, as for a person); otherwise it plays the seat's first legal action
// (engine.State.Legal: the first listed is a safe default), so a bot bug
// cannot stall a game.
func (t *table) botFallback(seat engine.Seat, p *botPlan, at int64) {
	if t.mayPass() {
		return
	}
	legal := t.state.Legal(seat)
	if len(legal) == 0 {
		t.log.Error("bot seat stuck: no legal action", "seat", int(seat))
		return
	}
	p.pending, p.fallback = &engine.Move{Seat: seat, At: at, Action: legal[0]}, true
}
