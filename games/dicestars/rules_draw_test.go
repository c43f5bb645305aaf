package dicestars

import (
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// Step 1 of a turn: announce 1 to 3 dice, forced 3, short bag, refill.

func TestDrawCount(t *testing.T) {
	cases := []struct {
		name    string
		reserve []string
		n       int
		rule    string // "" = accepted
	}{
		{"zero dice", []string{"blue:5"}, 0, RuleDrawCount},
		{"four dice", []string{"blue:5"}, 4, RuleDrawCount},
		{"one die", []string{"blue:5"}, 1, ""},
		{"two dice", []string{"blue:5"}, 2, ""},
		{"three dice", []string{"blue:5"}, 3, ""},
		{"empty reserve, one", nil, 1, RuleMustDrawThree},
		{"empty reserve, two", nil, 2, RuleMustDrawThree},
		{"empty reserve, three", nil, 3, ""},
		{"stars only, one", []string{"blue:star", "orange:star"}, 1, RuleMustDrawThree},
		{"stars only, two", []string{"black:star"}, 2, RuleMustDrawThree},
		{"stars only, three", []string{"black:star"}, 3, ""},
		{"a star and a number, one", []string{"black:star", "orange:3"}, 1, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := freshState(t, 2)
			putReserve(t, &s, c.reserve...)
			s.Phase = PhaseDraw
			if c.rule != "" {
				assertRefused(t, &s, Draw(c.n, false), c.rule)
				return
			}
			mustApply(t, &s, Draw(c.n, false))
			if s.Phase != PhaseRoll || int(s.Pending) != c.n {
				t.Fatalf("after draw %d: phase %v pending %d", c.n, s.Phase, s.Pending)
			}
		})
	}
}

func TestFirstPlayerDrawsThree(t *testing.T) {
	s := freshState(t, 3)
	assertRefused(t, &s, Draw(1, false), RuleMustDrawThree, "3 dice")
	assertRefused(t, &s, Draw(2, false), RuleMustDrawThree)
	if got := s.LegalActions(nil); len(got) != 1 || got[0] != Draw(3, false) {
		t.Fatalf("legal at the start: %v, want only draw 3", got)
	}
}

func TestReturnReserveOnlyWithRefill(t *testing.T) {
	s := freshState(t, 2)
	putReserve(t, &s, "blue:5")
	s.Phase = PhaseDraw
	assertRefused(t, &s, Draw(3, true), RuleNoRefill)
	for _, a := range s.LegalActions(nil) {
		if a.ReturnReserve {
			t.Fatalf("legal %v offers the reserve back without a refill", a)
		}
	}
}

// After returning the reserve the reserve is empty, so the draw is of 3.
func TestReturnReserveForcesThree(t *testing.T) {
	s := freshState(t, 2)
	playTurn(t, &s, 3, []string{"blue:star", "orange:5", "purple:4"}, starsIn(t, 2)) // star choice: refill due
	if !s.RefillDue {
		t.Fatal("a star choice must make the refill due")
	}
	assertRefused(t, &s, Draw(1, true), RuleMustDrawThree, "reserve put back")
	assertRefused(t, &s, Draw(2, true), RuleMustDrawThree)
	// Without returning, the reserve (orange 5, purple 4) allows any count.
	for n := 1; n <= 3; n++ {
		c := s
		mustApply(t, &c, Draw(n, false))
		if c.NReserve != 2 || c.DiscardCount() != 0 || c.BagCount() != 12 {
			t.Fatalf("draw %d without return: reserve %d discard %d bag %d", n, c.NReserve, c.DiscardCount(), c.BagCount())
		}
	}
	mustApply(t, &s, Draw(3, true))
	if s.NReserve != 0 || s.DiscardCount() != 0 || s.BagCount() != 14 || s.Pending != 3 {
		t.Fatalf("after draw 3 with the reserve back: reserve %d discard %d bag %d pending %d",
			s.NReserve, s.DiscardCount(), s.BagCount(), s.Pending)
	}
}

