package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// replay --steps prints moves for people: angles in degrees and no raw
// data (a landing's path of points), whatever the game; the words come
// from each game's own action text and narration.
func TestReplayStepsAreReadable(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "flick.rec")
	if _, code := runDicehall(t, "", "script", "--record", rec, "../../testdata/scripts/diceflick-turns.events.json"); code != 0 {
		t.Fatalf("script: exit %d", code)
	}
	// A landing as a server records it: with its path.
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	var r map[string]any
	if err := json.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	land := r["moves"].([]any)[2].(map[string]any)["action"].(map[string]any)
	land["path"] = []map[string]float64{{"x": 0, "y": -120.25}, {"x": 12.5, "y": -60}, {"x": 35.4, "y": 20.1}}
	data, _ = json.Marshal(r)
	if err := os.WriteFile(rec, data, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, file := range []string{rec, "../../testdata/scripts/dicestars-two-players.events.json", "../../testdata/scripts/bookworm-round.events.json"} {
		if file != rec {
			file = recordOf(t, dir, file)
		}
		out, code := runDicehall(t, "", "replay", "--steps", file)
		if code != 0 {
			t.Fatalf("replay --steps %s: exit %d\n%s", file, code, out)
		}
		if strings.ContainsAny(out, "{}") || strings.Contains(out, "path") {
			t.Fatalf("raw data in the steps of %s:\n%s", file, out)
		}
		if regexp.MustCompile(`angle -?0\.\d`).MatchString(out) {
			t.Fatalf("an angle in radians in the steps of %s:\n%s", file, out)
		}
	}
	out, _ := runDicehall(t, "", "replay", "--steps", rec)
	for _, want := range []string{"flick die 0 from base 0 (south), angle +7°, power 0.55", "land in hole 4,1 showing 4 (rolled from (0, -120) to (35, 20), 3 points)"} {
		if !strings.Contains(out, want) {
			t.Fatalf("no %q in:\n%s", want, out)
		}
	}
}

// recordOf runs a script and returns the path of its record.
func recordOf(t *testing.T, dir, script string) string {
	t.Helper()
	rec := filepath.Join(dir, filepath.Base(script)+".rec")
	if _, code := runDicehall(t, "", "script", "--record", rec, script); code != 0 {
		t.Fatalf("script %s: exit %d", script, code)
	}
	return rec
}
