package diceflick

import (
	"fmt"
	"math"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Narrate puts a Diceflick event into catalogue messages (the English
// sentences are in messages.json). Dice, holes and angles are passed already
// written: a client cannot translate them anyway.
func (Game) Narrate(e engine.Event, players []string) []engine.Message {
	msg := func(key string, args map[string]any) []engine.Message {
		return []engine.Message{{Key: key, Args: args}}
	}
	switch d := e.Data.(type) {
	case DrawEvent:
		key := "diceflick.draw"
		if d.Bonus {
			key = "diceflick.draw.bonus"
		}
		return msg(key, map[string]any{"who": d.Player, "dice": strings.Join(d.Dice, ", ")})
	case FlickEvent:
		return msg("diceflick.flick", map[string]any{"who": engine.SeatName(players, e.Seat), "color": d.Color,
			"base": d.Flick.Base, "angle": Degrees(d.Flick.Angle), "power": fmt.Sprintf("%.2f", d.Flick.Power)})
	case LandEvent:
		return []engine.Message{landMessage(d)}
	case ScoreEvent:
		return []engine.Message{scoreMessage(d)}
	case RoundEvent:
		parts := make([]string, len(d.Totals))
		for p, v := range d.Totals {
			parts[p] = fmt.Sprintf("%s %d", engine.SeatName(players, engine.Seat(p)), v)
		}
		return msg("diceflick.round-end", map[string]any{"round": d.Round, "totals": strings.Join(parts, ", ")})
	case EndEvent:
		return msg("diceflick.over", map[string]any{"who": strings.Join(d.Winners, " and ")})
	}
	// An event this file does not know: the engine's plain fallback.
	return engine.Narrate(nil, e, players)
}

// landMessage says where a flicked die came to rest. A die in a hole may
// also sit on a marker, which the same line tells.
func landMessage(d LandEvent) engine.Message {
	switch d.Where {
	case landTrench:
		return engine.Message{Key: "diceflick.land.trench", Args: map[string]any{"color": d.Color}}
	case landOut:
		return engine.Message{Key: "diceflick.land.out", Args: map[string]any{"color": d.Color}}
	}
	key := "diceflick.land"
	if d.Face > 0 {
		key += ".face"
	}
	if d.Bonus {
		key += ".bonus"
	}
	if d.Centre {
		key += ".centre"
	}
	return engine.Message{Key: key, Args: map[string]any{"color": d.Color, "hole": d.Hole, "face": d.Face}}
}

// scoreMessage is a score with its parts and, when the player took less,
// what the best choice was worth.
func scoreMessage(d ScoreEvent) engine.Message {
	var parts []string
	for _, p := range d.Parts {
		switch p.Kind {
		case "group":
			parts = append(parts, fmt.Sprintf("%s group %d", p.Color, p.Points))
		case "centre":
			parts = append(parts, fmt.Sprintf("centre %d", p.Points))
		case "blast":
			parts = append(parts, fmt.Sprintf("blast %s %s %d", p.At, p.Line, p.Points))
		}
	}
	key := "diceflick.score"
	if len(parts) > 0 {
		key += ".parts"
	}
	if d.Total < d.Best {
		key += ".below"
	}
	return engine.Message{Key: key, Args: map[string]any{
		"who": d.Player, "total": d.Total, "parts": strings.Join(parts, ", "), "best": d.Best}}
}

// Degrees writes an angle in radians as whole degrees, signed, and never
// as "-0°".
func Degrees(rad float64) string {
	d := math.Round(rad * 180 / math.Pi)
	if d == 0 {
		return "0°"
	}
	return fmt.Sprintf("%+.0f°", d)
}
