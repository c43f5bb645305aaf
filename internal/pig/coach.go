package pig

import (
	"encoding/json"

	"github.com/dicehall/dicehall/engine"
)

// Coach is Pig with an analyst, for the tests of reviews and hints: a roll
// is worth 5/6 of the turn's total plus 4 (a 1 loses it all, the other
// faces add 4 on average), a hold the turn's total, so rolling is best
// below 20. A turn's first roll is forced: a review skips it, a hint says
// to roll. It knows no win chances: only points rank the choices.
type Coach struct{ Game }

// Info describes Pig, saying it judges decisions.
func (c Coach) Info() engine.Info {
	i := c.Game.Info()
	i.Reviews = true
	msgs := make(map[string]string, len(i.Messages)+3)
	for k, v := range i.Messages {
		msgs[k] = v
	}
	msgs["pig.say.roll"] = "roll again"
	msgs["pig.say.hold"] = "bank {n} {n:point:points}"
	msgs["pig.why"] = "below 20 a roll is worth more than what it risks"
	i.Messages = msgs
	return i
}

// Judge values rolling and holding from the seat's view.
func (Coach) Judge(d engine.Decision, _ engine.JudgeOptions) (engine.Judgement, error) {
	if len(d.Legal) < 2 && d.Chosen != nil {
		return engine.Judgement{}, engine.ErrForced
	}
	turn := d.View.(map[string]any)["turn"].(int)
	val := func(a engine.Action) engine.Valued {
		b, _ := json.Marshal(a)
		if a.(Action).Roll {
			return engine.Valued{Action: b, Points: float64(turn+4) * 5 / 6, Win: -1,
				Says: []engine.Message{{Key: "pig.say.roll"}}}
		}
		return engine.Valued{Action: b, Points: float64(turn), Win: -1,
			Says: []engine.Message{{Key: "pig.say.hold", Args: map[string]any{"n": turn}}}}
	}
	j := engine.Judgement{Scale: 2, Notes: []engine.Message{{Key: "pig.why"}}}
	for i, a := range d.Legal { // roll first, then hold when it is legal
		v := val(a)
		if i == 0 || v.Points > j.Best.Points {
			if i > 0 {
				j.Others = append(j.Others, j.Best)
			}
			j.Best = v
		} else {
			j.Others = append(j.Others, v)
		}
	}
	if d.Chosen != nil {
		j.Chosen = val(d.Chosen)
	}
	return j, nil
}
