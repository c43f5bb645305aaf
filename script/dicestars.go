package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func init() { Register("dicestars", diceStars{}) }

// diceStars is the script adapter of Dice Stars. A script draw is the
// current player's Draw move followed by nature's Roll (the dice the script
// lists, or a sample from the seed); a take is one move.
type diceStars struct{}

// maxMultipliers bounds a star choice's list: no sheet has more multiplier
// cells (7 per row at most), and the bound keeps per-row counts in a byte.
const maxMultipliers = 64

// dsAction is the script form of a Dice Stars action. Pointers tell an
// absent field from a zero one.
type dsAction struct {
	Draw          *int64   `json:"draw"`
	Dice          []string `json:"dice"`
	ReturnReserve *bool    `json:"returnReserve"`
	Take          *string  `json:"take"`
	Color         *string  `json:"color"`
	Value         *int64   `json:"value"`
	Multipliers   []int64  `json:"multipliers"`
}

func (diceStars) Decode(raw json.RawMessage, st engine.State) (Step, error) {
	var j dsAction
	if err := engine.DecodeStrict(raw, &j); err != nil {
		return nil, fmt.Errorf("dice stars action: %w", err)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("dice stars action: want an object, got null")
	}
	switch {
	case j.Draw != nil && j.Take != nil:
		return nil, fmt.Errorf(`an action is either a "draw" or a "take", not both`)
	case j.Draw != nil:
		return decodeDraw(&j)
	case j.Take != nil:
		return decodeTake(&j, st)
	}
	return nil, fmt.Errorf(`an action needs "draw" (a number of dice) or "take" (color, value or stars)`)
}

func decodeDraw(j *dsAction) (Step, error) {
	if j.Color != nil || j.Value != nil || j.Multipliers != nil {
		return nil, fmt.Errorf("draw: color, value and multipliers belong to a take")
	}
	d := &dsDraw{n: *j.Draw, returnReserve: j.ReturnReserve != nil && *j.ReturnReserve}
	if j.Dice != nil {
		d.fixed = true
		d.dice = make([]dicestars.Die, len(j.Dice))
		for i, s := range j.Dice {
			die, err := dicestars.ParseDie(s)
			if err != nil {
				return nil, fmt.Errorf("draw: dice[%d]: %w", i, err)
			}
			// ParseDie reads the face digit from the untrimmed text, so
			// "blue: 5 " would come back as a die of no colour: refuse
			// anything that does not read back as itself.
			if back, err := dicestars.ParseDie(die.String()); err != nil || back != die || int(die.Color()) >= dicestars.NumColors {
				return nil, fmt.Errorf("draw: dice[%d]: die %q: want colour:face, e.g. blue:5 or orange:star", i, s)
			}
			d.dice[i] = die
		}
	}
	return d, nil
}

