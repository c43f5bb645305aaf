package dicestars

import (
	"strings"
	"testing"
)

// Step 2 of a turn: take every die of one colour, one value or the stars,
// and fill the sheet.

func TestTakeColorTakesEveryDieOfTheColour(t *testing.T) {
	s := atTake(t, 2, "blue:5", "orange:4", "blue:star", "blue:3", "purple:5")
	mustApply(t, &s, TakeColor(Blue))
	if got := s.ReserveDice(); len(got) != 2 || got[0] != mustDie(t, "orange:4") || got[1] != mustDie(t, "purple:5") {
		t.Fatalf("reserve after taking blue: %v", got)
	}
	if s.Discard[Blue] != 3 {
		t.Fatalf("discard %v, want the 3 blue dice", s.Discard)
	}
	// Three blue dice: X, X, then the sum 5+0+3 in the third cell, top-down.
	if got, want := columnText(&s, 0, Blue), []string{"X", "X", "8", "", ""}; !sameStrings(got, want) {
		t.Fatalf("blue column %q, want %q", got, want)
	}
	if s.Sheets[0].WhiteEmpty != 17 || s.Sheets[0].Sum[rowIdx(4)] != 8 {
		t.Fatalf("white empty %d, row 4 sum %d", s.Sheets[0].WhiteEmpty, s.Sheets[0].Sum[rowIdx(4)])
	}
	if s.Current != 1 || s.Phase != PhaseDraw || s.Turns != 1 {
		t.Fatalf("next: current %d phase %v turns %d", s.Current, s.Phase, s.Turns)
	}
}

func TestTakeValueTakesEveryDieOfTheValue(t *testing.T) {
	s := atTake(t, 2, "blue:5", "orange:5", "black:5", "blue:3", "purple:star")
	mustApply(t, &s, TakeValue(5))
	if s.NReserve != 2 || s.DiscardCount() != 3 {
		t.Fatalf("reserve %v discard %d", s.ReserveDice(), s.DiscardCount())
	}
	if got, want := rowText(&s, 0, 5), []string{"X", "X", "15", "", ""}; !sameStrings(got, want) {
		t.Fatalf("row 5 %q, want %q", got, want)
	}
}

// Column fill: the topmost empty cells, which need not be adjacent.
func TestColumnFillSkipsFilledCells(t *testing.T) {
	s := atTake(t, 2, "purple:4", "purple:6", "purple:star")
	writeCell(&s, 0, rowIdx(2), 1, 7)
	writeCell(&s, 0, rowIdx(4), 1, cellX)
	mustApply(t, &s, TakeColor(Purple))
	if got, want := columnText(&s, 0, Purple), []string{"7", "X", "X", "X", "10"}; !sameStrings(got, want) {
		t.Fatalf("purple column %q, want %q", got, want)
	}
	if s.Sheets[0].Sum[rowIdx(6)] != 10 || s.Sheets[0].Sum[rowIdx(3)] != 0 {
		t.Fatal("the sum goes in the last cell filled only")
	}
}

// Row fill: leftmost empty cells, white then green, skipping filled ones.
func TestRowFillWhiteThenGreen(t *testing.T) {
	s := atTake(t, 2, "blue:2", "purple:2", "black:2", "orange:3")
	writeCell(&s, 0, rowIdx(2), 0, 5) // black column
	writeCell(&s, 0, rowIdx(2), 2, cellX)
	writeCell(&s, 0, rowIdx(2), 3, 6)
	mustApply(t, &s, TakeValue(2))
	if got, want := rowText(&s, 0, 2), []string{"5", "X", "X", "6", "X", "6", "", ""}; !sameStrings(got, want) {
		t.Fatalf("row 2 %q, want %q", got, want)
	}
	if s.Sheets[0].WhiteEmpty != 20-4 {
		t.Fatalf("white empty %d: green cells are not objective cells", s.Sheets[0].WhiteEmpty)
	}
}

