package script

import (
	"encoding/json"
	"fmt"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

func init() { Register("diceflick", diceFlick{}) }

// RuleNoPhysics refuses a flick whose landing the script leaves open when
// the game was set up without a physics simulator.
const RuleNoPhysics = "no-physics"

// diceFlick is the script adapter of Diceflick. A script flick is the
// player's flick followed by nature's landing (the hole and face the script
// fixes, or a simulation with hand noise from the seed); a draw fixes the
// dice that leave the bag; a score is one move, "best" being the choice the
// game offers. Any draw still pending when a flick or a score comes is drawn
// from the seed first.
type diceFlick struct{}

// dfAction is the script form of a Diceflick action. Pointers tell an
// absent field from a zero one.
type dfAction struct {
	Draw  []string        `json:"draw"`
	Flick *dfFlick        `json:"flick"`
	Land  *string         `json:"land"`
	Face  *int            `json:"face"`
	Path  []physics.Point `json:"path"`
	Score json.RawMessage `json:"score"`
}

type dfFlick struct {
	Die    int     `json:"die"`
	Base   int     `json:"base"`
	Offset float64 `json:"offset"`
	Angle  float64 `json:"angle"`
	Power  float64 `json:"power"`
}

func (diceFlick) Decode(raw json.RawMessage, st engine.State) (Step, error) {
	var j dfAction
	if err := engine.DecodeStrict(raw, &j); err != nil {
		return nil, fmt.Errorf("diceflick action: %w", err)
	}
	forms := 0
	for _, present := range []bool{j.Draw != nil, j.Flick != nil, j.Score != nil} {
		if present {
			forms++
		}
	}
	if forms != 1 {
		return nil, fmt.Errorf(`an action has exactly one of "draw" (dice out of the bag), "flick" (with "land" and "face") or "score"`)
	}
	if j.Flick == nil && (j.Land != nil || j.Face != nil || j.Path != nil) {
		return nil, fmt.Errorf(`"land", "face" and "path" belong to a flick`)
	}
	switch {
	case j.Draw != nil:
		a, err := diceflick.DecodeAction(dfJSON(map[string]any{"draw": j.Draw}))
		if err != nil {
			return nil, err
		}
		return dfDraw{a}, nil
	case j.Flick != nil:
		f := j.Flick
		step := dfFlickStep{flick: diceflick.Action{Type: diceflick.ActFlick, Die: f.Die,
			Flick: physics.Flick{Base: f.Base, Offset: f.Offset, Angle: f.Angle, Power: f.Power}}}
		if j.Land == nil {
			if j.Face != nil || j.Path != nil {
				return nil, fmt.Errorf(`flick: "face" and "path" need "land"`)
			}
			return step, nil
		}
		face := 0
		if j.Face != nil {
			face = *j.Face
		}
		l, err := diceflick.ParseLanding(*j.Land, face)
		if err != nil {
			return nil, fmt.Errorf("flick: %w", err)
		}
		if len(j.Path) > diceflick.MaxPath {
			return nil, fmt.Errorf("flick: a path has at most %d points", diceflick.MaxPath)
		}
		l.Path = j.Path
		step.land = &l
		return step, nil
	}
	var best string
	if err := engine.DecodeStrict(j.Score, &best); err == nil {
		if best != "best" {
			return nil, fmt.Errorf(`score: %q: want "best" or a choice object`, best)
		}
		return dfScore{best: true}, nil
	}
	var cj diceflick.ChoiceJSON
	if err := engine.DecodeStrict(j.Score, &cj); err != nil {
		return nil, fmt.Errorf(`score: want "best" or {"groups": [["row,col", ...]], "centre": bool, "blasts": [{"at": "row,col", "line": "row"|"column"}]}: %w`, err)
	}
	ch, err := cj.Choice()
	if err != nil {
		return nil, err
	}
	return dfScore{choice: ch}, nil
}

func dfJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func dfMatch(t *engine.Runner) (*diceflick.Match, error) {
	m, ok := t.State.(*diceflick.Match)
	if !ok {
		return nil, fmt.Errorf("not a diceflick game (%T)", t.State)
	}
	return m, nil
}

// drawPending draws the dice a turn is waiting for from the seed.
func drawPending(t *engine.Runner, m *diceflick.Match) ([]engine.Event, error) {
	if m.S.Phase != diceflick.PhaseDraw {
		return nil, nil
	}
	return t.ResolveChance(0, nil)
}

type dfDraw struct{ a diceflick.Action }

func (d dfDraw) Play(t *engine.Runner) ([]engine.Event, error) {
	if _, err := dfMatch(t); err != nil {
		return nil, err
	}
	// A draw is nature's move; the rules refuse it when no draw is pending.
	return t.Play(engine.Move{Seat: engine.ChanceSeat, Action: d.a})
}

type dfFlickStep struct {
	flick diceflick.Action
	land  *diceflick.Action
}

func (f dfFlickStep) Play(t *engine.Runner) ([]engine.Event, error) {
	m, err := dfMatch(t)
	if err != nil {
		return nil, err
	}
	ev, err := drawPending(t, m)
	if err != nil {
		return nil, err
	}
	more, err := t.Play(engine.Move{Seat: actor(t.State), Action: f.flick})
	if err != nil {
		return nil, err
	}
	// After the rules accepted the flick, so that a flick they refuse gets
	// their code, as on the wire (the runner undoes the flick).
	if f.land == nil && m.Sim == nil {
		return nil, engine.Refuse(RuleNoPhysics, `this table has no physics simulation: give the flick's "land" (and "face")`)
	}
	ev = append(ev, more...)
	var fixed engine.Action
	if f.land != nil {
		fixed = *f.land
	}
	// Only the landing: a bonus die waits for the next action (a script
	// "draw" may fix it).
	if fixed == nil {
		fixed = t.State.SampleChance(t.Source)
	}
	more, err = t.Play(engine.Move{Seat: engine.ChanceSeat, Action: fixed})
	if err != nil {
		return nil, err
	}
	return append(ev, more...), nil
}

type dfScore struct {
	best   bool
	choice diceflick.Choice
}

func (s dfScore) Play(t *engine.Runner) ([]engine.Event, error) {
	m, err := dfMatch(t)
	if err != nil {
		return nil, err
	}
	ev, err := drawPending(t, m)
	if err != nil {
		return nil, err
	}
	ch := s.choice
	if s.best {
		b := m.S.Board()
		_, ch = b.Solve()
	}
	more, err := t.Play(engine.Move{Seat: actor(t.State), Action: diceflick.Action{Type: diceflick.ActScore, Choice: ch}})
	if err != nil {
		return nil, err
	}
	return append(ev, more...), nil
}

func (diceFlick) Report(st engine.State) any {
	if m, ok := st.(*diceflick.Match); ok {
		return m.Report()
	}
	return st.View(engine.Spectator)
}
