package engine

import (
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// Message is one sentence for people, as a key of a game's catalogue
// (Info.Messages) and the values it mentions. The same key is rendered in
// English by Render here and in another language by a client that
// translates the key, so "who did what" is written once per game.
type Message struct {
	Key  string         `json:"key"`
	Args map[string]any `json:"args,omitempty"`
}

// Narrator is implemented by games that put their events into words. A
// game without it gets Describe's fallback: the event's kind and data.
type Narrator interface {
	// Narrate turns one event into zero or more messages; players are the
	// seats' names, for the arguments that name a seat.
	Narrate(e Event, players []string) []Message
}

// Render fills a catalogue template with m's arguments. The web client's
// t() (web/static/i18n.js) fills the same templates the same way, from its
// own dictionaries, so a sentence reads alike in the terminal and the page.
//
//   - {name} is argument name written as a word: a string or a number as it
//     is; a Message (or its JSON form, an object with a "key") as that
//     message rendered from the same catalogue, so a part of a sentence can
//     be translated too ("orange ★"); a list (a slice, a JSON array) as its
//     items, each written the same way, joined "a, b and c" (the catalogue's
//     "list.and" is the word for "and": English "and" by default).
//     A value in several languages, a map of language codes to strings
//     ({"en": "Vegetables", "fr": "Légumes"}), is written in the catalogue's
//     language: its "lang" key, English ("en") by default (t() takes the
//     page's).
//   - {name@prefix} writes a value (each item of a list) as the catalogue's
//     key "prefix.<value>" when there is one, else as it is: a game passes
//     its own words ("pink", base 1) and each language names them
//     ({color@df.col} is "rose" in French).
//   - {n:one:other} picks the first word when argument n is one (a list: of
//     one item) and the second otherwise ("{n} {n:die:dice}"). Render is the
//     English rule (1 is singular); t() asks Intl.PluralRules of the page's
//     language (French 0 and 1).
//
// A key missing from the catalogue renders as the key and its arguments, so
// nothing is lost.
func Render(catalogue map[string]string, m Message) string {
	tmpl, ok := catalogue[m.Key]
	if !ok {
		if len(m.Args) == 0 {
			return m.Key
		}
		b, _ := json.Marshal(m.Args)
		return m.Key + " " + string(b)
	}
	var out strings.Builder
	for {
		i := strings.IndexByte(tmpl, '{')
		if i < 0 {
			out.WriteString(tmpl)
			break
		}
		j := strings.IndexByte(tmpl[i:], '}')
		if j < 0 {
			out.WriteString(tmpl)
			break
		}
		out.WriteString(tmpl[:i])
		out.WriteString(fill(catalogue, tmpl[i+1:i+j], m.Args))
		tmpl = tmpl[i+j+1:]
	}
	return out.String()
}

func fill(cat map[string]string, field string, args map[string]any) string {
	name, forms, plural := strings.Cut(field, ":")
	name, prefix, _ := strings.Cut(name, "@")
	v, ok := args[name]
	if !ok {
		return "{" + field + "}"
	}
	if plural {
		one, other, _ := strings.Cut(forms, ":")
		if isOne(v) {
			return one
		}
		return other
	}
	return word(cat, v, prefix)
}

// word writes one argument value (see Render).
func word(cat map[string]string, v any, prefix string) string {
	switch x := v.(type) {
	case Message:
		return Render(cat, x)
	case *Message:
		return Render(cat, *x)
	case map[string]any: // decoded from JSON: a Message, or a value in several languages
		if key, ok := x["key"].(string); ok {
			args, _ := x["args"].(map[string]any)
			return Render(cat, Message{Key: key, Args: args})
		}
		byLang := map[string]string{}
		for l, w := range x {
			byLang[l] = fmt.Sprint(w)
		}
		return inLanguage(cat, byLang)
	case map[string]string: // a value in several languages
		return inLanguage(cat, x)
	case []byte:
		return string(x)
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		items := make([]string, rv.Len())
		for i := range items {
			items[i] = word(cat, rv.Index(i).Interface(), prefix)
		}
		and, ok := cat["list.and"]
		if !ok {
			and = "and"
		}
		return joinList(items, and)
	}
	s := fmt.Sprint(v)
	if prefix != "" {
		if w, ok := cat[prefix+"."+s]; ok {
			return w
		}
	}
	return s
}

// inLanguage is a value in several languages written in the catalogue's.
func inLanguage(cat map[string]string, byLang map[string]string) string {
	lang := cat["lang"]
	if lang == "" {
		lang = "en"
	}
	if w, ok := byLang[lang]; ok {
		return w
	}
	return byLang["en"]
}

// joinList writes items as a list in a sentence: "a", "a and b",
// "a, b and c" (and is the language's word).
func joinList(items []string, and string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + " " + and + " " + items[len(items)-1]
}

func isOne(v any) bool {
	switch x := v.(type) {
	case int:
		return x == 1
	case int64:
		return x == 1
	case float64:
		return x == 1
	case string:
		n, err := strconv.Atoi(x)
		return err == nil && n == 1
	case []byte:
		return false
	}
	if rv := reflect.ValueOf(v); rv.Kind() == reflect.Slice {
		return rv.Len() == 1
	}
	return false
}

// Narrate is a game's messages for one event: its own narration when it
// has one, else one message keyed by the event's kind with its data.
func Narrate(g Game, e Event, players []string) []Message {
	if n, ok := g.(Narrator); ok {
		return n.Narrate(e, players)
	}
	return []Message{{Key: e.Kind, Args: dataArgs(e.Data)}}
}

// Describe is the English lines for one event (the terminal log, replay
// steps, a script's event text).
func Describe(g Game, e Event, players []string) []string {
	cat := g.Info().Messages
	var lines []string
	for _, m := range Narrate(g, e, players) {
		lines = append(lines, Render(cat, m))
	}
	return lines
}

// dataArgs is an event's data as arguments, for the fallback narration.
func dataArgs(data any) map[string]any {
	if data == nil {
		return nil
	}
	b, err := json.Marshal(data)
	if err != nil {
		return nil
	}
	var m map[string]any
	if json.Unmarshal(b, &m) == nil {
		return m
	}
	return map[string]any{"data": string(b)}
}

// SeatName is the name of seat s among players, or the seat's own word
// (chance, system, spectator, "seat 4") when it has none.
func SeatName(players []string, s Seat) string {
	if s >= 0 && int(s) < len(players) {
		return players[s]
	}
	return s.String()
}

// MustCatalogue reads a game's English catalogue, a JSON object of message
// keys to templates embedded in the game's package. A catalogue that does
// not decode is a programming error, caught when the package loads.
func MustCatalogue(data []byte) map[string]string {
	var cat map[string]string
	if err := DecodeStrict(data, &cat); err != nil {
		panic(fmt.Sprintf("engine: catalogue: %v", err))
	}
	return cat
}
