package dicestars

import (
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Narrate puts a Dice Stars event into catalogue messages (the English
// sentences are in messages.json). Seats are named from players; a roll names the
// seat that drew the dice.
func (Game) Narrate(e engine.Event, players []string) []engine.Message {
	who := engine.SeatName(players, e.Seat)
	msg := func(key string, args map[string]any) []engine.Message {
		return []engine.Message{{Key: key, Args: args}}
	}
	switch d := e.Data.(type) {
	case RefillEvent:
		if d.FromReserve > 0 {
			return msg("dicestars.refill.reserve", map[string]any{"who": who, "discard": d.FromDiscard, "reserve": d.FromReserve})
		}
		return msg("dicestars.refill", map[string]any{"who": who, "discard": d.FromDiscard})
	case DrawEvent:
		args := map[string]any{"who": who, "n": d.Announced, "count": d.Count}
		switch {
		case d.Count == 0:
			return msg("dicestars.draw.empty", args)
		case d.Count < d.Announced:
			return msg("dicestars.draw.short", args)
		case strings.EqualFold(who, "you"):
			// English conjugates the verb for a player called "you".
			return msg("dicestars.draw.you", args)
		}
		return msg("dicestars.draw", args)
	case RollEvent:
		return msg("dicestars.roll", map[string]any{
			"who": engine.SeatName(players, engine.Seat(d.Player)), "n": len(d.Dice), "dice": diceWords(d.Dice)})
	case TakeEvent:
		return msg(takeKey(d), map[string]any{
			"who": who, "n": len(d.Dice), "color": d.Color, "value": d.Value, "sum": d.Sum, "rows": multWords(d.Mult)})
	case SoloEvent:
		switch {
		case d.Lost:
			return msg("dicestars.solo.lost", map[string]any{"marks": d.Marks, "marked": d.Marked})
		case d.Marks > 0:
			return msg("dicestars.solo.marked", map[string]any{"marks": d.Marks, "marked": d.Marked, "cells": d.Cells})
		}
		// Nothing was crossed out: nothing to tell.
		return nil
	case EndEvent:
		switch len(d.Winners) {
		case 0:
			return msg("dicestars.over", nil)
		case 1:
			return msg("dicestars.over.winner", map[string]any{"who": d.Winners[0]})
		}
		return msg("dicestars.over.winners", map[string]any{"who": d.Winners})
	}
	if e.Kind == "end-triggered" {
		return msg("dicestars.end-triggered", nil)
	}
	return engine.Narrate(nil, e, players)
}

// takeKey is the message of a take: what was taken, and whether it went to
// the sheet or, fitting nowhere, to the penalty cell.
func takeKey(d TakeEvent) string {
	switch d.Choice {
	case "color", "value":
		if d.Penalty {
			return "dicestars.take." + d.Choice + ".penalty"
		}
		return "dicestars.take." + d.Choice
	}
	return "dicestars.take.stars"
}

// diceWords is drawn dice ("orange:star") as messages the catalogue puts
// into words part by part: "orange ★".
func diceWords(dice []string) []engine.Message {
	out := make([]engine.Message, len(dice))
	for i, d := range dice {
		color, face, _ := strings.Cut(d, ":")
		out[i] = engine.Message{Key: "dicestars.die", Args: map[string]any{"color": color, "face": face}}
	}
	return out
}

// multWords is the multiplier cells a star take marks, a row at a time in
// the order first marked: "2 multipliers in row 4".
func multWords(rows []int) []engine.Message {
	var out []engine.Message
	count := map[int]int{}
	for _, r := range rows {
		if count[r] == 0 {
			out = append(out, engine.Message{Key: "dicestars.mult", Args: map[string]any{"row": r}})
		}
		count[r]++
	}
	for _, m := range out {
		m.Args["n"] = count[m.Args["row"].(int)]
	}
	return out
}
