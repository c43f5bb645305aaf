package bookworm

import (
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// atWindow: in a 4-player game bob names "dachshund" (unknown to the
// lexicon) for the D die at 1000 ms: the others may challenge until 5000.
func atWindow(t *testing.T) *Match {
	t.Helper()
	m := atTurns(t, 4, "", roll("a-z")...)
	ev := do(t, m, 1, 1000, Name("dachshund", 1))
	if kinds(ev) != "word challenge-window" || m.S.Phase != PhaseChallenge || m.S.Deadline != 5000 {
		t.Fatalf("unknown word: %s phase %v deadline %d", kinds(ev), m.S.Phase, m.S.Deadline)
	}
	return m
}

func TestChallengeWindow(t *testing.T) {
	m := atWindow(t)
	tu := m.Turn()
	if !reflect.DeepEqual(tu.Actors, []engine.Seat{0, 2, 3}) || len(tu.Deadlines) != 3 || tu.Deadlines[0].At != 5000 {
		t.Fatalf("window turn %+v", tu)
	}
	refused(t, m, 1, 2000, Challenge(), RuleOwnWord)
	refused(t, m, 2, 2000, Name("dog", 1), engine.ErrWrongAction.Rule)
	refused(t, m, engine.SystemSeat, 4999, Timeout(), RuleNotYetTimedOut)
	refused(t, m, 2, 5001, Challenge(), RuleTooLate)
	// The clock of the speaker's turn is stopped while the word is judged.
	if m.S.Owner[1] != Display || m.Report().Judging == nil || m.Report().Judging.Word != "dachshund" {
		t.Fatalf("judging %+v", m.Report().Judging)
	}
	// Nobody challenges: the window's timeout accepts the word.
	ev := do(t, m, engine.SystemSeat, 5000, Timeout())
	if kinds(ev) != "timeout take turn" || m.S.Owner[1] != 1 || m.S.Current != 2 || m.S.Deadline != 20000 {
		t.Fatalf("%s owner %d current %d deadline %d", kinds(ev), m.S.Owner[1], m.S.Current, m.S.Deadline)
	}
}

// Everybody may let the word pass at once: the window closes early.
func TestAllowClosesTheWindow(t *testing.T) {
	m := atWindow(t)
	do(t, m, 0, 1500, Allow())
	refused(t, m, 0, 1600, Allow(), RuleAlreadyAllowed)
	refused(t, m, 0, 1600, Challenge(), RuleAlreadyAllowed)
	do(t, m, 3, 1700, Allow())
	if !reflect.DeepEqual(m.Report().Judging.Allowed, []string{"ann", "di"}) {
		t.Fatalf("allowed %v", m.Report().Judging.Allowed)
	}
	ev := do(t, m, 2, 1800, Allow())
	if kinds(ev) != "allow take turn" || m.S.Owner[1] != 1 {
		t.Fatalf("%s owner %d", kinds(ev), m.S.Owner[1])
	}
}

func TestVote(t *testing.T) {
	type vote struct {
		seat   engine.Seat
		accept bool
	}
	cases := []struct {
		name     string
		votes    []vote
		timeout  bool // the vote's clock runs out after the votes
		accepted bool
	}{
		{"all accept", []vote{{0, true}, {2, true}, {3, true}}, false, true},
		{"majority rejects", []vote{{0, false}, {2, false}, {3, true}}, false, false},
		{"all reject", []vote{{0, false}, {2, false}, {3, false}}, false, false},
		{"tie keeps the word", []vote{{0, false}, {2, true}}, true, true},
		{"missing votes abstain", []vote{{2, false}}, true, false},
		{"nobody votes", nil, true, true},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := atWindow(t)
			ev := do(t, m, 2, 2000, Challenge())
			if kinds(ev) != "challenge" || m.S.Phase != PhaseVote || m.S.Deadline != 12000 || m.S.Challenger != 2 {
				t.Fatalf("%s phase %v deadline %d", kinds(ev), m.S.Phase, m.S.Deadline)
			}
			if tu := m.Turn(); !reflect.DeepEqual(tu.Actors, []engine.Seat{0, 2, 3}) {
				t.Fatalf("voters %v", tu.Actors)
			}
			refused(t, m, 1, 2000, Vote(true), RuleOwnWord)
			refused(t, m, 0, 2000, Challenge(), engine.ErrWrongAction.Rule)
			refused(t, m, engine.SystemSeat, 11999, Timeout(), RuleNotYetTimedOut)
			for _, v := range c.votes {
				ev = do(t, m, v.seat, 3000, Vote(v.accept))
			}
			if c.timeout {
				if len(c.votes) > 0 {
					refused(t, m, c.votes[0].seat, 3000, Vote(true), RuleAlreadyVoted)
				}
				refused(t, m, m.Turn().Actors[0], 12001, Vote(true), RuleTooLate)
				ev = do(t, m, engine.SystemSeat, 12001, Timeout())
			}
			var verdict VerdictEvent
			for _, e := range ev {
				if e.Kind == "verdict" {
					verdict = e.Data.(VerdictEvent)
				}
			}
			if verdict.Accepted != c.accepted || verdict.Accept+verdict.Reject+verdict.Abstain != 3 {
				t.Fatalf("verdict %+v, want accepted %v", verdict, c.accepted)
			}
			w := m.S.Named[0]
			if c.accepted {
				if m.S.Owner[1] != 1 || w.Status != WordAccepted || m.S.Current != 2 {
					t.Fatalf("accepted: owner %d status %s current %d", m.S.Owner[1], w.Status, m.S.Current)
				}
				return
			}
			// Rejected: the word stays named, the die stays, and the speaker
			// names another within a fresh countdown (no think time).
			at := m.S.Now
			if m.S.Owner[1] != Display || w.Status != WordRejected || m.S.Current != 1 || m.S.Phase != PhaseName ||
				m.S.CountdownAt != at || m.S.Deadline != at+5000 {
				t.Fatalf("rejected: owner %d status %s current %d phase %v countdown %d deadline %d (now %d)",
					m.S.Owner[1], w.Status, m.S.Current, m.S.Phase, m.S.CountdownAt, m.S.Deadline, at)
			}
			refused(t, m, 1, at, Name("Dachshund", 1), RuleAlreadyNamed)
			refused(t, m, 1, at+5001, Name("dog", 1), RuleTooLate)
			do(t, m, 1, at+5000, Name("dog", 1))
		})
	}
}

