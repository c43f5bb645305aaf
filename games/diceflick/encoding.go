package diceflick

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// ActionType says which of the four actions an Action is.
type ActionType uint8

const (
	ActDraw  ActionType = iota // nature: dice leave the bag
	ActFlick                   // the player flicks a die from the hand
	ActLand                    // nature: where the die came to rest, its face
	ActScore                   // the player scores a choice and ends the turn
)

func (t ActionType) kind() string {
	switch t {
	case ActDraw:
		return "draw"
	case ActFlick:
		return "flick"
	case ActLand:
		return "land"
	case ActScore:
		return "score"
	}
	return "invalid"
}

// Action is a Diceflick move. Only the fields of its Type are meaningful.
type Action struct {
	Type   ActionType
	Dice   []Color         // draw
	Die    int             // flick: index in the hand
	Flick  physics.Flick   // flick
	Hole   int             // land: physics.NoHole for the trench or out
	Out    bool            // land: the die left the box
	Face   int             // land: 1..6 for a normal die in a hole, else 0
	Path   []physics.Point // land: for animation
	Choice Choice          // score
}

// Kind names the action for the engine.
func (a Action) Kind() string { return a.Type.kind() }

var _ engine.Action = Action{}

// Where a die that is in no hole ended, in the wire form of a landing.
const (
	landTrench = "trench"
	landOut    = "out"
)

// actionJSON is the wire form, shared by records, the wire and scripts
// (docs/rules/diceflick.md#in-scripts):
//
//	{"draw": ["blue", "white"]}
//	{"flick": {"die": 0, "base": 0, "offset": 0, "angle": 0.1, "power": 0.6}}
//	{"land": "2,3", "face": 5, "path": [{"x": 0, "y": -120}, ...]}   or "trench" / "out"
//	{"score": {"groups": [["1,1", "1,2", "2,2"]], "centre": true, "blasts": [{"at": "2,3", "line": "row"}]}}
type actionJSON struct {
	Draw  []string        `json:"draw,omitempty"`
	Flick *flickJSON      `json:"flick,omitempty"`
	Land  *string         `json:"land,omitempty"`
	Face  int             `json:"face,omitempty"`
	Path  []physics.Point `json:"path,omitempty"`
	Score *ChoiceJSON     `json:"score,omitempty"`
}

type flickJSON struct {
	Die    int     `json:"die"`
	Base   int     `json:"base"`
	Offset float64 `json:"offset"`
	Angle  float64 `json:"angle"`
	Power  float64 `json:"power"`
}

// ChoiceJSON is the wire form of a Choice: holes as "row,col".
type ChoiceJSON struct {
	Groups [][]string  `json:"groups"`
	Centre bool        `json:"centre,omitempty"`
	Blasts []BlastJSON `json:"blasts,omitempty"`
}

// BlastJSON is one blast die's line: "row" or "column".
type BlastJSON struct {
	At   string `json:"at"`
	Line string `json:"line"`
}

// JSON is the wire form of the choice.
func (ch Choice) JSON() ChoiceJSON {
	j := ChoiceJSON{Groups: [][]string{}}
	for _, g := range ch.Groups {
		names := make([]string, len(g))
		for i, h := range g {
			names[i] = HoleName(h)
		}
		j.Groups = append(j.Groups, names)
	}
	j.Centre = ch.Centre
	for _, b := range ch.Blasts {
		line := "row"
		if b.Column {
			line = "column"
		}
		j.Blasts = append(j.Blasts, BlastJSON{At: HoleName(b.Hole), Line: line})
	}
	return j
}

// Choice reads the wire form back.
func (j *ChoiceJSON) Choice() (Choice, error) {
	var ch Choice
	if len(j.Groups) > Holes || len(j.Blasts) > Holes {
		return ch, fmt.Errorf("score: too many groups or blasts")
	}
	for gi, g := range j.Groups {
		if len(g) > Holes {
			return ch, fmt.Errorf("score: group %d has more members than the arena has holes", gi+1)
		}
		hs := make([]int, len(g))
		for i, n := range g {
			h, err := ParseHole(n)
			if err != nil {
				return ch, fmt.Errorf("score: group %d: %w", gi+1, err)
			}
			hs[i] = h
		}
		ch.Groups = append(ch.Groups, hs)
	}
	ch.Centre = j.Centre
	for _, b := range j.Blasts {
		h, err := ParseHole(b.At)
		if err != nil {
			return ch, fmt.Errorf("score: blast: %w", err)
		}
		switch strings.ToLower(b.Line) {
		case "row":
			ch.Blasts = append(ch.Blasts, Blast{Hole: h})
		case "column", "col":
			ch.Blasts = append(ch.Blasts, Blast{Hole: h, Column: true})
		default:
			return ch, fmt.Errorf("score: blast line %q: want \"row\" or \"column\"", b.Line)
		}
	}
	return ch, nil
}

