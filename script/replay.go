package script

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// ReplayOptions choose what `dicehall replay` prints.
type ReplayOptions struct {
	// Steps prints one line per move and one per event instead of a report.
	Steps bool
	// At stops after that many moves (negative: play the whole record).
	At int
}

// MoveFailure is a recorded move the rules refused on replay.
type MoveFailure struct {
	Move    int    `json:"move"`
	Rule    string `json:"rule,omitempty"`
	Message string `json:"message"`
}

// ParseRecord decodes a game record with engine.DecodeStrict, the decoder
// of every JSON input: one object and nothing after it, each field of the
// right type. Fields it does not know are ignored, in the record and in its
// moves (docs/scripts.md): records come from several programs, which may
// add their own notes. So the record is read as an object of fields first,
// and each known field is then decoded strictly.
func ParseRecord(data []byte) (engine.Record, error) {
	var r engine.Record
	var fields map[string]json.RawMessage
	if err := engine.DecodeStrict(data, &fields); err != nil {
		if errors.Is(err, io.EOF) {
			return r, errors.New("empty record")
		}
		return r, fmt.Errorf("record: %w", err)
	}
	if fields == nil {
		return r, errors.New("record: want a JSON object, got null")
	}
	err := decodeFields(fields, []field{{"game", &r.Game}, {"players", &r.Players}, {"options", &r.Options}, {"seed", &r.Seed}})
	if err != nil {
		return r, fmt.Errorf("record: %w", err)
	}
	var moves []map[string]json.RawMessage
	if err := decodeFields(fields, []field{{"moves", &moves}}); err != nil {
		return r, fmt.Errorf("record: %w", err)
	}
	for i, m := range moves {
		var lm engine.LoggedMove
		if err := decodeFields(m, []field{{"seat", &lm.Seat}, {"at", &lm.At}, {"action", &lm.Action}}); err != nil {
			return r, fmt.Errorf("record: move %d: %w", i, err)
		}
		r.Moves = append(r.Moves, lm)
	}
	if r.Game == "" {
		return r, errors.New(`record: "game" is missing`)
	}
	if len(r.Players) == 0 {
		return r, errors.New(`record: "players" is missing or empty`)
	}
	return r, nil
}

// field is a known field of a JSON object and where its value goes.
type field struct {
	name string
	dst  any
}

// decodeFields decodes the fields of obj that are listed, each strictly,
// and leaves the others alone.
func decodeFields(obj map[string]json.RawMessage, fields []field) error {
	for _, f := range fields {
		raw, ok := obj[f.name]
		if !ok {
			continue
		}
		if err := engine.DecodeStrict(raw, f.dst); err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
	}
	return nil
}

// Replay is the whole of `dicehall replay` but the file: it rebuilds the
// game of a record and renders the final report (or the report after
// opt.At moves, or the moves and events as lines).
func Replay(input []byte, opt ReplayOptions) Outcome {
	rec, err := ParseRecord(input)
	if err != nil {
		return malformedOutcome(err)
	}
	g, ok := all.Registry.Lookup(rec.Game)
	if !ok {
		return malformedOutcome(fmt.Errorf("unknown game %q (known: %s)", rec.Game, strings.Join(all.Registry.IDs(), ", ")))
	}
	if opt.At > len(rec.Moves) {
		return malformedOutcome(fmt.Errorf("--at %d: the record has only %d moves", opt.At, len(rec.Moves)))
	}
	if opt.At >= 0 {
		rec.Moves = rec.Moves[:opt.At]
	}
	if opt.Steps {
		return replaySteps(g, rec)
	}
	st, err := engine.Replay(g, rec)
	if st == nil {
		return malformedOutcome(err)
	}
	out := Outcome{Record: &rec}
	var body any = reportOf(rec.Game, st)
	if err != nil {
		f, code := locateFailure(g, rec, err)
		// engine.Replay stops at the state before the failing move.
		out.Code, out.Err = code, fmt.Errorf("move %d: %s", f.Move, f.Message)
		body = struct {
			Error *MoveFailure `json:"error"`
			State any          `json:"state"`
		}{f, body}
	}
	out.Stdout, err = encode(body)
	if err != nil {
		return Outcome{Code: ExitIO, Err: fmt.Errorf("encode output: %w", err)}
	}
	return out
}

// locateFailure finds the move engine.Replay stopped at by playing the
// record again, one move at a time. A move that does not decode makes the
// record malformed; a move the rules refuse is illegal.
func locateFailure(g engine.Game, rec engine.Record, replayErr error) (*MoveFailure, int) {
	f := &MoveFailure{Move: -1, Message: replayErr.Error()}
	st, err := g.New(rec.Players, rec.Options)
	if err != nil {
		return f, ExitMalformed
	}
	for i, lm := range rec.Moves {
		f.Move = i
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			f.Message = err.Error()
			return f, ExitMalformed
		}
		if _, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a}); err != nil {
			f.Message = err.Error()
			if re, ok := engine.AsRuleError(err); ok {
				f.Rule, f.Message = re.Rule, re.Message
			}
			return f, ExitIllegal
		}
	}
	return f, ExitIllegal
}

func reportOf(gameID string, st engine.State) any {
	if ad, ok := AdapterFor(gameID); ok {
		return ad.Report(st)
	}
	return st.View(engine.Spectator)
}

// replaySteps plays the record move by move and writes a line for each move
// and, indented, the narration of the events it produced.
func replaySteps(g engine.Game, rec engine.Record) Outcome {
	st, err := g.New(rec.Players, rec.Options)
	if err != nil {
		return malformedOutcome(fmt.Errorf("replay setup: %w", err))
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s for %s\n", g.Info().Title, strings.Join(rec.Players, ", "))
	width := len(fmt.Sprint(len(rec.Moves)))
	for i, lm := range rec.Moves {
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return stepsFailure(&b, ExitMalformed, fmt.Errorf("move %d: %w", i, err))
		}
		fmt.Fprintf(&b, "%*d  %-8s %s\n", width, i, engine.SeatName(rec.Players, lm.Seat), actionText(a))
		ev, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a})
		if err != nil {
			if re, ok := engine.AsRuleError(err); ok {
				return stepsFailure(&b, ExitIllegal, fmt.Errorf("move %d refused (%s): %s", i, re.Rule, re.Message))
			}
			return stepsFailure(&b, ExitIllegal, fmt.Errorf("move %d: %w", i, err))
		}
		// The game's own narration, as every client shows it; an event it
		// tells nothing of (a Bookworm turn starting) gets no line.
		for _, e := range ev {
			for _, line := range narration(g, e, rec.Players) {
				fmt.Fprintf(&b, "%*s     %s\n", width, "", line)
			}
		}
	}
	return Outcome{Code: ExitOK, Stdout: []byte(b.String()), Record: &rec}
}

func stepsFailure(b *strings.Builder, code int, err error) Outcome {
	fmt.Fprintf(b, "error: %v\n", err)
	return Outcome{Code: code, Stdout: []byte(b.String()), Err: err}
}

// actionText is an action for people: its String form if it has one, else
// its JSON.
func actionText(a engine.Action) string {
	if s, ok := a.(fmt.Stringer); ok {
		return s.String()
	}
	if b, err := compact(a); err == nil {
		return string(b)
	}
	return a.Kind()
}
