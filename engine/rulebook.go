package engine

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"path"
	"regexp"
	"strings"
)

// Rulebook is an optional Game extension: the game's rules for people, in
// the game's own words and in every language the platform speaks, and the
// pictures the text shows as real games. The web's rules page and the
// terminal's help screen read it, so neither knows a game.
type Rulebook interface {
	// Rules returns the rules in lang ("en", "fr") as rules markup (see
	// ParseRules); false when the game has none in that language.
	Rules(lang string) (string, bool)
	// Example returns the example the markup names {{example name}}.
	Example(name string) (Example, bool)
}

// RulesLangs are the languages every game's rules are written in.
var RulesLangs = []string{"en", "fr"}

// Example is a picture of the rules as a real game: a record (the game set
// up, then played by its moves, chance as recorded moves, so replaying it
// checks every move against the rules) and the seat whose view shows it
// (Spectator: the public view).
type Example struct {
	Seat   Seat   `json:"seat"`
	Record Record `json:"record"`
}

// Build replays the example: the state the picture shows.
func (x Example) Build(g Game) (State, error) {
	if x.Record.Game != g.Info().ID {
		return nil, fmt.Errorf("example of game %q, not %q", x.Record.Game, g.Info().ID)
	}
	st, err := Replay(g, x.Record)
	if err != nil {
		return nil, err
	}
	if x.Seat != Spectator && (x.Seat < 0 || int(x.Seat) >= len(x.Record.Players)) {
		return nil, fmt.Errorf("example shown to seat %d of %d", x.Seat, len(x.Record.Players))
	}
	return st, nil
}

// RulesFS is a Rulebook read from files, the way a game keeps its rules:
// dir/<lang>.md for the text and dir/<name>.json for each example (an
// Example in JSON). A game embeds the folder and forwards its two methods.
type RulesFS struct {
	FS  fs.FS
	Dir string
}

// Rules reads dir/<lang>.md.
func (r RulesFS) Rules(lang string) (string, bool) {
	if !validRulesName(lang) {
		return "", false
	}
	data, err := fs.ReadFile(r.FS, path.Join(r.Dir, lang+".md"))
	if err != nil {
		return "", false
	}
	return string(data), true
}

// Example reads dir/<name>.json.
func (r RulesFS) Example(name string) (Example, bool) {
	if !validRulesName(name) {
		return Example{}, false
	}
	data, err := fs.ReadFile(r.FS, path.Join(r.Dir, name+".json"))
	if err != nil {
		return Example{}, false
	}
	var x Example
	if err := json.Unmarshal(data, &x); err != nil {
		return Example{}, false
	}
	return x, true
}

var rulesName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{0,39}$`)

func validRulesName(s string) bool { return rulesName.MatchString(s) }

// The rules markup is a small Markdown: what a rules page needs and
// nothing a page could be tricked by.
//
//	## Heading            (### for a smaller one)
//	A paragraph: lines up to a blank line join into one.
//	- a list item         (continued by lines indented two spaces)
//	1. a numbered item
//	**bold** inside any text
//	{{example name}}      alone on its line: the game's example, drawn
//
// Everything else is text.

// RulesBlock is one block of parsed rules markup.
type RulesBlock struct {
	// Kind is "h2", "h3", "p", "ul", "ol" or "example".
	Kind string `json:"kind"`
	// Spans is a heading's or paragraph's text.
	Spans []Span `json:"spans,omitempty"`
	// Items are a list's items.
	Items [][]Span `json:"items,omitempty"`
	// Example names an example block's example.
	Example string `json:"example,omitempty"`
}

// Span is a run of text, bold or not.
type Span struct {
	Text string `json:"text"`
	Bold bool   `json:"bold,omitempty"`
}

// Plain is the block's text without emphasis (a heading's, a paragraph's).
func (b RulesBlock) Plain() string { return PlainSpans(b.Spans) }

// PlainSpans joins spans' text.
func PlainSpans(spans []Span) string {
	var s strings.Builder
	for _, x := range spans {
		s.WriteString(x.Text)
	}
	return s.String()
}

var (
	exampleLine = regexp.MustCompile(`^\{\{example ([a-z0-9][a-z0-9-]*)\}\}$`)
	orderedItem = regexp.MustCompile(`^[0-9]+\. `)
)

// ParseRules parses rules markup into blocks.
func ParseRules(text string) []RulesBlock {
	var out []RulesBlock
	var para []string
	var list *RulesBlock
	var item []string
	flushItem := func() {
		if list != nil && item != nil {
			list.Items = append(list.Items, parseSpans(strings.Join(item, " ")))
		}
		item = nil
	}
	flush := func() {
		if len(para) > 0 {
			out = append(out, RulesBlock{Kind: "p", Spans: parseSpans(strings.Join(para, " "))})
			para = nil
		}
		flushItem()
		if list != nil {
			out = append(out, *list)
			list = nil
		}
	}
	for _, raw := range strings.Split(strings.ReplaceAll(text, "\r\n", "\n"), "\n") {
		line := strings.TrimSpace(raw)
		indented := strings.HasPrefix(raw, "  ")
		switch {
		case line == "":
			flush()
		case strings.HasPrefix(line, "### "):
			flush()
			out = append(out, RulesBlock{Kind: "h3", Spans: parseSpans(line[4:])})
		case strings.HasPrefix(line, "## "), strings.HasPrefix(line, "# "):
			flush()
			_, h, _ := strings.Cut(line, " ")
			out = append(out, RulesBlock{Kind: "h2", Spans: parseSpans(strings.TrimSpace(h))})
		case exampleLine.MatchString(line):
			flush()
			out = append(out, RulesBlock{Kind: "example", Example: exampleLine.FindStringSubmatch(line)[1]})
		case !indented && (strings.HasPrefix(line, "- ") || orderedItem.MatchString(line)):
			kind, rest := "ul", strings.TrimPrefix(line, "- ")
			if orderedItem.MatchString(line) {
				kind, rest = "ol", orderedItem.ReplaceAllString(line, "")
			}
			if len(para) > 0 || list != nil && list.Kind != kind {
				flush()
			}
			flushItem()
			if list == nil {
				list = &RulesBlock{Kind: kind}
			}
			item = []string{rest}
		case list != nil && item != nil:
			item = append(item, line)
		default:
			para = append(para, line)
		}
	}
	flush()
	return out
}

// parseSpans splits text at its ** marks; an unpaired ** stays text.
func parseSpans(s string) []Span {
	var out []Span
	add := func(text string, bold bool) {
		if text == "" {
			return
		}
		if n := len(out); n > 0 && out[n-1].Bold == bold {
			out[n-1].Text += text
			return
		}
		out = append(out, Span{Text: text, Bold: bold})
	}
	for {
		i := strings.Index(s, "**")
		if i < 0 {
			break
		}
		j := strings.Index(s[i+2:], "**")
		if j < 0 {
			break
		}
		add(s[:i], false)
		add(s[i+2:i+2+j], true)
		s = s[i+2+j+2:]
	}
	add(s, false)
	return out
}

// RulesExamples lists the examples the blocks name, in order, each once.
func RulesExamples(blocks []RulesBlock) []string {
	var out []string
	seen := map[string]bool{}
	for _, b := range blocks {
		if b.Kind == "example" && !seen[b.Example] {
			seen[b.Example] = true
			out = append(out, b.Example)
		}
	}
	return out
}
