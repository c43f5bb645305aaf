package engine_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

func TestRender(t *testing.T) {
	cat := map[string]string{
		"took":      "{player} took {n} {n:die:dice}",
		"word":      "{player} named {words}",
		"broken":    "{player} opens { but never closes",
		"plain":     "the round ends",
		"drew":      "{player} drew {dice}",
		"die":       "{color@col} {face@face}",
		"bases":     "from the {base@base} base, then {sides@base}",
		"count":     "{dice} {dice:was:were} drawn",
		"col.blue":  "bleu",
		"face.star": "★",
		"base.1":    "west",
		"base.2":    "north",
	}
	fr := map[string]string{"drew": "{player} a tiré {dice}", "die": "{color@col} {face@face}", "col.blue": "bleu", "list.and": "et", "lang": "fr"}
	die := func(color, face string) engine.Message {
		return engine.Message{Key: "die", Args: map[string]any{"color": color, "face": face}}
	}
	cases := []struct {
		name string
		msg  engine.Message
		want string
	}{
		{"placeholders and a plural of one", engine.Message{Key: "took", Args: map[string]any{"player": "ann", "n": 1}}, "ann took 1 die"},
		{"plural of many", engine.Message{Key: "took", Args: map[string]any{"player": "bob", "n": 3}}, "bob took 3 dice"},
		{"plural of zero", engine.Message{Key: "took", Args: map[string]any{"player": "bob", "n": 0}}, "bob took 0 dice"},
		{"a count decoded from JSON", engine.Message{Key: "took", Args: map[string]any{"player": "cy", "n": float64(1)}}, "cy took 1 die"},
		{"a count as text", engine.Message{Key: "took", Args: map[string]any{"player": "cy", "n": "1"}}, "cy took 1 die"},
		{"a list of words", engine.Message{Key: "word", Args: map[string]any{"player": "di", "words": []string{"big", "cat"}}}, "di named big and cat"},
		{"a list of three", engine.Message{Key: "word", Args: map[string]any{"player": "di", "words": []string{"a", "b", "c"}}}, "di named a, b and c"},
		{"a list of one", engine.Message{Key: "word", Args: map[string]any{"player": "di", "words": []any{"cat"}}}, "di named cat"},
		{"an empty list", engine.Message{Key: "word", Args: map[string]any{"player": "di", "words": []int{}}}, "di named "},
		{"a list of messages, translated part by part", engine.Message{Key: "drew", Args: map[string]any{"player": "ann", "dice": []engine.Message{die("orange", "4"), die("blue", "star")}}}, "ann drew orange 4 and bleu ★"},
		{"a message decoded from JSON", engine.Message{Key: "drew", Args: map[string]any{"player": "ann", "dice": []any{map[string]any{"key": "die", "args": map[string]any{"color": "blue", "face": float64(5)}}}}}, "ann drew bleu 5"},
		{"a value and a list through a prefix", engine.Message{Key: "bases", Args: map[string]any{"base": 1, "sides": []int{2, 3}}}, "from the west base, then north and 3"},
		{"a value in several languages", engine.Message{Key: "word", Args: map[string]any{"player": "di", "words": map[string]string{"en": "Herbs", "fr": "Herbes"}}}, "di named Herbs"},
		{"a list counts its items", engine.Message{Key: "count", Args: map[string]any{"dice": []string{"x"}}}, "x was drawn"},
		{"a list of two counts as many", engine.Message{Key: "count", Args: map[string]any{"dice": []string{"x", "y"}}}, "x and y were drawn"},
		{"a missing argument stays visible", engine.Message{Key: "took", Args: map[string]any{"player": "ann"}}, "ann took {n} {n:die:dice}"},
		{"an unclosed brace is text", engine.Message{Key: "broken", Args: map[string]any{"player": "ann"}}, "ann opens { but never closes"},
		{"no arguments", engine.Message{Key: "plain"}, "the round ends"},
		{"a missing key without arguments", engine.Message{Key: "nope"}, "nope"},
		{"a missing key keeps its arguments", engine.Message{Key: "nope", Args: map[string]any{"n": 2}}, `nope {"n":2}`},
	}
	for _, c := range cases {
		if got := engine.Render(cat, c.msg); got != c.want {
			t.Errorf("%s: %q, want %q", c.name, got, c.want)
		}
	}
	// Another language's catalogue brings its own word for "and".
	m := engine.Message{Key: "drew", Args: map[string]any{"player": "ann", "dice": []engine.Message{die("blue", "4"), die("blue", "5"), die("blue", "star")}}}
	if got, want := engine.Render(fr, m), "ann a tiré bleu 4, bleu 5 et bleu star"; got != want {
		t.Errorf("French: %q, want %q", got, want)
	}
	m = engine.Message{Key: "drew", Args: map[string]any{"player": "ann", "dice": []any{map[string]any{"en": "Herbs", "fr": "Herbes"}, map[string]string{"en": "Trees"}}}}
	if got, want := engine.Render(fr, m), "ann a tiré Herbes et Trees"; got != want {
		t.Errorf("French names: %q, want %q", got, want)
	}
}

