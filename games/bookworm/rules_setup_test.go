package bookworm

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

func TestPlayerCountsAndOptions(t *testing.T) {
	for n := 1; n <= 7; n++ {
		_, err := testGame().NewMatch(make([]string, n), nil)
		if ok := n >= 2 && n <= 6; ok != (err == nil) {
			t.Errorf("%d players: err %v", n, err)
		}
	}
	good := map[string]Settings{
		``:     DefaultSettings,
		`null`: DefaultSettings,
		`{}`:   DefaultSettings,
		`{"special":false,"thinkSeconds":0,"countdownSeconds":3,"challengeSeconds":2,"voteSeconds":7,"target":30}`: {
			Special: false, ThinkMs: 0, CountdownMs: 3000, ChallengeMs: 2000, KnownChallengeMs: 2000, VoteMs: 7000, Target: 30, Language: "en"},
		`{"knownChallengeSeconds":0}`: {Special: true, ThinkMs: 10000, CountdownMs: 5000, ChallengeMs: 4000, VoteMs: 10000, Target: 21, Language: "en"},
		`{"language":"fr"}`:           {Special: true, ThinkMs: 10000, CountdownMs: 5000, ChallengeMs: 4000, KnownChallengeMs: 2000, VoteMs: 10000, Target: 21, Language: "fr"},
	}
	for in, want := range good {
		got, err := ParseOptions(json.RawMessage(in))
		if err != nil || got != want {
			t.Errorf("options %s: %+v %v, want %+v", in, got, err, want)
		}
	}
	for _, in := range []string{`{"speed":1}`, `{"thinkSeconds":-1}`, `{"countdownSeconds":0}`, `{"voteSeconds":601}`, `{"knownChallengeSeconds":-1}`, `{"language":"de"}`, `{"language":1}`,
		`{"target":0}`, `{"special":"yes"}`, `[1]`, `{} {}`} {
		if _, err := ParseOptions(json.RawMessage(in)); err == nil {
			t.Errorf("options %s accepted", in)
		}
	}
	if _, err := (Game{}).NewMatch([]string{"a", "b"}, nil); err == nil {
		t.Error("a game without a deck set up")
	}
	dup := Game{Deck: append(testDeck[:1:1], testDeck[0])}
	if _, err := dup.NewMatch([]string{"a", "b"}, nil); err == nil {
		t.Error("a deck with a card ID twice accepted")
	}
}

// The first round: seat 0 is the Bookworm, a card is drawn, the Bookworm
// chooses, the dice are rolled and the player left of the Bookworm starts.
func TestRoundStart(t *testing.T) {
	m := newTest(t, 3, "")
	if tu := m.Turn(); !tu.Chance || len(tu.Actors) != 0 || m.S.Bookworm != 0 {
		t.Fatalf("start: %+v, bookworm %d", tu, m.S.Bookworm)
	}
	refused(t, m, 0, 0, ChooseCategory(0), engine.ErrChancePending.Rule)
	ev := do(t, m, engine.ChanceSeat, 0, DrawCard(2))
	if kinds(ev) != "card" || m.S.Phase != PhaseCategory || !reflect.DeepEqual(m.Turn().Actors, []engine.Seat{0}) {
		t.Fatalf("after the card: %s %v %+v", kinds(ev), m.S.Phase, m.Turn())
	}
	refused(t, m, 1, 0, ChooseCategory(0), engine.ErrNotYourTurn.Rule)
	refused(t, m, 0, 0, ChooseCategory(3), RuleBadCategory)
	refused(t, m, 0, 0, Name("dog", 1), engine.ErrWrongAction.Rule)
	do(t, m, 0, 500, ChooseCategory(1))
	if c, _ := m.S.CategoryInPlay(); c.ID != "birds" || m.S.Phase != PhaseRoll {
		t.Fatalf("category %v phase %v", c, m.S.Phase)
	}
	ev = do(t, m, engine.ChanceSeat, 1000, RollNames(roll("a-z")...))
	if kinds(ev) != "roll turn" || m.S.Current != 1 || m.S.CountdownAt != 11000 || m.S.Deadline != 16000 {
		t.Fatalf("after the roll: %s current %d countdown %d deadline %d", kinds(ev), m.S.Current, m.S.CountdownAt, m.S.Deadline)
	}
	tu := m.Turn()
	if !reflect.DeepEqual(tu.Actors, []engine.Seat{1}) || !reflect.DeepEqual(tu.Deadlines, []engine.Deadline{{Seat: 1, At: 16000}}) {
		t.Fatalf("turn %+v", tu)
	}
}