func decodeTake(j *dsAction, st engine.State) (Step, error) {
	if j.Dice != nil || j.ReturnReserve != nil {
		return nil, fmt.Errorf("take: dice and returnReserve belong to a draw")
	}
	t := &dsTake{}
	switch strings.ToLower(*j.Take) {
	case "color", "colour":
		if j.Color == nil {
			return nil, fmt.Errorf(`take color: "color" is missing`)
		}
		if j.Value != nil || j.Multipliers != nil {
			return nil, fmt.Errorf("take color: value and multipliers belong to other takes")
		}
		c, err := dicestars.ParseColor(*j.Color)
		if err != nil {
			return nil, fmt.Errorf("take color: %w", err)
		}
		t.action = dicestars.TakeColor(c)
	case "value":
		if j.Value == nil {
			return nil, fmt.Errorf(`take value: "value" is missing`)
		}
		if j.Color != nil || j.Multipliers != nil {
			return nil, fmt.Errorf("take value: color and multipliers belong to other takes")
		}
		t.action = dicestars.TakeValue(0)
		t.value = *j.Value
		if t.value >= 0 && t.value <= 255 {
			// Any byte goes to the rules, which name the values they accept.
			t.action.Value = uint8(t.value)
		}
	case "stars":
		if j.Multipliers == nil {
			return nil, fmt.Errorf(`take stars: "multipliers" is missing (one row value per star, [] for none)`)
		}
		if j.Color != nil || j.Value != nil {
			return nil, fmt.Errorf("take stars: color and value belong to other takes")
		}
		if len(j.Multipliers) > maxMultipliers {
			return nil, fmt.Errorf("take stars: %d multipliers, at most %d", len(j.Multipliers), maxMultipliers)
		}
		m, ok := st.(*dicestars.Match)
		if !ok {
			return nil, fmt.Errorf("take stars: not a dice stars game (%T)", st)
		}
		t.action = dicestars.Action{Type: dicestars.ActTakeStars}
		for _, v := range j.Multipliers {
			r := -1
			if v >= 2 && v <= 6 {
				r = m.S.L.RowOf(int(v))
			}
			if r < 0 {
				// Left to the rules' turn: a row the sheet lacks is refused
				// like any other wrong placement.
				t.badRow = append(t.badRow, v)
				continue
			}
			t.action.Mult[r]++
		}
	default:
		return nil, fmt.Errorf(`take: %q is not "color", "value" or "stars"`, *j.Take)
	}
	return t, nil
}

// actor is the seat whose turn it is (seat 0 once the game is over, where
// the rules refuse every move anyway).
func actor(st engine.State) engine.Seat {
	if a := st.Turn().Actors; len(a) == 1 {
		return a[0]
	}
	return 0
}

type dsDraw struct {
	n             int64
	returnReserve bool
	fixed         bool
	dice          []dicestars.Die
}

func (d *dsDraw) Play(t *engine.Runner) ([]engine.Event, error) {
	n := d.n
	if n < 0 || n > 255 {
		n = 0 // refused below as a wrong count, with the script's number
	}
	ev, err := t.Play(engine.Move{Seat: actor(t.State), Action: dicestars.Draw(int(n), d.returnReserve)})
	if err != nil {
		if re, ok := engine.AsRuleError(err); ok && re.Rule == dicestars.RuleDrawCount && n != d.n {
			return nil, engine.Refuse(re.Rule, fmt.Sprintf("a draw is of 1, 2 or 3 dice, not %d", d.n))
		}
		return nil, err
	}
	m := t.State.(*dicestars.Match)
	if !t.State.Turn().Chance {
		// The bag was empty: nothing to roll.
		if len(d.dice) > 0 {
			return nil, engine.Refuse(dicestars.RuleRollCount, fmt.Sprintf("no dice leave the bag, yet the script lists %d", len(d.dice)))
		}
		return ev, nil
	}
	var fixed engine.Action
	if d.fixed {
		if len(d.dice) > 3 {
			return nil, engine.Refuse(dicestars.RuleRollCount, fmt.Sprintf("%d dice are to be drawn, not %d", m.S.Pending, len(d.dice)))
		}
		fixed = dicestars.Roll(d.dice...)
	}
	more, err := t.ResolveChance(0, fixed)
	if err != nil {
		return nil, err
	}
	return append(ev, more...), nil
}

type dsTake struct {
	action dicestars.Action
	value  int64   // the script's value, for messages when it is out of range
	badRow []int64 // multiplier rows the sheet does not have
}

func (tk *dsTake) Play(t *engine.Runner) ([]engine.Event, error) {
	mv := engine.Move{Seat: actor(t.State), Action: tk.action}
	if err := t.State.Check(mv); err != nil {
		if re, ok := engine.AsRuleError(err); ok && re.Rule == dicestars.RuleBadValue && tk.action.Type == dicestars.ActTakeValue && int64(tk.action.Value) != tk.value {
			return nil, engine.Refuse(re.Rule, fmt.Sprintf("a value choice is 2 to 6, not %d", tk.value))
		}
		return nil, err
	}
	if len(tk.badRow) > 0 {
		return nil, engine.Refuse(dicestars.RuleMultipliers, fmt.Sprintf("the sheet has no row %d for a multiplier (rows are 2 to 6)", tk.badRow[0]))
	}
	return t.Play(mv)
}

