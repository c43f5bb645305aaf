package web

import (
	"flag"
	"fmt"
	"maps"
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

var updateNarration = flag.Bool("update-narration", false, "rewrite testdata/narration.golden")

// Every game's whole narration, in English (the game's catalogue, as the
// terminal and scripts write it) and in French (this folder's dictionaries,
// as the page writes it: t() fills templates exactly as engine.Render does,
// so Render with the French dictionary is what the page shows, but for
// French plurals of 0, which only the page knows). One seeded bot game per
// game is kept in testdata/narration.golden for people to read; the checks
// below hold for every line: nothing left unfilled, no raw game forms
// ("orange:4", "flick(s)"), and no English word left in the French.
func TestNarrationReadsInBothLanguages(t *testing.T) {
	_, fr := dictionaries(t)
	french := maps.Clone(fr)
	french["lang"] = "fr"
	raw := regexp.MustCompile(`[a-z]+:[a-z0-9]|\(s\)|\{|\}|map\[|\[\]`)
	// English words a French line must not hold, once the words players
	// said (quoted) are taken out.
	english := regexp.MustCompile(`\b(white|blue|yellow|green|pink|black|purple|south|west|north|east|and|the|die|dice|flicks?|draws?|took|Stack|Turn|star)\b`)
	quoted := regexp.MustCompile(`« [^»]* »`)
	var golden strings.Builder
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		provider, ok := g.(engine.BotProvider)
		if !ok {
			continue
		}
		players := []string{"Ann", "Bob", "Cy"}[:max(2, info.MinPlayers)]
		st, err := g.New(players, nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]engine.Controller, len(players))
		for p := range bots {
			if bots[p], err = provider.NewBot(info.DefaultBot, uint64(p+1)); err != nil {
				t.Fatal(err)
			}
		}
		fmt.Fprintf(&golden, "== %s\n", id)
		err = engine.PlayBots(st, bots, engine.NewSource(2), func(_ engine.Move, evs []engine.Event, _ []engine.Move) {
			for _, e := range evs {
				for _, m := range engine.Narrate(g, e, players) {
					en, frLine := engine.Render(info.Messages, m), engine.Render(french, m)
					if _, ok := fr[m.Key]; !ok {
						t.Errorf("%s: French lacks %q", id, m.Key)
					}
					if raw.MatchString(en) || raw.MatchString(frLine) {
						t.Errorf("%s: a raw form in %q / %q", id, en, frLine)
					}
					if w := english.FindString(quoted.ReplaceAllString(frLine, "")); w != "" {
						t.Errorf("%s: English %q left in the French %q", id, w, frLine)
					}
					fmt.Fprintf(&golden, "%s\n%s\n", en, frLine)
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	const path = "testdata/narration.golden"
	if *updateNarration {
		if err := os.WriteFile(path, []byte(golden.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./web -run Narration -update-narration writes it)", err)
	}
	if string(want) != golden.String() {
		t.Errorf("the narration changed: read it and rewrite %s with -update-narration", path)
	}
}
