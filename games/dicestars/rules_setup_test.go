package dicestars

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// Helpers shared by the rules_*_test.go tables. Situations are built either
// by playing actions with fixed dice or by setting State fields directly; the
// direct setters keep the 14 dice conserved so every invariant still holds,
// and call Recount (the rules cache the room on each sheet and the reserve
// counts); a test that edits fields itself calls Recount too.

// die parses "colour:face" or fails the test.
func mustDie(t testing.TB, s string) Die {
	t.Helper()
	d, err := ParseDie(s)
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func mustDice(t testing.TB, ss ...string) []Die {
	t.Helper()
	out := make([]Die, len(ss))
	for i, s := range ss {
		out[i] = mustDie(t, s)
	}
	return out
}

func freshState(t testing.TB, players int) State {
	t.Helper()
	s, err := NewState(nil, players)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// rowIdx is the row index of a value on the default sheet (2 is the top row).
func rowIdx(v int) int { return DefaultLayout.RowOf(v) }

// apply applies actions in order and fails on the first refusal.
func mustApply(t testing.TB, s *State, acts ...Action) {
	t.Helper()
	for _, a := range acts {
		if err := s.Apply(a); err != nil {
			t.Fatalf("%v refused: %v (phase %v)", a, err, s.Phase)
		}
		assertConserved(t, s)
	}
}

// turn plays one whole turn: announce n dice, roll exactly the given dice
// (fewer than n when the bag is short), then take.
func playTurn(t testing.TB, s *State, n int, rolled []string, take Action) {
	t.Helper()
	mustApply(t, s, Draw(n, false))
	if s.Phase == PhaseRoll {
		mustApply(t, s, Roll(mustDice(t, rolled...)...))
	}
	mustApply(t, s, take)
}

// stars builds a star choice naming one row value per star.
func starsIn(t testing.TB, rows ...int) Action {
	t.Helper()
	a, err := DefaultLayout.TakeStars(rows...)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// putReserve moves the given dice from the bag into the reserve (their faces
// as given) and puts the current player in PhaseTake.
func putReserve(t testing.TB, s *State, ss ...string) {
	t.Helper()
	for _, d := range mustDice(t, ss...) {
		if s.Bag[d.Color()] == 0 {
			t.Fatalf("no %s die left in the bag for the reserve", d.Color())
		}
		s.Bag[d.Color()]--
		s.Reserve[s.NReserve] = d
		s.NReserve++
	}
	s.Recount() // direct edits bypass the rules' cached counters
	s.Phase = PhaseTake
	s.Recount()
	assertConserved(t, s)
}

// atTake is a fresh game whose current player faces the given reserve.
func atTake(t testing.TB, players int, reserve ...string) State {
	t.Helper()
	s := freshState(t, players)
	putReserve(t, &s, reserve...)
	return s
}

// writeCell writes v (cellX for an X) in cell i of row r of seat p's sheet, as
// if an earlier choice had written it.
func writeCell(s *State, p, r, i, v int) {
	sh := &s.Sheets[p]
	if sh.Filled[r]&(1<<i) != 0 {
		panic("fill: cell already written")
	}
	sh.Filled[r] |= 1 << i
	sh.Cells[r][i] = int8(v)
	if v != cellX {
		sh.Sum[r] += int16(v)
	}
	if i < NumColors {
		sh.WhiteEmpty--
	}
	s.Recount() // direct edits bypass the rules' cached counters
}

// fillColumn crosses every cell of colour c's column except the rows listed.
func fillColumn(s *State, p int, c Color, except ...int) {
	col := s.L.ColumnOf(c)
next:
	for r := 0; r < NumRows; r++ {
		for _, e := range except {
			if r == rowIdx(e) {
				continue next
			}
		}
		writeCell(s, p, r, col, cellX)
	}
}

// fillRow crosses the leftmost empty cells of row value v until only keep
// cells are left.
func fillRow(s *State, p, v, keep int) {
	r := rowIdx(v)
	for i := 0; i < s.L.RowCells(r) && s.Sheets[p].rowEmpty(s.L, r) > keep; i++ {
		if s.Sheets[p].Filled[r]&(1<<i) == 0 {
			writeCell(s, p, r, i, cellX)
		}
	}
}

// rowText renders row v of seat p as the sheet shows it: "" for empty.
func rowText(s *State, p, v int) []string {
	r := rowIdx(v)
	out := make([]string, s.L.RowCells(r))
	for i := range out {
		out[i] = cellText(&s.Sheets[p], r, i)
	}
	return out
}

// columnText renders colour c's column of seat p, top row first.
func columnText(s *State, p int, c Color) []string {
	col := s.L.ColumnOf(c)
	out := make([]string, NumRows)
	for r := range out {
		out[r] = cellText(&s.Sheets[p], r, col)
	}
	return out
}

func assertConserved(t testing.TB, s *State) {
	t.Helper()
	if err := diceConserved(s); err != nil {
		t.Fatal(err)
	}
}

// diceConserved checks that every die is in the bag, the reserve or the
// discard, once.
func diceConserved(s *State) error {
	var count [NumColors]int
	for c := range count {
		count[c] = int(s.Bag[c]) + int(s.Discard[c])
	}
	for _, d := range s.ReserveDice() {
		count[d.Color()]++
	}
	for c := range count {
		if count[c] != s.L.Dice[c].Count {
			return fmt.Errorf("%s dice: %d in bag+reserve+discard, want %d", Color(c), count[c], s.L.Dice[c].Count)
		}
	}
	return nil
}

// refused asserts that a is refused with the rule code, that the message
// contains every fragment, and that the state is unchanged.
func assertRefused(t testing.TB, s *State, a Action, rule string, fragments ...string) {
	t.Helper()
	before := *s
	err := s.Apply(a)
	if err == nil {
		t.Fatalf("%v accepted, want refusal %q", a, rule)
	}
	if !errors.Is(err, engine.Refuse(rule, "")) {
		t.Fatalf("%v refused with %v (%T), want rule %q", a, err, err, rule)
	}
	for _, f := range fragments {
		if !strings.Contains(err.Error(), f) {
			t.Errorf("%v: message %q does not mention %q", a, err.Error(), f)
		}
	}
	if *s != before {
		t.Fatalf("%v was refused but changed the state", a)
	}
}

func sameStrings(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
