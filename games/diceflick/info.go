package diceflick

import "github.com/dicehall/dicehall/engine"

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
}

// messages is the English catalogue of Diceflick.
var messages = map[string]string{
	"diceflick.practice":            "practice alone",
	"diceflick.opt.shiftBases":      "Children’s variant: bases may slide along their side",
	"diceflick.opt.shiftBases.hint": "Press anywhere along a side to flick from there.",
	"diceflick.opt.rounds":          "Rounds",
	"diceflick.opt.components":      "Arena components",
	"diceflick.bot.easy":            "easy",
	"diceflick.bot.medium":          "medium",
	"diceflick.bot.hard":            "hard",

	// Narration (narrate.go). A landing line is indented under its flick.
	"diceflick.draw":              "{who} draws {dice}",
	"diceflick.draw.bonus":        "{who} draws the bonus die: {dice}",
	"diceflick.flick":             "{who} flicks the {color} die from base {base} (angle {angle}, power {power})",
	"diceflick.land":              "  the {color} die lands in hole {hole}",
	"diceflick.land.bonus":        "  the {color} die lands in hole {hole} — the bonus marker: one more die and one more flick",
	"diceflick.land.centre":       "  the {color} die lands in hole {hole} — on the centre: it counts double",
	"diceflick.land.face":         "  the {color} die lands in hole {hole} showing {face}",
	"diceflick.land.face.bonus":   "  the {color} die lands in hole {hole} showing {face} — the bonus marker: one more die and one more flick",
	"diceflick.land.face.centre":  "  the {color} die lands in hole {hole} showing {face} — on the centre: it counts double",
	"diceflick.land.trench":       "  the {color} die drops into the trench: back into the bag",
	"diceflick.land.out":          "  the {color} die jumps out of the box: back into the bag",
	"diceflick.score":             "{who} scores {total}",
	"diceflick.score.below":       "{who} scores {total} — {best} was on offer",
	"diceflick.score.parts":       "{who} scores {total} ({parts})",
	"diceflick.score.parts.below": "{who} scores {total} ({parts}) — {best} was on offer",
	"diceflick.round-end":         "── round {round} done: {totals}",
	"diceflick.over":              "game over: {who} won",
}
