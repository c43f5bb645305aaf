package script

import (
	"encoding/json"
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func init() { Register("dicestars", diceStars{}) }

// diceStars is the script adapter of Dice Stars. A script action is the
// wire action (dicestars.DecodeAction: the same grammar as records and the
// web) plus "dice", which fixes the roll that follows a draw. A draw is the
// current player's Draw move followed by nature's Roll (the dice the script
// lists, or a sample from the seed); a take is one move. Every number goes
// to the rules as given, so a script and a browser get the same refusal.
type diceStars struct{}

func (diceStars) Decode(raw json.RawMessage, st engine.State) (Step, error) {
	var fields map[string]json.RawMessage
	if err := engine.DecodeStrict(raw, &fields); err != nil {
		return nil, fmt.Errorf("dice stars action: %w", err)
	}
	if fields == nil {
		return nil, fmt.Errorf("dice stars action: want an object, got null")
	}
	if _, ok := fields["roll"]; ok {
		// Nature's move: a script fixes it with a draw's "dice".
		return nil, fmt.Errorf(`dice stars action: json: unknown field "roll"`)
	}
	diceRaw, hasDice := fields["dice"]
	delete(fields, "dice")
	wire, err := json.Marshal(fields)
	if err != nil {
		return nil, fmt.Errorf("dice stars action: %w", err)
	}
	_, draw := fields["draw"]
	_, take := fields["take"]
	if draw && take {
		return nil, fmt.Errorf(`an action is either a "draw" or a "take", not both`)
	}
	if !draw && !take {
		return nil, fmt.Errorf(`an action needs "draw" (a number of dice) or "take" (color, value or stars)`)
	}
	a, err := dicestars.DecodeAction(wire)
	if err != nil {
		return nil, err
	}
	if a.Type != dicestars.ActDraw {
		if hasDice {
			return nil, fmt.Errorf("take: dice belong to a draw")
		}
		return dsTake{a}, nil
	}
	d := &dsDraw{action: a}
	var dice []string
	if hasDice {
		if err := engine.DecodeStrict(diceRaw, &dice); err != nil {
			return nil, fmt.Errorf("draw: dice: %w", err)
		}
	}
	if dice != nil {
		d.fixed = true
		d.dice = make([]dicestars.Die, len(dice))
		for i, s := range dice {
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

// actor is the seat whose turn it is (seat 0 once the game is over, where
// the rules refuse every move anyway).
func actor(st engine.State) engine.Seat {
	if a := st.Turn().Actors; len(a) == 1 {
		return a[0]
	}
	return 0
}

type dsDraw struct {
	action dicestars.Action
	fixed  bool
	dice   []dicestars.Die
}

func (d *dsDraw) Play(t *engine.Runner) ([]engine.Event, error) {
	ev, err := t.Play(engine.Move{Seat: actor(t.State), Action: d.action})
	if err != nil {
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

// dsTake is a take: one move of the player on turn.
type dsTake struct{ action dicestars.Action }

func (tk dsTake) Play(t *engine.Runner) ([]engine.Event, error) {
	return t.Play(engine.Move{Seat: actor(t.State), Action: tk.action})
}

func (diceStars) Report(st engine.State) any {
	if m, ok := st.(*dicestars.Match); ok {
		return m.Report()
	}
	return st.View(engine.Spectator)
}
