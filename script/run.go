package script

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// Exit codes of `dicehall script` and `dicehall replay` (docs/scripts.md).
const (
	ExitOK        = 0
	ExitIO        = 1 // a file could not be read or written
	ExitMalformed = 2 // the input cannot be run: bad JSON, unknown game, ...
	ExitIllegal   = 3 // the rules refused an action (or a recorded move)
)

// Failure is an action the rules refused.
type Failure struct {
	Action  int    `json:"action"`
	Rule    string `json:"rule"`
	Message string `json:"message"`
}

// Result is a script that was run: the table as it stands after the last
// applied action, the events of each applied action and, when an action was
// refused, the refusal (nothing after it was applied).
type Result struct {
	Adapter Adapter
	Table   *engine.Runner
	Events  [][]engine.Event
	Failure *Failure
}

// Report is the JSON picture of the final state.
func (r *Result) Report() any { return r.Adapter.Report(r.Table.State) }

// Run sets up the script's game and plays its actions in order. A malformed
// script returns a *FormatError and no result; a refused action stops the
// run with Result.Failure set and the state as it was before that action.
func Run(s *Script) (*Result, error) {
	g, ok := all.Registry.Lookup(s.Game)
	if !ok {
		return nil, malformed(-1, "unknown game %q (known: %s)", s.Game, strings.Join(all.Registry.IDs(), ", "))
	}
	ad, ok := AdapterFor(s.Game)
	if !ok {
		return nil, malformed(-1, "game %q cannot be scripted yet (scriptable: %s)", s.Game, strings.Join(Games(), ", "))
	}
	if n := len(s.Players); n < g.Info().MinPlayers || n > g.Info().MaxPlayers {
		return nil, malformed(-1, "%s is for %d to %d players, the script names %d", g.Info().Title, g.Info().MinPlayers, g.Info().MaxPlayers, n)
	}
	var seed uint64
	if s.Seed != nil {
		seed = *s.Seed
	}
	if d, ok := ad.(OptionDefaulter); ok {
		options, err := d.ScriptOptions(s.Options)
		if err != nil {
			return nil, malformed(-1, "setting up %s: options: %w", g.Info().Title, err)
		}
		s.Options = options
	}
	t, err := engine.NewRunner(g, s.Players, s.Options, seed, nil)
	if err != nil {
		return nil, malformed(-1, "setting up %s: %w", g.Info().Title, err)
	}
	// Decode every action before playing any, so a malformed script never
	// produces a partial game.
	steps := make([]Step, len(s.Actions))
	for i, raw := range s.Actions {
		st, err := ad.Decode(raw, t.State)
		if err != nil {
			return nil, &FormatError{Action: i, Err: err}
		}
		steps[i] = st
	}
	res := &Result{Adapter: ad, Table: t, Events: make([][]engine.Event, 0, len(steps))}
	for i, st := range steps {
		before := t.State.Clone()
		logged := len(t.Record.Moves)
		ev, err := st.Play(t)
		if err != nil {
			// One script action is all or nothing: undo a draw whose roll
			// was refused.
			t.State = before
			t.Record.Moves = t.Record.Moves[:logged]
			re, ok := engine.AsRuleError(err)
			if !ok {
				return nil, fmt.Errorf("action %d: %w", i, err)
			}
			res.Failure = &Failure{Action: i, Rule: re.Rule, Message: re.Message}
			return res, nil
		}
		if ev == nil {
			ev = []engine.Event{}
		}
		res.Events = append(res.Events, ev)
	}
	return res, nil
}

// Options are the output switches of Execute.
type Options struct {
	// Events adds the events of every applied action under "events".
	Events bool
}

// Outcome is what `dicehall script` prints and returns.
type Outcome struct {
	Code   int
	Stdout []byte // JSON, ending in a newline
	Err    error  // for stderr when Code != ExitOK
	// Record is the game record, when the script got as far as setting up
	// the game (also on a refused action: it holds what was applied).
	Record *engine.Record
}

