package dicestars

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// End of the game, scoring, winners, seats.

// playOneTurn finishes the current player's turn with the first legal action
// at each step and rolls from src.
func playOneTurn(t testing.TB, s *State, src engine.Source) {
	t.Helper()
	turns := s.Turns
	for s.Turns == turns && !s.Over() {
		var a Action
		if s.Phase == PhaseRoll {
			a = s.SampleRoll(src)
		} else {
			a = s.LegalActions(nil)[0]
		}
		mustApply(t, s, a)
	}
}

// oneWhiteLeft writes every white cell of seat p except black in row 2.
func oneWhiteLeft(s *State, p int) {
	for _, c := range []Color{Purple, Blue, Orange} {
		fillColumn(s, p, c)
	}
	fillColumn(s, p, Black, 2)
}

func TestLastWhiteCellTriggersTheEnd(t *testing.T) {
	for trigger := 0; trigger < 3; trigger++ {
		s := atTake(t, 3, "black:5", "blue:4")
		s.Current = uint8(trigger)
		s.Turns = uint16(trigger)
		oneWhiteLeft(&s, trigger)
		mustApply(t, &s, TakeColor(Black))
		if !s.Ending || s.Sheets[trigger].WhiteEmpty != 0 {
			t.Fatalf("trigger by seat %d: ending %v, white left %d", trigger, s.Ending, s.Sheets[trigger].WhiteEmpty)
		}
		// Everyone after the trigger in this round still plays; the round
		// ends with the last seat, so every seat has had the same turns.
		src := engine.NewSource(uint64(trigger))
		for p := trigger + 1; p < 3; p++ {
			if s.Over() || int(s.Current) != p {
				t.Fatalf("trigger by seat %d: seat %d should still play (over %v, current %d)", trigger, p, s.Over(), s.Current)
			}
			playOneTurn(t, &s, src)
		}
		if !s.Over() || s.Turns != 3 {
			t.Fatalf("trigger by seat %d: over %v after %d turns, want over after 3", trigger, s.Over(), s.Turns)
		}
		for _, a := range []Action{Draw(3, false), TakeColor(Blue), Roll()} {
			assertRefused(t, &s, a, engine.ErrGameOver.Rule)
		}
		if got := s.LegalActions(nil); len(got) != 0 {
			t.Fatalf("legal actions after the end: %v", got)
		}
	}
}

// A value choice can fill the last white cell too; a green cell is not one.
func TestEndTriggerByRow(t *testing.T) {
	s := atTake(t, 2, "blue:3", "black:3")
	oneWhiteLeft(&s, 0)
	// Row 3's white cells are all written: two 3s go to its green cells.
	mustApply(t, &s, TakeValue(3))
	if s.Ending {
		t.Fatal("green cells triggered the end")
	}
	if got := rowText(&s, 0, 3); got[4] != "X" || got[5] != "6" {
		t.Fatalf("row 3 %q", got)
	}
	// Back to seat 0, whose only white cell left is row 2's first.
	s.Current = 0
	putReserve(t, &s, "purple:2")
	mustApply(t, &s, TakeValue(2))
	if !s.Ending || s.Sheets[0].WhiteEmpty != 0 {
		t.Fatalf("the last white cell by a value choice: ending %v", s.Ending)
	}
}

func TestRowScore(t *testing.T) {
	cases := []struct {
		name   string
		v      int
		marked uint8
		sum    int16
		want   int
	}{
		{"no multiplier", 2, 0, 15, 15},
		{"all multipliers", 3, 3, 15, 30},
		{"some multipliers", 5, 4, 5, 0},
		{"one of six", 6, 1, 21, 0},
		{"all six", 6, 6, 21, 42},
		{"all, empty row", 4, 4, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var sh Sheet
			sh.Marked[rowIdx(c.v)] = c.marked
			sh.Sum[rowIdx(c.v)] = c.sum
			if got := sh.RowScore(&DefaultLayout, rowIdx(c.v)); got != c.want {
				t.Fatalf("row score %d, want %d", got, c.want)
			}
			sh.Penalty = 7
			if got := sh.Total(&DefaultLayout); got != c.want-7 {
				t.Fatalf("total %d, want %d", got, c.want-7)
			}
		})
	}
}

