package main

import (
	"strings"
	"testing"

	"github.com/dicehall/dicehall/internal/pig"
)

// TestReviewText: on a pipe, dicehall review prints the terminal client's
// plain report: no terminal codes, each player's sums, the costliest
// decisions with their move numbers in the game's words and why.
func TestReviewText(t *testing.T) {
	withGames(t, pig.Coach{})
	out, code := runDicehall(t, "", "review", pigRecord(t, t.TempDir()))
	if code != 0 {
		t.Fatalf("review: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "\x1b[") {
		t.Fatalf("terminal codes in a pipe:\n%s", out)
	}
	for _, want := range []string{
		"Review of Pig · seed 1 · 8 moves · 3 decisions judged",
		"● ann          33%          4.2              –    0   1   1         2.0 s",
		"ann: the costliest decisions",
		"── decision 1 of 3 · ann · move 2 · 2.0 s to decide",
		"chose bank 5 points",
		"best  roll again",
		"lost  2.5 (points)",
		"why   • below 20 a roll is worth more than what it risks",
		"── decision 3 of 3 · ann · move 7",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "turned") {
		t.Errorf("a turning point without win chances:\n%s", out)
	}
}
