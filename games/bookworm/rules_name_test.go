package bookworm

import (
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// Naming: the word's first letter must be on the die taken, the word must
// be new this round, and it must be said in time.
func TestNameRefusals(t *testing.T) {
	cases := []struct {
		name   string
		at     int64
		action Action
		rule   string
	}{
		{"letter not on the die", 0, Name("dog", 4), RuleWrongLetter},
		{"claimed letter differs", 0, NameAs("cat", 0, 'k'), RuleWrongLetter},
		{"digits", 0, Name("4x4", 0), RuleBadWord},
		{"empty", 0, Name("  ", 0), RuleBadWord},
		{"only punctuation", 0, Name("...", 0), RuleBadWord},
		{"other script", 0, Name("кот", 0), RuleBadWord},
		{"too long", 0, Name("c"+strings.Repeat("a", MaxWordRunes), 0), RuleBadWord},
		{"no such die", 0, Name("cat", 8), RuleNoSuchDie},
		{"negative die", 0, Name("cat", -1), RuleNoSuchDie},
		{"after the deadline", 15001, Name("cat", 0), RuleTooLate},
		{"a-z die not for other actions", 0, Challenge(), engine.ErrWrongAction.Rule},
		{"vote out of a vote", 0, Vote(true), engine.ErrWrongAction.Rule},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := atTurns(t, 3, "", roll("a-z")...)
			refused(t, m, 1, c.at, c.action, c.rule)
		})
	}
	m := atTurns(t, 3, "", roll("a-z")...)
	refused(t, m, 0, 0, Name("cat", 0), engine.ErrNotYourTurn.Rule)
	refused(t, m, 1, 0, Timeout(), engine.ErrWrongAction.Rule)
	refused(t, m, engine.SystemSeat, 0, Name("cat", 0), engine.ErrWrongAction.Rule)
	refused(t, m, engine.ChanceSeat, 0, DrawCard(2), engine.ErrWrongAction.Rule)
	refused(t, m, 9, 0, Name("cat", 0), engine.ErrNotYourTurn.Rule)
}

// C/K and X/Y: the word may start with either letter; accents and case do
// not matter for the letter.
func TestDoubleLettersAndAccents(t *testing.T) {
	for _, w := range []string{"Cat", "koala", "Çava", "  cow  "} {
		m := atTurns(t, 2, "", roll("a-z")...)
		do(t, m, 1, 0, Name(w, 0))
		if m.S.Owner[0] != 1 && m.S.Phase != PhaseChallenge {
			t.Errorf("%q did not take the C/K die", w)
		}
	}
	m := atTurns(t, 2, "", "D", "C/K", "M", "P", "A", "B", "X/Y", "a-z")
	do(t, m, 1, 0, Name("yak", 6))
	do(t, m, 0, 0, NameAs("xerus", 6, 'x')) // a steal, with the other letter
	if m.S.Owner[6] != 0 {
		t.Fatal("the X/Y die was not stolen with an X word")
	}
}

// Already named: words compare case- and accent-insensitively, rejected
// words included.
func TestAlreadyNamed(t *testing.T) {
	m := atTurns(t, 3, "", roll("a-z")...)
	do(t, m, 1, 0, Name("cat", 0))
	refused(t, m, 2, 0, Name("CAT", 7), RuleAlreadyNamed)
	refused(t, m, 2, 0, Name("Cât", 7), RuleAlreadyNamed)
	refused(t, m, 2, 0, Name("cat", 0), RuleAlreadyNamed)
	do(t, m, 2, 0, Name("cats", 7))
	// A new round forgets the words.
	m.S.endRound(&emitter{}, 2, -1)
	do(t, m, engine.ChanceSeat, 0, DrawCard(2))
	do(t, m, 2, 0, ChooseCategory(0))
	do(t, m, engine.ChanceSeat, 0, RollNames(roll("a-z")...))
	if len(m.S.Named) != 0 || m.S.Current != 0 {
		t.Fatalf("new round: named %v current %d", m.S.Named, m.S.Current)
	}
}

// With knownChallengeSeconds 0 (the tests' default, see newTest) a word the
// lexicon knows takes its die at once; the next player's clock starts from
// that moment.
func TestKnownWordIsTakenAtOnce(t *testing.T) {
	m := atTurns(t, 3, "", roll("a-z")...)
	ev := do(t, m, 1, 3200, Name("Dog", 1))
	if kinds(ev) != "word take turn" {
		t.Fatalf("events %s", kinds(ev))
	}
	if m.S.Owner[1] != 1 || m.S.Current != 2 || m.S.CountdownAt != 13200 || m.S.Deadline != 18200 {
		t.Fatalf("owner %d current %d countdown %d deadline %d", m.S.Owner[1], m.S.Current, m.S.CountdownAt, m.S.Deadline)
	}
	w := m.Report().Words[0]
	if w.By != "bob" || w.Word != "Dog" || w.Letter != "D" || w.From != "display" || !w.Known || w.Status != WordAccepted {
		t.Fatalf("word report %+v", w)
	}
	// Exactly at the deadline still counts.
	do(t, m, 2, 18200, Name("mole", 2))
}

