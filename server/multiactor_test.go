package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// voteGame is a tiny game where several seats act at once. Seat 0 starts
// it ("go", no rule clock); then every seat votes, each by its own deadline
// (5 s after the vote opened, plus 1 s per seat number); a timeout makes
// every seat whose deadline passed abstain. When nobody is left to vote the
// next vote opens; two votes end the game. Its bots log what they were
// asked, so tests can see who decided on which version.
type voteGame struct{ log *botLog }

type voteAction struct {
	A string `json:"a"`
	V string `json:"v,omitempty"`
}

func (a voteAction) Kind() string { return a.A }

const voteRounds = 2

type voteState struct {
	names   []string
	started bool
	openAt  int64
	votes   []string // "" not yet, "yes", "no", "abstain"
	voteAt  []int64
	history [][]string
	moves   int
}

// voteView is what every seat sees; Moves tells the versions apart.
type voteView struct {
	You     engine.Seat `json:"you"`
	Moves   int         `json:"moves"`
	Votes   []string    `json:"votes"`
	History [][]string  `json:"history"`
}

func (voteGame) Info() engine.Info {
	return engine.Info{ID: "vote", Title: "Vote", MinPlayers: 2, MaxPlayers: 5, DefaultBot: "yes",
		Bots: []engine.BotSpec{{Kind: "yes"}, {Kind: "pass"}, {Kind: "quick"}, {Kind: "slow"}, {Kind: "edge"}}}
}
func (voteGame) New(players []string, _ json.RawMessage) (engine.State, error) {
	return &voteState{names: players, votes: make([]string, len(players)), voteAt: make([]int64, len(players))}, nil
}

func (voteGame) DecodeAction(data []byte) (engine.Action, error) {
	var a voteAction
	if err := json.Unmarshal(data, &a); err != nil || !slices.Contains([]string{"go", "vote", "timeout"}, a.A) {
		return nil, errors.New("vote: not an action")
	}
	return a, nil
}

func (s *voteState) over() bool { return len(s.history) >= voteRounds }

func (s *voteState) deadline(seat engine.Seat) int64 { return s.openAt + 5000 + 1000*int64(seat) }

func (s *voteState) Turn() engine.Turn {
	switch {
	case s.over():
		return engine.Turn{Over: true}
	case !s.started:
		return engine.Turn{Actors: []engine.Seat{0}}
	}
	t := engine.Turn{Actors: []engine.Seat{}}
	for i, v := range s.votes {
		if v == "" {
			t.Actors = append(t.Actors, engine.Seat(i))
			t.Deadlines = append(t.Deadlines, engine.Deadline{Seat: engine.Seat(i), At: s.deadline(engine.Seat(i))})
		}
	}
	return t
}

func (s *voteState) Legal(seat engine.Seat) []engine.Action {
	switch {
	case s.over():
		return nil
	case seat == engine.SystemSeat && s.started:
		return []engine.Action{voteAction{A: "timeout"}}
	case !s.Turn().Has(seat):
		return nil
	case !s.started:
		return []engine.Action{voteAction{A: "go"}}
	}
	return []engine.Action{voteAction{A: "vote", V: "yes"}, voteAction{A: "vote", V: "no"}}
}

func (s *voteState) Check(m engine.Move) error {
	a, _ := m.Action.(voteAction)
	turn := s.Turn()
	switch {
	case s.over():
		return engine.ErrGameOver
	case m.Seat == engine.SystemSeat && a.A == "timeout" && s.started:
		for _, d := range turn.Deadlines {
			if d.At <= m.At {
				return nil
			}
		}
		return engine.Refuse("not-yet", "no deadline has passed")
	case !turn.Has(m.Seat):
		return engine.ErrNotYourTurn
	case a.A == "go" && !s.started:
		return nil
	case a.A == "vote" && s.started && (a.V == "yes" || a.V == "no"):
		if m.At > s.deadline(m.Seat) {
			return engine.Refuse("too-late", "your vote closed")
		}
		return nil
	}
	return engine.Refuse("wrong-action", "not now")
}