// MarshalJSON encodes the wire form.
func (a Action) MarshalJSON() ([]byte, error) {
	var j actionJSON
	switch a.Type {
	case ActDraw:
		j.Draw = make([]string, len(a.Dice))
		for i, c := range a.Dice {
			if c >= NumColors {
				return nil, fmt.Errorf("encode: die of %s", c)
			}
			j.Draw[i] = c.String()
		}
		if len(j.Draw) == 0 {
			return nil, fmt.Errorf("encode: a draw of no dice")
		}
	case ActFlick:
		f := a.Flick
		j.Flick = &flickJSON{Die: a.Die, Base: f.Base, Offset: f.Offset, Angle: f.Angle, Power: f.Power}
	case ActLand:
		var l string
		switch {
		case a.Hole >= 0 && a.Hole < Holes:
			l = HoleName(a.Hole)
		case a.Hole == physics.NoHole && a.Out:
			l = landOut
		case a.Hole == physics.NoHole:
			l = landTrench
		default:
			return nil, fmt.Errorf("encode: landing in hole %d", a.Hole)
		}
		j.Land, j.Face, j.Path = &l, a.Face, a.Path
	case ActScore:
		c := a.Choice.JSON()
		j.Score = &c
	default:
		return nil, fmt.Errorf("encode: invalid diceflick action type %d", a.Type)
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes the wire form strictly.
func (a *Action) UnmarshalJSON(data []byte) error {
	return engine.DecodeWire(data, a, "diceflick action", (*actionJSON).action)
}

func (j *actionJSON) action() (Action, error) {
	if !engine.ExactlyOne(j.Draw != nil, j.Flick != nil, j.Land != nil, j.Score != nil) {
		return Action{}, fmt.Errorf("diceflick action: want exactly one of draw, flick, land or score")
	}
	if j.Land == nil && (j.Face != 0 || j.Path != nil) {
		return Action{}, fmt.Errorf("diceflick action: face and path belong to a landing")
	}
	switch {
	case j.Draw != nil:
		if len(j.Draw) == 0 || len(j.Draw) > MaxHand {
			return Action{}, fmt.Errorf("draw: %d dice, want 1 to %d", len(j.Draw), MaxHand)
		}
		a := Action{Type: ActDraw}
		for _, n := range j.Draw {
			c, err := ParseColor(n)
			if err != nil {
				return Action{}, fmt.Errorf("draw: %w", err)
			}
			a.Dice = append(a.Dice, c)
		}
		return a, nil
	case j.Flick != nil:
		f := j.Flick
		return Action{Type: ActFlick, Die: f.Die, Flick: physics.Flick{Base: f.Base, Offset: f.Offset, Angle: f.Angle, Power: f.Power}}, nil
	case j.Land != nil:
		a, err := ParseLanding(*j.Land, j.Face)
		if err != nil {
			return Action{}, err
		}
		if len(j.Path) > MaxPath {
			return Action{}, fmt.Errorf("land: a path has at most %d points", MaxPath)
		}
		a.Path = j.Path
		return a, nil
	}
	ch, err := j.Score.Choice()
	if err != nil {
		return Action{}, err
	}
	return Action{Type: ActScore, Choice: ch}, nil
}

// ParseLanding reads a landing's place ("row,col", "trench" or "out") and
// face.
func ParseLanding(where string, face int) (Action, error) {
	a := Action{Type: ActLand, Hole: physics.NoHole, Face: face}
	switch strings.ToLower(strings.TrimSpace(where)) {
	case landTrench:
	case landOut:
		a.Out = true
	default:
		h, err := ParseHole(where)
		if err != nil {
			return Action{}, fmt.Errorf("land: %w (or \"trench\", \"out\")", err)
		}
		a.Hole = h
	}
	return a, nil
}

// DecodeAction reads an action in its JSON form.
func DecodeAction(data []byte) (Action, error) {
	var a Action
	err := a.UnmarshalJSON(data)
	return a, err
}