// validInfo is a complete description; each case below breaks one thing.
func validInfo() engine.Info {
	return engine.Info{
		ID: "tap", Title: "Tap", MinPlayers: 1, MaxPlayers: 4, OnePlayer: "tap.solo",
		Options: []engine.OptionSpec{
			{Name: "fast", Type: engine.OptionBool, Default: json.RawMessage("false"), Label: "tap.fast", Flag: "fast", Help: "tap fast"},
			{Name: "rounds", Type: engine.OptionInt, Default: json.RawMessage("3"), Min: 1, Max: 9, Label: "tap.rounds",
				Unit: "tap.unit", Hint: "tap.hint", Choices: []int{1, 3, 9}, Flag: "rounds", Help: "rounds"},
			{Name: "board", Type: engine.OptionJSON, Default: json.RawMessage("null"), Label: "tap.board"},
		},
		Bots:       engine.NamedBots("tap", "easy", "hard"),
		DefaultBot: "easy",
		Messages: map[string]string{"tap.solo": "alone", "tap.fast": "Fast", "tap.rounds": "Rounds", "tap.unit": "{n} {n:round:rounds}",
			"tap.hint": "How many", "tap.board": "Board", "tap.bot.easy": "easy", "tap.bot.hard": "hard"},
	}
}

func TestInfoValidate(t *testing.T) {
	if err := validInfo().Validate(); err != nil {
		t.Fatalf("a valid description: %v", err)
	}
	cases := []struct {
		name  string
		spoil func(i *engine.Info)
		want  string
	}{
		{"empty id", func(i *engine.Info) { i.ID = "" }, "lower-case word"},
		{"upper-case id", func(i *engine.Info) { i.ID = "Tap" }, "lower-case word"},
		{"id with a space", func(i *engine.Info) { i.ID = "ta p" }, "lower-case word"},
		{"id with a slash", func(i *engine.Info) { i.ID = "ta/p" }, "lower-case word"},
		{"no title", func(i *engine.Info) { i.Title = "" }, "no title"},
		{"no seats", func(i *engine.Info) { i.MinPlayers = 0 }, "players 0 to 4"},
		{"max below min", func(i *engine.Info) { i.MinPlayers, i.MaxPlayers = 3, 2 }, "players 3 to 2"},
		{"one player without a mode label", func(i *engine.Info) { i.OnePlayer = "" }, "onePlayer"},
		{"a mode label without one player", func(i *engine.Info) { i.MinPlayers = 2 }, "onePlayer"},
		{"mode label not in the catalogue", func(i *engine.Info) { i.OnePlayer = "tap.nope" }, `"tap.nope" is not in the catalogue`},
		{"option without a label", func(i *engine.Info) { i.Options[0].Label = "" }, "option fast: no message key"},
		{"option label not in the catalogue", func(i *engine.Info) { i.Options[0].Label = "tap.x" }, `option fast: message "tap.x"`},
		{"unit not in the catalogue", func(i *engine.Info) { i.Options[1].Unit = "tap.x" }, "option rounds unit"},
		{"hint not in the catalogue", func(i *engine.Info) { i.Options[1].Hint = "tap.x" }, "option rounds hint"},
		{"choice out of range", func(i *engine.Info) { i.Options[1].Choices = []int{0, 3} }, "choice 0 out of range"},
		{"choices on a bool", func(i *engine.Info) { i.Options[0].Choices = []int{0} }, "option fast: choice 0"},
		{"bool default not a bool", func(i *engine.Info) { i.Options[0].Default = json.RawMessage(`"no"`) }, "not a bool"},
		{"int default not an int", func(i *engine.Info) { i.Options[1].Default = json.RawMessage(`"3"`) }, "not an int in 1..9"},
		{"int default out of range", func(i *engine.Info) { i.Options[1].Default = json.RawMessage(`10`) }, "not an int in 1..9"},
		{"json option with a flag", func(i *engine.Info) { i.Options[2].Flag, i.Options[2].Help = "board", "x" }, "a json option has no flag"},
		{"unknown option type", func(i *engine.Info) { i.Options[0].Type = "float" }, `unknown type "float"`},
		{"a flag twice", func(i *engine.Info) { i.Options[1].Flag = "fast" }, "flag --fast twice"},
		{"a flag without help", func(i *engine.Info) { i.Options[0].Help = "" }, "flag --fast has no help"},
		{"empty bot kind", func(i *engine.Info) { i.Bots[1].Kind = "" }, `bot kind "" empty or twice`},
		{"bot kind twice", func(i *engine.Info) { i.Bots[1].Kind = "easy" }, `bot kind "easy" empty or twice`},
		{"bot label not in the catalogue", func(i *engine.Info) { delete(i.Messages, "tap.bot.hard") }, "bot hard"},
		{"default bot not a bot", func(i *engine.Info) { i.DefaultBot = "medium" }, `default bot "medium" is not one of the bots`},
		{"default bot without bots", func(i *engine.Info) { i.Bots = nil }, `default bot "easy" but no bots`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			info := validInfo()
			c.spoil(&info)
			err := info.Validate()
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("Validate: %v, want an error mentioning %q", err, c.want)
			}
		})
	}
}

func TestExactlyOne(t *testing.T) {
	for _, c := range []struct {
		in   []bool
		want bool
	}{{nil, false}, {[]bool{false, false}, false}, {[]bool{false, true, false}, true}, {[]bool{true, true}, false}} {
		if got := engine.ExactlyOne(c.in...); got != c.want {
			t.Errorf("ExactlyOne(%v) = %v", c.in, got)
		}
	}
}
