package diceflick

import (
	"fmt"
	"math"

	"github.com/dicehall/dicehall/engine"
)

// Narrate puts a Diceflick event into catalogue messages (the English
// sentences are in messages.json). Colours, bases and lines are passed as
// the game's own words, lists as lists and a score's parts as messages, so
// each language puts them into its words (engine.Render); a hole is named by
// its row and column ("2,3") as on the board.
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
		return msg(key, map[string]any{"who": d.Player, "n": len(d.Dice), "dice": d.Dice})
	case FlickEvent:
		// The angle and power are the record's (replay --steps shows them
		// with the move); the log says what a player sees.
		return msg("diceflick.flick", map[string]any{"who": engine.SeatName(players, e.Seat), "color": d.Color, "base": d.Flick.Base})
	case LandEvent:
		return []engine.Message{landMessage(d)}
	case ScoreEvent:
		return []engine.Message{scoreMessage(d)}
	case RoundEvent:
		totals := make([]engine.Message, len(d.Totals))
		for p, v := range d.Totals {
			totals[p] = engine.Message{Key: "diceflick.total", Args: map[string]any{"who": engine.SeatName(players, engine.Seat(p)), "points": v}}
		}
		return msg("diceflick.round-end", map[string]any{"round": d.Round, "totals": totals})
	case EndEvent:
		return msg("diceflick.over", map[string]any{"who": d.Winners})
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

// scoreMessage is a score with its parts ("12 for the centre die") and,
// when the player took less, what the best choice was worth.
func scoreMessage(d ScoreEvent) engine.Message {
	parts := partMessages(d.Parts)
	key := "diceflick.score"
	if len(parts) > 0 {
		key += ".parts"
	}
	if d.Total < d.Best {
		key += ".below"
	}
	return engine.Message{Key: key, Args: map[string]any{
		"who": d.Player, "total": d.Total, "parts": parts, "best": d.Best}}
}

// partMessages says each part of a score with its points.
func partMessages(ps []ScorePart) []engine.Message {
	var parts []engine.Message
	for _, p := range ps {
		args := map[string]any{"points": p.Points}
		switch p.Kind {
		case "group":
			args["color"] = p.Color
			parts = append(parts, engine.Message{Key: "diceflick.part.group", Args: args})
		case "centre":
			parts = append(parts, engine.Message{Key: "diceflick.part.centre", Args: args})
		case "blast":
			parts = append(parts, engine.Message{Key: "diceflick.part.blast." + p.Line, Args: args})
		}
	}
	return parts
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
