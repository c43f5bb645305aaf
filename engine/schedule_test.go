package engine_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

func mv(seat engine.Seat, at int64) engine.Move {
	return engine.Move{Seat: seat, At: at, Action: tapAction{Tap: true}}
}

func dl(seat engine.Seat, at int64) engine.Deadline { return engine.Deadline{Seat: seat, At: at} }

// TestNext is the one scheduling rule every table follows.
func TestNext(t *testing.T) {
	skip2 := func(d engine.Deadline) bool { return d.Seat == 2 }
	cases := []struct {
		name      string
		deadlines []engine.Deadline
		decided   []engine.Move
		now       int64
		skip      func(engine.Deadline) bool
		move      *engine.Move     // want this move played
		deadline  *engine.Deadline // or this deadline's timeout
	}{
		{name: "nothing at all", now: 5000},
		{name: "nothing due yet", deadlines: []engine.Deadline{dl(0, 3000)}, decided: []engine.Move{mv(1, 2000)}, now: 1999},
		{name: "a move due", decided: []engine.Move{mv(1, 700)}, now: 700, move: &engine.Move{Seat: 1, At: 700}},
		{name: "a move before the deadline", deadlines: []engine.Deadline{dl(0, 3000)}, decided: []engine.Move{mv(0, 2999)}, now: 5000,
			move: &engine.Move{Seat: 0, At: 2999}},
		{name: "a move stamped at the deadline plays first", deadlines: []engine.Deadline{dl(0, 3000)}, decided: []engine.Move{mv(0, 3000)}, now: 3000,
			move: &engine.Move{Seat: 0, At: 3000}},
		{name: "the deadline before the move", deadlines: []engine.Deadline{dl(0, 3000)}, decided: []engine.Move{mv(0, 3001)}, now: engine.Forever,
			deadline: &engine.Deadline{Seat: 0, At: 3000}},
		{name: "the deadline passed, the move not yet due", deadlines: []engine.Deadline{dl(0, 3000)}, decided: []engine.Move{mv(0, 4000)}, now: 3500,
			deadline: &engine.Deadline{Seat: 0, At: 3000}},
		{name: "the earliest of two moves", decided: []engine.Move{mv(2, 900), mv(1, 800)}, now: 1000, move: &engine.Move{Seat: 1, At: 800}},
		{name: "equal stamps go to the lower seat", decided: []engine.Move{mv(3, 800), mv(1, 800), mv(2, 800)}, now: 800,
			move: &engine.Move{Seat: 1, At: 800}},
		{name: "the earliest deadline", deadlines: []engine.Deadline{dl(1, 5000), dl(2, 4000)}, now: 6000,
			deadline: &engine.Deadline{Seat: 2, At: 4000}},
		{name: "a skipped deadline is left out", deadlines: []engine.Deadline{dl(1, 5000), dl(2, 4000)}, now: 6000, skip: skip2,
			deadline: &engine.Deadline{Seat: 1, At: 5000}},
		{name: "only skipped deadlines", deadlines: []engine.Deadline{dl(2, 4000)}, now: 6000, skip: skip2},
		{name: "a skipped deadline lets a later move play", deadlines: []engine.Deadline{dl(2, 4000)}, decided: []engine.Move{mv(0, 4500)}, now: 6000,
			skip: skip2, move: &engine.Move{Seat: 0, At: 4500}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			due, ok := engine.Next(c.deadlines, c.decided, c.now, c.skip)
			switch {
			case c.move == nil && c.deadline == nil:
				if ok {
					t.Fatalf("due %+v %+v, want nothing", due.Move, due.Deadline)
				}
			case c.move != nil:
				if !ok || due.Move == nil || due.Deadline != nil || due.Move.Seat != c.move.Seat || due.Move.At != c.move.At {
					t.Fatalf("due %+v %+v (%v), want the move of %v at %d", due.Move, due.Deadline, ok, c.move.Seat, c.move.At)
				}
				if due.At() != c.move.At {
					t.Fatalf("At %d", due.At())
				}
			default:
				if !ok || due.Deadline == nil || due.Move != nil || *due.Deadline != *c.deadline {
					t.Fatalf("due %+v %+v (%v), want the deadline %+v", due.Move, due.Deadline, ok, *c.deadline)
				}
				if due.At() != c.deadline.At {
					t.Fatalf("At %d", due.At())
				}
			}
		})
	}
}

func TestWake(t *testing.T) {
	if _, ok := engine.Wake(nil, nil, nil); ok {
		t.Fatal("nothing pending, yet a wake time")
	}
	// The earliest thing that will fall due, however far away.
	at, ok := engine.Wake([]engine.Deadline{dl(0, 9000)}, []engine.Move{mv(1, 12000), mv(2, 8000)}, nil)
	if !ok || at != 8000 {
		t.Fatalf("wake %d %v, want 8000", at, ok)
	}
	at, ok = engine.Wake([]engine.Deadline{dl(0, 9000)}, []engine.Move{mv(1, 12000)}, nil)
	if !ok || at != 9000 {
		t.Fatalf("wake %d %v, want the deadline at 9000", at, ok)
	}
	if _, ok := engine.Wake([]engine.Deadline{dl(0, 9000)}, nil, func(engine.Deadline) bool { return true }); ok {
		t.Fatal("a skipped deadline wakes the table")
	}
}