func (diceStars) Report(st engine.State) any {
	if m, ok := st.(*dicestars.Match); ok {
		return m.Report()
	}
	return st.View(engine.Spectator)
}

// DescribeEvent puts a Dice Stars event into words.
func (diceStars) DescribeEvent(st engine.State, e engine.Event) string {
	who := seatName(st, e.Seat)
	switch d := e.Data.(type) {
	case dicestars.RefillEvent:
		s := fmt.Sprintf("refill: the discard (%s) goes back into the bag", dice(d.FromDiscard))
		if d.FromReserve > 0 {
			s += fmt.Sprintf(", and the reserve (%s) too", dice(d.FromReserve))
		}
		return s
	case dicestars.DrawEvent:
		if d.Count == d.Announced {
			return fmt.Sprintf("%s draws %s", who, dice(d.Count))
		}
		return fmt.Sprintf("%s announces %s; the bag holds only %d", who, dice(d.Announced), d.Count)
	case dicestars.RollEvent:
		return "rolled into the reserve: " + strings.Join(d.Dice, " ")
	case dicestars.TakeEvent:
		what := d.Choice
		switch d.Choice {
		case "color":
			what = d.Color
		case "value":
			what = fmt.Sprintf("the %ds", d.Value)
		}
		s := fmt.Sprintf("%s takes %s: %s (sum %d)", who, what, strings.Join(d.Dice, " "), d.Sum)
		if d.Penalty {
			return s + fmt.Sprintf("; nothing fitted: %d goes in the penalty cell", d.Sum)
		}
		if len(d.Mult) > 0 {
			parts := make([]string, len(d.Mult))
			for i, r := range d.Mult {
				parts[i] = fmt.Sprint(r)
			}
			s += "; multipliers marked in rows " + strings.Join(parts, ",")
		}
		if len(d.Cells) > 0 {
			parts := make([]string, len(d.Cells))
			for i, c := range d.Cells {
				parts[i] = fmt.Sprintf("row %d cell %d=%s", c.Row, c.Cell+1, c.Text)
			}
			s += "; writes " + strings.Join(parts, ", ")
		}
		return s
	case dicestars.SoloEvent:
		s := fmt.Sprintf("solo grid: %d more marked, %d in all", d.Marks, d.Marked)
		if d.Lost {
			s += ": the grid is full, the game is lost"
		}
		return s
	case dicestars.EndEvent:
		parts := make([]string, len(d.Scores))
		for i, sc := range d.Scores {
			parts[i] = fmt.Sprintf("%s %d", seatName(st, engine.Seat(i)), sc)
		}
		w := "nobody"
		if len(d.Winners) > 0 {
			w = strings.Join(d.Winners, " and ")
		}
		return fmt.Sprintf("game over: %s; winner: %s", strings.Join(parts, ", "), w)
	}
	if e.Kind == "end-triggered" {
		return fmt.Sprintf("%s triggered the end: the round is played out", who)
	}
	return describeGeneric(e)
}

func dice(n int) string {
	if n == 1 {
		return "1 die"
	}
	return fmt.Sprintf("%d dice", n)
}

func seatName(st engine.State, s engine.Seat) string {
	if p := st.Players(); s >= 0 && int(s) < len(p) {
		return p[s]
	}
	return s.String()
}

// describeGeneric is the line for an event no adapter words: its kind and
// data as JSON.
func describeGeneric(e engine.Event) string {
	if e.Data == nil {
		return e.Kind
	}
	b, err := compact(e.Data)
	if err != nil {
		return e.Kind
	}
	return e.Kind + " " + string(b)
}