// Execute is the whole of `dicehall script` but the files: it parses and
// runs a script and renders the output and exit code.
func Execute(input []byte, opt Options) Outcome {
	s, err := Parse(input)
	if err != nil {
		return malformedOutcome(err)
	}
	res, err := Run(s)
	if err != nil {
		var fe *FormatError
		if errors.As(err, &fe) {
			return malformedOutcome(err)
		}
		// Not the script's fault: a rules or adapter bug.
		return Outcome{Code: ExitIO, Stdout: errorJSON(map[string]any{"message": err.Error()}), Err: err}
	}
	rec := res.Table.Record
	out := Outcome{Record: &rec}
	var events any
	if opt.Events {
		events = narrated(res.Table.Game, res.Events, rec.Players)
	}
	report, err := compact(res.Report())
	if err != nil {
		return Outcome{Code: ExitIO, Err: fmt.Errorf("encode report: %w", err), Record: &rec}
	}
	if res.Failure != nil {
		out.Code = ExitIllegal
		out.Err = fmt.Errorf("action %d refused (%s): %s", res.Failure.Action, res.Failure.Rule, res.Failure.Message)
		body := struct {
			Error  *Failure        `json:"error"`
			State  json.RawMessage `json:"state"`
			Events any             `json:"events,omitempty"`
		}{res.Failure, report, events}
		out.Stdout, err = encode(body)
	} else {
		out.Stdout, err = withField(report, "events", events)
	}
	if err != nil {
		return Outcome{Code: ExitIO, Err: fmt.Errorf("encode output: %w", err), Record: &rec}
	}
	return out
}

// eventOut is an event as `script --events` prints it: the event and the
// game's English sentence for it (docs/scripts.md).
type eventOut struct {
	engine.Event
	Text string `json:"text,omitempty"`
}

// narrated adds its narration to every event.
func narrated(g engine.Game, events [][]engine.Event, players []string) [][]eventOut {
	out := make([][]eventOut, len(events))
	for i, list := range events {
		out[i] = make([]eventOut, len(list))
		for j, e := range list {
			out[i][j] = eventOut{Event: e, Text: strings.Join(narration(g, e, players), "\n")}
		}
	}
	return out
}

// narration is what the game tells of one event in English: its catalogue
// sentences (engine.Describe), as the terminal log and the web show them,
// each trimmed (the catalogue may indent a line for the terminal's log).
func narration(g engine.Game, e engine.Event, players []string) []string {
	lines := engine.Describe(g, e, players)
	for i, l := range lines {
		lines[i] = strings.TrimSpace(l)
	}
	return lines
}

func malformedOutcome(err error) Outcome {
	e := map[string]any{"message": err.Error()}
	var fe *FormatError
	if errors.As(err, &fe) && fe.Action >= 0 {
		e["action"] = fe.Action
	}
	return Outcome{Code: ExitMalformed, Stdout: errorJSON(e), Err: err}
}

func errorJSON(e map[string]any) []byte {
	b, err := encode(map[string]any{"error": e})
	if err != nil {
		// A map of strings and ints always encodes.
		panic(err)
	}
	return b
}

// encode renders v as indented JSON with a final newline, leaving <, > and &
// readable (the output is for terminals and files, not HTML).
func encode(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// withField appends a field to an encoded JSON object (keeping the object's
// own field order, which a map round trip would lose) and indents the lot.
// A nil value adds nothing.
func withField(object []byte, name string, value any) ([]byte, error) {
	var out bytes.Buffer
	if value == nil {
		if err := json.Indent(&out, object, "", "  "); err != nil {
			return nil, err
		}
		out.WriteByte('\n')
		return out.Bytes(), nil
	}
	obj := bytes.TrimSpace(object)
	if len(obj) < 2 || obj[0] != '{' || obj[len(obj)-1] != '}' {
		return nil, fmt.Errorf("report is not a JSON object")
	}
	v, err := compact(value)
	if err != nil {
		return nil, err
	}
	var joined bytes.Buffer
	joined.Write(obj[:len(obj)-1])
	if len(bytes.TrimSpace(obj[1:len(obj)-1])) > 0 {
		joined.WriteByte(',')
	}
	key, _ := json.Marshal(name)
	joined.Write(key)
	joined.WriteByte(':')
	joined.Write(v)
	joined.WriteByte('}')
	if err := json.Indent(&out, joined.Bytes(), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// compact renders v as one line of JSON without HTML escaping.
func compact(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}
