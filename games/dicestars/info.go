package dicestars

import "github.com/dicehall/dicehall/engine"

// Info describes Dice Stars to the platform: its seats, options, bots and
// English catalogue (narration in narrate.go adds its sentences).
func (Game) Info() engine.Info { return info }

var info = engine.Info{
	ID: "dicestars", Title: "Dice Stars",
	MinPlayers: 1, MaxPlayers: MaxPlayers,
	OnePlayer: "dicestars.solo",
	Options: []engine.OptionSpec{
		{Name: "soloGrid", Type: engine.OptionInt, Default: []byte("30"), Min: 1, Max: MaxSoloGrid,
			Label: "dicestars.opt.soloGrid", Flag: "solo-grid", OnePlayerOnly: true,
			Help: "cells of the solo grid (solo variant)"},
		{Name: "layout", Type: engine.OptionJSON, Default: []byte("null"), Label: "dicestars.opt.layout"},
	},
	Bots:       engine.NamedBots("dicestars", "random", "greedy", "expert"),
	DefaultBot: "greedy",
	Messages:   messages,
}

// messages is the English catalogue of Dice Stars.
var messages = map[string]string{
	"dicestars.solo":         "solo, against the virtual opponent",
	"dicestars.opt.soloGrid": "Solo grid cells",
	"dicestars.opt.layout":   "Sheet and bag layout",
	"dicestars.bot.random":   "random",
	"dicestars.bot.greedy":   "greedy",
	"dicestars.bot.expert":   "expert",

	// Narration (narrate.go).
	"dicestars.refill":             "{who} put the discard ({discard}) back into the bag",
	"dicestars.refill.reserve":     "{who} put the discard ({discard}) and the reserve ({reserve}) back into the bag",
	"dicestars.draw":               "{who} draws {n}…",
	"dicestars.draw.you":           "{who} draw {n}…",
	"dicestars.draw.short":         "{who} announced {n}; the bag holds only {count}",
	"dicestars.draw.empty":         "{who} announced {n}, but the bag is empty",
	"dicestars.roll":               "{who} drew {n}: {dice}",
	"dicestars.take.color":         "{who} took {color} ({n} {n:die:dice}, sum {sum}) into the {color} column",
	"dicestars.take.color.penalty": "{who} took {color} ({n} {n:die:dice}, sum {sum}) as a penalty: {sum} in the penalty cell",
	"dicestars.take.value":         "{who} took the {value}s ({n} {n:die:dice}, sum {sum}) into row {value}",
	"dicestars.take.value.penalty": "{who} took the {value}s ({n} {n:die:dice}, sum {sum}) as a penalty: {sum} in the penalty cell",
	"dicestars.take.stars":         "{who} took {n} {n:star:stars}: multipliers in rows {rows}",
	"dicestars.end-triggered":      "the end is triggered: the round is played out",
	"dicestars.solo.marked":        "solo grid: +{marks} ({marked} of {cells} crossed out)",
	"dicestars.solo.lost":          "solo grid: +{marks}, all {marked} cells crossed out: the virtual opponent wins",
	"dicestars.over":               "game over",
	"dicestars.over.winner":        "game over: {who} wins",
	"dicestars.over.winners":       "game over: {who} share the win",
}
