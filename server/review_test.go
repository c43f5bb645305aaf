package server

import (
	"context"
	"encoding/json"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/pig"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// coach is the test-only Pig with an analyst (pig.Coach: rolling is best
// below a turn total of 20), with a gate: when set, every judgement waits
// until the test lets one go (a value) or all (closing it). asked counts
// the judgements begun, judged those let go.
type coach struct {
	pig.Coach
	gate          chan struct{}
	asked, judged *atomic.Int64
}

func newCoach(gated bool) coach {
	c := coach{asked: &atomic.Int64{}, judged: &atomic.Int64{}}
	if gated {
		c.gate = make(chan struct{})
	}
	return c
}

func (c coach) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	c.asked.Add(1)
	if c.gate != nil {
		<-c.gate
	}
	c.judged.Add(1)
	return c.Coach.Judge(d, o)
}

// coachServer runs a server whose only game is g.
func coachServer(t *testing.T, g engine.Game, cfg Config) *testServer {
	t.Helper()
	reg := &engine.Registry{}
	reg.Register(g)
	cfg.Games = reg
	return startServer(t, cfg)
}

// soloPig is a table of Pig to 10 for one person.
func soloPig() map[string]any {
	return map[string]any{"game": "pig", "name": "ann", "options": map[string]any{"target": 10},
		"seats": []map[string]any{{"kind": "human"}}}
}

// pigTurn is a Pig view's turn total.
func pigTurn(t *testing.T, m msg) int {
	t.Helper()
	var v struct{ Turn int }
	if err := json.Unmarshal(m.View, &v); err != nil {
		t.Fatal(err)
	}
	return v.Turn
}

// playPig plays seat 0 from the message m (a welcome or an update) to the
// end of the game: it rolls until the turn holds 4 or more, then holds.
func playPig(t *testing.T, c *wsClient, m msg) {
	t.Helper()
	for id := int64(100); !m.Turn.Over; {
		if m.Turn.Has(0) {
			act := `{"roll":true}`
			if pigTurn(t, m) >= 4 {
				act = `{"hold":true}`
			}
			c.send(map[string]any{"type": "act", "id": id, "action": json.RawMessage(act), "version": m.Version})
			id++
		}
		m = c.await("update", nil)
	}
}