// Row 6 has no green cell: 4 cells, so 5 sixes never fit.
func TestRowCapacities(t *testing.T) {
	for v, cells := range map[int]int{2: 8, 3: 7, 4: 6, 5: 5, 6: 4} {
		if got := DefaultLayout.RowCells(rowIdx(v)); got != cells {
			t.Errorf("row %d has %d cells, want %d", v, got, cells)
		}
	}
	s := atTake(t, 2, "blue:6", "blue:5")
	fillRow(&s, 0, 6, 0)       // row 6 full
	fillColumn(&s, 0, Blue, 6) // blue column full too: only the value 5 fits
	assertRefused(t, &s, TakeValue(6), RuleRowFull, "row 6", "must take one that fits")
}

// A colour choice never reaches green cells: with one white cell left in the
// column, two dice of that colour do not fit even if green cells are free.
func TestColorNeverReachesGreen(t *testing.T) {
	s := atTake(t, 2, "orange:4", "orange:5", "blue:3")
	fillColumn(&s, 0, Orange, 2) // only row 2's orange cell left; row 2 green all free
	assertRefused(t, &s, TakeColor(Orange), RuleColumnFull, "orange column", "must take one that fits")
	mustApply(t, &s, TakeValue(3))
}

func TestColorOfOnlyStarsWritesZero(t *testing.T) {
	s := atTake(t, 2, "orange:star", "orange:star", "blue:3")
	mustApply(t, &s, TakeColor(Orange))
	if got, want := columnText(&s, 0, Orange), []string{"X", "0", "", "", ""}; !sameStrings(got, want) {
		t.Fatalf("orange column %q, want %q", got, want)
	}
	if s.RefillDue {
		t.Fatal("a colour choice is not a star choice")
	}
	if s.Sheets[0].Marked != [NumRows]uint8{} {
		t.Fatal("a colour choice marked multipliers")
	}
}

// One die alone in its colour and its value: the player picks either.
func TestLoneDieEitherWay(t *testing.T) {
	base := atTake(t, 2, "purple:4", "blue:5", "blue:6")
	byColor, byValue := base, base
	mustApply(t, &byColor, TakeColor(Purple))
	mustApply(t, &byValue, TakeValue(4))
	if got := columnText(&byColor, 0, Purple); got[0] != "4" {
		t.Fatalf("by colour: purple column %q", got)
	}
	if got := rowText(&byValue, 0, 4); got[0] != "4" || got[1] != "" {
		t.Fatalf("by value: row 4 %q", got)
	}
	if byColor.Reserve != byValue.Reserve || byColor.Discard != byValue.Discard {
		t.Fatal("the same die must leave the reserve either way")
	}
	if byColor.Sheets[0] == byValue.Sheets[0] {
		t.Fatal("the two choices must fill different cells")
	}
}

func TestTakeWhatIsNotThere(t *testing.T) {
	s := atTake(t, 2, "purple:4", "blue:5")
	assertRefused(t, &s, TakeColor(Orange), RuleNoSuchDice, "orange")
	assertRefused(t, &s, TakeValue(6), RuleNoSuchDice, "6")
	assertRefused(t, &s, starsIn(t, 2), RuleNoSuchDice, "stars")
	assertRefused(t, &s, TakeValue(1), RuleBadValue)
	assertRefused(t, &s, TakeValue(7), RuleBadValue)
	assertRefused(t, &s, TakeValue(0), RuleBadValue)
	assertRefused(t, &s, TakeColor(Color(4)), RuleBadValue)
}

