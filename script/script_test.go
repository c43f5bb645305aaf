package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

var update = flag.Bool("update", false, "rewrite the golden outputs of testdata/scripts")

const scriptsDir = "../testdata/scripts"

// golden is the expected result of one example script: the exit code and
// what is printed on standard output.
type golden struct {
	Exit   int             `json:"exit"`
	Stdout json.RawMessage `json:"stdout"`
}

// exampleScripts lists the example scripts (every .json but the goldens).
func exampleScripts(t testing.TB) []string {
	all, err := filepath.Glob(filepath.Join(scriptsDir, "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, p := range all {
		if !strings.HasSuffix(p, ".out.json") {
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		t.Fatal("no example scripts found")
	}
	return out
}

// TestGolden runs every example script through Execute (the whole command
// but file handling) and compares with its .out.json. Scripts named
// *.events.json run with events on.
func TestGolden(t *testing.T) {
	for _, path := range exampleScripts(t) {
		name := strings.TrimSuffix(filepath.Base(path), ".json")
		t.Run(name, func(t *testing.T) {
			input, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out := Execute(input, Options{Events: strings.HasSuffix(name, ".events")})
			got, err := encode(golden{Exit: out.Code, Stdout: out.Stdout})
			if err != nil {
				t.Fatal(err)
			}
			goldenPath := strings.TrimSuffix(path, ".json") + ".out.json"
			if *update {
				if err := os.WriteFile(goldenPath, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test ./script -update to create it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("output differs from %s (exit %d; stderr: %v); got:\n%s", goldenPath, out.Code, out.Err, got)
			}
			if out.Code != ExitOK && out.Err == nil {
				t.Errorf("exit %d without an error for stderr", out.Code)
			}
		})
	}
}

// TestRecordReplays checks, for every example that got to play, that the
// record it writes replays (through engine.Replay) to the same report.
func TestRecordReplays(t *testing.T) {
	for _, path := range exampleScripts(t) {
		input, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := Execute(input, Options{})
		if out.Record == nil {
			continue
		}
		recJSON, err := json.Marshal(out.Record)
		if err != nil {
			t.Fatal(err)
		}
		rep := Replay(recJSON, ReplayOptions{At: -1})
		if rep.Code != ExitOK {
			t.Fatalf("%s: replay of its record exits %d: %v", path, rep.Code, rep.Err)
		}
		want := out.Stdout
		if out.Code == ExitIllegal {
			var body struct {
				State json.RawMessage `json:"state"`
			}
			if err := json.Unmarshal(out.Stdout, &body); err != nil {
				t.Fatal(err)
			}
			want = body.State
		}
		if !jsonEqual(t, want, rep.Stdout) {
			t.Errorf("%s: replayed report differs:\nscript: %s\nreplay: %s", path, want, rep.Stdout)
		}
	}
}

func jsonEqual(t *testing.T, a, b []byte) bool {
	t.Helper()
	var x, y any
	if err := json.Unmarshal(a, &x); err != nil {
		t.Fatalf("%v in %s", err, a)
	}
	if err := json.Unmarshal(b, &y); err != nil {
		t.Fatalf("%v in %s", err, b)
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}

func run(t *testing.T, src string) Outcome {
	t.Helper()
	return Execute([]byte(src), Options{})
}

func failureOf(t *testing.T, out Outcome) Failure {
	t.Helper()
	if out.Code != ExitIllegal {
		t.Fatalf("exit %d, want %d: %s", out.Code, ExitIllegal, out.Stdout)
	}
	var body struct {
		Error Failure `json:"error"`
	}
	if err := json.Unmarshal(out.Stdout, &body); err != nil {
		t.Fatal(err)
	}
	return body.Error
}

func TestMalformed(t *testing.T) {
	cases := map[string]string{
		"empty":            ``,
		"not json":         `{"game": `,
		"null":             `null`,
		"array":            `[]`,
		"trailing":         `{"game":"dicestars","players":["a"]} {}`,
		"stray brace":      `{"game":"dicestars","players":["a"]} }`,
		"unknown field":    `{"game":"dicestars","players":["a"],"sed":1}`,
		"no game":          `{"players":["a"]}`,
		"unknown game":     `{"game":"chess","players":["a","b"]}`,
		"no players":       `{"game":"dicestars","players":[]}`,
		"five players":     `{"game":"dicestars","players":["a","b","c","d","e"]}`,
		"duplicate player": `{"game":"dicestars","players":["a","a"]}`,
		"blank player":     `{"game":"dicestars","players":[" "]}`,
		"negative seed":    `{"game":"dicestars","players":["a"],"seed":-1}`,
		"bad options":      `{"game":"dicestars","players":["a"],"options":{"grid":3}}`,
		"bad solo grid":    `{"game":"dicestars","players":["a"],"options":{"soloGrid":-4}}`,
		"action not obj":   `{"game":"dicestars","players":["a"],"actions":[3]}`,
		"action null":      `{"game":"dicestars","players":["a"],"actions":[null]}`,
		"action empty":     `{"game":"dicestars","players":["a"],"actions":[{}]}`,
		"draw and take":    `{"game":"dicestars","players":["a"],"actions":[{"draw":3,"take":"value","value":3}]}`,
		"action unknown":   `{"game":"dicestars","players":["a"],"actions":[{"draw":3,"colour":"blue"}]}`,
		"bad die":          `{"game":"dicestars","players":["a"],"actions":[{"draw":1,"dice":["green:5"]}]}`,
		"bad face":         `{"game":"dicestars","players":["a"],"actions":[{"draw":1,"dice":["blue:7"]}]}`,
		"die no colon":     `{"game":"dicestars","players":["a"],"actions":[{"draw":1,"dice":["blue5"]}]}`,
		"fractional draw":  `{"game":"dicestars","players":["a"],"actions":[{"draw":2.5}]}`,
		"take kind":        `{"game":"dicestars","players":["a"],"actions":[{"take":"row","value":3}]}`,
		"take color none":  `{"game":"dicestars","players":["a"],"actions":[{"take":"color"}]}`,
		"take bad color":   `{"game":"dicestars","players":["a"],"actions":[{"take":"color","color":"green"}]}`,
		"take value none":  `{"game":"dicestars","players":["a"],"actions":[{"take":"value"}]}`,
		"take stars none":  `{"game":"dicestars","players":["a"],"actions":[{"take":"stars"}]}`,
		"take with dice":   `{"game":"dicestars","players":["a"],"actions":[{"take":"value","value":3,"dice":[]}]}`,
		"draw with value":  `{"game":"dicestars","players":["a"],"actions":[{"draw":3,"value":3}]}`,
		"mixed take":       `{"game":"dicestars","players":["a"],"actions":[{"take":"value","value":3,"color":"blue"}]}`,
		"many multipliers": `{"game":"dicestars","players":["a"],"actions":[{"take":"stars","multipliers":[` + strings.Repeat("2,", 80) + `2]}]}`,
	}
	for name, src := range cases {
		t.Run(name, func(t *testing.T) {
			out := run(t, src)
			if out.Code != ExitMalformed {
				t.Fatalf("exit %d, want %d; stdout %s", out.Code, ExitMalformed, out.Stdout)
			}
			var fe *FormatError
			if !errors.As(out.Err, &fe) {
				t.Errorf("error %v is not a *FormatError", out.Err)
			}
			var body struct {
				Error struct {
					Message string `json:"message"`
					Rule    string `json:"rule"`
				} `json:"error"`
			}
			if err := json.Unmarshal(out.Stdout, &body); err != nil || body.Error.Message == "" || body.Error.Rule != "" {
				t.Errorf("stdout %s: want an error object with a message and no rule (%v)", out.Stdout, err)
			}
			if out.Record != nil {
				t.Errorf("a malformed script produced a record")
			}
		})
	}
}

// TestMalformedBeforeAnyMove: a bad action late in the script stops the
// script before its first action is played.
func TestMalformedBeforeAnyMove(t *testing.T) {
	out := run(t, `{"game":"dicestars","players":["a"],"actions":[{"draw":3},{"take":"value","value":3},{"draw":1,"dice":["pink:3"]}]}`)
	if out.Code != ExitMalformed || !strings.Contains(out.Err.Error(), "action 2") {
		t.Fatalf("exit %d, err %v", out.Code, out.Err)
	}
}

func TestIllegal(t *testing.T) {
	const head = `{"game":"dicestars","players":["ann","bob"],"actions":[`
	cases := []struct {
		name, actions, rule string
		index               int
	}{
		{"draw four", `{"draw":4}`, dicestars.RuleDrawCount, 0},
		{"draw zero", `{"draw":0}`, dicestars.RuleDrawCount, 0},
		{"draw huge", `{"draw":100000}`, dicestars.RuleDrawCount, 0},
		{"must draw three", `{"draw":2}`, dicestars.RuleMustDrawThree, 0},
		{"return without refill", `{"draw":3,"returnReserve":true}`, dicestars.RuleNoRefill, 0},
		{"take first", `{"take":"value","value":3}`, engine.ErrWrongAction.Rule, 0},
		{"too few dice", `{"draw":3,"dice":["blue:2"]}`, dicestars.RuleRollCount, 0},
		{"too many dice", `{"draw":3,"dice":["blue:2","blue:3","blue:4","blue:5"]}`, dicestars.RuleRollCount, 0},
		{"out of bag", `{"draw":3,"dice":["black:2","black:3","black:4"]}`, dicestars.RuleRollDice, 0},
		{"bad face", `{"draw":3,"dice":["orange:2","black:3","black:4"]}`, dicestars.RuleRollFace, 0},
		{"no such dice", `{"draw":3,"dice":["blue:2","blue:3","blue:4"]},{"take":"color","color":"black"}`, dicestars.RuleNoSuchDice, 1},
		{"value seven", `{"draw":3,"dice":["blue:2","blue:3","blue:4"]},{"take":"value","value":7}`, dicestars.RuleBadValue, 1},
		{"value huge", `{"draw":3,"dice":["blue:2","blue:3","blue:4"]},{"take":"value","value":-300}`, dicestars.RuleBadValue, 1},
		{"draw twice", `{"draw":3,"dice":["blue:2","blue:3","blue:4"]},{"draw":1}`, engine.ErrWrongAction.Rule, 1},
		{"star count", `{"draw":3,"dice":["blue:star","orange:star","blue:4"]},{"take":"stars","multipliers":[3]}`, dicestars.RuleMultipliers, 1},
		{"star row seven", `{"draw":3,"dice":["blue:star","orange:star","blue:4"]},{"take":"stars","multipliers":[3,7]}`, dicestars.RuleMultipliers, 1},
		{"star row full", `{"draw":3,"dice":["blue:star","orange:star","orange:star"]},{"take":"stars","multipliers":[2,2,2]}`, dicestars.RuleMultipliers, 1},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out := run(t, head+c.actions+`]}`)
			f := failureOf(t, out)
			if f.Rule != c.rule || f.Action != c.index {
				t.Fatalf("refusal %+v, want rule %s at action %d", f, c.rule, c.index)
			}
			if f.Message == "" {
				t.Error("refusal without a message")
			}
		})
	}
}

// TestRefusedRollUndoesDraw: a draw whose fixed roll is refused leaves the
// state as it was before the draw, and the record without the draw.
func TestRefusedRollUndoesDraw(t *testing.T) {
	out := run(t, `{"game":"dicestars","players":["ann"],"actions":[
		{"draw":3,"dice":["blue:2","blue:3","blue:4"]},{"take":"color","color":"blue"},
		{"draw":3,"dice":["black:2","black:3","black:4"]}]}`)
	f := failureOf(t, out)
	if f.Action != 2 || f.Rule != dicestars.RuleRollDice {
		t.Fatalf("refusal %+v", f)
	}
	var body struct {
		State dicestars.Report `json:"state"`
	}
	if err := json.Unmarshal(out.Stdout, &body); err != nil {
		t.Fatal(err)
	}
	if body.State.Phase != "draw" || body.State.Bag != 11 || body.State.Turns != 1 {
		t.Errorf("state after a refused roll: phase %s, bag %d, turns %d; want draw, 11, 1", body.State.Phase, body.State.Bag, body.State.Turns)
	}
	if n := len(out.Record.Moves); n != 3 {
		t.Errorf("record holds %d moves, want 3 (draw, roll, take)", n)
	}
}

// TestSeededRolls: dice left open come from the seed, the same seed gives
// the same game, and the record holds the drawn outcome.
func TestSeededRolls(t *testing.T) {
	src := `{"game":"dicestars","players":["ann","bob"],"seed":42,"actions":[{"draw":3}]}`
	a, b := run(t, src), run(t, src)
	if a.Code != ExitOK || !bytes.Equal(a.Stdout, b.Stdout) {
		t.Fatalf("same seed, different output or failure: %d\n%s\n%s", a.Code, a.Stdout, b.Stdout)
	}
	var rep dicestars.Report
	if err := json.Unmarshal(a.Stdout, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Reserve) != 3 || rep.Bag != 11 || rep.Phase != "take" {
		t.Fatalf("after a seeded draw of 3: %+v", rep)
	}
	// The same roll replayed from the seed's own stream.
	st, _ := dicestars.NewState(nil, 2)
	_ = st.Apply(dicestars.Draw(3, false))
	want := st.SampleRoll(engine.NewSource(42))
	if got := a.Record.Moves[1]; got.Seat != engine.ChanceSeat || !strings.Contains(string(got.Action), `"`+want.Dice[0].String()+`"`) {
		t.Errorf("record's roll %s, want %v", got.Action, want)
	}
	other := run(t, strings.Replace(src, "42", "43", 1))
	if bytes.Equal(other.Stdout, a.Stdout) {
		t.Log("seeds 42 and 43 happen to draw the same dice")
	}
}

// TestEventsOption: --events adds one list of events per applied action.
func TestEventsOption(t *testing.T) {
	src := `{"game":"dicestars","players":["ann"],"actions":[{"draw":3,"dice":["blue:2","blue:3","orange:star"]},{"take":"color","color":"blue"}]}`
	out := Execute([]byte(src), Options{Events: true})
	var body struct {
		Over   *bool            `json:"over"`
		Events [][]engine.Event `json:"events"`
	}
	if err := json.Unmarshal(out.Stdout, &body); err != nil {
		t.Fatal(err)
	}
	if body.Over == nil || len(body.Events) != 2 {
		t.Fatalf("want the report and 2 event lists: %s", out.Stdout)
	}
	kinds := func(ev []engine.Event) string {
		var k []string
		for _, e := range ev {
			k = append(k, e.Kind)
		}
		return strings.Join(k, ",")
	}
	if got := kinds(body.Events[0]); got != "draw,roll" {
		t.Errorf("draw action events %s", got)
	}
	if got := kinds(body.Events[1]); got != "take,solo" {
		t.Errorf("take action events %s", got)
	}
	// Without the option there is no events field.
	if plain := run(t, src); bytes.Contains(plain.Stdout, []byte(`"events"`)) {
		t.Error("events printed without the option")
	}
	// On a refusal the events of the applied actions come along.
	bad := Execute([]byte(strings.Replace(src, `"blue"}]`, `"blue"},{"take":"value","value":2}]`, 1)), Options{Events: true})
	if bad.Code != ExitIllegal || !bytes.Contains(bad.Stdout, []byte(`"events"`)) {
		t.Errorf("refusal with events: exit %d %s", bad.Code, bad.Stdout)
	}
}

func TestWithField(t *testing.T) {
	got, err := withField([]byte(`{}`), "events", []int{})
	if err != nil || string(got) != "{\n  \"events\": []\n}\n" {
		t.Errorf("empty object: %q %v", got, err)
	}
	if _, err := withField([]byte(`[1]`), "events", 1); err == nil {
		t.Error("a non-object accepted")
	}
}
