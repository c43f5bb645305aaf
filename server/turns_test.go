package server

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/store/memstore"
)

// relayGame is a tiny turn-based game whose rules let a turn be skipped
// (engine.Skipper): the seats pass in turn; four moves, passes or skips,
// end it. It has no bots.
type relayGame struct{}

type relayAction struct {
	T string `json:"t"`
}

func (a relayAction) Kind() string { return a.T }

type relayState struct {
	names       []string
	turn, moves int
}

func (relayGame) Info() engine.Info {
	return engine.Info{ID: "relay", Title: "Relay", MinPlayers: 2, MaxPlayers: 3}
}

func (relayGame) New(players []string, _ json.RawMessage) (engine.State, error) {
	return &relayState{names: players}, nil
}

func (relayGame) DecodeAction(data []byte) (engine.Action, error) {
	var a relayAction
	if err := json.Unmarshal(data, &a); err != nil || (a.T != "pass" && a.T != "skip") {
		return nil, errors.New(`relay: want {"t":"pass"}`)
	}
	return a, nil
}

func (relayGame) Skip(st engine.State, seat engine.Seat) (engine.Action, bool) {
	return relayAction{"skip"}, st.Turn().Has(seat)
}

func (s *relayState) Turn() engine.Turn {
	if s.moves >= 4 {
		return engine.Turn{Over: true}
	}
	return engine.Turn{Actors: []engine.Seat{engine.Seat(s.turn)}}
}

func (s *relayState) Legal(seat engine.Seat) []engine.Action {
	if s.Turn().Has(seat) {
		return []engine.Action{relayAction{"pass"}}
	}
	return nil
}

func (s *relayState) Check(m engine.Move) error {
	a, _ := m.Action.(relayAction)
	switch {
	case s.Turn().Over:
		return engine.ErrGameOver
	case a.T == "skip" && m.Seat == engine.SystemSeat, a.T == "pass" && int(m.Seat) == s.turn:
		return nil
	}
	return engine.ErrNotYourTurn
}

func (s *relayState) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	s.moves++
	s.turn = (s.turn + 1) % len(s.names)
	return []engine.Event{{Kind: m.Action.Kind(), Seat: m.Seat}}, nil
}

func (s *relayState) SampleChance(engine.Source) engine.Action { return nil }
func (s *relayState) View(engine.Seat) any                     { return map[string]int{"moves": s.moves} }
func (s *relayState) Result() engine.Result {
	return engine.NewResult(s.Turn().Over, make([]int, len(s.names)), []int{0})
}
func (s *relayState) Players() []string { return s.names }
func (s *relayState) Clone() engine.State {
	c := *s
	return &c
}

func relayRegistry() *engine.Registry {
	reg := &engine.Registry{}
	reg.Register(relayGame{})
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		reg.Register(g)
	}
	return reg
}

