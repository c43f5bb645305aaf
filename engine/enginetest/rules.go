package enginetest

import (
	"encoding/json"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// CheckRules checks a game's rulebook (engine.Rulebook): its rules exist
// in every language of engine.RulesLangs and parse into headed text, every
// example a text names exists, and every example replays legally to a
// state whose view for its seat encodes.
func CheckRules(tb testing.TB, g engine.Game) {
	tb.Helper()
	id := g.Info().ID
	book, ok := g.(engine.Rulebook)
	if !ok {
		tb.Errorf("%s has no rulebook (engine.Rulebook)", id)
		return
	}
	checked := map[string]bool{}
	for _, lang := range engine.RulesLangs {
		text, ok := book.Rules(lang)
		if !ok {
			tb.Errorf("%s: no rules in %q", id, lang)
			continue
		}
		blocks := engine.ParseRules(text)
		if len(blocks) == 0 || blocks[0].Kind != "h2" {
			tb.Errorf("%s rules in %s: they must start with a ## heading", id, lang)
		}
		for _, b := range blocks {
			if (b.Kind == "h2" || b.Kind == "h3") && b.Plain() == "" {
				tb.Errorf("%s rules in %s: an empty heading", id, lang)
			}
		}
		for _, name := range engine.RulesExamples(blocks) {
			if checked[name] {
				continue
			}
			checked[name] = true
			x, ok := book.Example(name)
			if !ok {
				tb.Errorf("%s rules in %s: {{example %s}} names no example", id, lang, name)
				continue
			}
			st, err := x.Build(g)
			if err != nil {
				tb.Errorf("%s example %s: %v", id, name, err)
				continue
			}
			if _, err := json.Marshal(st.View(x.Seat)); err != nil {
				tb.Errorf("%s example %s: the view does not encode: %v", id, name, err)
			}
		}
	}
}
