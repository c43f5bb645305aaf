package bookworm

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// Views: the public report plus the seat's legal kinds and takeable dice.
func TestViews(t *testing.T) {
	m := atTurns(t, 3, "", roll("not")...)
	do(t, m, 1, 1000, Name("dog", 1))
	v := m.SeatView(2)
	if !reflect.DeepEqual(v.Legal, []string{"name", "give-up"}) || v.Seat != 2 {
		t.Fatalf("legal %v", v.Legal)
	}
	// cy may take every display die with its letters, steal bob's D, and
	// take NOT with N, O or T.
	want := map[int]string{0: "ck", 1: "d", 2: "m", 3: "p", 4: "a", 5: "b", 6: "n", 7: "not"}
	if len(v.Takeable) != len(want) {
		t.Fatalf("takeable %+v", v.Takeable)
	}
	for _, o := range v.Takeable {
		if want[o.Die] != o.Letters || (o.Die == 1) != (o.From == 1) {
			t.Fatalf("takeable %+v", o)
		}
	}
	if got := m.SeatView(0); len(got.Legal) != 0 || got.Takeable != nil {
		t.Fatalf("ann's view: %v %v", got.Legal, got.Takeable)
	}
	do(t, m, 2, 2000, Name("ocelotl", 7))
	do(t, m, 0, 2500, Challenge())
	do(t, m, 0, 2600, Vote(false))
	r := m.Report()
	if r.Phase != "vote" || !reflect.DeepEqual(r.Next, []string{"bob"}) || r.Judging.Challenger != "ann" ||
		!reflect.DeepEqual(r.Judging.Votes, map[string]string{"ann": "reject"}) || r.Deadline != 12500 || r.CountdownAt != 0 {
		t.Fatalf("vote report %+v judging %+v", r, r.Judging)
	}
	if got := m.SeatView(1).Legal; !reflect.DeepEqual(got, []string{"vote"}) {
		t.Fatalf("bob's legal %v", got)
	}
	if got := m.SeatView(engine.Spectator); got.Seat != engine.Spectator || len(got.Legal) != 0 {
		t.Fatalf("spectator %+v", got.Legal)
	}
	if _, err := json.Marshal(m.View(1)); err != nil {
		t.Fatal(err)
	}
	if r.Players[1].Dice[0].Face != "D" || r.Words[1].Status != WordPending || r.Special != "not" {
		t.Fatalf("report %+v", r)
	}
}

// A clone is independent: playing on it leaves the original alone.
func TestCloneIsDeep(t *testing.T) {
	m := atTurns(t, 2, "", roll("a-z")...)
	do(t, m, 1, 0, Name("dog", 1))
	before := m.S.clone()
	c := m.Clone().(*Match)
	do(t, c, 0, 0, Name("cat", 0))
	do(t, c, engine.SystemSeat, 99999, Timeout())
	if !reflect.DeepEqual(before, m.S) {
		t.Fatal("playing on a clone changed the original")
	}
}

// A word voted down is explained to its speaker while they try again: the
// vote and whether it is a word at all; the next word clears it.
func TestViewRejected(t *testing.T) {
	m := atTurns(t, 3, "", roll("not")...)
	do(t, m, 1, 1000, Name("dzorbleq", 1))
	if m.SeatView(1).Rejected != nil {
		t.Fatal("a rejection before any vote")
	}
	do(t, m, 0, 1500, Challenge())
	do(t, m, 0, 1600, Vote(false))
	do(t, m, 2, 1700, Vote(false))
	v := m.SeatView(1)
	r := v.Rejected
	if r == nil || r.Word != "dzorbleq" || r.Speaker != "bob" || r.Reject != 2 || r.Accept != 0 || r.Abstain != 0 ||
		r.Verdict != "not-a-word" || !reflect.DeepEqual(r.Votes, map[string]string{"ann": "reject", "cy": "reject"}) {
		t.Fatalf("rejected %+v", r)
	}
	if v.Language != "en" || v.CardNames["fr"][0] == "" || v.CardNames["en"][0] == "" {
		t.Fatalf("language %q names %v", v.Language, v.CardNames)
	}
	do(t, m, 1, 1800, Name("dog", 1))
	if m.SeatView(1).Rejected != nil {
		t.Fatal("the rejection outlived the next word")
	}
}
