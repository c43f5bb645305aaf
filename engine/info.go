package engine

import (
	"encoding/json"
	"fmt"
	"strings"
)

// Info is what a game tells the platform about itself. Clients build their
// forms, flags, bot lists and logs from it, so none of them needs to know a
// game by name: a new game describes itself here and every client offers it.
type Info struct {
	// ID is the short name used in commands, records and URLs.
	ID string `json:"id"`
	// Title is the name people read.
	Title string `json:"title"`
	// MinPlayers and MaxPlayers bound the seats.
	MinPlayers int `json:"minPlayers"`
	MaxPlayers int `json:"maxPlayers"`
	// OnePlayer is the message key that names the one-player mode (the
	// solo variant, a practice game); empty when MinPlayers > 1.
	OnePlayer string `json:"onePlayer,omitempty"`
	// Options are the table options, in the order a form shows them.
	Options []OptionSpec `json:"options"`
	// Bots are the game's bot kinds, weakest first; empty without bots.
	Bots []BotSpec `json:"bots"`
	// DefaultBot is the kind seated when nobody says which.
	DefaultBot string `json:"defaultBot,omitempty"`
	// RealTimeOnly says the rules carry their own clock (a think time, a
	// countdown, a vote): the game is played by people at the table
	// together, so no turn-based table (a clock of hours or days per move)
	// is offered for it.
	RealTimeOnly bool `json:"realTimeOnly,omitempty"`
	// Reviews says the game judges decisions (it is an Analyst): clients
	// offer a review of finished games and a coach's hint. The
	// conformance suite holds it to the truth.
	Reviews bool `json:"reviews,omitempty"`
	// Messages is the game's English catalogue: option and bot labels and
	// the narration of its events, keyed as Message.Key. Other languages
	// translate the same keys (the browser's French lives with the page).
	Messages map[string]string `json:"messages"`
}

// OptionType is the kind of value an option takes.
type OptionType string

const (
	OptionBool OptionType = "bool"
	OptionInt  OptionType = "int"
	// OptionChoice is one of a few named values (a word language): a
	// string, one of Values.
	OptionChoice OptionType = "choice"
	// OptionJSON is a structured value (a whole layout): scripts and the
	// API accept it; forms and flags do not offer it.
	OptionJSON OptionType = "json"
)

// OptionSpec describes one table option: the field of the options object,
// its type, default and range, and how people see it.
type OptionSpec struct {
	// Name is the field in the options JSON object.
	Name string     `json:"name"`
	Type OptionType `json:"type"`
	// Default is the value taken when the field is absent (null for a json
	// option whose default is built in).
	Default json.RawMessage `json:"default"`
	// Min and Max bound an int option (inclusive).
	Min int `json:"min,omitempty"`
	Max int `json:"max,omitempty"`
	// Label is the message key of its short label (Info.Messages).
	Label string `json:"label"`
	// Unit is the message key of the unit an int counts ("seconds"), if any.
	Unit string `json:"unit,omitempty"`
	// Flag is the command-line flag that sets it ("think", "solo-grid"). A
	// bool flag flips the default: a true-by-default option's flag is
	// named for turning it off ("no-special").
	Flag string `json:"flag,omitempty"`
	// Help is the flag's one-line help, in English.
	Help string `json:"help,omitempty"`
	// Hint is the message key of a longer explanation a form shows.
	Hint string `json:"hint,omitempty"`
	// Choices are the values a form offers for an int option (any value
	// in range is accepted); empty means a number field.
	Choices []int `json:"choices,omitempty"`
	// OnePlayerOnly options matter only in the one-player mode.
	OnePlayerOnly bool `json:"onePlayerOnly,omitempty"`
	// Values are a choice option's values, in the order a form offers them.
	Values []OptionValue `json:"values,omitempty"`
}

// OptionValue is one value of a choice option.
type OptionValue struct {
	Value string `json:"value"`
	// Label is the message key of its name for people.
	Label string `json:"label"`
	// Hint is the message key of what a player should know when choosing
	// it ("bots know fewer French words"), if anything.
	Hint string `json:"hint,omitempty"`
}

// HasValue reports whether v is one of a choice option's values.
func (o OptionSpec) HasValue(v string) bool {
	for _, x := range o.Values {
		if x.Value == v {
			return true
		}
	}
	return false
}

// ValueNames lists a choice option's values, for messages.
func (o OptionSpec) ValueNames() []string {
	out := make([]string, len(o.Values))
	for i, x := range o.Values {
		out[i] = x.Value
	}
	return out
}

// BotSpec is one bot kind.
type BotSpec struct {
	Kind string `json:"kind"`
	// Label is the message key of its name for people.
	Label string `json:"label"`
}

