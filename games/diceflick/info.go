package diceflick

import (
	_ "embed"

	"github.com/dicehall/dicehall/engine"
)

// Info describes Diceflick to the platform: its seats, options, bots and
// English catalogue (narration in narrate.go adds its sentences).
func (Game) Info() engine.Info { return info }

var info = engine.Info{
	ID: "diceflick", Title: "Diceflick",
	MinPlayers: 1, MaxPlayers: MaxPlayers,
	OnePlayer: "diceflick.practice",
	Options: []engine.OptionSpec{
		{Name: "shiftBases", Type: engine.OptionBool, Default: []byte("false"),
			Label: "diceflick.opt.shiftBases", Hint: "diceflick.opt.shiftBases.hint",
			Flag: "shift-bases", Help: "the children's variant: bases slide along their side"},
		{Name: "rounds", Type: engine.OptionInt, Default: []byte("10"), Min: 1, Max: MaxRounds,
			Label: "diceflick.opt.rounds", Flag: "rounds", Help: "rounds in the game"},
		{Name: "components", Type: engine.OptionJSON, Default: []byte("null"), Label: "diceflick.opt.components"},
	},
	Bots:       engine.NamedBots("diceflick", "easy", "medium", "hard"),
	DefaultBot: "medium",
	Messages:   messages,
	Reviews:    true,
}

// messages is the English catalogue: option and bot labels, and the
// narration's sentences (narrate.go). It is data, kept as JSON beside the
// code; French lives with the browser page (web/static/i18n.js).
//
//go:embed messages.json
var messagesJSON []byte

var messages = engine.MustCatalogue(messagesJSON)