func TestStarChoice(t *testing.T) {
	cases := []struct {
		name  string
		setup func(s *State)
		rows  []int
		rule  string // "" = accepted
		frag  string
	}{
		{"exact count, one row", nil, []int{3, 3}, "", ""},
		{"exact count, two rows", nil, []int{2, 6}, "", ""},
		{"too few cells named", nil, []int{3}, RuleMultipliers, "exactly 2"},
		{"too many cells named", nil, []int{3, 4, 5}, RuleMultipliers, "exactly 2"},
		{"none named", nil, nil, RuleMultipliers, "exactly 2"},
		{"row 2 has only 2", func(s *State) { s.Sheets[0].Marked[rowIdx(2)] = 1 }, []int{2, 2}, RuleMultipliers, "row 2"},
		{"row 6 has 6", func(s *State) { s.Sheets[0].Marked[rowIdx(6)] = 4 }, []int{6, 6}, "", ""},
		{"row 6 full", func(s *State) { s.Sheets[0].Marked[rowIdx(6)] = 6 }, []int{6, 5}, RuleMultipliers, "row 6"},
		{"anywhere on the sheet", func(s *State) {
			// Only row 4 has unmarked cells left: 2 of them.
			s.Sheets[0].Marked = [NumRows]uint8{2, 3, 2, 5, 6}
		}, []int{4, 4}, "", ""},
		{"not enough anywhere, another choice fits", func(s *State) {
			s.Sheets[0].Marked = [NumRows]uint8{2, 3, 3, 5, 6}
		}, []int{4, 4}, RuleMultipliers, "must take one that fits"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := atTake(t, 2, "blue:star", "orange:star", "purple:5")
			if c.setup != nil {
				c.setup(&s)
				s.Recount()
			}
			a := starsIn(t, c.rows...)
			if c.rule != "" {
				assertRefused(t, &s, a, c.rule, c.frag)
				return
			}
			before := s.Sheets[0].Marked
			mustApply(t, &s, a)
			for r := range before {
				if s.Sheets[0].Marked[r] != before[r]+a.Mult[r] {
					t.Fatalf("row %d marked %d, want %d", DefaultLayout.RowValues[r], s.Sheets[0].Marked[r], before[r]+a.Mult[r])
				}
			}
			if s.NReserve != 1 || s.Discard[Blue] != 1 || s.Discard[Orange] != 1 || !s.RefillDue {
				t.Fatalf("reserve %v discard %v refill %v", s.ReserveDice(), s.Discard, s.RefillDue)
			}
			if s.Sheets[0].Filled != [NumRows]uint8{} {
				t.Fatal("a star choice wrote cells")
			}
		})
	}
}

// Must-take: a choice that does not fit is refused while another fits, and
// the message names the rule.
func TestMustTakeAFittingChoice(t *testing.T) {
	cases := []struct {
		name    string
		reserve []string
		setup   func(s *State)
		a       Action
		rule    string
	}{
		{"colour full, value fits", []string{"black:5", "black:6"},
			func(s *State) { fillColumn(s, 0, Black, 2) }, TakeColor(Black), RuleColumnFull},
		{"row full, colour fits", []string{"black:4", "blue:4"},
			func(s *State) { fillRow(s, 0, 4, 1) }, TakeValue(4), RuleRowFull},
		{"stars do not fit, colour fits", []string{"black:star", "blue:star", "orange:star", "orange:3"},
			func(s *State) { s.Sheets[0].Marked = [NumRows]uint8{2, 3, 4, 5, 4} }, starsIn(t, 6, 6, 6), RuleMultipliers},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := atTake(t, 2, c.reserve...)
			c.setup(&s)
			s.Recount()
			if !s.AnyTakeFits() {
				t.Fatal("setup: something must fit")
			}
			assertRefused(t, &s, c.a, c.rule, "must take one that fits")
			for _, a := range s.LegalActions(nil) {
				if a == c.a {
					t.Fatalf("LegalActions offers the non-fitting %v", a)
				}
			}
		})
	}
}

// fullSheet leaves seat 0 no room: every white and green cell written, every
// multiplier marked except as given.
func fullSheet(s *State, multLeft int) {
	for v := 2; v <= 6; v++ {
		fillRow(s, 0, v, 0)
	}
	for r := range s.Sheets[0].Marked {
		s.Sheets[0].Marked[r] = uint8(s.L.Multipliers[r])
	}
	s.Sheets[0].Marked[rowIdx(6)] -= uint8(multLeft)
	s.Recount()
}