// Ruling: when the bag holds fewer dice than must or may be drawn, draw what
// is there.
func TestShortBagDrawsWhatIsThere(t *testing.T) {
	cases := []struct {
		name    string
		bag     [NumColors]uint8
		reserve []string
		n       int
		want    int
	}{
		{"forced three, one in the bag", [NumColors]uint8{0, 0, 0, 1}, nil, 3, 1},
		{"forced three, two in the bag", [NumColors]uint8{1, 0, 1, 0}, nil, 3, 2},
		{"announced three, two in the bag", [NumColors]uint8{0, 2, 0, 0}, []string{"blue:5"}, 3, 2},
		{"announced two, one in the bag", [NumColors]uint8{1, 0, 0, 0}, []string{"blue:5"}, 2, 1},
		{"announced one, one in the bag", [NumColors]uint8{1, 0, 0, 0}, []string{"blue:5"}, 1, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := freshState(t, 2)
			putReserve(t, &s, c.reserve...)
			// Move everything else from the bag to the discard, keeping c.bag.
			for col := range s.Bag {
				s.Discard[col] += s.Bag[col] - c.bag[col]
				s.Bag[col] = c.bag[col]
			}
			s.Phase = PhaseDraw
			mustApply(t, &s, Draw(c.n, false))
			if int(s.Pending) != c.want {
				t.Fatalf("pending %d, want %d", s.Pending, c.want)
			}
			// The roll must be of exactly the dice that are there.
			var all []Die
			for col, k := range c.bag {
				for i := 0; i < int(k); i++ {
					all = append(all, MakeDie(Color(col), 4))
				}
			}
			if c.want < c.n {
				assertRefused(t, &s, Roll(append(all, MakeDie(Black, 4))...), RuleRollCount)
			}
			mustApply(t, &s, Roll(all[:c.want]...))
			if s.BagCount() != len(all)-c.want || s.Phase != PhaseTake {
				t.Fatalf("after roll: bag %d phase %v", s.BagCount(), s.Phase)
			}
		})
	}
}

func TestRollMustComeFromTheBag(t *testing.T) {
	s := freshState(t, 2)
	mustApply(t, &s, Draw(3, false))
	cases := []struct {
		name string
		roll []Die
		rule string
	}{
		{"too few", mustDice(t, "blue:5", "blue:4"), RuleRollCount},
		{"orange has no 2", mustDice(t, "orange:2", "blue:4", "blue:3"), RuleRollFace},
		{"no face 1", []Die{MakeDie(Blue, 1), MakeDie(Blue, 2), MakeDie(Blue, 3)}, RuleRollFace},
		{"no face 7", []Die{MakeDie(Purple, 7), MakeDie(Blue, 2), MakeDie(Blue, 3)}, RuleRollFace},
		{"only two black dice", mustDice(t, "black:5", "black:4", "black:3"), RuleRollDice},
		{"no such colour", []Die{MakeDie(Color(5), 3), MakeDie(Blue, 2), MakeDie(Blue, 3)}, RuleRollDice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) { assertRefused(t, &s, Roll(c.roll...), c.rule) })
	}
	// Orange shows two stars, no 2: a star face is real on every colour.
	mustApply(t, &s, Roll(mustDice(t, "orange:star", "black:star", "black:6")...))
	if s.Bag[Black] != 0 || s.Bag[Orange] != 4 {
		t.Fatalf("bag after the roll: %v", s.Bag)
	}
	// With both black dice out, another black die cannot be drawn.
	s.Phase, s.Pending = PhaseRoll, 1
	assertRefused(t, &s, Roll(mustDice(t, "black:2")...), RuleRollDice, "black")
}

func TestWrongPhase(t *testing.T) {
	s := freshState(t, 2)
	assertRefused(t, &s, TakeColor(Blue), engine.ErrWrongAction.Rule)
	assertRefused(t, &s, Roll(mustDice(t, "blue:2", "blue:3", "blue:4")...), engine.ErrWrongAction.Rule)
	mustApply(t, &s, Draw(3, false))
	assertRefused(t, &s, Draw(3, false), engine.ErrChancePending.Rule)
	assertRefused(t, &s, TakeValue(3), engine.ErrChancePending.Rule)
	mustApply(t, &s, Roll(mustDice(t, "blue:2", "blue:3", "blue:4")...))
	assertRefused(t, &s, Draw(1, false), engine.ErrWrongAction.Rule, "drawn already")
	assertRefused(t, &s, Roll(mustDice(t, "blue:2")...), engine.ErrWrongAction.Rule)
	assertRefused(t, &s, Action{}, engine.ErrWrongAction.Rule)
}

