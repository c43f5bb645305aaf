package bookworm

import (
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// hold gives dice to seat directly, in order (building a situation).
func hold(m *Match, seat int8, dice ...int) {
	for _, d := range dice {
		m.S.give(seat, d)
	}
}

func roundEnd(t *testing.T, ev []engine.Event) RoundEndEvent {
	t.Helper()
	for _, e := range ev {
		if e.Kind == "round-end" {
			return e.Data.(RoundEndEvent)
		}
	}
	t.Fatalf("no round-end in %s", kinds(ev))
	return RoundEndEvent{}
}

// The round ends when the last white die leaves the display; with the ••
// face its taker takes the Special die too. Scores: dots, Bookworm cards,
// Special die. The taker is the next Bookworm.
func TestLastWhiteDieEndsTheRound(t *testing.T) {
	m := atTurns(t, 3, "", roll("dots")...)
	hold(m, 0, 0, 1)
	hold(m, 1, 2, 3, 4)
	hold(m, 2, 5)
	m.S.Cards[0], m.S.CardsLeft = 1, 5
	refused(t, m, 1, 0, Name("dog", 7), RuleSpecialNotByWord)
	ev := do(t, m, 1, 4000, Name("newt", 6))
	if kinds(ev) != "word take take round-end round" {
		t.Fatalf("events %s", kinds(ev))
	}
	re := roundEnd(t, ev)
	want := []ScoreLine{{Dots: 2, Cards: 1, Total: 3}, {Dots: 5, Special: 2, Total: 7}, {Dots: 1, Total: 1}}
	if !reflect.DeepEqual(re.Scores, want) || !reflect.DeepEqual(re.Totals, []int{3, 7, 1}) || re.Ender != 1 || re.Failer != -1 {
		t.Fatalf("round end %+v", re)
	}
	s := m.S
	if s.Round != 2 || s.Bookworm != 1 || s.Current != 1 || s.Phase != PhaseCard || s.CardsLeft != 6 ||
		s.Cards != [MaxPlayers]uint8{} || len(s.Named) != 0 || s.WhiteInDisplay() != 7 || s.Rolled {
		t.Fatalf("next round: %+v", s)
	}
	if r := m.Report(); r.LastRound == nil || r.LastRound.Ender != "bob" || !reflect.DeepEqual(r.Rounds, [][]int{{3, 7, 1}}) {
		t.Fatalf("report %+v %v", r.LastRound, r.Rounds)
	}
	// The card of the last round is used: it is not drawn again.
	refused(t, m, engine.ChanceSeat, 4000, DrawCard(1), RuleCardNotAvailable)
	do(t, m, engine.ChanceSeat, 4000, DrawCard(2))
	refused(t, m, 0, 4000, ChooseCategory(0), engine.ErrNotYourTurn.Rule)
	do(t, m, 1, 4000, ChooseCategory(2))
	do(t, m, engine.ChanceSeat, 4000, RollNames(roll("a-z")...))
	if m.S.Current != 2 {
		t.Fatalf("the player left of the Bookworm starts, not %d", m.S.Current)
	}
}

// A steal of the last white die held by a player does not end the round:
// only the display counts.
func TestStealingDoesNotEmptyTheDisplay(t *testing.T) {
	m := atTurns(t, 2, `{"special":false}`, roll("")[:7]...)
	hold(m, 0, 0, 1, 2, 3, 4, 5)
	do(t, m, 1, 0, Name("cat", 0))
	if m.S.Phase != PhaseName || m.S.Current != 0 {
		t.Fatalf("phase %v", m.S.Phase)
	}
}

// Failing to name a word in time: −2 for the player, the round ends, they
// are the next Bookworm. Giving up is the same.
func TestFailing(t *testing.T) {
	for _, giveUp := range []bool{false, true} {
		m := atTurns(t, 3, "", roll("a-z")...)
		hold(m, 1, 0, 4) // C/K 1 + A 2
		hold(m, 2, 7)    // A–Z: 0 points
		var ev []engine.Event
		if giveUp {
			ev = do(t, m, 1, 100, GiveUp())
		} else {
			refused(t, m, engine.SystemSeat, 14999, Timeout(), RuleNotYetTimedOut)
			if got := m.Legal(engine.SystemSeat); len(got) != 1 || got[0].Kind() != "timeout" {
				t.Fatalf("system legal %v", got)
			}
			ev = do(t, m, engine.SystemSeat, 15000, Timeout())
		}
		re := roundEnd(t, ev)
		if re.Failer != 1 || re.Ender != 1 || !reflect.DeepEqual(re.Totals, []int{0, 1, 0}) || re.Scores[1].Penalty != -2 {
			t.Fatalf("give up %v: %+v", giveUp, re)
		}
		if m.S.Bookworm != 1 || m.S.Phase != PhaseCard {
			t.Fatalf("bookworm %d phase %v", m.S.Bookworm, m.S.Phase)
		}
		if got := m.Legal(engine.SystemSeat); len(got) != 0 {
			t.Fatalf("system legal with no clock: %v", got)
		}
		refused(t, m, engine.SystemSeat, 99999, Timeout(), engine.ErrChancePending.Rule)
	}
}

// The game ends after the round in which someone reaches the target; the
// highest total wins and ties share.
func TestGameEnd(t *testing.T) {
	m := atTurns(t, 3, `{"target":5}`, roll("a-z")...)
	m.S.Totals = [MaxPlayers]int{3, 1, 0}
	m.S.History = [][MaxPlayers]int{{3, 1, 0}}
	hold(m, 0, 0, 1) // 2 points: ann 5
	hold(m, 1, 4, 5) // 3 points: bob 4, then −2
	ev := do(t, m, engine.SystemSeat, 15000, Timeout())
	if kinds(ev) != "timeout fail round-end game-over" || !m.S.Over() {
		t.Fatalf("events %s", kinds(ev))
	}
	r := m.Result()
	if !r.Over || !reflect.DeepEqual(r.Scores, []int{5, 2, 0}) || !reflect.DeepEqual(r.Winners, []engine.Seat{0}) {
		t.Fatalf("result %+v", r)
	}
	if tu := m.Turn(); !tu.Over || len(m.Legal(engine.SystemSeat)) != 0 {
		t.Fatalf("turn %+v", tu)
	}
	refused(t, m, 2, 20000, GiveUp(), engine.ErrGameOver.Rule)
	refused(t, m, engine.ChanceSeat, 20000, DrawCard(2), engine.ErrGameOver.Rule)

	// A tie at the top shares the win.
	m = atTurns(t, 2, `{"target":3}`, roll("a-z")...)
	m.S.Totals = [MaxPlayers]int{1, 0}
	m.S.History = [][MaxPlayers]int{{1, 0}}
	hold(m, 0, 0, 1)       // ann: 1 + 2
	hold(m, 1, 4, 5, 6, 2) // bob: 5 − 2
	do(t, m, engine.SystemSeat, 15000, Timeout())
	if r := m.Result(); !reflect.DeepEqual(r.Scores, []int{3, 3}) || !reflect.DeepEqual(r.Winners, []engine.Seat{0, 1}) {
		t.Fatalf("tie: %+v", r)
	}
	if rep := m.Report(); !reflect.DeepEqual(rep.Winners, []string{"ann", "bob"}) || rep.Phase != "over" {
		t.Fatalf("report %+v", rep.Winners)
	}
}

// Time never goes back: a move stamped earlier than the latest one counts
// as made at the latest time.
func TestTimeIsMonotonic(t *testing.T) {
	m := atTurns(t, 2, "", roll("a-z")...)
	do(t, m, 1, 9000, Name("dog", 1))
	do(t, m, 0, 100, Name("cat", 0))
	if m.S.Now != 9000 || m.S.Deadline != 24000 {
		t.Fatalf("now %d deadline %d", m.S.Now, m.S.Deadline)
	}
}
