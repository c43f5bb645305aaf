package dicestars

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Kind names the action for the engine.
func (a Action) Kind() string {
	switch a.Type {
	case ActDraw:
		return "draw"
	case ActRoll:
		return "roll"
	case ActTakeColor, ActTakeValue, ActTakeStars:
		return "take"
	}
	return "invalid"
}

// String is a short human form ("draw 3", "take blue", "take stars 3,6").
func (a Action) String() string {
	switch a.Type {
	case ActDraw:
		s := fmt.Sprintf("draw %d", a.N)
		if a.ReturnReserve {
			s += " (reserve back in the bag)"
		}
		return s
	case ActRoll:
		parts := make([]string, min(a.N, 3))
		for i, d := range a.Dice[:len(parts)] {
			parts[i] = d.String()
		}
		return "roll " + strings.Join(parts, " ")
	case ActTakeColor:
		return "take " + a.Color.String()
	case ActTakeValue:
		return fmt.Sprintf("take %ds", a.Value)
	case ActTakeStars:
		rows := a.multRows()
		parts := make([]string, len(rows))
		for i, r := range rows {
			parts[i] = strconv.Itoa(r)
		}
		return "take stars, multipliers in rows " + strings.Join(parts, ",")
	}
	return "invalid action"
}

// multRows lists one row value per multiplier cell named, lowest value
// first; a row no sheet has is written as 0.
func (a Action) multRows() []int {
	rows := []int{}
	for range a.OffSheet {
		rows = append(rows, 0)
	}
	for i, m := range a.Mult {
		for range m {
			rows = append(rows, LowRow+i)
		}
	}
	return rows
}

// MaxMultipliers bounds a star choice's list on the wire and in scripts:
// no sheet has more multiplier cells (7 per row at most), and the bound
// keeps every count in a byte.
const MaxMultipliers = 64

// actionJSON is the wire form of an action; the same shapes appear in
// scripts (docs/rules/dicestars.md#in-scripts) and game records.
type actionJSON struct {
	Draw          *int     `json:"draw,omitempty"`
	ReturnReserve *bool    `json:"returnReserve,omitempty"`
	Roll          []string `json:"roll,omitempty"`
	Take          *string  `json:"take,omitempty"`
	Color         *string  `json:"color,omitempty"`
	Value         *int     `json:"value,omitempty"`
	Multipliers   *[]int   `json:"multipliers,omitempty"` // a pointer: a star take always writes its list, [] included
}

// MarshalJSON encodes the wire form. Multiplier rows are named by value, as
// Action.Mult counts them, so the JSON needs no layout.
func (a Action) MarshalJSON() ([]byte, error) {
	var j actionJSON
	switch a.Type {
	case ActDraw:
		n := int(a.N)
		j.Draw = &n
		if a.ReturnReserve {
			t := true
			j.ReturnReserve = &t
		}
	case ActRoll:
		if a.N < 1 || a.N > 3 {
			return nil, fmt.Errorf("encode: a roll of %d dice", a.N)
		}
		j.Roll = make([]string, a.N)
		for i, d := range a.Dice[:a.N] {
			j.Roll[i] = d.String()
		}
	case ActTakeColor:
		take, c := "color", a.Color.String()
		j.Take, j.Color = &take, &c
	case ActTakeValue:
		take, v := "value", int(a.Value)
		j.Take, j.Value = &take, &v
	case ActTakeStars:
		take, rows := "stars", a.multRows()
		j.Take, j.Multipliers = &take, &rows
	default:
		return nil, fmt.Errorf("encode: invalid dice stars action type %d", a.Type)
	}
	return json.Marshal(j)
}

// UnmarshalJSON decodes the wire form strictly: unknown fields and
// contradictory forms are errors. Numbers are taken as given: a draw of 5,
// a value of 7 or a multiplier in row 9 is well formed, and the rules refuse
// it with their own code, as they do the same action from a script.
func (a *Action) UnmarshalJSON(data []byte) error {
	return engine.DecodeWire(data, a, "dice stars action", (*actionJSON).action)
}

func (j *actionJSON) action() (Action, error) {
	if !engine.ExactlyOne(j.Draw != nil, j.Roll != nil, j.Take != nil) {
		return Action{}, fmt.Errorf("dice stars action: want exactly one of draw, roll or take")
	}
	switch {
	case j.Draw != nil:
		if j.Color != nil || j.Value != nil || j.Multipliers != nil {
			return Action{}, fmt.Errorf("draw: unexpected take fields")
		}
		return Draw(*j.Draw, j.ReturnReserve != nil && *j.ReturnReserve), nil
	case j.Roll != nil:
		// An empty roll is never legal and would not survive encoding.
		if len(j.Roll) < 1 || len(j.Roll) > 3 {
			return Action{}, fmt.Errorf("roll: %d dice, want 1, 2 or 3", len(j.Roll))
		}
		if j.ReturnReserve != nil || j.Color != nil || j.Value != nil || j.Multipliers != nil {
			return Action{}, fmt.Errorf("roll: unexpected draw or take fields")
		}
		dice := make([]Die, len(j.Roll))
		for i, s := range j.Roll {
			d, err := ParseDie(s)
			if err != nil {
				return Action{}, fmt.Errorf("roll: %w", err)
			}
			dice[i] = d
		}
		return Roll(dice...), nil
	}
	if j.ReturnReserve != nil {
		return Action{}, fmt.Errorf("take: returnReserve belongs to a draw")
	}
	switch strings.ToLower(*j.Take) {
	case "color", "colour":
		if j.Color == nil {
			return Action{}, fmt.Errorf(`take color: "color" is missing`)
		}
		c, err := ParseColor(*j.Color)
		if err != nil {
			return Action{}, fmt.Errorf("take color: %w", err)
		}
		if j.Value != nil || j.Multipliers != nil {
			return Action{}, fmt.Errorf("take color: unexpected value or multipliers")
		}
		return TakeColor(c), nil
	case "value":
		if j.Value == nil {
			return Action{}, fmt.Errorf(`take value: "value" is missing`)
		}
		if j.Color != nil || j.Multipliers != nil {
			return Action{}, fmt.Errorf("take value: unexpected color or multipliers")
		}
		return TakeValue(*j.Value), nil
	case "stars":
		if j.Color != nil || j.Value != nil {
			return Action{}, fmt.Errorf("take stars: unexpected color or value")
		}
		if j.Multipliers == nil {
			return Action{}, fmt.Errorf(`take stars: "multipliers" is missing (one row value per star, [] for none)`)
		}
		if len(*j.Multipliers) > MaxMultipliers {
			return Action{}, fmt.Errorf("take stars: %d multipliers, at most %d", len(*j.Multipliers), MaxMultipliers)
		}
		return TakeStars(*j.Multipliers...), nil
	}
	return Action{}, fmt.Errorf("take: %q is not color, value or stars", *j.Take)
}

// DecodeAction reads an action in its JSON form.
func DecodeAction(data []byte) (Action, error) {
	var a Action
	err := a.UnmarshalJSON(data)
	return a, err
}

var _ engine.Action = Action{}