// storeFinished stores a finished solo Pig table as a server that knew no
// reviews would have left it (nobody asked for its review), and returns its
// moves.
func storeFinished(t *testing.T, st store.Store, id string, seed uint64) []engine.LoggedMove {
	t.Helper()
	r, err := engine.NewRunner(pig.Game{}, []string{"ann"}, []byte(`{"target":10}`), seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	for at := int64(1000); ; at += 1000 {
		if _, err := r.ResolveChance(at, nil); err != nil {
			t.Fatal(err)
		}
		if r.State.Turn().Over {
			break
		}
		var a engine.Action = pig.Action{Roll: true}
		if r.State.(*pig.State).Running >= 4 {
			a = pig.Action{Hold: true}
		}
		if _, err := r.Play(engine.Move{Seat: 0, At: at, Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	res := wireResult(r.State.Result())
	now := time.Now().UTC()
	tb := store.Table{ID: id, Game: "pig", Options: json.RawMessage(`{"target":10}`), Seed: seed,
		Seats:  []store.Seat{{Name: "ann", Kind: kindHuman, TokenHash: hashToken("x")}},
		Status: store.StatusOver, Created: now, Updated: now, Result: &res}
	ctx := context.Background()
	if err := st.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	if err := st.AppendMoves(ctx, id, 0, r.Record.Moves, store.NoFence); err != nil {
		t.Fatal(err)
	}
	return r.Record.Moves
}

// decisions counts the moves people made.
func decisions(moves []engine.LoggedMove) int {
	n := 0
	for _, m := range moves {
		if m.Seat >= 0 {
			n++
		}
	}
	return n
}

// reviewAnswer is GET /api/tables/{id}/review's body.
type reviewAnswer struct {
	Status string         `json:"status"`
	Done   int            `json:"done"`
	Total  int            `json:"total"`
	Review *engine.Review `json:"review"`
	Error  *apiError      `json:"error"`
}

func (p *player) review(id string) (int, reviewAnswer) {
	p.t.Helper()
	var a reviewAnswer
	st := p.do("GET", "/api/tables/"+id+"/review", nil, &a)
	return st, a
}

// awaitReview asks for a table's review until it is ready (202 meanwhile).
func (p *player) awaitReview(id string) *engine.Review {
	p.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		st, a := p.review(id)
		switch {
		case st == http.StatusOK && a.Status == "ready" && a.Review != nil:
			return a.Review
		case st != http.StatusAccepted || a.Status != "pending":
			p.t.Fatalf("review of %s: %d %+v", id, st, a)
		}
		// At the GETs' rate limit (20 a second), so that a review that
		// takes seconds is not refused 429 before it is ready.
		time.Sleep(50 * time.Millisecond)
	}
	p.t.Fatalf("the review of %s was never ready", id)
	return nil
}

// awaitProgress asks for a pending review until ok says its progress is
// what the test waits for.
func (p *player) awaitProgress(id string, ok func(reviewAnswer) bool) reviewAnswer {
	p.t.Helper()
	deadline := time.Now().Add(waitLimit)
	for time.Now().Before(deadline) {
		st, a := p.review(id)
		if st != http.StatusAccepted || a.Status != "pending" {
			p.t.Fatalf("review of %s: %d %+v, want 202 pending", id, st, a)
		}
		if ok(a) {
			return a
		}
		time.Sleep(5 * time.Millisecond)
	}
	p.t.Fatalf("the review of %s never got there", id)
	return reviewAnswer{}
}

// A game that ends is reviewed in the background and its review kept with
// the table: the GET refuses it while the game runs, then gives it, every
// decision judged from the seat's view with the move it was made at.
func TestReviewOfAFinishedGame(t *testing.T) {
	g := newCoach(false)
	ts := coachServer(t, g, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(soloPig())
	if st, a := ann.review(id); st != http.StatusConflict || a.Error == nil || a.Error.Code != "not-finished" {
		t.Fatalf("review of a live game: %d %+v, want 409 not-finished", st, a)
	}
	c := ann.connect(id)
	playPig(t, c, c.next())
	rv := ann.awaitReview(id)
	moves, err := ts.store.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	if rv.Game != "pig" || len(rv.Players) != 1 || rv.Players[0] != "ann" || rv.Moves != len(moves) || len(rv.Seats) != 1 {
		t.Fatalf("review %+v of %d moves", rv, len(moves))
	}
	if len(rv.Decisions) == 0 || int(g.judged.Load()) != decisions(moves) {
		t.Fatalf("%d decisions reviewed, %d judged, %d made", len(rv.Decisions), g.judged.Load(), decisions(moves))
	}
	for _, d := range rv.Decisions {
		if d.Move < 0 || d.Move >= len(moves) || moves[d.Move].Seat != 0 || string(d.Chosen.Action) != string(moves[d.Move].Action) {
			t.Fatalf("decision at move %d chose %s; the record has %+v", d.Move, d.Chosen.Action, moves[d.Move])
		}
		// ann holds at 4 or more: below 20, a blunder-free roll was best.
		if d.Kind == "hold" && d.Verdict == engine.VerdictBest {
			t.Errorf("a hold below 20 judged best: %+v", d)
		}
	}
	if s := rv.Seats[0]; s.Decisions != len(rv.Decisions) || s.Accuracy >= 1 || len(s.Worst) == 0 {
		t.Errorf("ann's summary %+v", s)
	}
	row, err := ts.store.Review(context.Background(), id, 0)
	if err != nil || !row.Ready {
		t.Fatalf("stored review %+v, %v", row, err)
	}
	// Idempotent: asked again, the same review, not made again.
	judged := g.judged.Load()
	if again := ann.awaitReview(id); len(again.Decisions) != len(rv.Decisions) || g.judged.Load() != judged {
		t.Fatalf("a second GET made the review again (%d judgements, %d before)", g.judged.Load(), judged)
	}
	if m := scrape(t, ts.Server); m[`dicehall_reviews_total{result="done"}`] != 1 || m[`dicehall_reviews_total{result="failed"}`] != 0 {
		t.Errorf("review metrics: done %v, failed %v", m[`dicehall_reviews_total{result="done"}`], m[`dicehall_reviews_total{result="failed"}`])
	}
}

// A game that judges no decisions has no review: 404 no-review.
func TestNoReviewOfAGameWithoutAnalyst(t *testing.T) {
	ts := coachServer(t, pig.Game{}, Config{})
	storeFinished(t, ts.store, "plain", 3)
	ann := newPlayer(t, ts)
	if st, a := ann.review("plain"); st != http.StatusNotFound || a.Error == nil || a.Error.Code != "no-review" {
		t.Fatalf("review of a game without analyst: %d %+v, want 404 no-review", st, a)
	}
	if st, a := ann.review("nosuchtable"); st != http.StatusNotFound || a.Error == nil || a.Error.Code != "not-found" {
		t.Fatalf("review of no table: %d %+v", st, a)
	}
}

// A table that ended before reviews existed is reviewed when its review is
// first asked for; meanwhile the GET shows the progress, the work is
// never done twice, and a live table plays on while the worker is busy.
func TestReviewOnDemandShowsProgress(t *testing.T) {
	g := newCoach(true)
	ts := coachServer(t, g, Config{})
	t.Cleanup(func() { close(g.gate) }) // before the server stops: its worker waits here
	moves := storeFinished(t, ts.store, "old", 5)
	total := decisions(moves)
	ann := newPlayer(t, ts)
	if st, a := ann.review("old"); st != http.StatusAccepted || a.Status != "pending" {
		t.Fatalf("first review GET: %d %+v, want 202 pending", st, a)
	}
	// The worker has claimed it and counted the decisions; it waits in the
	// first judgement.
	ann.awaitProgress("old", func(a reviewAnswer) bool { return a.Total == total && a.Done == 0 })
	row, err := ts.store.Review(context.Background(), "old", 0)
	if err != nil || row.Ready || row.Node != "" || row.Total != total {
		t.Fatalf("the claim while the review is made: %+v, %v", row, err)
	}
	// A live table is not held up by the busy worker.
	id := ann.create(soloPig())
	c := ann.connect(id)
	w := c.next()
	c.send(map[string]any{"type": "act", "id": 1, "action": map[string]any{"roll": true}, "version": w.Version})
	c.await("update", nil)
	// One judgement, then the rest.
	g.gate <- struct{}{}
	ann.awaitProgress("old", func(a reviewAnswer) bool { return a.Done >= 1 })
	for range total - 1 {
		g.gate <- struct{}{}
	}
	rv := ann.awaitReview("old")
	if rv.Moves != len(moves) || g.judged.Load() != int64(total) {
		t.Fatalf("review of %d moves after %d judgements; want %d moves, %d judgements", rv.Moves, g.judged.Load(), len(moves), total)
	}
}

// In a cluster one node makes a review: the others see its claim's
// progress in the store and make nothing.
func TestReviewClaimedByAnotherNode(t *testing.T) {
	g := newCoach(false)
	st := memstore.New()
	ts := coachServer(t, g, Config{Store: st})
	storeFinished(t, st, "shared", 7)
	ctx := context.Background()
	if _, err := st.ClaimReview(ctx, "shared", 0, "node-b", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := st.ReviewProgress(ctx, "shared", 0, "node-b", 3, 9, time.Minute); err != nil {
		t.Fatal(err)
	}
	ann := newPlayer(t, ts)
	if code, a := ann.review("shared"); code != http.StatusAccepted || a.Done != 3 || a.Total != 9 {
		t.Fatalf("review claimed elsewhere: %d %+v, want 202 with 3 of 9", code, a)
	}
	if err := st.PutReview(ctx, "shared", 0, json.RawMessage(`{"game":"pig","players":["ann"],"moves":9,"decisions":[],"seats":[],"turning":-1}`)); err != nil {
		t.Fatal(err)
	}
	if rv := ann.awaitReview("shared"); rv.Moves != 9 || g.judged.Load() != 0 {
		t.Fatalf("review %+v after %d judgements here, want node-b's and none", rv, g.judged.Load())
	}
}

// A review a stopped server left half made is taken up by the next start;
// one it had queued but not begun, by the next GET.
func TestReviewSurvivesRestart(t *testing.T) {
	g := newCoach(false)
	st := memstore.New()
	moves := storeFinished(t, st, "half", 11)
	storeFinished(t, st, "queued", 13)
	// The first server claimed "half" and judged some of it before it
	// stopped; "queued" was in its queue only (nothing stored).
	ctx := context.Background()
	if _, err := st.ClaimReview(ctx, "half", 0, "", time.Hour); err != nil {
		t.Fatal(err)
	}
	if err := st.ReviewProgress(ctx, "half", 0, "", 2, decisions(moves), time.Hour); err != nil {
		t.Fatal(err)
	}
	ts := coachServer(t, g, Config{Store: st})
	deadline := time.Now().Add(waitLimit)
	for {
		row, err := st.Review(ctx, "half", 0)
		if err != nil {
			t.Fatal(err)
		}
		if row.Ready {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the half-made review was not taken up: %+v", row)
		}
		time.Sleep(5 * time.Millisecond)
	}
	if _, err := st.Review(ctx, "queued", 0); err == nil {
		t.Fatal("a review nobody asked for was made")
	}
	ann := newPlayer(t, ts)
	if rv := ann.awaitReview("queued"); len(rv.Decisions) == 0 {
		t.Fatalf("review of the queued table: %+v", rv)
	}
}

// A full queue refuses more (503 busy); a server with no workers makes no
// reviews but serves the stored ones.
func TestReviewQueueBounds(t *testing.T) {
	g := newCoach(true)
	ts := coachServer(t, g, Config{Reviews: Reviews{Queue: 1}})
	t.Cleanup(func() { close(g.gate) })
	for _, id := range []string{"one", "two", "three"} {
		storeFinished(t, ts.store, id, 17)
	}
	ann := newPlayer(t, ts)
	if st, _ := ann.review("one"); st != http.StatusAccepted {
		t.Fatalf("first: %d", st)
	}
	ann.awaitProgress("one", func(a reviewAnswer) bool { return a.Total > 0 }) // the worker has it: the queue is free
	if st, _ := ann.review("two"); st != http.StatusAccepted {
		t.Fatalf("second (queued): %d", st)
	}
	if st, a := ann.review("three"); st != http.StatusServiceUnavailable || a.Error == nil || a.Error.Code != "busy" {
		t.Fatalf("third with a full queue: %d %+v, want 503 busy", st, a)
	}

	off := coachServer(t, newCoach(false), Config{Reviews: Reviews{Workers: -1}})
	storeFinished(t, off.store, "made", 19)
	storeFinished(t, off.store, "unmade", 23)
	if err := off.store.PutReview(context.Background(), "made", 0, json.RawMessage(`{"game":"pig","moves":4,"turning":-1}`)); err != nil {
		t.Fatal(err)
	}
	bob := newPlayer(t, off)
	if rv := bob.awaitReview("made"); rv.Moves != 4 {
		t.Fatalf("stored review: %+v", rv)
	}
	if st, a := bob.review("unmade"); st != http.StatusNotFound || a.Error == nil || a.Error.Code != "no-review" {
		t.Fatalf("a review this server does not make: %d %+v, want 404 no-review", st, a)
	}
}

// hintAnswer is a hint message.
type hintAnswer struct {
	Type    string           `json:"type"`
	ID      int64            `json:"id"`
	Version int              `json:"version"`
	Hint    engine.Judgement `json:"hint"`
}

func asHint(t *testing.T, m msg) hintAnswer {
	t.Helper()
	var h hintAnswer
	if err := json.Unmarshal(m.raw, &h); err != nil {
		t.Fatal(err)
	}
	return h
}

func refusedID(id int64, rule string) func(msg) bool {
	return func(m msg) bool { return m.ID != nil && *m.ID == id && m.Rule == rule }
}

// The coach answers the only person at a practice table, for the turn at
// hand: its best choice and why, with the version it was worked out for.
func TestHintInPractice(t *testing.T) {
	g := newCoach(false)
	ts := coachServer(t, g, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(soloPig())
	c := ann.connect(id)
	w := c.next()
	// A turn's first roll is the only choice: the coach says so.
	c.send(`{"type":"hint","id":1}`)
	if h := asHint(t, c.await("hint", nil)); h.ID != 1 || h.Version != w.Version || string(h.Hint.Best.Action) != `{"roll":true}` || len(h.Hint.Others) != 0 {
		t.Fatalf("hint at the turn's start %+v", h)
	}
	c.send(map[string]any{"type": "act", "id": 2, "action": map[string]any{"roll": true}, "version": w.Version})
	var m msg
	for m = c.await("update", nil); !m.Turn.Has(0) || pigTurn(t, m) == 0; m = c.await("update", nil) {
		if m.Turn.Has(0) { // a 1: the turn is lost, roll again
			c.send(map[string]any{"type": "act", "action": map[string]any{"roll": true}, "version": m.Version})
		}
	}
	c.send(`{"type":"hint","id":3}`)
	h := asHint(t, c.await("hint", nil))
	if h.ID != 3 || h.Version != m.Version || string(h.Hint.Best.Action) != `{"roll":true}` || len(h.Hint.Notes) == 0 || len(h.Hint.Others) != 1 {
		t.Fatalf("hint %+v at version %d", h, m.Version)
	}
	if v := scrape(t, ts.Server)["dicehall_hint_requests_total"]; v != 2 {
		t.Errorf("hint requests counted: %v, want 2", v)
	}
}

// Hints are for practice only, and for the seat whose turn it is.
func TestHintRefusals(t *testing.T) {
	g := newCoach(false)
	ts := coachServer(t, g, Config{BotDelay: time.Hour}) // the bot never moves in this test
	ann := newPlayer(t, ts)

	// Against a bot: practice, but not while the bot is to play.
	id := ann.create(map[string]any{"game": "pig", "name": "ann", "options": map[string]any{"target": 10},
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot"}}})
	c := ann.connect(id)
	for m := c.next(); m.Turn.Chance || m.Turn.Has(0); m = c.await("update", nil) {
		if m.Turn.Has(0) { // roll once, then hold: the bot's turn
			act := `{"roll":true}`
			if pigTurn(t, m) > 0 {
				act = `{"hold":true}`
			}
			c.send(map[string]any{"type": "act", "action": json.RawMessage(act), "version": m.Version})
		}
	}
	c.send(`{"type":"hint","id":1}`)
	c.await("refused", refusedID(1, "hint-not-your-turn"))
	// A spectator has no seat to advise.
	bob := newPlayer(t, ts)
	sc := bob.connect(id)
	sc.next()
	sc.send(`{"type":"hint","id":2}`)
	sc.await("refused", refusedID(2, "not-seated"))

	// Two people: no coach.
	duo := ann.create(map[string]any{"game": "pig", "name": "ann", "options": map[string]any{"target": 10},
		"seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if st := bob.join(duo, 1, "bob"); st != http.StatusOK {
		t.Fatalf("join: %d", st)
	}
	dc := ann.connect(duo)
	dc.next()
	dc.send(`{"type":"hint","id":3}`)
	dc.await("refused", refusedID(3, "hint-not-allowed"))

	// A game without an analyst: no coach either.
	plain := coachServer(t, pig.Game{}, Config{})
	carol := newPlayer(t, plain)
	pc := carol.connect(carol.create(soloPig()))
	pc.next()
	pc.send(`{"type":"hint","id":4}`)
	pc.await("refused", refusedID(4, "hint-not-allowed"))
}

// One hint at a time per connection (a flood is refused clearly), a few at
// once across the server; the table plays on while the coach thinks.
func TestHintsAreBounded(t *testing.T) {
	g := newCoach(true)
	ts := coachServer(t, g, Config{Reviews: Reviews{Hints: 1}, MsgRate: fast, MsgBurst: fast})
	t.Cleanup(func() { close(g.gate) })
	ann := newPlayer(t, ts)
	ready := func(c *wsClient) msg {
		m := c.next()
		c.send(map[string]any{"type": "act", "action": map[string]any{"roll": true}, "version": m.Version})
		for m = c.await("update", nil); !m.Turn.Has(0) || pigTurn(t, m) == 0; m = c.await("update", nil) {
			if m.Turn.Has(0) {
				c.send(map[string]any{"type": "act", "action": map[string]any{"roll": true}, "version": m.Version})
			}
		}
		return m
	}
	c := ann.connect(ann.create(soloPig()))
	m := ready(c)
	other := ann.connect(ann.create(soloPig()))
	ready(other)

	c.send(`{"type":"hint","id":1}`) // waits in the coach, holding the server's one slot
	for deadline := time.Now().Add(waitLimit); g.asked.Load() == 0; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the hint never reached the coach")
		}
	}
	for i := int64(2); i < 6; i++ {
		c.send(map[string]any{"type": "hint", "id": i})
		c.await("refused", refusedID(i, "hint-pending"))
	}
	other.send(`{"type":"hint","id":9}`)
	if e := other.await("error", nil); e.Code != "busy" || e.ID == nil || *e.ID != 9 {
		t.Fatalf("a hint over the server's bound: %s", e.raw)
	}
	// The table is not held: a move goes through while the coach thinks.
	c.send(map[string]any{"type": "act", "action": map[string]any{"hold": true}, "version": m.Version})
	u := c.await("update", nil)
	g.gate <- struct{}{}
	h := asHint(t, c.await("hint", nil))
	if h.ID != 1 || h.Version != m.Version || h.Version >= u.Version {
		t.Fatalf("hint %+v: want id 1 for version %d (before the hold's %d)", h, m.Version, u.Version)
	}
}
