package script

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Diceflick joins games/all once its physics is in; until then the tests
// register it here, without a simulator, so every example fixes its
// landings and the goldens never depend on a simulation.
func init() {
	if _, ok := all.Registry.Lookup("diceflick"); !ok {
		all.Registry.Register(diceflick.Game{})
	}
}

const dfHead = `{"game":"diceflick","players":["ann","bob"],"actions":[{"draw":["green","green","blue"]},`

func TestDiceflickMalformed(t *testing.T) {
	for name, action := range map[string]string{
		"no form":           `{"face":3}`,
		"two forms":         `{"draw":["blue"],"score":"best"}`,
		"land alone":        `{"land":"1,1"}`,
		"face without land": `{"flick":{"die":0},"face":3}`,
		"bad hole":          `{"flick":{"die":0},"land":"5,0","face":3}`,
		"bad colour":        `{"draw":["purple"]}`,
		"score word":        `{"score":"all"}`,
		"score bad line":    `{"score":{"groups":[],"blasts":[{"at":"1,1","line":"diagonal"}]}}`,
		"score bad hole":    `{"score":{"groups":[["1,1","9,9","1,2"]]}}`,
		"score unknown":     `{"score":{"group":[]}}`,
		"flick unknown":     `{"flick":{"die":0,"spin":3},"land":"1,1","face":2}`,
		"null":              `null`,
	} {
		out := run(t, dfHead+action+`]}`)
		if out.Code != ExitMalformed || !strings.Contains(string(out.Stdout), `"action": 1`) {
			t.Errorf("%s: exit %d %s", name, out.Code, out.Stdout)
		}
	}
}

func TestDiceflickRefusals(t *testing.T) {
	cases := []struct {
		name, actions, rule string
		at                  int
	}{
		{"hole taken", `{"flick":{"die":0},"land":"0,0","face":2},{"flick":{"die":0},"land":"0,0","face":2}`, diceflick.RuleHoleTaken, 2},
		{"score too early", `{"score":"best"}`, diceflick.RuleMustFlick, 1},
		{"draw twice", `{"draw":["blue"]}`, "wrong-action", 1},
		{"pink face", `{"flick":{"die":0},"land":"0,0"}`, diceflick.RuleBadFace, 1},
		{"empty hole in a group", `{"flick":{"die":0},"land":"0,0","face":2},{"flick":{"die":0},"land":"1,1","face":2},` +
			`{"score":{"groups":[["0,0","1,1","0,1"]]}}`, diceflick.RuleNotScorable, 3},
		{"angle", `{"flick":{"die":0,"angle":3},"land":"0,0","face":2}`, diceflick.RuleBadFlick, 1},
	}
	for _, c := range cases {
		f := failureOf(t, run(t, dfHead+c.actions+`]}`))
		if f.Rule != c.rule || f.Action != c.at {
			t.Errorf("%s: %+v, want %s at %d", c.name, f, c.rule, c.at)
		}
	}
}

