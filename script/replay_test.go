package script

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/dicestars"
)

// recordOf runs an example script and returns its record as JSON.
func recordOf(t *testing.T, name string) []byte {
	t.Helper()
	input, err := os.ReadFile(scriptsDir + "/" + name)
	if err != nil {
		t.Fatal(err)
	}
	out := Execute(input, Options{})
	if out.Record == nil {
		t.Fatalf("%s: no record (exit %d: %v)", name, out.Code, out.Err)
	}
	b, err := json.Marshal(out.Record)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestReplayAt(t *testing.T) {
	rec := recordOf(t, "dicestars-two-players.events.json")
	at := func(n int) dicestars.Report {
		t.Helper()
		out := Replay(rec, ReplayOptions{At: n})
		if out.Code != ExitOK {
			t.Fatalf("--at %d: exit %d: %v", n, out.Code, out.Err)
		}
		var r dicestars.Report
		if err := json.Unmarshal(out.Stdout, &r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := at(0); r.Bag != 14 || r.Turns != 0 || r.Phase != "draw" {
		t.Errorf("--at 0: %+v", r)
	}
	// Move 1 is the roll of the first draw: three dice in the reserve.
	if r := at(2); r.Phase != "take" || len(r.Reserve) != 3 || r.Next != "ann" {
		t.Errorf("--at 2: %+v", r)
	}
	if r := at(3); r.Next != "bob" || r.Players[0].Total != 5 {
		t.Errorf("--at 3: %+v", r)
	}
	if out := Replay(rec, ReplayOptions{At: 999}); out.Code != ExitMalformed {
		t.Errorf("--at past the end: exit %d", out.Code)
	}
}

func TestReplaySteps(t *testing.T) {
	out := Replay(recordOf(t, "dicestars-refill-return-reserve.events.json"), ReplayOptions{Steps: true, At: -1})
	if out.Code != ExitOK {
		t.Fatalf("exit %d: %v", out.Code, out.Err)
	}
	text := string(out.Stdout)
	for _, want := range []string{
		"Dice Stars for ann, bob\n",
		"0  ann      draw 3\n",
		"1  chance   roll orange:star blue:star black:4\n",
		"ann takes stars: orange:star blue:star (sum 0); multipliers marked in rows 2,2",
		"refill: the discard (2 dice) goes back into the bag, and the reserve (1 die) too",
		"bob takes black: black:4 black:5 (sum 9); writes row 2 cell 1=X, row 3 cell 1=9",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("steps lack %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n"); n != 1+9+10 {
		t.Errorf("%d lines, want a title, 9 moves and 10 events:\n%s", n, text)
	}
}

func TestReplayRefusedMove(t *testing.T) {
	rec := `{"game":"dicestars","players":["ann","bob"],"moves":[
		{"seat":0,"action":{"draw":3}},
		{"seat":-1,"action":{"roll":["blue:2","blue:3","blue:4"]}},
		{"seat":1,"action":{"take":"value","value":2}}]}`
	out := Replay([]byte(rec), ReplayOptions{At: -1})
	if out.Code != ExitIllegal {
		t.Fatalf("exit %d: %s", out.Code, out.Stdout)
	}
	var body struct {
		Error MoveFailure      `json:"error"`
		State dicestars.Report `json:"state"`
	}
	if err := json.Unmarshal(out.Stdout, &body); err != nil {
		t.Fatal(err)
	}
	if body.Error.Move != 2 || body.Error.Rule != "not-your-turn" || body.State.Phase != "take" {
		t.Errorf("refusal %+v, state phase %s", body.Error, body.State.Phase)
	}
	steps := Replay([]byte(rec), ReplayOptions{Steps: true, At: -1})
	if steps.Code != ExitIllegal || !strings.Contains(string(steps.Stdout), "error: move 2 refused (not-your-turn)") {
		t.Errorf("steps: exit %d\n%s", steps.Code, steps.Stdout)
	}
}

func TestReplayMalformed(t *testing.T) {
	for name, rec := range map[string]string{
		"empty":        ``,
		"not json":     `{"game"`,
		"no game":      `{"players":["a"],"moves":[]}`,
		"no players":   `{"game":"dicestars","moves":[]}`,
		"unknown game": `{"game":"go","players":["a"],"moves":[]}`,
		"six players":  `{"game":"dicestars","players":["a","b","c","d","e","f"],"moves":[]}`,
		"bad action":   `{"game":"dicestars","players":["a"],"moves":[{"seat":0,"action":{"jump":1}}]}`,
		"null":         `null`,
		"array":        `[]`,
		"stray brace":  `{"game":"dicestars","players":["a"],"moves":[]} }`,
		"two objects":  `{"game":"dicestars","players":["a"],"moves":[]} {}`,
		"seed text":    `{"game":"dicestars","players":["a"],"seed":"7","moves":[]}`,
		"seat text":    `{"game":"dicestars","players":["a"],"moves":[{"seat":"0","action":{"draw":3}}]}`,
		"moves object": `{"game":"dicestars","players":["a"],"moves":{}}`,
	} {
		t.Run(name, func(t *testing.T) {
			for _, opt := range []ReplayOptions{{At: -1}, {Steps: true, At: -1}} {
				if out := Replay([]byte(rec), opt); out.Code != ExitMalformed {
					t.Errorf("steps=%v: exit %d: %s", opt.Steps, out.Code, out.Stdout)
				}
			}
		})
	}
}

// TestReplayIgnoresUnknownFields: a record's fields the replay does not know,
// in the record or in a move, are notes of the program that wrote it.
func TestReplayIgnoresUnknownFields(t *testing.T) {
	rec := `{"game":"dicestars","players":["a"],"client":"x 1.0","moves":[
		{"seat":0,"action":{"draw":3},"note":"first"},{"seat":-1,"action":{"roll":["blue:2","blue:3","blue:4"]}}]}`
	out := Replay([]byte(rec), ReplayOptions{At: -1})
	if out.Code != ExitOK || !strings.Contains(string(out.Stdout), `"blue:4"`) {
		t.Fatalf("exit %d: %s", out.Code, out.Stdout)
	}
}
