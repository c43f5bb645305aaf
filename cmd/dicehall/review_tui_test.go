package main

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/pig"
)

// TestShowReviewPlain: to a pipe, a review is the plain report: no
// terminal codes, each seat summed up, its costliest decision in words.
func TestShowReviewPlain(t *testing.T) {
	g := pig.Game{}
	rec := engine.Record{Game: "pig", Players: []string{"ann", "bob"}, Seed: 7, Moves: make([]engine.LoggedMove, 3)}
	act := func(s string) json.RawMessage { return json.RawMessage(s) }
	d := engine.Reviewed{Move: 1, Seat: 1, Kind: "roll", Thought: 1500, Verdict: engine.VerdictBlunder, PointsLost: 4,
		Judgement: engine.Judgement{Chosen: engine.Valued{Action: act(`{"roll":true}`), Points: 2, Win: -1},
			Best: engine.Valued{Action: act(`{"hold":true}`), Points: 6, Win: -1}}}
	rv := &engine.Review{Game: "pig", Players: rec.Players, Moves: 3, Turning: -1, Decisions: []engine.Reviewed{d},
		Seats: []engine.SeatReview{{Seat: 0, Name: "ann", Accuracy: 1, Worst: []int{}},
			{Seat: 1, Name: "bob", Decisions: 1, PointsLost: 4, Blunders: 1, Worst: []int{0}, Thought: 1500}}}
	var out bytes.Buffer
	if err := showReview(&out, g, rec, rv); err != nil {
		t.Fatal(err)
	}
	s := out.String()
	if strings.Contains(s, "\x1b[") {
		t.Fatalf("terminal codes in a pipe:\n%s", s)
	}
	for _, want := range []string{"Review of Pig", "● bob", "bob: the costliest decisions", "?? blunder", `{"roll":true}`, `{"hold":true}`} {
		if !strings.Contains(s, want) {
			t.Errorf("the report lacks %q:\n%s", want, s)
		}
	}
}
