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
		{Name: "soloGrid", Type: engine.OptionInt, Default: []byte("30"), Min: 1, Max: 255,
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
}