func TestWinners(t *testing.T) {
	cases := []struct {
		name   string
		totals []int16
		want   []int
	}{
		{"one best", []int16{10, 30, 20}, []int{1}},
		{"tie shares", []int16{30, 10, 30}, []int{0, 2}},
		{"all tied", []int16{0, 0}, []int{0, 1}},
		{"negative totals", []int16{-4, -9, -4, -5}, []int{0, 2}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := freshState(t, len(c.totals))
			for p, v := range c.totals {
				if v >= 0 {
					s.Sheets[p].Sum[0] = v
				} else {
					s.Sheets[p].Penalty = -v
				}
			}
			got := s.Winners()
			if len(got) != len(c.want) {
				t.Fatalf("winners %v, want %v", got, c.want)
			}
			for i := range got {
				if got[i] != c.want[i] {
					t.Fatalf("winners %v, want %v", got, c.want)
				}
			}
		})
	}
}

func TestSeats(t *testing.T) {
	for n := -1; n <= 6; n++ {
		_, err := NewState(nil, n)
		names := make([]string, max(n, 0))
		_, merr := NewMatch(names, nil)
		if ok := n >= 1 && n <= 4; ok != (err == nil) || ok != (merr == nil) {
			t.Errorf("%d players: NewState %v, NewMatch %v", n, err, merr)
		}
	}
	if g := (Game{}).Info(); g.MinPlayers != 1 || g.MaxPlayers != 4 || g.ID != "dicestars" {
		t.Fatalf("game %s: %d..%d players", g.ID, g.MinPlayers, g.MaxPlayers)
	}
}

// Solo marking table: empty 0, stars only 1, numbers ceil(sum/5), numbers
// and stars ceil(2·sum/5).
func TestSoloMarks(t *testing.T) {
	cases := []struct {
		reserve []string
		want    int
	}{
		{nil, 0},
		{[]string{"blue:star"}, 1},
		{[]string{"blue:star", "orange:star", "black:star"}, 1},
		{[]string{"blue:2"}, 1},
		{[]string{"blue:5"}, 1},
		{[]string{"blue:6"}, 2},
		{[]string{"blue:5", "purple:5"}, 2},
		{[]string{"blue:5", "purple:6"}, 3},
		{[]string{"blue:6", "purple:6", "black:6", "orange:6"}, 5},
		{[]string{"blue:2", "orange:star"}, 1},
		{[]string{"blue:3", "orange:star"}, 2},
		{[]string{"blue:5", "orange:star", "black:star"}, 2},
		{[]string{"blue:6", "orange:star"}, 3},
	}
	for _, c := range cases {
		if got := DefaultLayout.SoloMarks(mustDice(t, c.reserve...)); got != c.want {
			t.Errorf("reserve %v: %d marks, want %d", c.reserve, got, c.want)
		}
	}
}

// The solo grid is marked after every turn, from the reserve left behind.
func TestSoloMarksEveryTurn(t *testing.T) {
	s := freshState(t, 1)
	playTurn(t, &s, 3, []string{"blue:4", "purple:6", "orange:star"}, TakeColor(Blue))
	if s.SoloMarked != 3 { // 6 and a star: ceil(12/5)
		t.Fatalf("marked %d, want 3", s.SoloMarked)
	}
	playTurn(t, &s, 1, []string{"black:2"}, TakeValue(6))
	if s.SoloMarked != 3+1 { // 2 and a star: ceil(4/5)
		t.Fatalf("marked %d, want 4", s.SoloMarked)
	}
	playTurn(t, &s, 1, []string{"black:3"}, TakeColor(Black))
	if s.SoloMarked != 4+1 || s.Current != 0 || s.Phase != PhaseDraw {
		t.Fatalf("marked %d, current %d phase %v", s.SoloMarked, s.Current, s.Phase)
	}
}

