package engine

import (
	"encoding/json"
	"fmt"
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

// Render fills a catalogue template with m's arguments. A template names an
// argument as {name}; {n:one:other} picks the first word when argument n
// is 1 and the second otherwise ("{n} {n:die:dice}"). A key missing from
// the catalogue renders as the key and its arguments, so nothing is lost.
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
		out.WriteString(fill(tmpl[i+1:i+j], m.Args))
		tmpl = tmpl[i+j+1:]
	}
	return out.String()
}

func fill(field string, args map[string]any) string {
	name, forms, plural := strings.Cut(field, ":")
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
	switch x := v.(type) {
	case string:
		return x
	case []string:
		return strings.Join(x, " ")
	}
	return fmt.Sprint(v)
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
