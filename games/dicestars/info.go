package dicestars

import (
	_ "embed"

	"github.com/dicehall/dicehall/engine"
)

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
	Bots:       engine.NamedBots("dicestars", "random", "greedy", "expert", "master"),
	DefaultBot: "greedy",
	Reviews:    true,
	Messages:   messages,
}

// messages is the English catalogue: option and bot labels, and the
// narration's sentences (narrate.go). It is data, kept as JSON beside the
// code; French lives with the browser page (web/static/i18n.js).
//
//go:embed messages.json
var messagesJSON []byte

var messages = engine.MustCatalogue(messagesJSON)