// Steals: from another player, any of their dice; the robbed player takes
// a Bookworm card; six steals at most, then the display only.
func TestSteals(t *testing.T) {
	m := atTurns(t, 2, `{"special":false}`, roll("")[:7]...)
	do(t, m, 1, 0, Name("cat", 0))
	refused(t, m, 0, 0, Name("koala", 1), RuleWrongLetter)
	ev := do(t, m, 0, 0, Name("cow", 0))
	if kinds(ev) != "word steal turn" || m.S.Owner[0] != 0 || m.S.Cards[1] != 1 || m.S.CardsLeft != 5 {
		t.Fatalf("steal: %s owner %d cards %v left %d", kinds(ev), m.S.Owner[0], m.S.Cards, m.S.CardsLeft)
	}
	refused(t, m, 0, 0, Name("cobra", 0), engine.ErrNotYourTurn.Rule)
	// Back and forth until the six cards are gone.
	seat := engine.Seat(1)
	for _, w := range []string{"koala", "crab", "crow", "camel", "kudu"} {
		refused(t, m, 1-seat, 0, Name("c"+w, 0), engine.ErrNotYourTurn.Rule)
		do(t, m, seat, 0, Name(w, 0))
		seat = 1 - seat
	}
	if m.S.CardsLeft != 0 || m.S.Cards[0]+m.S.Cards[1] != 6 || m.S.Owner[0] != 1 || m.Report().Steals != 6 {
		t.Fatalf("after six steals: cards %v left %d owner %d", m.S.Cards, m.S.CardsLeft, m.S.Owner[0])
	}
	refused(t, m, 0, 0, Name("kite", 0), RuleNoBookwormCards)
	do(t, m, 0, 0, Name("dog", 1))
	refused(t, m, 1, 0, Name("dingo", 1), RuleNoBookwormCards)
	refused(t, m, 1, 0, Name("cicada", 0), RuleOwnDie)
	// Stealing never ends the round; five white dice are still out.
	if m.S.Phase != PhaseName || m.S.WhiteInDisplay() != 5 {
		t.Fatalf("phase %v display %d", m.S.Phase, m.S.WhiteInDisplay())
	}
}

// Any word may be disputed, as the rulebook says: a word the lexicon knows
// opens the short window (knownChallengeSeconds, 2 by default), and a
// challenge of it goes to the same vote as any other.
func TestKnownWordCanBeDisputed(t *testing.T) {
	const opts = `{"knownChallengeSeconds":2}`
	m := atTurns(t, 3, opts, roll("a-z")...)
	if ev := do(t, m, 1, 3200, Name("Dog", 1)); kinds(ev) != "word challenge-window" {
		t.Fatalf("events %s", kinds(ev))
	}
	if m.S.Phase != PhaseChallenge || m.S.Deadline != 5200 || !m.S.Named[0].Known {
		t.Fatalf("phase %v deadline %d known %v", m.S.Phase, m.S.Deadline, m.S.Named[0].Known)
	}
	do(t, m, 2, 4000, Challenge())
	do(t, m, 0, 4100, Vote(false))
	ev := do(t, m, 2, 4200, Vote(false))
	if !strings.Contains(kinds(ev), "verdict") || m.S.Named[0].Status != WordRejected || m.S.Owner[1] != Display {
		t.Fatalf("events %s status %v owner %d", kinds(ev), m.S.Named[0].Status, m.S.Owner[1])
	}

	// Let pass by everyone: taken at once, the next turn starts then.
	m = atTurns(t, 3, opts, roll("a-z")...)
	do(t, m, 1, 3200, Name("Dog", 1))
	do(t, m, 2, 3300, Allow())
	ev = do(t, m, 0, 3400, Allow())
	if !strings.Contains(kinds(ev), "take") || m.S.Owner[1] != 1 || m.S.Current != 2 || m.S.CountdownAt != 13400 {
		t.Fatalf("events %s owner %d current %d countdown %d", kinds(ev), m.S.Owner[1], m.S.Current, m.S.CountdownAt)
	}

	// Nobody acts: the window runs out and the word is taken.
	m = atTurns(t, 3, opts, roll("a-z")...)
	do(t, m, 1, 3200, Name("Dog", 1))
	refused(t, m, engine.SystemSeat, 5199, Timeout(), RuleNotYetTimedOut)
	if ev := do(t, m, engine.SystemSeat, 5200, Timeout()); !strings.Contains(kinds(ev), "take") || m.S.Owner[1] != 1 {
		t.Fatalf("events %s owner %d", kinds(ev), m.S.Owner[1])
	}
}
