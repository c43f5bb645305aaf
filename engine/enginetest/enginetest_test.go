package enginetest

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// race is a tiny game for testing the suite: seats take turns adding 1 or
// 2 to a total, within a second each (a timeout adds nothing); whoever
// brings it to 12 wins. Each flag breaks one promise the suite checks.
type race struct {
	checkLies      bool // Check accepts adding 2 on an odd total; Apply refuses
	legalOffTurn   bool // Legal lists an action for a seat not on turn
	mutateOnRefuse bool // Apply counts refusals in the state it shows
	sharedClone    bool // clones share the tally of adds
	neverEnds      bool // the total wraps round before the target
	lossyDecode    bool // DecodeAction drops "add"
	plainRefusal   bool // refusals are plain errors
	manyPlayers    bool // New accepts more players than Info says
}

const raceTarget = 12

type raceAction struct {
	Add     int  `json:"add,omitempty"`
	Timeout bool `json:"timeout,omitempty"`
}

func (a raceAction) Kind() string {
	if a.Timeout {
		return "timeout"
	}
	return "add"
}

func (g race) Info() engine.Info {
	return engine.Info{ID: "race", Title: "Race", MinPlayers: 2, MaxPlayers: 3,
		Options:  []engine.OptionSpec{{Name: "target", Type: engine.OptionInt, Default: []byte("12"), Min: 12, Max: 12, Label: "race.target"}},
		Messages: map[string]string{"race.target": "Target"}}
}

func (g race) New(players []string, options json.RawMessage) (engine.State, error) {
	if len(players) < 2 || len(players) > 3 && !g.manyPlayers {
		return nil, fmt.Errorf("race is for 2 or 3 players")
	}
	if len(options) > 0 {
		var o struct {
			Target *int `json:"target"`
		}
		if err := engine.DecodeStrict(options, &o); err != nil {
			return nil, err
		}
		if o.Target != nil && *o.Target != raceTarget {
			return nil, fmt.Errorf("target %d", *o.Target)
		}
	}
	return &raceState{g: g, names: players, deadline: 1000, tally: make([]int, 3)}, nil
}

func (g race) DecodeAction(data []byte) (engine.Action, error) {
	var a raceAction
	if err := engine.DecodeStrict(data, &a); err != nil {
		return nil, err
	}
	if a.Add == 0 && !a.Timeout || a.Add != 0 && a.Timeout {
		return nil, errors.New("an action adds or times out")
	}
	if g.lossyDecode && a.Add == 2 {
		a.Add = 1
	}
	return a, nil
}

type raceState struct {
	g        race
	names    []string
	total    int
	turn     int
	now      int64
	deadline int64
	refused  int
	tally    []int // adds of 1 and of 2
}

func (s *raceState) over() bool { return s.total >= raceTarget }

func (s *raceState) Turn() engine.Turn {
	if s.over() {
		return engine.Turn{Over: true}
	}
	seat := engine.Seat(s.turn)
	return engine.Turn{Actors: []engine.Seat{seat}, Deadlines: []engine.Deadline{{Seat: seat, At: s.deadline}}}
}

func (s *raceState) Legal(seat engine.Seat) []engine.Action {
	switch {
	case s.over():
		return nil
	case seat == engine.SystemSeat:
		return []engine.Action{raceAction{Timeout: true}}
	case s.g.legalOffTurn && seat == engine.Seat((s.turn+1)%len(s.names)):
		return []engine.Action{raceAction{Add: 1}}
	case seat != engine.Seat(s.turn):
		return nil
	}
	out := []engine.Action{raceAction{Add: 1}}
	if s.total+2 <= raceTarget {
		out = append(out, raceAction{Add: 2})
	}
	return out
}

func (s *raceState) refuse(rule, msg string) error {
	if s.g.plainRefusal {
		return errors.New(msg)
	}
	return engine.Refuse(rule, msg)
}

func (s *raceState) Check(m engine.Move) error {
	a, ok := m.Action.(raceAction)
	at := max(m.At, s.now)
	switch {
	case !ok:
		return s.refuse("bad-action", "not a race action")
	case s.over():
		return engine.ErrGameOver
	case a.Timeout:
		if m.Seat != engine.SystemSeat || at < s.deadline {
			return s.refuse("no-timeout", "no clock ran out")
		}
		return nil
	case m.Seat != engine.Seat(s.turn):
		return s.refuse("not-your-turn", "not your turn")
	case at > s.deadline:
		return s.refuse("too-late", "the time ran out")
	case a.Add < 1 || a.Add > 2 || s.total+a.Add > raceTarget:
		return s.refuse("bad-add", "add 1 or 2, up to the target")
	}
	return nil
}

