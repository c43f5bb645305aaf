package script

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
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
		"     ann took 2 stars: 2 multipliers in row 2\n",
		"     bob put the 2 discarded dice and the 1 die of the reserve back into the bag\n",
		"     ann drew orange ★, blue ★ and black 4\n",
		"     bob took 2 black dice (sum 9) into the black column\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("steps lack %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n"); n != 1+9+10 {
		t.Errorf("%d lines, want a title, 9 moves and 10 events:\n%s", n, text)
	}
}

// TestReplayStepsAreTheNarration: for every example that plays, the lines
// under each move of replay --steps are the game's own narration of its
// events (engine.Describe), the sentences every client shows, and nothing
// else; script --events gives each event the same sentence as "text".
func TestReplayStepsAreTheNarration(t *testing.T) {
	for _, path := range exampleScripts(t) {
		input, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		out := Execute(input, Options{Events: true})
		if out.Record == nil || len(out.Record.Moves) == 0 {
			continue
		}
		rec := *out.Record
		g, _ := all.Registry.Lookup(rec.Game)
		st, err := g.New(rec.Players, rec.Options)
		if err != nil {
			t.Fatal(err)
		}
		var want []string
		for _, lm := range rec.Moves {
			a, err := g.DecodeAction(lm.Action)
			if err != nil {
				t.Fatal(err)
			}
			ev, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a})
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range ev {
				for _, line := range engine.Describe(g, e, rec.Players) {
					want = append(want, strings.TrimSpace(line))
				}
			}
		}
		recJSON, err := json.Marshal(rec)
		if err != nil {
			t.Fatal(err)
		}
		steps := Replay(recJSON, ReplayOptions{Steps: true, At: -1})
		var got []string
		for _, line := range strings.Split(string(steps.Stdout), "\n") {
			// Events are indented past the move numbers (fewer than 5 digits).
			if strings.HasPrefix(line, "     ") {
				got = append(got, strings.TrimSpace(line))
			}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%s: replay --steps tells\n%s\nthe game's narration is\n%s", path, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		var body struct {
			Events [][]struct {
				Text string `json:"text"`
			} `json:"events"`
		}
		if err := json.Unmarshal(out.Stdout, &body); err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, list := range body.Events {
			for _, e := range list {
				if e.Text != "" {
					texts = append(texts, strings.Split(e.Text, "\n")...)
				}
			}
		}
		if !slices.Equal(texts, want) {
			t.Errorf("%s: the events' texts are\n%s\nthe game's narration is\n%s", path, strings.Join(texts, "\n"), strings.Join(want, "\n"))
		}
	}
}