func relayTable(set map[string]any) map[string]any {
	return map[string]any{"game": "relay", "name": "ann", "settings": set,
		"seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}}
}

func TestTurnBasedSettings(t *testing.T) {
	games := relayRegistry()
	game := func(id string) engine.Game { g, _ := games.Lookup(id); return g }
	for _, c := range []struct {
		name, game, settings, err string
	}{
		{"no clock", "dicestars", `{}`, ""},
		{"real time, a day", "dicestars", `{"turnSeconds":86400}`, ""},
		{"real time, over a day", "dicestars", `{"turnSeconds":86401}`, "between 0 (no clock) and 86400"},
		{"real time with a bank", "dicestars", `{"turnSeconds":60,"bankSeconds":60}`, "for turn-based tables"},
		{"real time with an expiry", "dicestars", `{"turnSeconds":60,"expiry":"bot"}`, "for turn-based tables"},
		{"unknown pace", "dicestars", `{"pace":"slow","turnSeconds":60}`, "pace is"},
		{"turn-based, 5 minutes", "dicestars", `{"pace":"turns","turnSeconds":300}`, ""},
		{"turn-based, 14 days, bank, forfeit", "dicestars", `{"pace":"turns","turnSeconds":1209600,"bankSeconds":2592000,"expiry":"forfeit"}`, ""},
		{"turn-based, no clock", "dicestars", `{"pace":"turns","turnSeconds":0}`, "between 300 (5 minutes) and 1209600 (14 days)"},
		{"turn-based, 15 days", "dicestars", `{"pace":"turns","turnSeconds":1296000}`, "between 300"},
		{"turn-based, bank too big", "dicestars", `{"pace":"turns","turnSeconds":300,"bankSeconds":2592001}`, "bankSeconds must be"},
		{"turn-based, negative bank", "dicestars", `{"pace":"turns","turnSeconds":300,"bankSeconds":-1}`, "bankSeconds must be"},
		{"unknown expiry", "dicestars", `{"pace":"turns","turnSeconds":300,"expiry":"nap"}`, "expiry is"},
		{"skip where the rules allow none", "dicestars", `{"pace":"turns","turnSeconds":300,"expiry":"skip"}`, "expiry is one of bot, forfeit"},
		{"real-time-only game", "bookworm", `{"pace":"turns","turnSeconds":3600}`, "real time only"},
		{"real-time-only game, real time", "bookworm", `{"turnSeconds":30}`, ""},
		{"skip where the rules allow it", "relay", `{"pace":"turns","turnSeconds":300,"expiry":"skip"}`, ""},
		{"no bots to play the seat", "relay", `{"pace":"turns","turnSeconds":300}`, "expiry is one of skip"},
	} {
		t.Run(c.name, func(t *testing.T) {
			set, err := parseSettings(json.RawMessage(c.settings))
			if err == nil {
				err = set.fitsGame(game(c.game))
			}
			switch {
			case c.err == "" && err != nil:
				t.Fatalf("refused: %v", err)
			case c.err != "" && (err == nil || !strings.Contains(err.Error(), c.err)):
				t.Fatalf("got %v, want an error with %q", err, c.err)
			}
		})
	}
	if got := expiries(bookworm.Game{}); len(got) != 0 || !(bookworm.Game{}).Info().RealTimeOnly {
		t.Fatalf("bookworm's rules time its players: %v", got)
	}
	// The lobby learns the same from GET /api/games.
	ts := startServer(t, Config{Games: games})
	var list []struct {
		ID           string   `json:"id"`
		RealTimeOnly bool     `json:"realTimeOnly"`
		Expiries     []string `json:"expiries"`
	}
	if st := newPlayer(t, ts).do("GET", "/api/games", nil, &list); st != 200 {
		t.Fatal(st)
	}
	got := map[string]string{}
	for _, g := range list {
		got[g.ID] = strings.Join(g.Expiries, ",")
	}
	if got["relay"] != "skip" || got["dicestars"] != "bot,forfeit" || got["bookworm"] != "" {
		t.Fatalf("expiries: %v", got)
	}
	var e errorBody
	body := duel("greedy")
	body["settings"] = map[string]any{"pace": "turns", "turnSeconds": 300, "expiry": "skip"}
	if st := newPlayer(t, ts).do("POST", "/api/tables", body, &e); st != 400 || e.Error.Code != "bad-settings" {
		t.Fatalf("skip at a Dice Stars table: %d %+v", st, e)
	}
}

// clockOf is when seat's clock runs out at a running table (zero: none).
func clockOf(t *testing.T, ts *testServer, id string, seat engine.Seat) time.Time {
	t.Helper()
	return inActor(t, ts, id, func(tb *table) time.Time { at, _ := tb.clockAt(seat); return at })
}

func TestTurnClockSurvivesRestarts(t *testing.T) {
	st, clock := memstore.New(), newFakeClock()
	cfg := Config{Store: st, Clock: clock, BotDelay: -1}
	ts := startServer(t, cfg)
	ann := newPlayer(t, ts)
	body := duel("greedy")
	body["settings"] = map[string]any{"pace": "turns", "turnSeconds": 3600, "bankSeconds": 7200}
	id := ann.create(body)
	if w := ann.connect(id).next(); w.Deadline != 3*3600_000 || w.Bank != 7200_000 {
		t.Fatalf("an hour and a two-hour bank: %s", w.raw)
	}
	want := clock.Now().Add(3 * time.Hour)
	clock.Advance(1000*time.Second + 123*time.Millisecond)
	if at := clockOf(t, ts, id, 0); !at.Equal(want) {
		t.Fatalf("deadline %v, want %v", at, want)
	}

	restart := func() {
		ts.stop()
		ts = startServer(t, cfg)
		ann.ts = ts
	}
	restart()
	w := ann.connect(id).next()
	if w.Deadline != want.Sub(clock.Now()).Milliseconds() || w.Bank != 7200_000 {
		t.Fatalf("after a restart the clock goes on: %d ms left, want %d: %s", w.Deadline, want.Sub(clock.Now()).Milliseconds(), w.raw)
	}
	// Restarted every 40 minutes, more often than its hour: it still
	// runs out, at the same moment.
	for clock.Now().Add(40 * time.Minute).Before(want) {
		clock.Advance(40 * time.Minute)
		restart()
		if at := clockOf(t, ts, id, 0); !at.Equal(want) {
			t.Fatalf("after a restart at %v the deadline is %v, want %v", clock.Now(), at, want)
		}
	}
	c := ann.connect(id)
	c.next()
	clock.Advance(want.Sub(clock.Now()) - time.Millisecond)
	c.quiet(30 * time.Millisecond)
	if s := ann.summary(id); s.Seats[0].TakenOver {
		t.Fatal("taken over before the deadline")
	}
	clock.Advance(time.Millisecond)
	c.await("presence", seatTakenOver(0, true))
	c.await("update", func(m msg) bool { return m.Turn.Has(1) })
	if left := inActor(t, ts, id, func(tb *table) int64 { return tb.bankLeft(0) }); left != 0 {
		t.Fatalf("the bank was spent before the bot played: %d ms left", left)
	}
}

func TestTimeBankSpentAcrossRestart(t *testing.T) {
	st, clock := memstore.New(), newFakeClock()
	cfg := Config{Store: st, Clock: clock, BotDelay: -1}
	ts := startServer(t, cfg)
	ann := newPlayer(t, ts)
	body := duel("greedy")
	body["settings"] = map[string]any{"pace": "turns", "turnSeconds": 300, "bankSeconds": 600}
	id := ann.create(body)
	c := ann.connect(id)
	w := c.next()
	// Ann takes 400 s of her 300: 100 s of her bank go.
	clock.Advance(400 * time.Second)
	last := playDiceStarsTurn(t, c, w)
	back := c.await("update", func(m msg) bool { return m.Version > last.Version && m.Turn.Has(0) && !m.Turn.Chance })
	if back.Deadline != 800_000 || back.Bank != 500_000 {
		t.Fatalf("her next turn: 300 s and a 500 s bank: %s", back.raw)
	}
	ts.stop()
	clock.Advance(450 * time.Second) // into her bank
	ts = startServer(t, cfg)
	ann.ts = ts
	if w := ann.connect(id).next(); w.Deadline != 350_000 || w.Bank != 350_000 {
		t.Fatalf("after the restart, 350 s left, all of it bank: %s", w.raw)
	}
	// Her tables list says when her time runs out.
	if m := ann.mine(); len(m) != 1 || !m[0].YourTurn || m[0].Deadline == nil || !m[0].Deadline.Equal(clock.Now().Add(350*time.Second)) {
		t.Fatalf("my tables: %+v", m)
	}
}

func TestExpiryForfeit(t *testing.T) {
	st, clock := memstore.New(), newFakeClock()
	ts := startServer(t, Config{Store: st, Clock: clock, BotDelay: time.Hour})
	ann := newPlayer(t, ts)
	body := duel("greedy")
	body["settings"] = map[string]any{"pace": "turns", "turnSeconds": 300, "expiry": "forfeit"}
	id := ann.create(body)
	c := ann.connect(id)
	c.next()
	clock.Advance(300 * time.Second)
	c.await("presence", func(m msg) bool { return m.Seats[0].TakenOver && m.Seats[0].Forfeit })
	c.send(map[string]any{"type": "reclaim", "id": 1})
	if r := c.await("refused", nil); r.Rule != "forfeited" {
		t.Fatalf("a forfeited seat cannot be taken back: %s", r.raw)
	}
	// A bot plays the seat to the end; it ranks last (ratingPlaces: a
	// seat a bot was playing at the end).
	clock.Advance(time.Hour)
	c.await("update", func(m msg) bool { return m.Move.Seat == 0 })
	meta, err := st.GetTable(context.Background(), id)
	if err != nil || !meta.Seats[0].Forfeit || !meta.Seats[0].TakenOver {
		t.Fatalf("the forfeit is stored: %v %+v", err, meta.Seats)
	}
	res := engine.Result{Over: true, Scores: []int{50, 10}, Winners: []engine.Seat{0}}
	if p := ratingPlaces(res, meta.Seats); p[0] != 1 || p[1] != 0 {
		t.Fatalf("the forfeited seat ranks last: %v", p)
	}
}

func TestExpirySkip(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, Games: relayRegistry()})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(relayTable(map[string]any{"pace": "turns", "turnSeconds": 300, "bankSeconds": 60, "expiry": "skip"}))
	clock.Advance(time.Hour) // the first turn's clock starts when the table goes live
	if st := bob.join(id, 1, "bob"); st != 200 {
		t.Fatal(st)
	}
	ca, cb := ann.connect(id), bob.connect(id)
	if w := ca.next(); w.Deadline != 360_000 || w.Bank != 60_000 {
		t.Fatalf("ann's clock from bob's join: %s", w.raw)
	}
	cb.next()
	clock.Advance(360 * time.Second)
	u := cb.await("update", nil)
	if u.Move.Seat != engine.SystemSeat || string(u.Move.Action) != `{"t":"skip"}` || u.Deadline != 360_000 {
		t.Fatalf("ann's turn is skipped and bob's clock starts: %s", u.raw)
	}
	if s := ann.summary(id); s.Seats[0].TakenOver {
		t.Fatal("a skipped seat stays its player's")
	}
	if w := ann.connect(id).next(); w.Bank != 0 {
		t.Fatalf("ann's bank is spent: %s", w.raw)
	}
}