func TestCardsAreNotReusedUntilTheStackIsEmpty(t *testing.T) {
	m := newTest(t, 2, "")
	refused(t, m, engine.ChanceSeat, 0, DrawCard(99), RuleCardNotAvailable)
	do(t, m, engine.ChanceSeat, 0, DrawCard(7))
	m.S.Phase = PhaseCard // pretend the ? die asked for a new card
	refused(t, m, engine.ChanceSeat, 0, DrawCard(7), RuleCardNotAvailable)
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	m.S.Phase = PhaseCard
	do(t, m, engine.ChanceSeat, 0, DrawCard(2))
	// Every card used: all but the card in play go back into the stack.
	m.S.Phase = PhaseCard
	refused(t, m, engine.ChanceSeat, 0, DrawCard(2), RuleCardNotAvailable)
	src := engine.NewSource(1)
	for i := 0; i < 20; i++ {
		if a := m.S.SampleChance(src); a.Card == 2 {
			t.Fatal("sampled the card in play")
		}
	}
	ev := do(t, m, engine.ChanceSeat, 0, DrawCard(7))
	if kinds(ev) != "reshuffle card" || !m.S.Used[2] || m.S.Used[0] || m.S.Used[1] {
		t.Fatalf("reshuffle: %s used %v", kinds(ev), m.S.Used)
	}
}

func TestRollIsCheckedAndMatchedToDice(t *testing.T) {
	m := newTest(t, 2, "")
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	do(t, m, 0, 0, ChooseCategory(0))
	refused(t, m, engine.ChanceSeat, 0, RollNames("C/K", "D"), RuleRollCount)
	refused(t, m, engine.ChanceSeat, 0, RollNames("C/K", "D", "M", "P", "A", "B", "N", "Q"), RuleRollFace)
	// Three faces of the L4 die cannot show at once.
	refused(t, m, engine.ChanceSeat, 0, RollNames("N", "V", "J", "P", "A", "B", "C/K", "not"), RuleRollFace)
	refused(t, m, engine.ChanceSeat, 0, RollNames("C/K", "D", "M", "P", "A", "B", "N", "green"), RuleRollFace)
	// Names in any order, either spelling of a double face.
	do(t, m, engine.ChanceSeat, 0, RollNames("xy", "not", "z", "a", "i", "u", "ck", "d"))
	want := []string{"C/K", "D", "I", "U", "Z", "A", "X/Y", "not"}
	for d, f := range want {
		if m.S.FaceName(d) != f {
			t.Fatalf("die %d shows %s, want %s", d, m.S.FaceName(d), f)
		}
	}
}

func TestWithoutTheSpecialDieSevenDiceRoll(t *testing.T) {
	m := newTest(t, 2, `{"special":false}`)
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	do(t, m, 0, 0, ChooseCategory(0))
	refused(t, m, engine.ChanceSeat, 0, RollNames(roll("a-z")...), RuleRollCount)
	do(t, m, engine.ChanceSeat, 0, RollNames(roll("")[:7]...))
	if _, ok := m.S.SpecialFace(); ok || m.S.NDice != 7 || len(m.Report().Display) != 7 {
		t.Fatalf("dice %d, display %v", m.S.NDice, m.Report().Display)
	}
	refused(t, m, 1, 0, TakeQuestion(), RuleNoQuestionDie)
}

// Turn: right after the roll the Bookworm turns the Special die to another
// face, whose rules then hold.
func TestTurnFace(t *testing.T) {
	m := atTurns(t, 3, "", roll("turn")...)
	if m.S.Phase != PhaseTurnTo || !reflect.DeepEqual(m.Turn().Actors, []engine.Seat{0}) || len(m.Turn().Deadlines) != 0 {
		t.Fatalf("phase %v turn %+v", m.S.Phase, m.Turn())
	}
	if got := m.Legal(0); len(got) != 5 {
		t.Fatalf("legal %v", got)
	}
	refused(t, m, 1, 0, TurnTo(SpecialNot), engine.ErrNotYourTurn.Rule)
	refused(t, m, 0, 0, TurnTo(SpecialTurn), RuleBadFace)
	refused(t, m, 0, 0, TurnTo(NumSpecial), RuleBadFace)
	ev := do(t, m, 0, 2000, TurnTo(SpecialNot))
	if kinds(ev) != "special-turned turn" || m.Report().Special != "not" || m.S.Current != 1 || m.S.Deadline != 17000 {
		t.Fatalf("%s special %s current %d deadline %d", kinds(ev), m.Report().Special, m.S.Current, m.S.Deadline)
	}
	refused(t, m, 1, 2000, Name("dog", 7), RuleWrongLetter)
	do(t, m, 1, 2000, Name("newt", 7))
}
