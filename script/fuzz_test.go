package script

import (
	"encoding/json"
	"os"
	"testing"
)

// FuzzScript feeds arbitrary bytes to the decoder and runner: they must
// never panic, must always print JSON, and must pick an exit code that
// matches what they print.
func FuzzScript(f *testing.F) {
	for _, path := range exampleScripts(f) {
		data, err := os.ReadFile(path)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Add([]byte(`{"game":"dicestars","players":["a"],"seed":3,"actions":[{"draw":3},{"take":"stars","multipliers":[]}]}`))
	f.Add([]byte(`{"game":"dicestars","players":["a","b"],"options":{"layout":{"soloCells":1}},"actions":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		out := Execute(data, Options{Events: len(data)%2 == 0})
		var body map[string]json.RawMessage
		if err := json.Unmarshal(out.Stdout, &body); err != nil {
			t.Fatalf("exit %d: output is not a JSON object: %v\n%s", out.Code, err, out.Stdout)
		}
		_, hasErr := body["error"]
		switch out.Code {
		case ExitOK:
			if hasErr || out.Record == nil {
				t.Fatalf("exit 0 with an error or without a record: %s", out.Stdout)
			}
		case ExitMalformed:
			if !hasErr || out.Record != nil {
				t.Fatalf("exit 2 without an error or with a record: %s", out.Stdout)
			}
		case ExitIllegal:
			if !hasErr || body["state"] == nil || out.Record == nil {
				t.Fatalf("exit 3 without error, state or record: %s", out.Stdout)
			}
			// Whatever was applied before the refusal replays.
			rec, err := json.Marshal(out.Record)
			if err != nil {
				t.Fatal(err)
			}
			if r := Replay(rec, ReplayOptions{At: -1}); r.Code != ExitOK {
				t.Fatalf("the record of a refused script does not replay: %v", r.Err)
			}
		default:
			t.Fatalf("exit %d (%v) on input %q", out.Code, out.Err, data)
		}
	})
}

// FuzzReplay: arbitrary records never panic the replayer.
func FuzzReplay(f *testing.F) {
	f.Add([]byte(`{"game":"dicestars","players":["a"],"moves":[{"seat":0,"action":{"draw":3}},{"seat":-1,"action":{"roll":["blue:2","blue:3","blue:4"]}}]}`))
	f.Add([]byte(`{"game":"dicestars","players":["a","b"],"moves":[{"seat":1,"action":{"draw":3}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, opt := range []ReplayOptions{{At: -1}, {Steps: true, At: -1}, {At: 1}} {
			out := Replay(data, opt)
			if out.Code != ExitOK && out.Err == nil {
				t.Fatalf("exit %d without an error", out.Code)
			}
		}
	})
}
