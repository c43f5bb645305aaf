package script

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// -generate rewrites the long example scripts of testdata/scripts from
// seeded random games. They are inputs, so they change only on purpose; the
// goldens are then refreshed with -update and reviewed.
var generate = flag.Bool("generate", false, "regenerate the generated example scripts in testdata/scripts")

// genScript plays a seeded game with uniformly random legal moves and
// writes it as a script with every die fixed. stop, when not nil, ends the
// game early at a take (before it is chosen) and may add a last action.
func genScript(t *testing.T, players []string, seed uint64, note string,
	stop func(s *dicestars.State) (extra json.RawMessage, done bool)) []byte {
	t.Helper()
	s, err := dicestars.NewState(nil, len(players))
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(seed)
	var actions []json.RawMessage
	var buf []dicestars.Action
	var draw map[string]any
	for !s.Over() {
		if s.Phase == dicestars.PhaseTake && stop != nil {
			if extra, done := stop(&s); done {
				if draw != nil {
					actions = append(actions, mustJSON(t, draw))
					draw = nil
				}
				if extra != nil {
					actions = append(actions, extra)
				}
				break
			}
		}
		var a dicestars.Action
		if s.Phase == dicestars.PhaseRoll {
			a = s.SampleRoll(src)
			dice := []string{}
			for _, d := range a.Dice[:a.N] {
				dice = append(dice, d.String())
			}
			draw["dice"] = dice
		} else {
			buf = s.LegalActions(buf)
			a = buf[src.IntN(len(buf))]
		}
		if err := s.Apply(a); err != nil {
			t.Fatalf("random legal action %v refused: %v", a, err)
		}
		switch a.Type {
		case dicestars.ActDraw:
			if draw != nil {
				actions = append(actions, mustJSON(t, draw))
			}
			draw = map[string]any{"draw": int(a.N)}
			if a.ReturnReserve {
				draw["returnReserve"] = true
			}
			if s.Phase != dicestars.PhaseRoll {
				draw["dice"] = []string{}
			}
		case dicestars.ActRoll:
		default:
			if draw != nil {
				actions = append(actions, mustJSON(t, draw))
				draw = nil
			}
			actions = append(actions, mustJSON(t, a))
		}
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "{\"game\": \"dicestars\",\n \"note\": %s,\n \"players\": %s,\n \"actions\": [\n",
		mustJSON(t, note), mustJSON(t, players))
	for i, a := range actions {
		sep := ","
		if i == len(actions)-1 {
			sep = ""
		}
		fmt.Fprintf(&b, "  %s%s\n", a, sep)
	}
	b.WriteString(" ]}\n")
	return b.Bytes()
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := compact(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestGenerateScripts writes the generated examples (only with -generate).
func TestGenerateScripts(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rewrite the generated example scripts")
	}
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(scriptsDir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("dicestars-four-players-full.json", genScript(t, []string{"ann", "bob", "cid", "dee"}, 4,
		"four players, random legal moves (seed 4) written out with fixed dice, played to the end", nil))
	solo := genScript(t, []string{"sol"}, 11,
		"solo game, random legal moves (seed 11) written out with fixed dice, played to the end", nil)
	write("dicestars-solo-full.json", solo)
	// The same game and one more action: everything after the end is refused.
	over := bytes.Replace(solo, []byte("\n ]}\n"), []byte(",\n  {\"draw\":3}\n ]}\n"), 1)
	over = bytes.Replace(over, []byte("played to the end"), []byte("played to the end, then one more draw, refused because the game is over"), 1)
	write("dicestars-illegal-after-game-over.json", over)

	// The first random two-player game that ends on a penalty.
	for seed := uint64(0); ; seed++ {
		s := playTo(t, 2, seed, func(s *dicestars.State) bool { return s.Phase == dicestars.PhaseTake && !s.AnyTakeFits() })
		if s == nil {
			continue
		}
		write("dicestars-penalty.json", genScript(t, []string{"ann", "bob"}, seed,
			fmt.Sprintf("random legal moves (seed %d) until a turn where nothing fits: the take is a penalty and triggers the end", seed), nil))
		break
	}
	// The first random game reaching a penalty turn with stars in the
	// reserve: the stars may not be the penalty choice.
	hasStar := func(s *dicestars.State) bool {
		for _, d := range s.ReserveDice() {
			if d.IsStar() {
				return true
			}
		}
		return false
	}
	for seed := uint64(0); ; seed++ {
		at := func(s *dicestars.State) bool {
			return s.Phase == dicestars.PhaseTake && !s.AnyTakeFits() && hasStar(s)
		}
		if playTo(t, 2, seed, at) == nil {
			continue
		}
		stop := func(s *dicestars.State) (json.RawMessage, bool) {
			if !at(s) {
				return nil, false
			}
			rows := []int{}
			for _, d := range s.ReserveDice() {
				if d.IsStar() {
					rows = append(rows, 6)
				}
			}
			return mustJSON(t, map[string]any{"take": "stars", "multipliers": rows}), true
		}
		write("dicestars-illegal-penalty-stars.json", genScript(t, []string{"ann", "bob"}, seed,
			fmt.Sprintf("random legal moves (seed %d) up to a turn where nothing fits and the reserve shows stars; the last action takes the stars, which a penalty may not", seed), stop))
		break
	}
}

// playTo plays a random game (as genScript does) and returns the state at
// the first take where at holds, or nil if the game ends first.
func playTo(t *testing.T, n int, seed uint64, at func(s *dicestars.State) bool) *dicestars.State {
	s, err := dicestars.NewState(nil, n)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(seed)
	var buf []dicestars.Action
	for !s.Over() {
		if at(&s) {
			return &s
		}
		var a dicestars.Action
		if s.Phase == dicestars.PhaseRoll {
			a = s.SampleRoll(src)
		} else {
			buf = s.LegalActions(buf)
			a = buf[src.IntN(len(buf))]
		}
		s.ApplyUnchecked(a)
	}
	return nil
}
