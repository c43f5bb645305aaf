package script

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// grammarCase is one input given to a game twice: as a browser sends it
// (Game.DecodeAction, then the rules' Check for the seat on turn) and as a
// script action (the same JSON, plus the script's own fields).
type grammarCase struct {
	game    string
	players string // comma-separated names
	prefix  string // script actions played first (JSON, comma-separated)
	action  string // the wire action
	by      string // the player making it, when several may act
	chance  string // script fields that fix chance, added to the script's form
	want    string // the refusal both give: a rule code, "bad-action" for input that does not decode, "" for none
}

// TestOneGrammar: a script action is the wire action plus the fields that
// fix chance, so a browser and a script get the same refusal for the same
// input (docs/scripts.md). A script that cannot be decoded (exit 2) counts as
// bad-action, the server's refusal of an action that does not decode.
func TestOneGrammar(t *testing.T) {
	const (
		dsStars = `{"draw":3,"dice":["blue:star","orange:star","blue:4"]}`
		bwHead  = `{"card":1},{"category":0},{"roll":["C/K","D","M","P","A","B","N","a-z"]}`
		dfHead  = `{"draw":["green","green","blue"]}`
	)
	cases := []grammarCase{
		{game: "dicestars", action: `{"draw":5}`, want: "draw-count"},
		{game: "dicestars", action: `{"draw":0}`, want: "draw-count"},
		{game: "dicestars", action: `{"draw":-1}`, want: "draw-count"},
		{game: "dicestars", action: `{"draw":300}`, want: "draw-count"},
		{game: "dicestars", action: `{"draw":2}`, want: "must-draw-three"},
		{game: "dicestars", action: `{"draw":3,"returnReserve":true}`, want: "return-reserve-without-refill"},
		{game: "dicestars", action: `{"draw":3}`},
		{game: "dicestars", action: `{"draw":"3"}`, want: "bad-action"},
		{game: "dicestars", action: `{"draw":2.5}`, want: "bad-action"},
		{game: "dicestars", action: `{"draw":3,"colour":"blue"}`, want: "bad-action"},
		{game: "dicestars", action: `{"take":"value","value":7}`, want: "wrong-action"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"value","value":7}`, want: "bad-value"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"value","value":-300}`, want: "bad-value"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"value","value":4}`},
		{game: "dicestars", prefix: dsStars, action: `{"take":"COLOR","color":"Blue"}`},
		{game: "dicestars", prefix: dsStars, action: `{"take":"Stars","multipliers":[3,6]}`},
		{game: "dicestars", prefix: dsStars, action: `{"take":"stars","multipliers":[3,9]}`, want: "multipliers"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"stars","multipliers":[` + strings.Repeat("2,", 29) + `2]}`, want: "multipliers"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"stars","multipliers":[` + strings.Repeat("2,", 64) + `2]}`, want: "bad-action"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"stars"}`, want: "bad-action"},
		{game: "dicestars", prefix: dsStars, action: `{"take":"color","color":"green"}`, want: "bad-action"},
		{game: "dicestars", prefix: dsStars, action: `{"draw":9}`, want: "wrong-action"},

		{game: "bookworm", prefix: `{"card":1}`, action: `{"category":3}`, want: "bad-category"},
		{game: "bookworm", prefix: `{"card":1}`, action: `{"category":-1}`, want: "bad-category"},
		{game: "bookworm", prefix: `{"card":1}`, action: `{"category":2}`},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog","die":1}`},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog","die":9}`, want: "no-such-die"},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog","die":-1}`, want: "no-such-die"},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog","die":0,"letter":"k"}`, want: "wrong-letter"},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog","die":1,"letter":"dd"}`, want: "bad-action"},
		{game: "bookworm", prefix: bwHead, action: `{"name":"dog"}`, want: "bad-action"},
		{game: "bookworm", prefix: bwHead, action: `{"vote":"yes"}`, want: "wrong-action"},
		{game: "bookworm", prefix: bwHead, action: `{"vote":"maybe"}`, want: "bad-action"},
		{game: "bookworm", prefix: bwHead + `,{"word":"unicorn","take":"a-z"}`, action: `{"challenge":true}`, by: "cy"},
		{game: "bookworm", prefix: bwHead + `,{"word":"unicorn","take":"a-z"}`, action: `{"challenge":true}`, by: "bob", want: "own-word"},
		{game: "bookworm", prefix: bwHead + `,{"word":"unicorn","take":"a-z"}`, action: `{"name":"dog","die":1}`, by: "bob", want: "not-your-turn"},

		{game: "diceflick", prefix: dfHead, action: `{"flick":{"die":0,"base":1,"angle":0.1,"power":0.5}}`, chance: `"land":"trench"`},
		{game: "diceflick", prefix: dfHead, action: `{"flick":{"die":5}}`, chance: `"land":"trench"`, want: "no-such-die"},
		{game: "diceflick", prefix: dfHead, action: `{"flick":{"die":0,"base":4}}`, chance: `"land":"trench"`, want: "bad-flick"},
		{game: "diceflick", prefix: dfHead, action: `{"flick":{"die":0,"offset":0.5}}`, chance: `"land":"trench"`, want: "bad-flick"},
		{game: "diceflick", prefix: dfHead, action: `{"flick":{"die":0,"spin":1}}`, chance: `"land":"trench"`, want: "bad-action"},
		{game: "diceflick", prefix: dfHead, action: `{"score":{"groups":[]}}`, want: "must-flick"},
		{game: "diceflick", prefix: dfHead, action: `{"score":{"groups":[["9,9","0,0","0,1"]]}}`, want: "bad-action"},
	}
	for _, c := range cases {
		name := c.game + " " + c.action
		if c.by != "" {
			name += " by " + c.by
		}
		t.Run(name, func(t *testing.T) {
			if c.players == "" {
				c.players = "ann,bob,cy"
				if c.game != "bookworm" {
					c.players = "ann,bob"
				}
			}
			wire := wireRefusal(t, c)
			scr := scriptRefusal(t, c)
			if wire != c.want || scr != c.want {
				t.Errorf("on the wire %q, in a script %q; want %q for both", wire, scr, c.want)
			}
		})
	}
}

// envelope is the script of a case, with the given actions.
func (c grammarCase) envelope(actions string) string {
	players, _ := json.Marshal(strings.Split(c.players, ","))
	return fmt.Sprintf(`{"game":%q,"players":%s,"actions":[%s]}`, c.game, players, actions)
}

// wireRefusal plays the prefix, then hands the action to the game as the
// server does.
func wireRefusal(t *testing.T, c grammarCase) string {
	t.Helper()
	s, err := Parse([]byte(c.envelope(c.prefix)))
	if err != nil {
		t.Fatal(err)
	}
	res, err := Run(s)
	if err != nil || res.Failure != nil {
		t.Fatalf("prefix: %v %+v", err, res.Failure)
	}
	g, _ := all.Registry.Lookup(c.game)
	a, err := g.DecodeAction([]byte(c.action))
	if err != nil {
		return engine.ErrBadAction.Rule
	}
	st := res.Table.State
	var seat engine.Seat
	switch actors := st.Turn().Actors; {
	case c.by != "":
		seat = -1
		for i, p := range st.Players() {
			if p == c.by {
				seat = engine.Seat(i)
			}
		}
	case len(actors) == 1:
		seat = actors[0]
	default:
		t.Fatalf("%d players may act: the case must say who", len(actors))
	}
	var at int64
	if moves := res.Table.Record.Moves; len(moves) > 0 {
		at = moves[len(moves)-1].At
	}
	if err := st.Check(engine.Move{Seat: seat, At: at, Action: a}); err != nil {
		re, ok := engine.AsRuleError(err)
		if !ok {
			t.Fatalf("Check: %v is not a rule error", err)
		}
		return re.Rule
	}
	return ""
}

// scriptRefusal runs the prefix and the action as one script.
func scriptRefusal(t *testing.T, c grammarCase) string {
	t.Helper()
	action := c.action
	var extra []string
	if c.by != "" {
		extra = append(extra, fmt.Sprintf(`"by":%q`, c.by))
	}
	if c.chance != "" {
		extra = append(extra, c.chance)
	}
	if len(extra) > 0 {
		action = strings.TrimSuffix(action, "}") + "," + strings.Join(extra, ",") + "}"
	}
	actions := action
	if c.prefix != "" {
		actions = c.prefix + "," + action
	}
	out := Execute([]byte(c.envelope(actions)), Options{})
	switch out.Code {
	case ExitOK:
		return ""
	case ExitMalformed:
		return engine.ErrBadAction.Rule
	case ExitIllegal:
		var list []json.RawMessage
		if err := json.Unmarshal([]byte("["+actions+"]"), &list); err != nil {
			t.Fatal(err)
		}
		f := failureOf(t, out)
		if f.Action != len(list)-1 {
			t.Fatalf("the prefix was refused: %+v", f)
		}
		return f.Rule
	}
	t.Fatalf("exit %d: %s", out.Code, out.Stdout)
	return ""
}
