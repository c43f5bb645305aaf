package server

import (
	"context"
	"encoding/json"
	"errors"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func seatTakenOver(seat int, want bool) func(msg) bool {
	return func(m msg) bool { return len(m.Seats) > seat && m.Seats[seat].TakenOver == want }
}

func TestClockLeaveReclaimTakeover(t *testing.T) {
	clock := newFakeClock()
	// No bot delay: it is game time, and this clock only moves when told.
	ts := startServer(t, Config{Clock: clock, BotDelay: -1})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	body := twoHumans()
	body["settings"] = map[string]any{"turnSeconds": 30}
	id := ann.create(body)
	ca := ann.connect(id)
	if w := ca.next(); w.Deadline != 0 || w.Table.Status != "open" {
		t.Fatalf("no clock before the game starts: %s", w.raw)
	}
	if st := bob.join(id, 1, "bob"); st != 200 {
		t.Fatal(st)
	}
	if w := ca.await("welcome", nil); w.Deadline != 30_000 || !w.Turn.Has(0) || w.Table.Status != "live" {
		t.Fatalf("ann's clock once bob joins: %s", w.raw)
	}
	cb := bob.connect(id)
	cb.next()
	ca.await("presence", func(m msg) bool { return m.Seats[1].Connected })

	// The clock runs out: a bot plays ann's turn.
	clock.Advance(29 * time.Second)
	if s := ann.summary(id); s.Seats[0].TakenOver {
		t.Fatal("taken over before the clock ran out")
	}
	clock.Advance(time.Second)
	ca.await("presence", seatTakenOver(0, true))
	if w := ca.await("welcome", nil); !w.Table.Seats[0].TakenOver || w.Table.Seats[0].Bot != "greedy" {
		t.Fatalf("ann's welcome after the takeover: %s", w.raw)
	}
	// A taken-over seat cannot act until reclaimed.
	ca.send(map[string]any{"type": "act", "id": 1, "action": dicestars.Draw(3, false)})
	if r := ca.await("refused", nil); r.Rule != "taken-over" {
		t.Fatalf("act while taken over: %s", r.raw)
	}
	toBob := cb.await("update", func(m msg) bool { return m.Move.Seat == 0 && m.Turn.Has(1) })
	if toBob.Deadline != 30_000 {
		t.Fatalf("bob's clock starts when his turn does: %d", toBob.Deadline)
	}
	meta, err := ts.store.GetTable(context.Background(), id)
	if err != nil || !meta.Seats[0].TakenOver {
		t.Fatalf("the takeover is stored: %v %+v", err, meta.Seats)
	}

	// Ann takes her seat back.
	ca.send(map[string]any{"type": "reclaim", "id": 2})
	if w := ca.await("welcome", nil); w.Table.Seats[0].TakenOver || w.Deadline != 30_000 {
		t.Fatalf("after reclaim (bob's clock runs): %s", w.raw)
	}
	ca.send(map[string]any{"type": "reclaim", "id": 3})
	if r := ca.await("refused", nil); r.Rule != "not-taken-over" {
		t.Fatal(r.raw)
	}

	// Bob leaves: his bot plays, and ann's clock runs on her next turn.
	cb.send(map[string]any{"type": "leave"})
	ca.await("presence", seatTakenOver(1, true))
	back := ca.await("update", func(m msg) bool { return m.Move.Seat == 1 && m.Turn.Has(0) })
	if back.Deadline != 30_000 {
		t.Fatalf("ann's clock on her turn: %d", back.Deadline)
	}
	cb.send(map[string]any{"type": "reclaim"})
	cb.await("welcome", func(m msg) bool { return !m.Table.Seats[1].TakenOver })

	// Takeover of a seat works only when its player is gone.
	ca.send(map[string]any{"type": "takeover", "id": 4, "seat": 1})
	if r := ca.await("refused", nil); r.Rule != "player-connected" {
		t.Fatal(r.raw)
	}
	ca.send(map[string]any{"type": "takeover", "id": 5, "seat": 0})
	if r := ca.await("refused", nil); r.Rule != "own-seat" {
		t.Fatal(r.raw)
	}
	_ = cb.ws.Close(websocket.StatusNormalClosure, "")
	ca.await("presence", func(m msg) bool { return !m.Seats[1].Connected })
	ca.send(map[string]any{"type": "takeover", "id": 6, "seat": 1})
	ca.await("presence", seatTakenOver(1, true))
	if s := ann.summary(id); !s.Seats[1].TakenOver || s.Seats[0].TakenOver || s.Seats[1].Connected {
		t.Fatalf("after the takeover: %+v", s.Seats)
	}
	// Bob comes back to the same seat and state, and reclaims it.
	cb2 := bob.connect(id)
	if w := cb2.next(); w.Seat != 1 || !w.Table.Seats[1].TakenOver {
		t.Fatalf("bob back: %s", w.raw)
	}
	cb2.send(map[string]any{"type": "reclaim"})
	cb2.await("welcome", func(m msg) bool { return !m.Table.Seats[1].TakenOver })
}

// tickGame is a tiny game with a rule clock: the seat to act must pass
// within 5 s of the last move, or the table feeds a timeout from
// SystemSeat. Three timeouts end it.
type tickGame struct{}

type tickAction struct {
	T string `json:"t"`
}

func (a tickAction) Kind() string { return a.T }

type tickState struct {
	names            []string
	turn             int
	lastAt           int64
	passes, timeouts int
}

func (tickGame) Info() engine.Info {
	return engine.Info{ID: "tick", Title: "Tick", MinPlayers: 1, MaxPlayers: 2}
}
func (tickGame) New(players []string, _ json.RawMessage) (engine.State, error) {
	return &tickState{names: players}, nil
}

func (tickGame) DecodeAction(data []byte) (engine.Action, error) {
	var a tickAction
	if err := json.Unmarshal(data, &a); err != nil || (a.T != "pass" && a.T != "timeout") {
		return nil, errors.New("tick: want {\"t\":\"pass\"}")
	}
	return a, nil
}

func (s *tickState) Turn() engine.Turn {
	if s.timeouts >= 3 {
		return engine.Turn{Over: true}
	}
	seat := engine.Seat(s.turn)
	return engine.Turn{Actors: []engine.Seat{seat}, Deadlines: []engine.Deadline{{Seat: seat, At: s.lastAt + 5000}}}
}

func (s *tickState) Legal(seat engine.Seat) []engine.Action {
	switch {
	case s.Turn().Over:
		return nil
	case seat == engine.SystemSeat:
		return []engine.Action{tickAction{"timeout"}}
	case int(seat) == s.turn:
		return []engine.Action{tickAction{"pass"}}
	}
	return nil
}

func (s *tickState) Check(m engine.Move) error {
	a, _ := m.Action.(tickAction)
	switch {
	case s.Turn().Over:
		return engine.ErrGameOver
	case a.T == "timeout" && m.Seat == engine.SystemSeat:
		if m.At < s.lastAt+5000 {
			return engine.Refuse("too-early", "the clock has not run out")
		}
		return nil
	case a.T == "pass" && int(m.Seat) == s.turn:
		return nil
	}
	return engine.ErrNotYourTurn
}

func (s *tickState) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	if m.Action.Kind() == "timeout" {
		s.timeouts++
	} else {
		s.passes++
	}
	s.turn = (s.turn + 1) % len(s.names)
	s.lastAt = m.At
	return []engine.Event{{Kind: m.Action.Kind(), Seat: m.Seat}}, nil
}

