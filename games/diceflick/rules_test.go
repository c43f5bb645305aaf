package diceflick

import (
	"encoding/json"
	"errors"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// fakeSim lands a flick in a free hole chosen from its power and angle, in
// the trench when the power is under 0.1, out of the box above 0.95. It is
// deterministic, like the real simulation, and adds the noise so that the
// noise visibly matters.
var fakeSim = SimFunc(func(occ [Holes]bool, f physics.Flick, an, pn float64) physics.Landing {
	p := f.Power + pn
	switch {
	case p < 0.1:
		return physics.Landing{Hole: physics.NoHole, Path: []physics.Point{{X: 0, Y: -100}, {X: 0, Y: -90}}}
	case p > 0.95:
		return physics.Landing{Hole: physics.NoHole, Out: true}
	}
	h := (int(p*100) + int(math.Round((f.Angle+an)*10)) + 7*f.Base) % Holes
	h = (h + Holes) % Holes
	for i := range Holes {
		if !occ[(h+i)%Holes] {
			return physics.Landing{Hole: (h + i) % Holes, Path: []physics.Point{{X: 0, Y: -100}, {X: float64(h), Y: 0}}}
		}
	}
	return physics.Landing{Hole: physics.NoHole}
})

func newMatch(t testing.TB, players int, options string) *Match {
	t.Helper()
	names := []string{"ann", "bob", "cy", "di"}[:players]
	var raw json.RawMessage
	if options != "" {
		raw = json.RawMessage(options)
	}
	m, err := NewMatch(fakeSim, names, raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func apply(t testing.TB, m *Match, seat engine.Seat, a Action) []engine.Event {
	t.Helper()
	ev, err := m.Apply(engine.Move{Seat: seat, Action: a})
	if err != nil {
		t.Fatalf("%s %+v: %v", a.Kind(), a, err)
	}
	return ev
}

func refused(t testing.TB, m *Match, seat engine.Seat, a Action, rule string) {
	t.Helper()
	before := m.S
	_, err := m.Apply(engine.Move{Seat: seat, Action: a})
	if !errors.Is(err, engine.Refuse(rule, "")) {
		t.Fatalf("%s %+v: got %v, want %s", a.Kind(), a, err, rule)
	}
	if m.S != before {
		t.Fatal("a refused move changed the state")
	}
}

func draw(cs ...Color) Action { return Action{Type: ActDraw, Dice: cs} }
func flick(die int) Action {
	return Action{Type: ActFlick, Die: die, Flick: physics.Flick{Base: 0, Angle: 0.1, Power: 0.5}}
}
func land(t testing.TB, where string, face int) Action {
	a, err := ParseLanding(where, face)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
func score(ch Choice) Action { return Action{Type: ActScore, Choice: ch} }

const me = engine.Seat(0)
const nature = engine.ChanceSeat

// flickTo flicks die 0 of the current player into where, face up.
func flickTo(t testing.TB, m *Match, where string, face int) []engine.Event {
	t.Helper()
	seat := engine.Seat(m.S.Current)
	ev := apply(t, m, seat, flick(0))
	return append(ev, apply(t, m, nature, land(t, where, face))...)
}

func TestTurnStartDraw(t *testing.T) {
	m := newMatch(t, 2, "")
	if tn := m.Turn(); !tn.Chance || m.S.Phase != PhaseDraw || m.S.ToDraw != 3 {
		t.Fatalf("a game opens with nature drawing 3 dice: %+v %s %d", tn, m.S.Phase, m.S.ToDraw)
	}
	refused(t, m, me, flick(0), engine.ErrChancePending.Rule)
	refused(t, m, nature, draw(Blue, Blue), RuleDrawCount)
	refused(t, m, nature, draw(Pink, Pink, Pink), RuleNotInBag)
	ev := apply(t, m, nature, draw(White, Pink, Blue))
	if ev[0].Kind != "draw" || !slices.Equal(m.S.HandOf(0), []Color{White, Pink, Blue}) {
		t.Fatalf("events %+v, hand %v", ev, m.S.HandOf(0))
	}
	if m.S.Bag != [NumColors]int8{2, 4, 5, 5, 1} || m.S.Phase != PhaseFlick || m.S.FlicksLeft != 2 {
		t.Fatalf("bag %v phase %s flicks %d", m.S.Bag, m.S.Phase, m.S.FlicksLeft)
	}
	refused(t, m, 1, flick(0), engine.ErrNotYourTurn.Rule)
	refused(t, m, nature, draw(Blue), engine.ErrWrongAction.Rule)
}

func TestFlickChecks(t *testing.T) {
	m := newMatch(t, 1, "")
	apply(t, m, nature, draw(Blue, Blue, Pink))
	bad := []physics.Flick{
		{Base: 4, Power: 0.5}, {Base: -1, Power: 0.5},
		{Power: 1.5}, {Power: -0.1}, {Power: math.NaN()},
		{Angle: 2, Power: 0.5}, {Angle: math.NaN(), Power: 0.5},
		{Offset: 0.5, Power: 0.5}, // bases are centred without the variant
	}
	for _, f := range bad {
		refused(t, m, me, Action{Type: ActFlick, Flick: f}, RuleBadFlick)
	}
	refused(t, m, me, flick(3), RuleNoSuchDie)
	refused(t, m, me, score(Choice{}), RuleMustFlick)
	if _, err := m.Apply(engine.Move{Seat: me, Action: score(Choice{})}); err == nil || err.Error() != "2 more flicks first: each turn flicks 2 dice" {
		t.Errorf("scoring before flicking: %v", err)
	}

	v := newMatch(t, 1, `{"shiftBases": true}`)
	apply(t, v, nature, draw(Blue, Blue, Pink))
	apply(t, v, me, Action{Type: ActFlick, Die: 2, Flick: physics.Flick{Base: 3, Offset: -0.5, Angle: -1.3, Power: 0.5}})
	if v.S.InFlight != Pink || !slices.Equal(v.S.HandOf(0), []Color{Blue, Blue}) {
		t.Fatalf("in flight %s, hand %v", v.S.InFlight, v.S.HandOf(0))
	}
}

func TestLandingChecks(t *testing.T) {
	m := newMatch(t, 1, "")
	apply(t, m, nature, draw(Blue, Pink, Green))
	flickTo(t, m, "0,0", 4)
	apply(t, m, me, flick(0)) // the pink die
	refused(t, m, me, score(Choice{}), engine.ErrChancePending.Rule)
	refused(t, m, nature, land(t, "0,0", 0), RuleHoleTaken)
	refused(t, m, nature, land(t, "0,1", 3), RuleBadFace) // a blast die has no pips
	refused(t, m, nature, Action{Type: ActLand, Hole: 25}, RuleBadHole)
	refused(t, m, nature, Action{Type: ActLand, Hole: 3, Out: true}, RuleBadHole)
	refused(t, m, nature, Action{Type: ActLand, Hole: 3, Path: []physics.Point{{X: math.Inf(1)}}}, RuleBadPath)
	apply(t, m, nature, land(t, "0,1", 0))
	if c := m.S.Arena[1]; c.Color() != Pink || !c.Full() {
		t.Fatalf("hole 0,1 holds %v", c)
	}
	m2 := newMatch(t, 1, "")
	apply(t, m2, nature, draw(Blue, Blue, Blue))
	apply(t, m2, me, flick(0))
	refused(t, m2, nature, land(t, "1,0", 0), RuleBadFace)
	refused(t, m2, nature, land(t, "1,0", 7), RuleBadFace)
	refused(t, m2, nature, land(t, "trench", 2), RuleBadFace)
}

// A die in the trench or out of the box goes straight back into the bag.
func TestTrenchAndOutGoBackToTheBag(t *testing.T) {
	m := newMatch(t, 1, "")
	apply(t, m, nature, draw(Yellow, Green, Green))
	ev := flickTo(t, m, "trench", 0)
	if m.S.Bag[Yellow] != 5 {
		t.Fatalf("yellow in bag %d, want 5 (back from the trench)", m.S.Bag[Yellow])
	}
	if le := ev[1].Data.(LandEvent); le.Where != "trench" || len(le.Path) != 0 {
		t.Fatalf("land event %+v", le)
	}
	flickTo(t, m, "out", 0)
	if m.S.Bag[Green] != 4 || m.S.Phase != PhaseScore || !slices.Equal(m.S.HandOf(0), []Color{Green}) {
		t.Fatalf("bag %v, phase %s, hand %v: the third die stays in hand", m.S.Bag, m.S.Phase, m.S.HandOf(0))
	}
}

// Scoring: the choice's dice go back to the bag, the rest stay; the kept
// die stays in hand and the next turn draws up to 3.
func TestScoringReturnsDiceAndKeepsTheRest(t *testing.T) {
	m := newMatch(t, 2, "")
	apply(t, m, nature, draw(Green, Green, Blue))
	flickTo(t, m, "4,1", 4)
	flickTo(t, m, "4,2", 3)
	rep := m.Report()
	if rep.Best == nil || rep.Best.Total != 9 {
		t.Fatalf("best offer %+v, want 9 (2 green + the green marker)", rep.Best)
	}
	ev := apply(t, m, me, score(Choice{Groups: [][]int{{16, 21, 22}}}))
	se := ev[0].Data.(ScoreEvent)
	if se.Total != 9 || se.Best != 9 || !slices.Equal(se.Returned, []string{"green:4", "green:3"}) {
		t.Fatalf("score event %+v", se)
	}
	if m.S.Arena[21].Full() || m.S.Bag[Green] != 5 || m.S.Totals[0] != 9 || m.S.Current != 1 {
		t.Fatalf("after scoring: arena %v bag %v totals %v current %d", m.S.Arena, m.S.Bag, m.S.Totals, m.S.Current)
	}
	// Bob scores nothing: his dice stay in the arena.
	apply(t, m, nature, draw(Yellow, Yellow, White))
	flickTo(t, m, "0,0", 6)
	flickTo(t, m, "0,4", 6)
	apply(t, m, 1, score(Choice{}))
	if !m.S.Arena[0].Full() || !m.S.Arena[4].Full() || m.S.Scores[1][0] != 0 {
		t.Fatal("unscored dice must stay in the arena")
	}
	// Round 2: Ann kept her blue die and draws 2.
	if m.S.Round != 1 || m.S.Current != 0 || m.S.ToDraw != 2 {
		t.Fatalf("round %d current %d to draw %d", m.S.Round, m.S.Current, m.S.ToDraw)
	}
}

// The bonus marker: a die landing on it brings one more die from the bag
// and one more flick, which the player may skip.
func TestBonusFlick(t *testing.T) {
	m := newMatch(t, 1, "")
	apply(t, m, nature, draw(Blue, Blue, Blue))
	ev := flickTo(t, m, "3,3", 2)
	if !ev[1].Data.(LandEvent).Bonus || m.S.Phase != PhaseDraw || m.S.ToDraw != 1 || m.S.FlicksLeft != 2 {
		t.Fatalf("bonus: %+v phase %s to draw %d flicks %d", ev[1].Data, m.S.Phase, m.S.ToDraw, m.S.FlicksLeft)
	}
	ev = apply(t, m, nature, draw(White))
	if !ev[0].Data.(DrawEvent).Bonus || m.S.NHand[0] != 3 {
		t.Fatalf("bonus draw %+v hand %v", ev[0].Data, m.S.HandOf(0))
	}
	refused(t, m, me, score(Choice{}), RuleMustFlick) // the 2nd flick is owed
	if _, err := m.Apply(engine.Move{Seat: me, Action: score(Choice{})}); err == nil || err.Error() != "1 more flick first: each turn flicks 2 dice" {
		t.Errorf("scoring before the 2nd flick: %v", err)
	}
	flickTo(t, m, "0,0", 1)
	if !m.S.MayStop() || m.Report().Best == nil {
		t.Fatal("only the bonus flick is left: the player may score now")
	}
	flickTo(t, m, "0,1", 1) // taking the bonus flick: 3 dice this turn
	if m.S.Phase != PhaseScore || m.S.NHand[0] != 1 {
		t.Fatalf("phase %s hand %v", m.S.Phase, m.S.HandOf(0))
	}

	// Skipping it: the bonus die stays in hand.
	m = newMatch(t, 1, "")
	apply(t, m, nature, draw(Blue, Blue, Blue))
	flickTo(t, m, "0,0", 1)
	flickTo(t, m, "3,3", 1)
	apply(t, m, nature, draw(Green))
	apply(t, m, me, score(Choice{}))
	if m.S.NHand[0] != 2 || m.S.ToDraw != 1 {
		t.Fatalf("hand %v to draw %d: the skipped bonus die stays in front of the player", m.S.HandOf(0), m.S.ToDraw)
	}
}

// An empty bag: draw what is there; with no die in hand the turn goes
// straight to scoring.
func TestEmptyBag(t *testing.T) {
	m := newMatch(t, 1, `{"components": {"dice": [0, 2, 0, 0, 0], "centre": 12, "markers": [-1, 6, 8, 16, -1], "bonus": 18,
		"markerPoints": 2, "blastPoints": 6, "rounds": 3, "handSize": 3, "flicks": 2, "maxAngle": 1, "angleNoise": 0, "powerNoise": 0}}`)
	if m.S.ToDraw != 2 {
		t.Fatalf("to draw %d, want the 2 dice there are", m.S.ToDraw)
	}
	apply(t, m, nature, draw(Blue, Blue))
	flickTo(t, m, "0,0", 5)
	flickTo(t, m, "4,4", 5)
	apply(t, m, me, score(Choice{}))
	if m.S.Phase != PhaseScore || m.S.FlicksLeft != 0 {
		t.Fatalf("an empty bag and hand: phase %s, want score", m.S.Phase)
	}
	apply(t, m, me, score(Choice{}))
	apply(t, m, me, score(Choice{}))
	if !m.S.Over() {
		t.Fatal("3 rounds played")
	}
}

// Turn order, 10 rounds, totals, round ends, game over and shared wins;
// 1 player practises alone.
func TestGameFlowAndWinners(t *testing.T) {
	for _, players := range []int{1, 2, 3, 4} {
		m := newMatch(t, players, "")
		tab := &engine.Runner{State: m, Source: engine.NewSource(uint64(players))}
		rounds, overs := 0, 0
		for turn := 0; !m.S.Over(); turn++ {
			if want := turn % players; m.S.Current != want {
				t.Fatalf("turn %d: %d plays, want %d", turn, m.S.Current, want)
			}
			if _, err := tab.ResolveChance(0, nil); err != nil {
				t.Fatal(err)
			}
			for m.S.Phase == PhaseFlick {
				if _, err := tab.State.Apply(engine.Move{Seat: engine.Seat(m.S.Current), Action: Action{Type: ActFlick, Flick: physics.Flick{Power: 0.3 + 0.05*float64(turn%10)}}}); err != nil {
					t.Fatal(err)
				}
				if _, err := tab.ResolveChance(0, nil); err != nil {
					t.Fatal(err)
				}
			}
			_, best := func() (int, Choice) { b := m.S.Board(); return b.Solve() }()
			ev, err := m.Apply(engine.Move{Seat: engine.Seat(m.S.Current), Action: score(best)})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				switch e.Kind {
				case "round-end":
					rounds++
				case "game-over":
					overs++
				}
			}
		}
		r := m.Result()
		if rounds != 10 || overs != 1 || !r.Over || len(r.Winners) == 0 {
			t.Fatalf("%d players: %d rounds, %d game-overs, result %+v", players, rounds, overs, r)
		}
		rep := m.Report()
		for _, p := range rep.Players {
			sum := 0
			for _, s := range p.Scores {
				sum += s
			}
			if len(p.Scores) != 10 || sum != p.Total {
				t.Fatalf("%s: scores %v total %d", p.Name, p.Scores, p.Total)
			}
		}
		if rep.Practice != (players == 1) {
			t.Fatalf("practice %v with %d players", rep.Practice, players)
		}
		refused(t, m, 0, score(Choice{}), engine.ErrGameOver.Rule)
	}
}

func TestTiesShareTheVictory(t *testing.T) {
	s := State{NPlayers: 3, Totals: [MaxPlayers]int{40, 52, 52}}
	if w := s.Winners(); !slices.Equal(w, []int{1, 2}) {
		t.Fatalf("winners %v", w)
	}
}

// TestRoundsOption: a game has 1 to MaxRounds rounds; absent is the
// components' 10, and 0 is refused, not read as absent.
func TestRoundsOption(t *testing.T) {
	cases := []struct {
		opts   string
		rounds int // 0: refused
	}{
		{``, 10},
		{`{"rounds":1}`, 1},
		{`{"rounds":20}`, 20},
		{`{"rounds":null}`, 10},
		{`{"rounds":0}`, 0},
		{`{"rounds":-3}`, 0},
		{`{"rounds":21}`, 0},
		{`{"rounds":2.5}`, 0},
	}
	for _, c := range cases {
		m, err := NewMatch(nil, []string{"ann"}, json.RawMessage(c.opts))
		switch {
		case c.rounds == 0 && err == nil:
			t.Errorf("options %s accepted (%d rounds)", c.opts, m.S.C.Rounds)
		case c.rounds == 0 && !strings.Contains(err.Error(), "rounds"):
			t.Errorf("options %s: %v does not name the option", c.opts, err)
		case c.rounds != 0 && err != nil:
			t.Errorf("options %s: %v", c.opts, err)
		case c.rounds != 0 && m.S.C.Rounds != c.rounds:
			t.Errorf("options %s: %d rounds, want %d", c.opts, m.S.C.Rounds, c.rounds)
		}
	}
}

func TestComponentsValidate(t *testing.T) {
	bad := []func(c *Components){
		func(c *Components) { c.Markers[Blue] = c.Centre },
		func(c *Components) { c.Markers[White] = 0 },
		func(c *Components) { c.Bonus = 25 },
		func(c *Components) { c.Dice[White] = MaxWhites + 1 },
		func(c *Components) { c.Rounds = 0 },
		func(c *Components) { c.Flicks = 4 },
		func(c *Components) { c.MaxAngle = 2 },
		func(c *Components) { c.AngleNoise = math.NaN() },
	}
	for i, f := range bad {
		c := DefaultComponents
		f(&c)
		if c.Validate() == nil {
			t.Errorf("case %d: invalid components accepted", i)
		}
	}
	if err := DefaultComponents.Validate(); err != nil {
		t.Fatal(err)
	}
}

// Nature's landing: the simulator's hole with the hand's noise, a face for a
// normal die, none for a blast die; the path is kept for animation.
func TestSampleLanding(t *testing.T) {
	var noises [][2]float64
	sim := SimFunc(func(occ [Holes]bool, f physics.Flick, an, pn float64) physics.Landing {
		noises = append(noises, [2]float64{an, pn})
		return fakeSim(occ, f, an, pn)
	})
	m, err := NewMatch(sim, []string{"ann"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(3)
	apply(t, m, nature, draw(Pink, Blue, Blue))
	for _, want := range []Color{Pink, Blue} {
		apply(t, m, me, flick(0))
		a := m.SampleChance(src).(Action)
		if a.Hole < 0 || (want == Pink) != (a.Face == 0) || a.Face > 6 || len(a.Path) == 0 {
			t.Fatalf("%s landing %+v", want, a)
		}
		apply(t, m, nature, a)
	}
	for _, n := range noises {
		if math.Abs(n[0]) > DefaultComponents.AngleNoise || math.Abs(n[1]) > DefaultComponents.PowerNoise || n == [2]float64{} {
			t.Fatalf("hand noise %v outside ±(%v, %v) or none", n, DefaultComponents.AngleNoise, DefaultComponents.PowerNoise)
		}
	}
	if !slices.Equal(m.S.HandOf(0), []Color{Blue}) || m.S.Phase != PhaseScore {
		t.Fatalf("hand %v phase %s", m.S.HandOf(0), m.S.Phase)
	}
	// Without a simulator nature cannot sample a landing.
	noSim, _ := NewMatch(nil, []string{"ann"}, nil)
	apply(t, noSim, nature, draw(Blue, Blue, Blue))
	apply(t, noSim, me, flick(0))
	defer func() {
		if recover() == nil {
			t.Fatal("sampling a landing without a simulator must fail loudly")
		}
	}()
	noSim.SampleChance(src)
}

// The view: the public report for everyone, example actions for the seat
// that may act, the best offer while scoring.
func TestViewAndLegal(t *testing.T) {
	m := newMatch(t, 2, "")
	apply(t, m, nature, draw(Green, Green, Blue))
	v := m.View(0).(View)
	if len(v.Legal) != 12 || v.Best != nil || v.Next != "ann" {
		t.Fatalf("flick view: %d legal, best %v, next %q", len(v.Legal), v.Best, v.Next)
	}
	if len(m.View(1).(View).Legal) != 0 || len(m.Legal(nature)) != 0 {
		t.Fatal("only the player on turn has legal actions")
	}
	flickTo(t, m, "4,1", 4)
	flickTo(t, m, "4,2", 3)
	v = m.View(engine.Spectator).(View)
	if v.Best == nil || v.Best.Total != 9 || len(v.Legal) != 0 {
		t.Fatalf("score view for a spectator: %+v", v)
	}
	if v.Current != 0 || v.Values[4][1] != 4 || v.Values[4][2] != 3 || v.Values[1][1] != 2 || v.Values[0][0] != 0 {
		t.Fatalf("view's current %d, values %v", v.Current, v.Values)
	}
	legal := m.Legal(0)
	if len(legal) != 2 {
		t.Fatalf("score legal %v", legal)
	}
	for _, a := range legal {
		if err := m.Check(engine.Move{Seat: 0, Action: a}); err != nil {
			t.Fatalf("listed action %+v refused: %v", a, err)
		}
	}
	if _, err := json.Marshal(m.View(0)); err != nil {
		t.Fatal(err)
	}
}

// TestDefaultsAgreeWithPhysics keeps the rules' limits and the arena's in
// step: the rules refuse what the arena cannot simulate.
func TestDefaultsAgreeWithPhysics(t *testing.T) {
	if DefaultComponents.MaxAngle != physics.DefaultArena.MaxAngle {
		t.Fatalf("rules allow ±%v rad, the arena ±%v rad", DefaultComponents.MaxAngle, physics.DefaultArena.MaxAngle)
	}
}

// TestRealArenaPlaysAGame plays a seeded practice game with the real
// physics: every sampled landing is accepted by the rules.
func TestRealArenaPlaysAGame(t *testing.T) {
	m, err := NewMatch(ArenaSim(&physics.DefaultArena), []string{"ann"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(5)
	for steps := 0; !m.Result().Over; steps++ {
		if steps > 2000 {
			t.Fatal("the game does not end")
		}
		var a engine.Action
		if m.Turn().Chance {
			a = m.SampleChance(src)
		} else {
			legal := m.Legal(m.Turn().Actors[0])
			a = legal[src.IntN(len(legal))]
		}
		seat := engine.ChanceSeat
		if !m.Turn().Chance {
			seat = m.Turn().Actors[0]
		}
		if _, err := m.Apply(engine.Move{Seat: seat, Action: a}); err != nil {
			t.Fatalf("step %d: %v", steps, err)
		}
	}
}