// noticeLog is a Notifier that records what it is told.
type noticeLog struct {
	mu  sync.Mutex
	got []TurnNotice
	ch  chan TurnNotice
}

func (l *noticeLog) Notify(_ context.Context, n TurnNotice) {
	l.mu.Lock()
	l.got = append(l.got, n)
	l.mu.Unlock()
	l.ch <- n
}

func (l *noticeLog) next(t *testing.T) TurnNotice {
	t.Helper()
	select {
	case n := <-l.ch:
		return n
	case <-time.After(waitLimit):
		t.Fatal("no notice")
	}
	return TurnNotice{}
}

func TestNotifierHearsOfTurns(t *testing.T) {
	clock := newFakeClock()
	log := &noticeLog{ch: make(chan TurnNotice, 100)}
	ts := startServer(t, Config{Clock: clock, Games: relayRegistry(), Notifier: log, PostBurst: 10_000,
		PublicURL: "http://127.0.0.1"})
	ann, bob, guest := newPlayer(t, ts), newPlayer(t, ts), newPlayer(t, ts)
	if st, _ := ann.signup("ann", "correct horse battery"); st != 201 {
		t.Fatal(st)
	}
	if st, _ := bob.signup("bob", "correct horse battery"); st != 201 {
		t.Fatal(st)
	}
	acct := func(p *player, id string, seat int) string { return seatAccount(t, ts, id, seat).Account }

	// A real-time table tells nobody: they are at the table.
	live := ann.create(relayTable(map[string]any{"turnSeconds": 60}))
	bob.join(live, 1, "")
	id := ann.create(relayTable(map[string]any{"pace": "turns", "turnSeconds": 86400, "expiry": "skip"}))
	clock.Advance(time.Minute)
	bob.join(id, 1, "")
	n := log.next(t)
	want := TurnNotice{Account: acct(ann, id, 0), Table: id, Game: "relay", GameTitle: "Relay", Opponent: "bob", Seat: 0,
		Deadline: clock.Now().Add(24 * time.Hour), URL: "http://127.0.0.1/t/" + id, Kind: NoticeYourTurn}
	if n != want {
		t.Fatalf("ann's turn as bob joins:\n got %+v\nwant %+v", n, want)
	}
	ca, cb := ann.connect(id), bob.connect(id)
	ca.next()
	cb.next()
	ca.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	if n := log.next(t); n.Account != acct(bob, id, 1) || n.Seat != 1 || n.Opponent != "ann" || n.Kind != NoticeYourTurn {
		t.Fatalf("bob's turn: %+v", n)
	}
	cb.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	if n := log.next(t); n.Seat != 0 || n.Opponent != "bob" {
		t.Fatalf("ann's turn again: %+v", n)
	}
	// Ann's day runs out: her turn is skipped, and bob hears it is his.
	clock.Advance(24 * time.Hour)
	if n := log.next(t); n.Seat != 1 || n.Opponent != "" || !n.Deadline.Equal(clock.Now().Add(24*time.Hour)) {
		t.Fatalf("bob's turn after the skip: %+v", n)
	}
	cb.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	over := []TurnNotice{log.next(t), log.next(t)}
	for i, n := range over {
		if n.Kind != NoticeGameOver || n.Seat != i || !n.Deadline.IsZero() {
			t.Fatalf("game over: %+v", over)
		}
	}
	if over[0].Opponent != "bob" || over[1].Opponent != "ann" {
		t.Fatalf("game over, the others: %+v", over)
	}

	// A guest at a turn-based table hears nothing (no account to reach).
	g := guest.create(relayTable(map[string]any{"pace": "turns", "turnSeconds": 300, "expiry": "skip"}))
	bob.join(g, 1, "")
	gc := guest.connect(g)
	gc.next()
	gc.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	if n := log.next(t); n.Table != g || n.Seat != 1 {
		t.Fatalf("only bob hears at the guest's table: %+v", n)
	}
	select {
	case n := <-log.ch:
		t.Fatalf("unexpected notice %+v", n)
	case <-time.After(50 * time.Millisecond):
	}
}

// blockedNotifier never returns until released.
type blockedNotifier struct{ release chan struct{} }

func (b blockedNotifier) Notify(ctx context.Context, _ TurnNotice) {
	select {
	case <-b.release:
	case <-ctx.Done():
	}
}

func TestNoticesNeverBlock(t *testing.T) {
	b := blockedNotifier{release: make(chan struct{})}
	defer close(b.release)
	ts := startServer(t, Config{Notifier: b, Games: relayRegistry()})
	done := make(chan struct{})
	go func() {
		for range 3 * noticeQueue {
			ts.notify(TurnNotice{Table: "x", Kind: NoticeYourTurn})
		}
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(waitLimit):
		t.Fatal("a stuck notifier holds the table up")
	}
}