func (s *voteState) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	a := m.Action.(voteAction)
	switch a.A {
	case "go":
		s.started, s.openAt = true, m.At
	case "vote":
		s.votes[m.Seat], s.voteAt[m.Seat] = a.V, m.At
	case "timeout":
		for _, d := range s.Turn().Deadlines {
			if d.At <= m.At {
				s.votes[d.Seat] = "abstain"
			}
		}
	}
	s.moves++
	if s.started && !slices.Contains(s.votes, "") {
		s.history = append(s.history, s.votes)
		s.votes, s.voteAt, s.openAt = make([]string, len(s.names)), make([]int64, len(s.names)), m.At
	}
	return []engine.Event{{Kind: a.A, Seat: m.Seat}}, nil
}

func (s *voteState) SampleChance(engine.Source) engine.Action { return nil }
func (s *voteState) View(seat engine.Seat) any {
	return voteView{You: seat, Moves: s.moves, Votes: slices.Clone(s.votes), History: slices.Clone(s.history)}
}
func (s *voteState) Result() engine.Result {
	return engine.Result{Over: s.over(), Scores: make([]int, len(s.names)), Winners: []engine.Seat{}}
}
func (s *voteState) Players() []string { return s.names }
func (s *voteState) Clone() engine.State {
	c := *s
	c.votes, c.voteAt, c.history = slices.Clone(s.votes), slices.Clone(s.voteAt), slices.Clone(s.history)
	return &c
}

// The bots: yes (votes yes after the fixed bot delay), pass (never acts),
// quick (paced: votes no after 1 s of game time), slow (paced: votes yes
// after 8 s, later than any deadline), edge (paced: votes yes after 6 s,
// the very deadline of seat 1). Outside a vote each plays its first
// legal action, except pass.

func (g voteGame) NewBot(kind string, _ uint64) (engine.Controller, error) {
	b := voteBot{kind: kind, log: g.log}
	switch kind {
	case "yes", "pass":
		return b, nil
	case "quick":
		return pacedVoteBot{b, 1000}, nil
	case "slow":
		return pacedVoteBot{b, 8000}, nil
	case "edge":
		return pacedVoteBot{b, 6000}, nil // seat 1's deadline exactly
	}
	return nil, fmt.Errorf("no %q bot", kind)
}

type voteBot struct {
	kind string
	log  *botLog
}

func (b voteBot) Name() string { return b.kind }

func (b voteBot) Choose(view any, legal []engine.Action) (engine.Action, error) {
	v := view.(voteView)
	b.log.add(v.You, v.Moves)
	switch {
	case b.kind == "pass" || len(legal) == 0:
		return nil, nil
	case b.kind == "quick" && len(legal) > 1:
		return legal[1], nil // no
	}
	return legal[0], nil
}

type pacedVoteBot struct {
	voteBot
	think int64
}

func (b pacedVoteBot) ThinkMillis(any) int64 { return b.think }

// botLog records, per seat, the Moves of every view a bot decided on.
type botLog struct {
	mu   sync.Mutex
	seen map[engine.Seat][]int
}

func (l *botLog) add(seat engine.Seat, moves int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.seen == nil {
		l.seen = map[engine.Seat][]int{}
	}
	l.seen[seat] = append(l.seen[seat], moves)
}

func (l *botLog) get(seat engine.Seat) []int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return slices.Clone(l.seen[seat])
}

func voteServer(t *testing.T, cfg Config) (*testServer, *botLog, *fakeClock) {
	log := &botLog{}
	reg := &engine.Registry{}
	reg.Register(voteGame{log: log})
	clock := newFakeClock()
	cfg.Games, cfg.Clock = reg, clock
	if cfg.BotDelay == 0 {
		// The bot delay is game time on the table's clock: with a fake
		// one, bots that are not Pacers move without the clock advancing.
		cfg.BotDelay = -1
	}
	return startServer(t, cfg), log, clock
}

func voteTable(kinds ...string) map[string]any {
	seats := []map[string]any{}
	for _, k := range kinds {
		if k == "human" {
			seats = append(seats, map[string]any{"kind": "human", "bot": "yes"})
		} else {
			seats = append(seats, map[string]any{"kind": "bot", "bot": k})
		}
	}
	return map[string]any{"game": "vote", "name": "ann", "seats": seats}
}

