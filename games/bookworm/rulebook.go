package bookworm

import (
	"embed"

	"github.com/dicehall/dicehall/engine"
)

// The rules for players, in our own words (rules/<lang>.md, rules markup),
// and the examples they show (rules/<name>.json: games the text draws).
//
//go:embed rules
var rulesFiles embed.FS

var rulebook = engine.RulesFS{FS: rulesFiles, Dir: "rules"}

// Rules returns the rules in lang (engine.Rulebook).
func (Game) Rules(lang string) (string, bool) { return rulebook.Rules(lang) }

// Example returns a named example of the rules (engine.Rulebook).
func (Game) Example(name string) (engine.Example, bool) { return rulebook.Example(name) }
