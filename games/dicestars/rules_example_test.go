package dicestars

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"
)

// The rulebook's worked score example ("95 − 4 = 91"):
//
//	row 2: 5 X X 6 4       sum 15, no multiplier   → 15
//	row 3: X X X 9 X 6     sum 15, all 3 marked    → 30
//	row 4: X X 9 12 X 8    sum 29, none            → 29
//	row 5: 5 X X           sum  5, 4 of 5 marked   →  0
//	row 6: 6 7 8           sum 21, none            → 21
//	penalty 4                                      → 91
//
// The white cells are the colour columns black, purple, blue, orange, so a
// number in them may come from a colour choice (any sum) or a value choice
// (a multiple of the row's value); green cells only from value choices.
// Read that way every cell has one origin:
//
//	black  column 5 X X 5 6 : black ×1 (5) in row 2; X's of the 3s and 4s;
//	                          value 5 ×1 and value 6 ×1 in rows 5 and 6
//	purple column X X X X 7 : X's of the 2s, 3s, 4s; purple ×2 (3+4) in rows 5-6
//	blue   column X X 9 X 8 : blue ×3 (2+3+4) in rows 2-4; blue ×2 (2+6) in rows 5-6
//	orange column 6 9 12    : orange ×1 (6); value 3 ×3 (3+3+3); value 4 ×3
//	green: row 2 "4" = value 2 ×2 (its X in purple's cell: the cells between
//	were already written, the fill skips them); row 3 "X 6" = value 3 ×2;
//	row 4 "X 8" = value 4 ×2.
//
// It is played solo so every turn is the same sheet's; each turn draws the
// dice the next choice needs. Seven stars are taken in three star choices
// (3 in row 3, 4 in row 5). The end is a forced penalty: black, purple and
// blue columns full, row 4 full, and the reserve black 4, blue 4, blue 4.
// Along the way it also exercises "draw what is there" (turns 7 and 8 of the
// bag) and the refill after the bag's last die and after star choices.
// The solo opponent ends with 11 marks (55 points): the player wins.
var workedExample = []struct {
	draw int
	dice []string
	take string // JSON take form, as in the script
}{
	// 1: black column, row 2 ← 5. Left: blue 2, blue 3.
	{3, []string{"black:5", "blue:2", "blue:3"}, `{"take":"color","color":"black"}`},
	// 2: blue ×3 (2+3+4): rows 2, 3 X, row 4 ← 9.
	{1, []string{"blue:4"}, `{"take":"color","color":"blue"}`},
	// 3: orange column, row 2 ← 6. Left: purple 2, blue 2.
	{3, []string{"orange:6", "purple:2", "blue:2"}, `{"take":"color","color":"orange"}`},
	// 4: value 2 ×2: row 2 has only purple's cell empty before the green:
	// X there, 4 in the first green cell. Left: orange 3.
	{1, []string{"orange:3"}, `{"take":"value","value":2}`},
	// 5: value 3 ×3: row 3 black X, purple X, (blue already X), orange 9.
	{2, []string{"orange:3", "purple:3"}, `{"take":"value","value":3}`},
	// 6: value 4 ×3: row 4 black X, purple X, (blue 9), orange 12.
	{3, []string{"orange:4", "orange:4", "purple:4"}, `{"take":"value","value":4}`},
	// 7: the bag holds one die (black): three announced, one drawn. Its
	// star goes to row 3. Bag empty and a star choice: refill next turn.
	{3, []string{"black:star"}, `{"take":"stars","multipliers":[3]}`},
	// 8, 9: stars only, so three dice each time; refill after each.
	{3, []string{"black:star", "purple:star", "blue:star"}, `{"take":"stars","multipliers":[3,3,5]}`},
	{3, []string{"orange:star", "orange:star", "blue:star"}, `{"take":"stars","multipliers":[5,5,5]}`},
	// 10: value 3 ×2 in row 3's green cells: X, 6. Left: orange 4.
	{3, []string{"purple:3", "orange:3", "orange:4"}, `{"take":"value","value":3}`},
	// 11: value 4 ×2 in row 4's green cells: X, 8.
	{1, []string{"black:4"}, `{"take":"value","value":4}`},
	// 12: value 6 ×1: row 6 black ← 6. Left: purple 3, purple 4.
	{3, []string{"purple:3", "purple:4", "orange:6"}, `{"take":"value","value":6}`},
	// 13: value 5 ×1: row 5 black ← 5.
	{1, []string{"orange:5"}, `{"take":"value","value":5}`},
	// 14: purple ×2 (3+4): purple rows 5 X, 6 ← 7. Left: blue 2.
	{1, []string{"blue:2"}, `{"take":"color","color":"purple"}`},
	// 15: blue ×2 (2+6): blue rows 5 X, 6 ← 8.
	{1, []string{"blue:6"}, `{"take":"color","color":"blue"}`},
	// 16: nothing fits (black and blue columns full, row 4 full): penalty,
	// the player picks black: 4 in the penalty cell, and the game ends.
	{3, []string{"black:4", "blue:4", "blue:4"}, `{"take":"color","color":"black"}`},
}