// Refill ruling: at the start of the turn after a player took the bag's last
// die or made the star choice; not after a colour choice that includes stars.
func TestRefill(t *testing.T) {
	t.Run("after the bag's last die", func(t *testing.T) {
		s := freshState(t, 2)
		putReserve(t, &s, "blue:5", "blue:4", "blue:3", "blue:2", "purple:6", "purple:5", "purple:4",
			"black:6", "black:5", "orange:6", "orange:5", "orange:4")
		s.Phase = PhaseDraw
		mustApply(t, &s, Draw(3, false), Roll(mustDice(t, "orange:3", "orange:star")...))
		if s.BagCount() != 0 {
			t.Fatalf("bag %d", s.BagCount())
		}
		mustApply(t, &s, TakeColor(Black)) // 2 dice in the black column
		if !s.RefillDue || s.DiscardCount() != 2 {
			t.Fatalf("refill due %v, discard %d", s.RefillDue, s.DiscardCount())
		}
		mustApply(t, &s, Draw(1, false))
		if s.RefillDue || s.DiscardCount() != 0 || s.NReserve != 12 || s.Pending != 1 {
			t.Fatalf("after the refill draw: due %v discard %d reserve %d pending %d",
				s.RefillDue, s.DiscardCount(), s.NReserve, s.Pending)
		}
		if s.Bag != [NumColors]uint8{2, 0, 0, 0} {
			t.Fatalf("bag after refill %v, want the 2 black dice", s.Bag)
		}
	})
	t.Run("after a star choice", func(t *testing.T) {
		s := freshState(t, 2)
		playTurn(t, &s, 3, []string{"orange:star", "blue:star", "blue:4"}, starsIn(t, 6, 6))
		if !s.RefillDue {
			t.Fatal("no refill after a star choice")
		}
		mustApply(t, &s, Draw(1, false))
		if s.DiscardCount() != 0 || s.BagCount() != 13 {
			t.Fatalf("discard %d bag %d", s.DiscardCount(), s.BagCount())
		}
	})
	t.Run("not after a colour choice with stars", func(t *testing.T) {
		s := freshState(t, 2)
		playTurn(t, &s, 3, []string{"orange:star", "orange:star", "blue:4"}, TakeColor(Orange))
		if s.RefillDue {
			t.Fatal("a colour choice showing stars made the refill due")
		}
		assertRefused(t, &s, Draw(3, true), RuleNoRefill)
		mustApply(t, &s, Draw(1, false))
		if s.DiscardCount() != 2 {
			t.Fatalf("discard %d, want the 2 orange dice still there", s.DiscardCount())
		}
	})
	t.Run("not after a value choice", func(t *testing.T) {
		s := freshState(t, 2)
		playTurn(t, &s, 3, []string{"orange:4", "black:star", "blue:4"}, TakeValue(4))
		if s.RefillDue {
			t.Fatal("refill due after a value choice with dice left in the bag")
		}
	})
	t.Run("solo: the next turn is your own", func(t *testing.T) {
		s := freshState(t, 1)
		playTurn(t, &s, 3, []string{"orange:star", "blue:3", "blue:4"}, starsIn(t, 3))
		if !s.RefillDue || s.Current != 0 {
			t.Fatalf("due %v current %d", s.RefillDue, s.Current)
		}
		mustApply(t, &s, Draw(3, true))
		if s.BagCount() != 14 {
			t.Fatalf("bag %d after refill with the reserve back", s.BagCount())
		}
	})
}

// Every draw LegalActions offers is accepted, and covers 1..3 or forced 3.
func TestLegalDraws(t *testing.T) {
	s := freshState(t, 2)
	playTurn(t, &s, 3, []string{"orange:star", "blue:3", "blue:4"}, starsIn(t, 3))
	got := s.LegalActions(nil)
	want := []Action{Draw(1, false), Draw(2, false), Draw(3, false), Draw(3, true)}
	if len(got) != len(want) {
		t.Fatalf("legal %v, want %v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("legal %v, want %v", got, want)
		}
		c := s
		mustApply(t, &c, got[i])
	}
}

// TestLegalIsEveryDraw: Match.Legal lists exactly the draws the rules
// accept (engine.State's promise), short-bag announcements included, while
// LegalActions keeps to the distinct choices.
func TestLegalIsEveryDraw(t *testing.T) {
	cases := []struct {
		name     string
		bag      [NumColors]uint8
		reserve  []string
		refill   bool
		distinct int // how many LegalActions lists
	}{
		{"full bag", [NumColors]uint8{2, 3, 4, 3}, []string{"blue:5"}, false, 3},
		{"two in the bag", [NumColors]uint8{0, 2, 0, 0}, []string{"blue:5"}, false, 2},
		{"one in the bag", [NumColors]uint8{1, 0, 0, 0}, []string{"blue:5"}, false, 1},
		{"forced three, one in the bag", [NumColors]uint8{0, 0, 0, 1}, nil, false, 1},
		{"refill due, little left", [NumColors]uint8{0, 0, 0, 0}, []string{"blue:5"}, true, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m, err := NewMatch([]string{"ann", "bob"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			s := &m.S
			putReserve(t, s, c.reserve...)
			for col := range s.Bag {
				s.Discard[col] += s.Bag[col] - c.bag[col]
				s.Bag[col] = c.bag[col]
			}
			if c.refill {
				// Only one die is left to come back: the rest stays in the reserve.
				s.Discard = [NumColors]uint8{0, 1, 0, 0}
				s.RefillDue = true
			}
			s.Phase = PhaseDraw
			legal := m.Legal(0)
			if got := len(s.LegalActions(nil)); got != c.distinct {
				t.Errorf("LegalActions lists %d draws, want %d", got, c.distinct)
			}
			for n := -1; n <= 5; n++ {
				for _, rr := range []bool{false, true} {
					a := Draw(n, rr)
					listed := slices.Contains(legal, engine.Action(a))
					if err := m.Check(engine.Move{Seat: 0, Action: a}); (err == nil) != listed {
						t.Errorf("%v: listed %v, Check %v", a, listed, err)
					}
				}
			}
			if first := s.LegalActions(nil)[0]; legal[0] != first {
				t.Errorf("Legal starts with %v, LegalActions with %v", legal[0], first)
			}
		})
	}
}
