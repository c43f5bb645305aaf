package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// dicehall games shows each game as it describes itself: the JSON is the
// games' Info (what the lobby reads), and the text names every bot and
// option flag a player can use.
func TestGamesCommand(t *testing.T) {
	out, code := runDicehall(t, "", "games", "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	var infos []engine.Info
	if err := json.Unmarshal([]byte(out), &infos); err != nil {
		t.Fatal(err)
	}
	if len(infos) != len(all.Registry.IDs()) {
		t.Fatalf("%d games listed, %d registered", len(infos), len(all.Registry.IDs()))
	}
	text, code := runDicehall(t, "", "games")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, text)
	}
	for _, info := range infos {
		if !strings.Contains(text, info.Title+" ("+info.ID+")") {
			t.Errorf("no heading for %s:\n%s", info.ID, text)
		}
		if len(info.Bots) > 0 && !strings.Contains(text, info.DefaultBot+"*") {
			t.Errorf("%s: the default bot %s is not marked", info.ID, info.DefaultBot)
		}
		for _, o := range info.Options {
			if o.Flag != "" && !strings.Contains(text, "--"+o.Flag) {
				t.Errorf("%s: flag --%s not listed", info.ID, o.Flag)
			}
		}
	}
}