func TestMayPass(t *testing.T) {
	person := func(s engine.Seat) bool { return s == 1 }
	cases := []struct {
		name   string
		turn   engine.Turn
		person func(engine.Seat) bool
		want   bool
	}{
		{"a bot alone, no clock", engine.Turn{Actors: []engine.Seat{0}}, person, false},
		{"bots only, no clock", engine.Turn{Actors: []engine.Seat{0, 2}}, person, false},
		{"a person among the actors", engine.Turn{Actors: []engine.Seat{0, 1}}, person, true},
		{"a clock runs", engine.Turn{Actors: []engine.Seat{0}, Deadlines: []engine.Deadline{dl(0, 100)}}, person, true},
		{"no way to tell people", engine.Turn{Actors: []engine.Seat{0, 1}}, nil, false},
	}
	for _, c := range cases {
		if got := engine.MayPass(c.turn, c.person); got != c.want {
			t.Errorf("%s: MayPass %v, want %v", c.name, got, c.want)
		}
	}
}

func TestBotMove(t *testing.T) {
	plain := &tapBot{name: "plain"}
	if m := engine.BotMove(plain, 1, nil, tapAction{Tap: true}, 1000, 700); m.At != 1700 || m.Seat != 1 {
		t.Fatalf("plain bot: %+v, want seat 1 at 1700", m)
	}
	paced := &pacedBot{tapBot{name: "slow", think: 2500}}
	if m := engine.BotMove(paced, 0, nil, tapAction{Tap: true}, 1000, 700); m.At != 3500 {
		t.Fatalf("pacer: %+v, want at 3500 (its think time, not the delay)", m)
	}
	if m := engine.BotMove(&pacedBot{tapBot{name: "eager", think: -5}}, 0, nil, tapAction{Tap: true}, 1000, 700); m.At != 1000 {
		t.Fatalf("negative think time: at %d, want 1000", m.At)
	}
}

func TestTimeoutMove(t *testing.T) {
	st := newTap(1, 3000)
	// Legal(system) lists a refused action first: the first accepted wins.
	if m, ok := engine.TimeoutMove(st, 3000); !ok || m.Seat != engine.SystemSeat || m.At != 3000 || m.Action != (tapAction{Timeout: true}) {
		t.Fatalf("at the deadline: %+v %v", m, ok)
	}
	if m, ok := engine.TimeoutMove(st, 2999); ok {
		t.Fatalf("before the deadline: %+v accepted", m)
	}
	if m, ok := engine.TimeoutMove(newTap(1, 0), engine.Forever); ok {
		t.Fatalf("no clock: %+v", m)
	}
}