const workedExampleScript = "../../testdata/scripts/dicestars-worked-example-91.json"

var updateExample = flag.Bool("update-worked-example", false, "rewrite "+workedExampleScript)

func TestWorkedExample91(t *testing.T) {
	s := freshState(t, 1)
	for i, step := range workedExample {
		take, err := DecodeAction([]byte(step.take))
		if err != nil {
			t.Fatalf("turn %d: %v", i+1, err)
		}
		if i < len(workedExample)-1 {
			playTurn(t, &s, step.draw, step.dice, take)
			continue
		}
		mustApply(t, &s, Draw(step.draw, false), Roll(mustDice(t, step.dice...)...))
		if s.AnyTakeFits() {
			t.Fatalf("last turn: %v fits, want a penalty", s.LegalActions(nil))
		}
		mustApply(t, &s, take)
	}
	wantRows := map[int][]string{
		2: {"5", "X", "X", "6", "4", "", "", ""},
		3: {"X", "X", "X", "9", "X", "6", ""},
		4: {"X", "X", "9", "12", "X", "8"},
		5: {"5", "X", "X", "", ""},
		6: {"6", "7", "8", ""},
	}
	wantScore := map[int]int{2: 15, 3: 30, 4: 29, 5: 0, 6: 21}
	wantMarked := map[int]uint8{2: 0, 3: 3, 4: 0, 5: 4, 6: 0}
	sh := &s.Sheets[0]
	for v := 2; v <= 6; v++ {
		if got := rowText(&s, 0, v); !sameStrings(got, wantRows[v]) {
			t.Errorf("row %d: %q, want %q", v, got, wantRows[v])
		}
		if got := sh.RowScore(s.L, rowIdx(v)); got != wantScore[v] {
			t.Errorf("row %d scores %d, want %d", v, got, wantScore[v])
		}
		if sh.Marked[rowIdx(v)] != wantMarked[v] {
			t.Errorf("row %d: %d multipliers marked, want %d", v, sh.Marked[rowIdx(v)], wantMarked[v])
		}
	}
	if sh.Penalty != 4 || !sh.Penalized || sh.Total(s.L) != 91 {
		t.Fatalf("penalty %d, total %d, want 4 and 91", sh.Penalty, sh.Total(s.L))
	}
	if !s.Over() || s.SoloLost || s.SoloMarked != 11 || len(s.Winners()) != 1 {
		t.Fatalf("over %v, solo marked %d lost %v, winners %v", s.Over(), s.SoloMarked, s.SoloLost, s.Winners())
	}
}

// The script file replays the same sequence (the script runner's golden test
// plays it); keep the two in step.
func TestWorkedExampleScriptFile(t *testing.T) {
	want := workedExampleJSON(t)
	if *updateExample {
		if err := os.MkdirAll(filepath.Dir(workedExampleScript), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(workedExampleScript, want, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(workedExampleScript)
	if err != nil {
		t.Fatalf("%v (run with -update-worked-example to write it)", err)
	}
	if !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date: run go test -run WorkedExampleScriptFile -update-worked-example", workedExampleScript)
	}
}

func workedExampleJSON(t *testing.T) []byte {
	type draw struct {
		Draw int      `json:"draw"`
		Dice []string `json:"dice"`
	}
	var b bytes.Buffer
	b.WriteString("{\n  \"game\": \"dicestars\",\n  \"players\": [\"Ada\"],\n")
	b.WriteString("  \"note\": \"The rulebook's worked score example, 95 - 4 = 91, played solo; see games/dicestars/rules_example_test.go for the reasoning.\",\n")
	b.WriteString("  \"actions\": [\n")
	for i, step := range workedExample {
		d, err := json.Marshal(draw{step.draw, step.dice})
		if err != nil {
			t.Fatal(err)
		}
		sep := ","
		if i == len(workedExample)-1 {
			sep = ""
		}
		b.WriteString("    " + string(d) + ",\n    " + step.take + sep + "\n")
	}
	b.WriteString("  ]\n}\n")
	return b.Bytes()
}
