package bookworm

import "github.com/dicehall/dicehall/engine"

// Info describes Bookworm to the platform: its seats, options, bots and
// English catalogue (narration in narrate.go adds its sentences).
func (Game) Info() engine.Info { return info }

var info = engine.Info{
	ID: "bookworm", Title: "Bookworm: The Dice Game",
	MinPlayers: MinPlayers, MaxPlayers: MaxPlayers,
	Options: []engine.OptionSpec{
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
			Flag: "challenge", Help: "seconds the others have to challenge a word"},
		{Name: "voteSeconds", Type: engine.OptionInt, Default: []byte("10"), Min: 1, Max: 600,
			Label: "bookworm.opt.vote", Unit: "bookworm.unit.seconds",
			Flag: "vote", Help: "seconds to vote on a challenged word"},
		{Name: "target", Type: engine.OptionInt, Default: []byte("21"), Min: 1, Max: 1000,
			Label: "bookworm.opt.target", Flag: "target", Help: "points that end the game"},
	},
	Bots:       engine.NamedBots("bookworm", "easy", "medium", "hard"),
	DefaultBot: "medium",
	Messages:   messages,
}

// messages is the English catalogue of Bookworm.
var messages = map[string]string{
	"bookworm.opt.special":      "Play with the green Special die",
	"bookworm.opt.special.hint": "Leave it out for a first game.",
	"bookworm.opt.think":        "Think time before the countdown",
	"bookworm.opt.countdown":    "Countdown",
	"bookworm.opt.challenge":    "Time to challenge a word",
	"bookworm.opt.vote":         "Time to vote",
	"bookworm.opt.target":       "Points to win",
	"bookworm.unit.seconds":     "{n} {n:second:seconds}",
	"bookworm.bot.easy":         "easy",
	"bookworm.bot.medium":       "medium",
	"bookworm.bot.hard":         "hard",

	// Narration (narrate.go).
	"bookworm.card":              "new category card: {categories}",
	"bookworm.category":          "{who} chose {category} ({level})",
	"bookworm.roll":              "the dice show {faces}",
	"bookworm.special":           "{who} turned the Special die to {face}",
	"bookworm.word":              "{who}: \"{word}\" for die {die} ({letter})",
	"bookworm.challenge-window":  "the word list does not know it: anyone may challenge",
	"bookworm.allow":             "{who} lets it pass",
	"bookworm.challenge":         "{who} challenges \"{word}\": vote!",
	"bookworm.vote.accept":       "{who} votes accept",
	"bookworm.vote.reject":       "{who} votes reject",
	"bookworm.verdict.accepted":  "vote on \"{word}\": {accept} accept, {reject} reject, {abstain} abstain: it stands",
	"bookworm.verdict.rejected":  "vote on \"{word}\": {accept} accept, {reject} reject, {abstain} abstain: rejected: try another word",
	"bookworm.take":              "{who} took die {die} ({face})",
	"bookworm.steal":             "{who} stole die {die} ({face}) from {from}, who gets a Bookworm card",
	"bookworm.bonus":             "{who} also gets the •• die",
	"bookworm.question":          "{who} took the ? die: a new card",
	"bookworm.timeout.challenge": "nobody challenged: the word stands",
	"bookworm.timeout.vote":      "the vote's time is up",
	"bookworm.fail.timeout":      "{who} ran out of time",
	"bookworm.fail.gave-up":      "{who} gave up",
	"bookworm.round-end":         "round {round} over: {scores}",
	"bookworm.round":             "round {round}: {who} is the Bookworm",
	"bookworm.reshuffle":         "every category card has been used: the stack starts over",
	"bookworm.over.winner":       "game over: {who} wins",
	"bookworm.over.winners":      "game over: {who} share the win",
}