func TestPlayBots(t *testing.T) {
	t.Run("bots play to the end at the bot delay", func(t *testing.T) {
		st := newTap(2, 0)
		var stamps []int64
		err := engine.PlayBots(st, []engine.Controller{&tapBot{name: "a"}, &tapBot{name: "b"}}, engine.NewSource(1),
			func(m engine.Move, ev []engine.Event, beaten []engine.Move) {
				stamps = append(stamps, m.At)
				if len(ev) != 1 || len(beaten) != 0 {
					t.Errorf("%+v: events %v, beaten %v", m, ev, beaten)
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		want := []int64{700, 1400, 2100, 2800}
		if !reflect.DeepEqual(stamps, want) || !st.Result().Over {
			t.Fatalf("stamps %v, want %v; over %v", stamps, want, st.Result().Over)
		}
	})
	t.Run("a bot that passes with no clock is an error", func(t *testing.T) {
		err := engine.PlayBots(newTap(2, 0), []engine.Controller{&tapBot{name: "a", pass: true}, &tapBot{name: "b"}}, engine.NewSource(1), nil)
		if err == nil || !strings.Contains(err.Error(), "passed") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("a deadline beats a slow bot", func(t *testing.T) {
		st := newTap(2, 2000)
		slow := &pacedBot{tapBot{name: "slow", think: 2500}}
		var timeouts int
		var beatenSeen []engine.Move
		err := engine.PlayBots(st, []engine.Controller{slow, &tapBot{name: "fast"}}, engine.NewSource(1),
			func(m engine.Move, _ []engine.Event, beaten []engine.Move) {
				if m.Seat == engine.SystemSeat {
					timeouts++
					if m.At != st.(*tapState).lastDeadline {
						t.Errorf("timeout at %d, the deadline was %d", m.At, st.(*tapState).lastDeadline)
					}
					beatenSeen = append(beatenSeen, beaten...)
				}
			})
		if err != nil {
			t.Fatal(err)
		}
		// Seat 0 thinks 2.5 s with 2 s on the clock: both its turns time out.
		if timeouts != 2 || len(beatenSeen) != 2 || beatenSeen[0].Seat != 0 || beatenSeen[0].At != 2500 {
			t.Fatalf("%d timeouts, beaten %+v", timeouts, beatenSeen)
		}
		if got := st.Result().Scores; !reflect.DeepEqual(got, []int{0, 2}) {
			t.Fatalf("scores %v: the slow seat's taps must not count", got)
		}
	})
	t.Run("an illegal choice stops the game", func(t *testing.T) {
		err := engine.PlayBots(newTap(2, 0), []engine.Controller{&tapBot{name: "a", cheat: true}, &tapBot{name: "b"}}, engine.NewSource(1), nil)
		var re *engine.RuleError
		if !errors.As(err, &re) || !strings.Contains(err.Error(), "a bot in seat 0") {
			t.Fatalf("err %v", err)
		}
	})
	t.Run("one bot per seat", func(t *testing.T) {
		if err := engine.PlayBots(newTap(2, 0), []engine.Controller{&tapBot{name: "a"}}, engine.NewSource(1), nil); err == nil {
			t.Fatal("one bot for two seats accepted")
		}
	})
}

// tap is a tiny game for the scheduler's tests: seats take turns tapping,
// two turns each; with a clock, each turn lasts clock ms from the last move
// and a timeout passes the turn without a point.
type tapAction struct {
	Tap     bool `json:"tap,omitempty"`
	Timeout bool `json:"timeout,omitempty"`
	Noop    bool `json:"noop,omitempty"`
}

func (a tapAction) Kind() string { return fmt.Sprintf("%+v", a) }

type tapState struct {
	n, turns, seat int
	clock          int64
	now            int64
	lastDeadline   int64
	scores         []int
}

func newTap(n int, clock int64) engine.State {
	return &tapState{n: n, clock: clock, scores: make([]int, n)}
}

func (s *tapState) over() bool      { return s.turns == 2*s.n }
func (s *tapState) deadline() int64 { return s.now + s.clock }

func (s *tapState) Turn() engine.Turn {
	if s.over() {
		return engine.Turn{Over: true}
	}
	t := engine.Turn{Actors: []engine.Seat{engine.Seat(s.seat)}}
	if s.clock > 0 {
		t.Deadlines = []engine.Deadline{dl(engine.Seat(s.seat), s.deadline())}
	}
	return t
}

func (s *tapState) Legal(seat engine.Seat) []engine.Action {
	switch {
	case s.over():
		return nil
	case seat == engine.SystemSeat && s.clock > 0:
		return []engine.Action{tapAction{Noop: true}, tapAction{Timeout: true}}
	case seat == engine.Seat(s.seat):
		return []engine.Action{tapAction{Tap: true}}
	}
	return nil
}

func (s *tapState) Check(m engine.Move) error {
	a, _ := m.Action.(tapAction)
	switch {
	case s.over():
		return engine.ErrGameOver
	case a.Timeout && m.Seat == engine.SystemSeat && s.clock > 0 && m.At >= s.deadline():
		return nil
	case a.Tap && m.Seat == engine.Seat(s.seat) && (s.clock == 0 || m.At <= s.deadline()):
		return nil
	}
	return engine.ErrWrongAction
}

func (s *tapState) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	if m.Action.(tapAction).Tap {
		s.scores[s.seat]++
	} else {
		s.lastDeadline = s.deadline()
	}
	s.now = max(s.now, m.At)
	s.seat = (s.seat + 1) % s.n
	s.turns++
	return []engine.Event{{Kind: m.Action.Kind(), Seat: m.Seat}}, nil
}

func (s *tapState) SampleChance(engine.Source) engine.Action { return nil }
func (s *tapState) View(engine.Seat) any                     { return s.scores }
func (s *tapState) Players() []string                        { return make([]string, s.n) }
func (s *tapState) Clone() engine.State {
	c := *s
	c.scores = append([]int(nil), s.scores...)
	return &c
}

func (s *tapState) Result() engine.Result {
	var w []int
	if s.over() {
		w = []int{0}
	}
	return engine.NewResult(s.over(), append([]int(nil), s.scores...), w)
}

// tapBot taps (or passes, or cheats by timing out itself).
type tapBot struct {
	name        string
	think       int64
	pass, cheat bool
}

func (b *tapBot) Name() string { return b.name }
func (b *tapBot) Choose(_ any, legal []engine.Action) (engine.Action, error) {
	switch {
	case b.pass:
		return nil, nil
	case b.cheat:
		return tapAction{Timeout: true}, nil
	}
	return legal[0], nil
}

// pacedBot is a tapBot that paces itself (engine.Pacer).
type pacedBot struct{ tapBot }

func (b *pacedBot) ThinkMillis(any) int64 { return b.think }