// TestDiceflickSeededLandings runs the adapter on a table whose game has a
// (fake) simulator: landings the script leaves open are simulated with hand
// noise from the seed, and the same seed gives the same game.
func TestDiceflickSeededLandings(t *testing.T) {
	sim := diceflick.SimFunc(func(occ [diceflick.Holes]bool, f physics.Flick, an, pn float64) physics.Landing {
		for h := range diceflick.Holes {
			if !occ[h] && h != 18 { // never the bonus hole: keep the turn simple
				return physics.Landing{Hole: h, Path: []physics.Point{{X: an, Y: pn}}}
			}
		}
		return physics.Landing{Hole: physics.NoHole}
	})
	playIt := func() diceflick.Report {
		tab, err := engine.NewRunner(diceflick.Game{Sim: sim}, []string{"ann"}, nil, 42, nil)
		if err != nil {
			t.Fatal(err)
		}
		ad, _ := AdapterFor("diceflick")
		for _, raw := range []string{`{"flick":{"die":0,"power":0.5}}`, `{"flick":{"die":1,"power":0.5}}`, `{"score":"best"}`} {
			st, err := ad.Decode(json.RawMessage(raw), tab.State)
			if err != nil {
				t.Fatal(err)
			}
			if _, err := st.Play(tab); err != nil {
				t.Fatal(err)
			}
		}
		return tab.State.(*diceflick.Match).Report()
	}
	a, b := playIt(), playIt()
	if a.Round != 2 || len(a.Players[0].Scores) != 1 || a.Arena[0][0] == "" && a.Players[0].Total == 0 {
		t.Fatalf("two seeded flicks did not land: %+v", a)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if string(ja) != string(jb) {
		t.Fatalf("same seed, different games:\n%s\n%s", ja, jb)
	}
}

// TestDiceflickReplaySteps replays the example's record step by step and
// checks the events are put into words.
func TestDiceflickReplaySteps(t *testing.T) {
	input, err := os.ReadFile(scriptsDir + "/diceflick-turns.events.json")
	if err != nil {
		t.Fatal(err)
	}
	out := Execute(input, Options{})
	rec, err := json.Marshal(out.Record)
	if err != nil {
		t.Fatal(err)
	}
	rep := Replay(rec, ReplayOptions{Steps: true, At: -1})
	if rep.Code != ExitOK {
		t.Fatalf("exit %d: %v", rep.Code, rep.Err)
	}
	for _, want := range []string{
		"     ann draws 3 dice: green, green and blue\n",
		"     the green die lands in hole 4,1, showing 4\n",
		"     ann scores 9 points: 9 for the green group\n",
		"     the pink die lands in the centre hole: it counts double\n",
		"     the yellow die drops into the trench: back into the bag\n",
		"     bob scores 12 points: 12 for the blast die's row\n",
		": one more die and one more flick\n",
		"     ann draws the bonus die: yellow\n",
		"     ── end of round 1, totals: ann 9 and bob 12\n",
	} {
		if !strings.Contains(string(rep.Stdout), want) {
			t.Errorf("steps lack %q:\n%s", want, rep.Stdout)
		}
	}
}

// TestDiceflickRealPhysics: with the registered game, a flick the script
// does not land is simulated by the arena, seeded by the script's seed.
func TestDiceflickRealPhysics(t *testing.T) {
	script := dfHead + `{"flick":{"die":0,"base":0,"power":0.5}}]}`
	a, b := run(t, script), run(t, script)
	if a.Code != 0 || string(a.Stdout) != string(b.Stdout) {
		t.Fatalf("exit %d; same script, same seed, different outcomes:\n%s\n%s", a.Code, a.Stdout, b.Stdout)
	}
}

// TestDiceflickNoPhysics: a table without a simulation refuses a flick the
// script does not land with no-physics, but only a flick the rules accept:
// one they refuse gets their code, as on the wire.
func TestDiceflickNoPhysics(t *testing.T) {
	ad, _ := AdapterFor("diceflick")
	for action, want := range map[string]string{
		`{"flick":{"die":0,"power":0.5}}`: RuleNoPhysics,
		`{"flick":{"die":5,"power":0.5}}`: diceflick.RuleNoSuchDie,
		`{"flick":{"die":0,"base":4}}`:    diceflick.RuleBadFlick,
	} {
		tab, err := engine.NewRunner(diceflick.Game{}, []string{"ann"}, nil, 1, nil)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tab.ResolveChance(0, nil); err != nil {
			t.Fatal(err)
		}
		st, err := ad.Decode(json.RawMessage(action), tab.State)
		if err != nil {
			t.Fatal(err)
		}
		_, err = st.Play(tab)
		if re, ok := engine.AsRuleError(err); !ok || re.Rule != want {
			t.Errorf("%s: %v, want %s", action, err, want)
		}
	}
}