func (s *tickState) SampleChance(engine.Source) engine.Action { return nil }
func (s *tickState) View(engine.Seat) any {
	return map[string]int{"passes": s.passes, "timeouts": s.timeouts, "turn": s.turn}
}
func (s *tickState) Result() engine.Result {
	return engine.Result{Over: s.Turn().Over, Scores: make([]int, len(s.names))}
}
func (s *tickState) Players() []string { return s.names }
func (s *tickState) Clone() engine.State {
	c := *s
	return &c
}

func TestRuleDeadlinesFeedTimeouts(t *testing.T) {
	reg := &engine.Registry{}
	reg.Register(tickGame{})
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, Games: reg})
	ann := newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "tick", "name": "ann", "seats": []map[string]any{{"kind": "human"}}})
	c := ann.connect(id)
	if w := c.next(); w.Deadline != 5000 || len(w.Turn.Deadlines) != 1 {
		t.Fatalf("welcome: %s", w.raw)
	}
	clock.Advance(4900 * time.Millisecond)
	c.quiet(30 * time.Millisecond)
	clock.Advance(100 * time.Millisecond)
	u := c.await("update", nil)
	if u.Move.Seat != engine.SystemSeat || string(u.Move.Action) != `{"t":"timeout"}` || u.Deadline != 5000 {
		t.Fatalf("first timeout: %s", u.raw)
	}
	// Acting in time pushes the deadline back.
	clock.Advance(3 * time.Second)
	c.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	if u := c.await("update", nil); u.Move.Seat != 0 || u.Deadline != 5000 {
		t.Fatalf("pass: %s", u.raw)
	}
	clock.Advance(4 * time.Second)
	c.quiet(30 * time.Millisecond)
	clock.Advance(time.Second)
	c.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	clock.Advance(5 * time.Second)
	end := c.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	if !end.Turn.Over || end.Version != 4 || end.Deadline != 0 {
		t.Fatalf("third timeout ends the game: %s", end.raw)
	}
	moves, _ := ts.store.Moves(context.Background(), id)
	if len(moves) != 4 || moves[0].At != 5000 || moves[1].At != 8000 || moves[3].At != 18000 {
		t.Fatalf("stored moves and times: %+v", moves)
	}
	// A game without bots cannot take bot seats.
	var e errorBody
	if st := ann.do("POST", "/api/tables", map[string]any{"game": "tick", "name": "a", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot"}}}, &e); st != 400 {
		t.Fatalf("bot seat in a game without bots: %d", st)
	}
}