// The last turn is marked too; marking the last cell loses at once.
func TestSoloEnd(t *testing.T) {
	t.Run("last turn marked, win above 5 per mark", func(t *testing.T) {
		s := atTake(t, 1, "black:5", "blue:4")
		oneWhiteLeft(&s, 0)
		s.Sheets[0].Sum[rowIdx(6)] = 20
		s.SoloMarked = 2
		mustApply(t, &s, TakeColor(Black))
		// 25 points against 3 marks (15 points).
		if !s.Over() || s.SoloMarked != 3 || s.SoloLost || len(s.Winners()) != 1 {
			t.Fatalf("over %v marked %d lost %v winners %v", s.Over(), s.SoloMarked, s.SoloLost, s.Winners())
		}
	})
	t.Run("equal to the opponent loses", func(t *testing.T) {
		s := atTake(t, 1, "black:5", "blue:4")
		oneWhiteLeft(&s, 0)
		s.Sheets[0].Sum[rowIdx(6)] = 10 // total 15 = 3 marks × 5
		s.SoloMarked = 2
		mustApply(t, &s, TakeColor(Black))
		if !s.Over() || s.Score(0) != 15 || s.SoloOpponent() != 15 || len(s.Winners()) != 0 {
			t.Fatalf("score %d opponent %d winners %v", s.Score(0), s.SoloOpponent(), s.Winners())
		}
	})
	t.Run("the last solo cell loses at once", func(t *testing.T) {
		s := atTake(t, 1, "blue:6", "purple:6", "orange:star")
		s.SoloMarked = 26
		s.Sheets[0].Sum[0] = 100
		mustApply(t, &s, TakeColor(Orange)) // leaves 12 → ceil(12/5) = 3 marks: 29
		if s.Over() || s.SoloMarked != 29 {
			t.Fatalf("over %v marked %d", s.Over(), s.SoloMarked)
		}
		playTurn(t, &s, 1, []string{"orange:3"}, TakeValue(3)) // leaves 12 again: the 30th cell
		if !s.Over() || !s.SoloLost || s.SoloMarked != 30 || len(s.Winners()) != 0 {
			t.Fatalf("over %v lost %v marked %d winners %v", s.Over(), s.SoloLost, s.SoloMarked, s.Winners())
		}
	})
	t.Run("loss beats a simultaneous normal end", func(t *testing.T) {
		s := atTake(t, 1, "black:5", "blue:6")
		oneWhiteLeft(&s, 0)
		s.SoloMarked = 28
		s.Sheets[0].Sum[0] = 100
		mustApply(t, &s, TakeColor(Black)) // ends the game and marks 2: the 30th cell
		if !s.Over() || !s.SoloLost || len(s.Winners()) != 0 {
			t.Fatalf("over %v lost %v winners %v", s.Over(), s.SoloLost, s.Winners())
		}
	})
}

func TestSoloGridOption(t *testing.T) {
	m, err := NewMatch([]string{"ada"}, json.RawMessage(`{"soloGrid":2}`))
	if err != nil {
		t.Fatal(err)
	}
	if m.S.L.SoloCells != 2 || DefaultLayout.SoloCells != 30 {
		t.Fatalf("solo cells %d (default %d)", m.S.L.SoloCells, DefaultLayout.SoloCells)
	}
	s := &m.S
	mustApply(t, s, Draw(3, false), Roll(mustDice(t, "blue:6", "purple:2", "orange:4")...), TakeColor(Purple))
	if !s.Over() || !s.SoloLost || s.SoloMarked != 2 {
		t.Fatalf("over %v lost %v marked %d", s.Over(), s.SoloLost, s.SoloMarked)
	}
}

// TestSoloGridRange: the solo grid has 1 to 255 cells; an absent option is
// the layout's 30, and 0 is refused, not read as absent.
func TestSoloGridRange(t *testing.T) {
	cases := []struct {
		opts  string
		cells int    // 0: refused
		says  string // in the refusal
	}{
		{``, 30, ""},
		{`{}`, 30, ""},
		{`{"soloGrid":1}`, 1, ""},
		{`{"soloGrid":255}`, 255, ""},
		{`{"soloGrid":0}`, 0, "soloGrid 0: the solo grid has 1 to 255 cells"},
		{`{"soloGrid":-1}`, 0, "soloGrid -1"},
		{`{"soloGrid":256}`, 0, "soloGrid 256"},
		{`{"soloGrid":null}`, 30, ""},
		{`{"soloGrid":"7"}`, 0, "soloGrid"},
		{`{"solo":3}`, 0, "solo"},
		{`[1]`, 0, "options"},
	}
	for _, c := range cases {
		m, err := NewMatch([]string{"ada"}, json.RawMessage(c.opts))
		switch {
		case c.cells == 0 && err == nil:
			t.Errorf("options %s accepted (%d cells)", c.opts, m.S.L.SoloCells)
		case c.cells == 0 && !strings.Contains(err.Error(), c.says):
			t.Errorf("options %s: %v, want it to say %q", c.opts, err, c.says)
		case c.cells != 0 && err != nil:
			t.Errorf("options %s: %v", c.opts, err)
		case c.cells != 0 && m.S.L.SoloCells != c.cells:
			t.Errorf("options %s: %d cells, want %d", c.opts, m.S.L.SoloCells, c.cells)
		}
	}
}