func (s *raceState) Apply(m engine.Move) ([]engine.Event, error) {
	err := s.Check(m)
	if err == nil && s.g.checkLies && m.Action.(raceAction).Add == 2 && s.total%2 == 1 {
		err = s.refuse("odd", "no 2 on an odd total")
	}
	if err != nil {
		if s.g.mutateOnRefuse {
			s.refused++
		}
		return nil, err
	}
	a := m.Action.(raceAction)
	s.now = max(s.now, m.At)
	s.total += a.Add
	if s.g.neverEnds && s.total >= raceTarget-1 {
		s.total = 0
	}
	s.tally[a.Add]++
	s.turn = (s.turn + 1) % len(s.names)
	s.deadline = s.now + 1000
	return []engine.Event{{Kind: a.Kind(), Seat: m.Seat, Data: a}}, nil
}

func (s *raceState) SampleChance(engine.Source) engine.Action { return nil }

func (s *raceState) View(engine.Seat) any {
	return map[string]any{"total": s.total, "turn": s.turn, "refused": s.refused, "tally": s.tally}
}

func (s *raceState) Result() engine.Result {
	scores := make([]int, len(s.names))
	var winners []int
	if s.over() {
		winners = []int{(s.turn + len(s.names) - 1) % len(s.names)}
		scores[winners[0]] = 1
	}
	return engine.NewResult(s.over(), scores, winners)
}

func (s *raceState) Players() []string { return s.names }

func (s *raceState) Clone() engine.State {
	c := *s
	if !s.g.sharedClone {
		c.tally = slices.Clone(s.tally)
	}
	return &c
}

// recorder is a testing.TB that records the suite's failures instead of
// failing, so a test can require them.
type recorder struct {
	testing.TB // only Helper and Errorf are called
	errs       []string
}

func (r *recorder) Helper() {}
func (r *recorder) Errorf(format string, args ...any) {
	r.errs = append(r.errs, fmt.Sprintf(format, args...))
}

func (s *suite) all(tb testing.TB) {
	s.checkInfo(tb)
	s.checkGarbage(tb)
	for _, n := range s.players() {
		s.checkGames(tb, n, "")
	}
}

func TestSoundGamePasses(t *testing.T) {
	Run(t, race{}, Config{})
}

// TestBrokenGamesFail runs the suite on games that each break one promise
// and requires the suite to say so, in words naming the promise.
func TestBrokenGamesFail(t *testing.T) {
	cases := []struct {
		name string
		g    race
		want string
	}{
		{"Check accepts what Apply refuses", race{checkLies: true}, "Check accepts"},
		{"Legal lists for a seat off turn", race{legalOffTurn: true}, "Legal(seat"},
		{"a refusal changes the state", race{mutateOnRefuse: true}, "changed the state"},
		{"clones share state", race{sharedClone: true}, "clone"},
		{"the game never ends", race{neverEnds: true}, "has not ended after"},
		{"decoding loses a field", race{lossyDecode: true}, "decodes to an action encoding as"},
		{"refusals are plain errors", race{plainRefusal: true}, "not a *engine.RuleError"},
		{"New accepts more players than Info", race{manyPlayers: true}, "New accepts 4 players"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rec := &recorder{}
			s := &suite{g: c.g, info: c.g.Info(), cfg: Config{MaxMoves: 200}}
			s.all(rec)
			if len(rec.errs) == 0 {
				t.Fatal("the suite passed a broken game")
			}
			for _, e := range rec.errs {
				if strings.Contains(e, c.want) {
					return
				}
			}
			t.Fatalf("no failure mentions %q:\n%s", c.want, strings.Join(rec.errs, "\n"))
		})
	}
}

// TestTryReportsBrokenPromises checks the step helper fuzz targets use.
func TestTryReportsBrokenPromises(t *testing.T) {
	st, err := race{mutateOnRefuse: true}.New(Names(2), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok, err := Try(st, engine.Move{Seat: 0, Action: raceAction{Add: 1}}); !ok || err != nil {
		t.Fatalf("a legal move: accepted %v, %v", ok, err)
	}
	if _, ok, err := Try(st, engine.Move{Seat: 0, Action: raceAction{Add: 1}}); ok || err == nil || !strings.Contains(err.Error(), "changed the state") {
		t.Fatalf("a refusal that changes the state: accepted %v, %v", ok, err)
	}
	st, _ = race{checkLies: true}.New(Names(2), nil) // total 0: even
	Try(st, engine.Move{Seat: 0, Action: raceAction{Add: 1}})
	if _, _, err := Try(st, engine.Move{Seat: 1, Action: raceAction{Add: 2}}); err == nil || !strings.Contains(err.Error(), "Check accepts") {
		t.Fatalf("Check accepting what Apply refuses: %v", err)
	}
	if err := DecodeRoundTrip(race{}, []byte(`{"add":2}`)); err != nil {
		t.Fatal(err)
	}
}
