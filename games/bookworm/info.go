package bookworm

import (
	_ "embed"

	"github.com/dicehall/dicehall/engine"
)

// Info describes Bookworm to the platform: its seats, options, bots and
// English catalogue (narration in narrate.go adds its sentences).
func (Game) Info() engine.Info { return info }

var info = engine.Info{
	ID: "bookworm", Title: "Bookworm: The Dice Game",
	MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
	Options: []engine.OptionSpec{
		{Name: "language", Type: engine.OptionChoice, Default: []byte(`"en"`),
			Label: "bookworm.opt.language", Flag: "lang", Help: "the language of the categories and words",
			Values: []engine.OptionValue{
				{Value: "en", Label: "bookworm.lang.en"},
				{Value: "fr", Label: "bookworm.lang.fr", Hint: "bookworm.lang.fr.hint"},
			}},
		{Name: "special", Type: engine.OptionBool, Default: []byte("true"),
			Label: "bookworm.opt.special", Hint: "bookworm.opt.special.hint",
			Flag: "no-special", Help: "play without the green Special die"},
		{Name: "thinkSeconds", Type: engine.OptionInt, Default: []byte("10"), Min: 0, Max: 600,
			Label: "bookworm.opt.think", Unit: "bookworm.unit.seconds", Choices: []int{5, 10, 15, 20, 30},
			Flag: "think", Help: "seconds of quiet think time at the start of a turn"},
		{Name: "countdownSeconds", Type: engine.OptionInt, Default: []byte("5"), Min: 1, Max: 600,
			Label: "bookworm.opt.countdown", Unit: "bookworm.unit.seconds",
			Flag: "countdown", Help: "seconds of the visible countdown after the think time"},
		{Name: "challengeSeconds", Type: engine.OptionInt, Default: []byte("4"), Min: 1, Max: 600,
			Label: "bookworm.opt.challenge", Unit: "bookworm.unit.seconds",
			Flag: "challenge", Help: "seconds the others have to challenge a word the lexicon does not know"},
		{Name: "knownChallengeSeconds", Type: engine.OptionInt, Default: []byte("2"), Min: 0, Max: 600,
			Label: "bookworm.opt.knownChallenge", Unit: "bookworm.unit.seconds", Choices: []int{0, 1, 2, 3, 4},
			Flag: "known-challenge", Help: "seconds the others have to challenge a word the lexicon knows (0: the lexicon settles it)"},
		{Name: "voteSeconds", Type: engine.OptionInt, Default: []byte("10"), Min: 1, Max: 600,
			Label: "bookworm.opt.vote", Unit: "bookworm.unit.seconds",
			Flag: "vote", Help: "seconds to vote on a challenged word"},
		{Name: "target", Type: engine.OptionInt, Default: []byte("21"), Min: 1, Max: 1000,
			Label: "bookworm.opt.target", Flag: "target", Help: "points that end the game"},
	},
	Bots:       engine.NamedBots("bookworm", "easy", "medium", "hard"),
	DefaultBot: "medium",
	// Every decision can be judged and hinted (review.go).
	Reviews: true,
	// Think time, countdown, challenges and votes run in seconds.
	RealTimeOnly: true,
	Messages:     messages,
}

// messages is the English catalogue: option and bot labels, and the
// narration's sentences (narrate.go). It is data, kept as JSON beside the
// code; French lives with the browser page (web/static/i18n.js).
//
//go:embed messages.json
var messagesJSON []byte

var messages = engine.MustCatalogue(messagesJSON)