// inActor runs f in the table's actor (tests of this package may look inside).
func inActor[T any](t *testing.T, ts *testServer, id string, f func(tb *table) T) T {
	t.Helper()
	tb := ts.running(id)
	if tb == nil {
		t.Fatalf("table %s is not running", id)
	}
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	v, err := call(ctx, tb, func() T { return f(tb) })
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// waitPlans waits until each seat's bot has decided for the table's current
// version (a move waiting for its time, or a pass) and returns the game
// times of the waiting moves (-1: a pass).
func waitPlans(t *testing.T, ts *testServer, id string, seats ...engine.Seat) []int64 {
	t.Helper()
	deadline := time.Now().Add(waitLimit)
	for {
		at := inActor(t, ts, id, func(tb *table) []int64 {
			out := []int64{}
			for _, s := range seats {
				p := tb.plans[s]
				if p == nil || p.deciding || !tb.current(s, p) {
					return nil
				}
				if p.pending == nil {
					out = append(out, -1)
				} else {
					out = append(out, p.pending.At)
				}
			}
			return out
		})
		if at != nil {
			return at
		}
		if time.Now().After(deadline) {
			t.Fatalf("the bots of seats %v did not decide", seats)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

type storedMove struct {
	Seat   engine.Seat
	At     int64
	Action string
}

func storedMoves(t *testing.T, ts *testServer, id string) []storedMove {
	t.Helper()
	moves, err := ts.store.Moves(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	out := make([]storedMove, len(moves))
	for i, m := range moves {
		out[i] = storedMove{m.Seat, m.At, string(m.Action)}
	}
	return out
}

func voteOf(m msg, t *testing.T) voteView {
	t.Helper()
	var v voteView
	if err := json.Unmarshal(m.View, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestBotsVoteTogetherAndPass(t *testing.T) {
	ts, log, clock := voteServer(t, Config{})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(voteTable("human", "yes", "yes", "pass"))
	ca := ann.connect(id)
	if w := ca.next(); w.Deadline != 0 {
		t.Fatalf("no clock at the start: %s", w.raw)
	}
	spec := bob.connect(id)
	spec.next()

	ca.send(map[string]any{"type": "act", "action": map[string]any{"a": "go"}})
	if u := ca.await("update", nil); u.Deadline != 5000 || len(u.Turn.Actors) != 4 {
		t.Fatalf("the vote opens, ann's own deadline: %s", u.raw)
	}
	// Both yes bots vote (in either order); the pass bot does nothing.
	u := ca.await("update", func(m msg) bool { return !m.Turn.Has(1) && !m.Turn.Has(2) })
	if u.Deadline != 5000 || !u.Turn.Has(0) || !u.Turn.Has(3) {
		t.Fatalf("after the bots' votes: %s", u.raw)
	}
	// Spectators see the nearest deadline (ann's, seat 0).
	if s := spec.await("update", func(m msg) bool { return m.Version == u.Version }); s.Deadline != 5000 {
		t.Fatalf("spectator's deadline: %s", s.raw)
	}
	ca.send(map[string]any{"type": "act", "action": map[string]any{"a": "vote", "v": "no"}})
	u = ca.await("update", func(m msg) bool { return m.Move.Seat == 0 })
	if u.Deadline != 8000 || !slices.Equal(u.Turn.Actors, []engine.Seat{3}) {
		t.Fatalf("ann voted: she sees the deadline of the last voter: %s", u.raw)
	}
	// The pass bot is asked once per version, never twice for one.
	if at := waitPlans(t, ts, id, 3); at[0] != -1 {
		t.Fatalf("the pass bot has a move: %v", at)
	}
	ca.quiet(30 * time.Millisecond)
	seen := log.get(3)
	if len(seen) == 0 || len(seen) > 4 || hasDup(seen) {
		t.Fatalf("the pass bot decided on views %v", seen)
	}
	// Its deadline closes the vote; the next one opens at once.
	clock.Advance(7999 * time.Millisecond)
	ca.quiet(30 * time.Millisecond)
	clock.Advance(time.Millisecond)
	to := ca.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	if v := voteOf(to, t); len(v.History) != 1 || !slices.Equal(v.History[0], []string{"no", "yes", "yes", "abstain"}) {
		t.Fatalf("first vote: %s", to.raw)
	}
	// Second vote: ann lets her clock run out as well.
	ca.await("update", func(m msg) bool { return slices.Equal(m.Turn.Actors, []engine.Seat{0, 3}) })
	waitPlans(t, ts, id, 3)
	clock.Advance(8 * time.Second)
	end := ca.await("update", func(m msg) bool { return m.Turn.Over })
	if v := voteOf(end, t); !slices.Equal(v.History[1], []string{"abstain", "yes", "yes", "abstain"}) {
		t.Fatalf("second vote: %s", end.raw)
	}
	moves := storedMoves(t, ts, id)
	if n := len(moves); n != 8 || moves[4].At != 8000 || moves[n-1].At != 16000 || moves[n-1].Seat != engine.SystemSeat {
		t.Fatalf("stored moves: %+v", moves)
	}
	if seen := log.get(3); hasDup(seen) {
		t.Fatalf("the pass bot was asked twice for one version: %v", seen)
	}
}

func hasDup(xs []int) bool {
	s := slices.Clone(xs)
	slices.Sort(s)
	return len(slices.Compact(s)) != len(xs)
}

func TestPacedBotsRaceTheDeadline(t *testing.T) {
	ts, log, clock := voteServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(voteTable("human", "quick", "slow"))
	ca := ann.connect(id)
	ca.next()
	ca.send(map[string]any{"type": "act", "action": map[string]any{"a": "go"}})
	ca.await("update", nil)

	// Both bots think from game time 0: quick plays at 1 s, slow at 8 s,
	// after its own deadline (7 s).
	if at := waitPlans(t, ts, id, 1, 2); !slices.Equal(at, []int64{1000, 8000}) {
		t.Fatalf("planned times: %v", at)
	}
	clock.Advance(999 * time.Millisecond)
	ca.quiet(30 * time.Millisecond)
	clock.Advance(501 * time.Millisecond)
	u := ca.await("update", nil)
	if u.Move.Seat != 1 || string(u.Move.Action) != `{"a":"vote","v":"no"}` {
		t.Fatalf("quick's vote: %s", u.raw)
	}
	// Slow's decision went stale: it thinks again on the new view (of 1 s).
	if at := waitPlans(t, ts, id, 2); at[0] != 9000 {
		t.Fatalf("slow re-planned at %v", at)
	}
	// Ann's vote makes it stale once more.
	clock.Advance(500 * time.Millisecond)
	ca.send(map[string]any{"type": "act", "action": map[string]any{"a": "vote", "v": "yes"}})
	ca.await("update", func(m msg) bool { return m.Move.Seat == 0 })
	if at := waitPlans(t, ts, id, 2); at[0] != 10000 {
		t.Fatalf("slow re-planned at %v", at)
	}
	// Its deadline (7 s) passes before it is done thinking: it abstains.
	clock.Advance(4999 * time.Millisecond)
	ca.quiet(30 * time.Millisecond)
	clock.Advance(time.Millisecond)
	to := ca.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	if v := voteOf(to, t); !slices.Equal(v.History[0], []string{"yes", "no", "abstain"}) {
		t.Fatalf("first vote: %s", to.raw)
	}
	want := []storedMove{{0, 0, `{"a":"go"}`}, {1, 1000, `{"a":"vote","v":"no"}`},
		{0, 2000, `{"a":"vote","v":"yes"}`}, {engine.SystemSeat, 7000, `{"a":"timeout"}`}}
	if got := storedMoves(t, ts, id); !slices.Equal(got, want) {
		t.Fatalf("stored moves:\n got %+v\nwant %+v", got, want)
	}
	if seen := log.get(2); !slices.Equal(seen[:3], []int{1, 2, 3}) {
		t.Fatalf("slow decided on views %v, want one per version", seen)
	}

	// Second vote, opened at 7 s. The clock jumps far past everything at
	// once: the moves are still played in the order of their times, quick
	// at 8 s, then the timeout of ann (12 s) beats slow (15 s).
	if at := waitPlans(t, ts, id, 1, 2); !slices.Equal(at, []int64{8000, 15000}) {
		t.Fatalf("planned times: %v", at)
	}
	clock.Advance(30 * time.Second)
	end := ca.await("update", func(m msg) bool { return m.Turn.Over })
	if v := voteOf(end, t); !slices.Equal(v.History[1], []string{"abstain", "no", "abstain"}) {
		t.Fatalf("second vote: %s", end.raw)
	}
	got := storedMoves(t, ts, id)[4:]
	if len(got) != 2 || got[0] != (storedMove{1, 8000, `{"a":"vote","v":"no"}`}) || got[1].Seat != engine.SystemSeat {
		t.Fatalf("second vote's moves: %+v", got)
	}
}

func TestTurnClockOnlyWhereTheRulesSetNone(t *testing.T) {
	ts, _, clock := voteServer(t, Config{})
	ann := newPlayer(t, ts)
	body := voteTable("human", "yes")
	body["settings"] = map[string]any{"turnSeconds": 3}
	id := ann.create(body)
	ca := ann.connect(id)
	if w := ca.next(); w.Deadline != 3000 {
		t.Fatalf("the turn clock runs while the rules set none: %s", w.raw)
	}
	clock.Advance(time.Second)
	ca.send(map[string]any{"type": "act", "action": map[string]any{"a": "go"}})
	if u := ca.await("update", nil); u.Deadline != 5000 {
		t.Fatalf("in the vote the rules' deadline replaces the turn clock: %s", u.raw)
	}
	ca.await("update", func(m msg) bool { return m.Move.Seat == 1 })
	if n := inActor(t, ts, id, func(tb *table) int { return len(tb.clocks()) }); n != 0 {
		t.Fatalf("%d turn clocks run during a timed vote", n)
	}
	clock.Advance(4 * time.Second)
	ca.quiet(30 * time.Millisecond)
	if s := ann.summary(id); s.Seats[0].TakenOver {
		t.Fatal("taken over by the turn clock during a timed vote")
	}
	clock.Advance(time.Second)
	to := ca.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	if v := voteOf(to, t); !slices.Equal(v.History[0], []string{"abstain", "yes"}) {
		t.Fatalf("ann timed out: %s", to.raw)
	}

	// Another table: ann never says go, so her turn clock hands the seat to
	// her bot, which plays on, votes included.
	id2 := ann.create(body)
	c2 := ann.connect(id2)
	c2.next()
	clock.Advance(3 * time.Second)
	c2.await("presence", seatTakenOver(0, true))
	end := c2.await("update", func(m msg) bool { return m.Turn.Over })
	if v := voteOf(end, t); !slices.Equal(v.History[1], []string{"yes", "yes"}) {
		t.Fatalf("the taken-over seat votes: %s", end.raw)
	}
}

func TestBotThatPassesWhereNobodyElseCanActPlays(t *testing.T) {
	ts, _, clock := voteServer(t, Config{})
	watcher := newPlayer(t, ts)
	id := watcher.create(map[string]any{"game": "vote",
		"seats": []map[string]any{{"kind": "bot", "bot": "pass"}, {"kind": "bot", "bot": "yes"}}})
	c := watcher.connect(id)
	c.next()
	// Seat 0 must say go and nothing else can: its pass is replaced by its
	// first legal action. In the vote its pass stands until the deadline.
	// (Without a bot delay both moves are made before anyone connects.)
	limit := time.Now().Add(waitLimit)
	for watcher.summary(id).Version < 2 {
		if time.Now().After(limit) {
			t.Fatalf("the bots did not start the vote: %+v", storedMoves(t, ts, id))
		}
		time.Sleep(2 * time.Millisecond)
	}
	if got := storedMoves(t, ts, id); got[0] != (storedMove{0, 0, `{"a":"go"}`}) || got[1].Seat != 1 {
		t.Fatalf("the start: %+v", got)
	}
	waitPlans(t, ts, id, 0)
	clock.Advance(5 * time.Second)
	to := c.await("update", func(m msg) bool { return m.Move.Seat == engine.SystemSeat })
	if v := voteOf(to, t); !slices.Equal(v.History[0], []string{"abstain", "yes"}) {
		t.Fatalf("first vote: %s", to.raw)
	}
}
