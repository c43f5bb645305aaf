package bookworm

import (
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// A–Z: any word takes it from the display; it cannot be stolen; 0 points.
func TestSpecialAZ(t *testing.T) {
	m := atTurns(t, 2, "", roll("a-z")...)
	do(t, m, 1, 0, Name("zebra", 7))
	if m.S.Owner[7] != 1 || m.S.Points(7) != 0 {
		t.Fatalf("owner %d points %d", m.S.Owner[7], m.S.Points(7))
	}
	refused(t, m, 0, 0, Name("yak", 7), RuleCannotSteal)
}

// NOT: taken with a word starting N, O or T; +2 with another die, −2 alone.
// Ruling: it can be stolen with such a word.
func TestSpecialNot(t *testing.T) {
	m := atTurns(t, 3, "", roll("not")...)
	refused(t, m, 1, 0, Name("cat", 7), RuleWrongLetter)
	do(t, m, 1, 0, Name("owl", 7))
	if m.S.Points(7) != -2 {
		t.Fatalf("NOT alone scores %d", m.S.Points(7))
	}
	refused(t, m, 2, 0, Name("dog", 7), RuleWrongLetter)
	do(t, m, 2, 0, Name("tiger", 7))
	if m.S.Owner[7] != 2 || m.S.Cards[1] != 1 {
		t.Fatal("NOT was not stolen")
	}
	hold(m, 2, 0)
	if m.S.Points(7) != 2 {
		t.Fatalf("NOT with another die scores %d", m.S.Points(7))
	}
	ev := do(t, m, engine.SystemSeat, 15000, Timeout()) // ann fails
	re := roundEnd(t, ev)
	if re.Scores[2] != (ScoreLine{Dots: 1, Special: 2, Total: 3}) || re.Scores[1] != (ScoreLine{Cards: 1, Total: 1}) {
		t.Fatalf("scores %+v", re.Scores)
	}
	// Alone at the end of the round: −2.
	m = atTurns(t, 2, "", roll("not")...)
	do(t, m, 1, 0, Name("newt", 7))
	re = roundEnd(t, do(t, m, engine.SystemSeat, 15000, Timeout()))
	if re.Scores[1].Special != -2 || re.Scores[1].Total != -2 {
		t.Fatalf("NOT alone: %+v", re.Scores[1])
	}
}

// ••: no word takes it; whoever takes the last white die takes it too;
// +2 (covered with scoring in TestLastWhiteDieEndsTheRound). It stays in
// the display if the round ends by a failure.
func TestSpecialDots(t *testing.T) {
	m := atTurns(t, 2, "", roll("dots")...)
	refused(t, m, 1, 0, Name("zebra", 7), RuleSpecialNotByWord)
	re := roundEnd(t, do(t, m, 1, 0, GiveUp()))
	if re.Scores[1].Special != 0 {
		t.Fatalf("scores %+v", re.Scores)
	}
}

// Stack: it cannot be taken from the display; dice pile up in the order
// taken; only the top die of a pile can be stolen.
func TestSpecialStack(t *testing.T) {
	m := atTurns(t, 3, "", roll("stack")...)
	refused(t, m, 1, 0, Name("seal", 7), RuleStackNotTaken)
	do(t, m, 1, 0, Name("cat", 0))
	do(t, m, 2, 0, Name("ape", 4))
	do(t, m, 0, 0, Name("dog", 1))
	do(t, m, 1, 0, Name("mole", 2))
	do(t, m, 2, 0, Name("bat", 5))
	hold(m, 1, 3) // bob's pile: C/K, M, P (top)
	if got := m.S.DiceOf(1); !reflect.DeepEqual(got, []int{0, 2, 3}) || m.S.StackTop(1) != 3 {
		t.Fatalf("pile %v top %d", got, m.S.StackTop(1))
	}
	refused(t, m, 0, 0, Name("moose", 2), RuleStackTopOnly)
	refused(t, m, 0, 0, Name("koala", 0), RuleStackTopOnly)
	do(t, m, 0, 0, Name("pig", 3))
	// Ann's pile is D then P: the stolen die is on top.
	if got := m.S.DiceOf(0); !reflect.DeepEqual(got, []int{1, 3}) {
		t.Fatalf("ann's pile %v", got)
	}
	if faces := m.Report().Players[0].Dice; faces[1].Face != "P" {
		t.Fatalf("report pile %+v", faces)
	}
	refused(t, m, 1, 0, Name("dingo", 1), RuleStackTopOnly)
	do(t, m, 1, 0, Name("puma", 3))
}

// ?: instead of naming a word a player takes it; a new card is drawn, the
// taker chooses the category, and the turn passes. It cannot be taken with
// a word nor stolen, and scores 0.
func TestSpecialQuestion(t *testing.T) {
	m := atTurns(t, 3, "", roll("?")...)
	refused(t, m, 1, 0, Name("quail", 7), RuleSpecialNotByWord)
	refused(t, m, 1, 15001, TakeQuestion(), RuleTooLate)
	if got := m.SeatView(1).Legal; !reflect.DeepEqual(got, []string{"name", "question", "give-up"}) {
		t.Fatalf("legal kinds %v", got)
	}
	ev := do(t, m, 1, 3000, TakeQuestion())
	if kinds(ev) != "question" || m.S.Phase != PhaseCard || !m.Turn().Chance || m.S.Owner[7] != 1 {
		t.Fatalf("%s phase %v", kinds(ev), m.S.Phase)
	}
	refused(t, m, engine.ChanceSeat, 3000, DrawCard(1), RuleCardNotAvailable)
	ev = do(t, m, engine.ChanceSeat, 3000, DrawCard(7))
	if c := ev[0].Data.(CardEvent); c.Chooser != 1 || !c.MidRound {
		t.Fatalf("card event %+v", c)
	}
	refused(t, m, 0, 3000, ChooseCategory(1), engine.ErrNotYourTurn.Rule)
	ev = do(t, m, 1, 4000, ChooseCategory(1))
	if kinds(ev) != "category turn" || m.S.Current != 2 || m.S.Deadline != 19000 {
		t.Fatalf("%s current %d deadline %d", kinds(ev), m.S.Current, m.S.Deadline)
	}
	if c, _ := m.S.CategoryInPlay(); c.ID != "instruments" || m.Report().Special != "?" {
		t.Fatalf("category %v", c)
	}
	// Dice keep their places and words stay named: only the category changed.
	refused(t, m, 2, 4000, TakeQuestion(), RuleNoQuestionDie)
	refused(t, m, 2, 4000, Name("quena", 7), RuleCannotSteal)
	do(t, m, 2, 4000, GiveUp())
	if m.S.LastRound.Lines[1].Total != 0 {
		t.Fatalf("the ? die scored %+v", m.S.LastRound.Lines[1])
	}
}