// NamedBots lists bot kinds, weakest first, each labelled by the
// catalogue key "<game>.bot.<kind>".
func NamedBots(game string, kinds ...string) []BotSpec {
	out := make([]BotSpec, len(kinds))
	for i, k := range kinds {
		out[i] = BotSpec{Kind: k, Label: game + ".bot." + k}
	}
	return out
}

// BotKinds lists the kinds of info's bots, weakest first.
func (info Info) BotKinds() []string {
	out := make([]string, len(info.Bots))
	for i, b := range info.Bots {
		out[i] = b.Kind
	}
	return out
}

// HasBot reports whether kind is one of the game's bots.
func (info Info) HasBot(kind string) bool {
	for _, b := range info.Bots {
		if b.Kind == kind {
			return true
		}
	}
	return false
}

// Option finds an option by its JSON name.
func (info Info) Option(name string) (OptionSpec, bool) {
	for _, o := range info.Options {
		if o.Name == name {
			return o, true
		}
	}
	return OptionSpec{}, false
}

// Validate checks that info is complete and consistent: every game's test
// calls it (enginetest), so a description cannot drift from what it names.
func (info Info) Validate() error {
	var errs []string
	bad := func(f string, a ...any) { errs = append(errs, fmt.Sprintf(f, a...)) }
	if info.ID == "" || strings.ToLower(info.ID) != info.ID || strings.ContainsAny(info.ID, " /") {
		bad("id %q: want a lower-case word", info.ID)
	}
	if info.Title == "" {
		bad("no title")
	}
	if info.MinPlayers < 1 || info.MaxPlayers < info.MinPlayers {
		bad("players %d to %d", info.MinPlayers, info.MaxPlayers)
	}
	if (info.MinPlayers == 1) != (info.OnePlayer != "") {
		bad("onePlayer %q names the one-player mode exactly when MinPlayers is 1", info.OnePlayer)
	}
	key := func(what, k string) {
		if k == "" {
			bad("%s: no message key", what)
		} else if _, ok := info.Messages[k]; !ok {
			bad("%s: message %q is not in the catalogue", what, k)
		}
	}
	if info.OnePlayer != "" {
		key("onePlayer", info.OnePlayer)
	}
	flags := map[string]bool{}
	for _, o := range info.Options {
		what := "option " + o.Name
		key(what, o.Label)
		if o.Unit != "" {
			key(what+" unit", o.Unit)
		}
		if o.Hint != "" {
			key(what+" hint", o.Hint)
		}
		for _, c := range o.Choices {
			if o.Type != OptionInt || c < o.Min || c > o.Max {
				bad("%s: choice %d out of range", what, c)
			}
		}
		switch o.Type {
		case OptionBool:
			var b bool
			if json.Unmarshal(o.Default, &b) != nil {
				bad("%s: default %s is not a bool", what, o.Default)
			}
		case OptionInt:
			var n int
			if json.Unmarshal(o.Default, &n) != nil || n < o.Min || n > o.Max {
				bad("%s: default %s is not an int in %d..%d", what, o.Default, o.Min, o.Max)
			}
		case OptionChoice:
			var v string
			if json.Unmarshal(o.Default, &v) != nil || !o.HasValue(v) {
				bad("%s: default %s is not one of its values", what, o.Default)
			}
			for _, x := range o.Values {
				key(what+" value "+x.Value, x.Label)
				if x.Hint != "" {
					key(what+" value "+x.Value+" hint", x.Hint)
				}
			}
		case OptionJSON:
			if o.Flag != "" {
				bad("%s: a json option has no flag", what)
			}
		default:
			bad("%s: unknown type %q", what, o.Type)
		}
		if o.Flag != "" {
			if flags[o.Flag] {
				bad("%s: flag --%s twice", what, o.Flag)
			}
			flags[o.Flag] = true
			if o.Help == "" {
				bad("%s: flag --%s has no help", what, o.Flag)
			}
		}
	}
	kinds := map[string]bool{}
	for _, b := range info.Bots {
		if b.Kind == "" || kinds[b.Kind] {
			bad("bot kind %q empty or twice", b.Kind)
		}
		kinds[b.Kind] = true
		key("bot "+b.Kind, b.Label)
	}
	if len(info.Bots) > 0 && !kinds[info.DefaultBot] {
		bad("default bot %q is not one of the bots", info.DefaultBot)
	}
	if len(info.Bots) == 0 && info.DefaultBot != "" {
		bad("default bot %q but no bots", info.DefaultBot)
	}
	if len(errs) > 0 {
		return fmt.Errorf("game %s: %s", info.ID, strings.Join(errs, "; "))
	}
	return nil
}