// In a two-player game the challenger is the only voter.
func TestTwoPlayerChallenge(t *testing.T) {
	m := atTurns(t, 2, "", roll("a-z")...)
	do(t, m, 1, 0, Name("dachshund", 1))
	do(t, m, 0, 100, Challenge())
	ev := do(t, m, 0, 200, Vote(false))
	if kinds(ev) != "vote verdict turn" || m.S.Current != 1 || m.S.Named[0].Status != WordRejected {
		t.Fatalf("%s current %d", kinds(ev), m.S.Current)
	}
}

// TestWhileJudged: while bob's word is judged (a window, then a vote) the
// judging actions are refused for what keeps a player from judging (own-word,
// already-allowed, already-voted); any other action waits for the verdict
// (not-your-turn), bob's own new word included.
func TestWhileJudged(t *testing.T) {
	cases := []struct {
		name string
		vote bool // in the vote (cy challenged) rather than the window
		seat engine.Seat
		a    Action
		rule string
	}{
		{"speaker challenges", false, 1, Challenge(), RuleOwnWord},
		{"speaker allows", false, 1, Allow(), RuleOwnWord},
		{"speaker names another word", false, 1, Name("dog", 1), engine.ErrNotYourTurn.Rule},
		{"speaker takes the ? die", false, 1, TakeQuestion(), engine.ErrNotYourTurn.Rule},
		{"speaker gives up", false, 1, GiveUp(), engine.ErrNotYourTurn.Rule},
		{"one who allowed challenges", false, 0, Challenge(), RuleAlreadyAllowed},
		{"one who allowed names a word", false, 0, Name("dog", 1), engine.ErrNotYourTurn.Rule},
		{"another names a word", false, 2, Name("dog", 1), engine.ErrWrongAction.Rule},
		{"speaker votes", true, 1, Vote(true), RuleOwnWord},
		{"speaker names another word in the vote", true, 1, Name("dog", 1), engine.ErrNotYourTurn.Rule},
		{"one who voted votes again", true, 0, Vote(false), RuleAlreadyVoted},
		{"one who voted names a word", true, 0, Name("dog", 1), engine.ErrNotYourTurn.Rule},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			m := atWindow(t)
			do(t, m, 0, 1500, Allow())
			if c.vote {
				do(t, m, 2, 1600, Challenge())
				do(t, m, 0, 1700, Vote(true))
			}
			refused(t, m, c.seat, 2000, c.a, c.rule)
		})
	}
}