// Refusals carry typed rule codes that errors.Is matches; the Match wrapper
// adds seat checks and leaves its state alone on a refusal.
func TestMatchRefusals(t *testing.T) {
	m, err := NewMatch([]string{"ada", "bo"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	try := func(seat engine.Seat, a engine.Action, want *engine.RuleError) {
		t.Helper()
		before := m.S
		_, err := m.Apply(engine.Move{Seat: seat, Action: a})
		if !errors.Is(err, want) {
			t.Fatalf("%v by %v: %v, want rule %q", a, seat, err, want.Rule)
		}
		if rerr, ok := engine.AsRuleError(err); !ok || rerr.Message == "" {
			t.Fatalf("%v: not a RuleError with a message: %v", a, err)
		}
		if m.S != before {
			t.Fatalf("%v by %v: refused but the state changed", a, seat)
		}
	}
	try(1, Draw(3, false), engine.ErrNotYourTurn)
	try(engine.ChanceSeat, Roll(mustDice(t, "blue:2")...), engine.ErrWrongAction)
	try(0, Draw(1, false), engine.Refuse(RuleMustDrawThree, ""))
	try(0, fakeAction{}, engine.ErrBadAction)
	if _, err := m.Apply(engine.Move{Seat: 0, Action: Draw(3, false)}); err != nil {
		t.Fatal(err)
	}
	try(0, TakeColor(Blue), engine.ErrChancePending)
	try(1, TakeColor(Blue), engine.ErrChancePending)
	try(engine.ChanceSeat, Roll(mustDice(t, "orange:2", "blue:3", "blue:4")...), engine.Refuse(RuleRollFace, ""))
	if _, err := m.Apply(engine.Move{Seat: engine.ChanceSeat, Action: Roll(mustDice(t, "blue:2", "blue:3", "blue:4")...)}); err != nil {
		t.Fatal(err)
	}
	try(1, TakeColor(Blue), engine.ErrNotYourTurn)
	try(0, TakeColor(Orange), engine.Refuse(RuleNoSuchDice, ""))
	if errors.Is(engine.Refuse(RuleRowFull, "x"), engine.Refuse(RuleColumnFull, "x")) {
		t.Fatal("different rule codes matched")
	}
}

type fakeAction struct{}

func (fakeAction) Kind() string { return "fake" }

// The Match reports what a take did: cells written, the penalty, the end.
func TestMatchEvents(t *testing.T) {
	m, err := NewMatch([]string{"ada"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	putReserve(t, &m.S, "black:5", "blue:4")
	fullSheet(&m.S, 0)
	ev, err := m.Apply(engine.Move{Seat: 0, Action: TakeColor(Black)})
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range ev {
		kinds = append(kinds, e.Kind)
	}
	if !sameStrings(kinds, []string{"take", "end-triggered", "solo", "game-over"}) {
		t.Fatalf("events %v", kinds)
	}
	te := ev[0].Data.(TakeEvent)
	if !te.Penalty || te.Sum != 5 || len(te.Cells) != 0 || te.Choice != "color" {
		t.Fatalf("take event %+v", te)
	}
	if se := ev[2].Data.(SoloEvent); se.Marks != 1 || se.Marked != 1 {
		t.Fatalf("solo event %+v", se)
	}
	r := m.Report()
	if !r.Over || r.Players[0].Penalty != 5 || !r.Players[0].Penalized || r.Players[0].Total != r.Players[0].Rows[0].Score+r.Players[0].Rows[1].Score+r.Players[0].Rows[2].Score+r.Players[0].Rows[3].Score+r.Players[0].Rows[4].Score-5 {
		t.Fatalf("report %+v", r)
	}
}