// Penalty: only when nothing fits; a colour or a value, never the stars; the
// dice go to the discard and their sum to the penalty cell; it ends the game.
func TestPenalty(t *testing.T) {
	cases := []struct {
		name     string
		reserve  []string
		multLeft int
		a        Action
		penalty  int
		rule     string
	}{
		{"colour", []string{"blue:5", "blue:3", "orange:6"}, 0, TakeColor(Blue), 8, ""},
		{"value", []string{"blue:5", "black:5", "orange:6"}, 0, TakeValue(5), 10, ""},
		{"colour with a star", []string{"blue:5", "blue:star"}, 0, TakeColor(Blue), 5, ""},
		{"zero: a colour of stars only", []string{"blue:star", "orange:6"}, 0, TakeColor(Blue), 0, ""},
		{"not the stars", []string{"blue:star", "orange:6"}, 0, starsIn(t), 0, RulePenaltyStars},
		{"not the stars, even naming cells", []string{"blue:star", "orange:star", "orange:6"}, 1, starsIn(t, 6, 6), 0, RulePenaltyStars},
		{"absent colour", []string{"blue:5"}, 0, TakeColor(Black), 0, RuleNoSuchDice},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := atTake(t, 2, c.reserve...)
			fullSheet(&s, c.multLeft)
			if s.AnyTakeFits() {
				t.Fatal("setup: nothing may fit")
			}
			if c.rule != "" {
				assertRefused(t, &s, c.a, c.rule)
				return
			}
			n, _ := s.takeCount(c.a)
			sheetBefore := s.Sheets[0]
			mustApply(t, &s, c.a)
			sh := s.Sheets[0]
			if !sh.Penalized || int(sh.Penalty) != c.penalty || !s.Ending {
				t.Fatalf("penalized %v penalty %d ending %v, want penalty %d", sh.Penalized, sh.Penalty, s.Ending, c.penalty)
			}
			if s.DiscardCount() != n || s.RefillDue {
				t.Fatalf("discard %d (want %d), refill %v", s.DiscardCount(), n, s.RefillDue)
			}
			sh.Penalty, sh.Penalized = sheetBefore.Penalty, sheetBefore.Penalized
			if sh != sheetBefore {
				t.Fatal("a penalty wrote on the sheet besides the penalty cell")
			}
			if got := s.Sheets[0].Total(s.L); got != sheetBefore.Total(s.L)-c.penalty {
				t.Fatalf("total %d, want %d", got, sheetBefore.Total(s.L)-c.penalty)
			}
		})
	}
}

// A penalty of 0 still ends the game (the last player's turn: at once).
func TestZeroPenaltyEndsTheGame(t *testing.T) {
	s := atTake(t, 2, "orange:star", "orange:star", "blue:3")
	s.Current = 1
	for v := 2; v <= 6; v++ {
		fillRow(&s, 1, v, 0)
	}
	for r := range s.Sheets[1].Marked {
		s.Sheets[1].Marked[r] = uint8(s.L.Multipliers[r])
	}
	s.Recount()
	mustApply(t, &s, TakeColor(Orange))
	if !s.Sheets[1].Penalized || s.Sheets[1].Penalty != 0 || !s.Over() {
		t.Fatalf("penalized %v penalty %d over %v", s.Sheets[1].Penalized, s.Sheets[1].Penalty, s.Over())
	}
}

// In a penalty turn LegalActions offers exactly the colours and values
// present, never the stars.
func TestPenaltyLegalActions(t *testing.T) {
	s := atTake(t, 2, "blue:5", "blue:star", "orange:5", "black:2")
	fullSheet(&s, 0)
	var kinds []string
	for _, a := range s.LegalActions(nil) {
		kinds = append(kinds, a.String())
		if a.Type == ActTakeStars {
			t.Fatal("stars offered in a penalty turn")
		}
		if err := s.Check(a); err != nil {
			t.Fatalf("legal %v refused: %v", a, err)
		}
	}
	if got := strings.Join(kinds, ";"); got != "take black;take blue;take orange;take 2s;take 5s" {
		t.Fatalf("penalty choices %q", got)
	}
}
