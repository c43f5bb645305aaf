// Package enginetest is the conformance suite for engine.Game: every game
// runs it from its own tests, so the platform (server, terminal, scripts,
// simulations) can rely on one behaviour whichever game it hosts.
//
// Like OpenSpiel's random-simulation test, it plays many seeded games of
// random legal moves (chance from engine.NewSource, clocks through
// engine.Next and engine.TimeoutMove) and at every step checks what every
// client assumes: Check agrees with Apply, a refusal is a *engine.RuleError
// that changes nothing, clones are independent, views encode, Legal lists
// actions exactly for the seats on turn and every listed action is accepted
// and survives its JSON form, hostile moves are refused, the record replays
// to the same game, and the game ends with a consistent result.
//
// Usage, in a game's conformance_test.go:
//
//	func TestConformance(t *testing.T) {
//		enginetest.Run(t, mygame.Game{}, enginetest.Config{Options: []string{`{"fast":true}`}})
//	}
package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// Config says how to exercise a game. The zero value plays every seat count
// with the default options.
type Config struct {
	// Players are the seat counts to play (nil: MinPlayers to MaxPlayers).
	Players []int
	// Options are the option sets (JSON objects) to play every seat count
	// with; "" stands for no options. Nil plays the defaults only.
	Options []string
	// Games is the number of random games per seat count and option set
	// (0: 3; under -short 1). One more game per case plays the first
	// listed action only.
	Games int
	// Seed is the master seed; game i of a case plays engine.SplitSeed
	// streams of it, so a failure names a seed that replays it.
	Seed uint64
	// MaxMoves bounds a game: one that has not ended after this many moves
	// (chance and timeouts included) fails (0: 5000).
	MaxMoves int
	// Propose suggests actions Legal does not list (a word, a flick at
	// any angle), legal or not, for seat in st (a clone the hook may keep).
	// The suite holds every one to the same rules as any move, and plays
	// the accepted ones along with the listed actions. Nil: none.
	Propose func(st engine.State, seat engine.Seat, src engine.Source) []engine.Action
	// Unlisted names the action kinds Legal leaves out by design because
	// they cannot be enumerated (Bookworm's words); Propose supplies them.
	// Every other accepted action of an exhaustive game must be listed.
	Unlisted []string
	// ReviewBudget is the judging budget of the review check (a game that
	// is an engine.Analyst has one game reviewed); 0 takes the game's
	// default.
	ReviewBudget int
	// Representative, when set, says that Legal lists one representative
	// of each distinct choice rather than every legal action (continuous
	// actions), and says precisely what it lists. The suite then holds the
	// list to what such a list promises (every listed action is legal, the
	// first one a safe default a table may play for the seat) and not to
	// completeness.
	Representative string
}

func (c Config) games() int {
	switch {
	case testing.Short():
		return 1
	case c.Games == 0:
		return 3
	}
	return c.Games
}

func (c Config) maxMoves() int {
	if c.MaxMoves == 0 {
		return 5000
	}
	return c.MaxMoves
}

// Run runs the suite on g.
func Run(t *testing.T, g engine.Game, cfg Config) {
	t.Helper()
	s := &suite{g: g, info: g.Info(), cfg: cfg}
	t.Run("Info", func(t *testing.T) { s.checkInfo(t) })
	t.Run("DecodeGarbage", func(t *testing.T) { s.checkGarbage(t) })
	if _, ok := g.(engine.Rulebook); ok {
		t.Run("Rules", func(t *testing.T) { CheckRules(t, g) })
	}
	if engine.Reviewable(g) {
		t.Run("Review", func(t *testing.T) { s.checkReview(t) })
	}
	for _, n := range s.players() {
		for i, opts := range s.options() {
			name := fmt.Sprintf("%dp", n)
			switch {
			case len(opts) > 60:
				name += fmt.Sprintf(" options#%d", i)
			case opts != "":
				name += " " + opts
			}
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				s.checkGames(t, n, opts)
			})
		}
	}
}

type suite struct {
	g    engine.Game
	info engine.Info
	cfg  Config
}

func (s *suite) players() []int {
	if s.cfg.Players != nil {
		return s.cfg.Players
	}
	var out []int
	for n := s.info.MinPlayers; n <= s.info.MaxPlayers; n++ {
		out = append(out, n)
	}
	return out
}

func (s *suite) options() []string {
	if s.cfg.Options != nil {
		return s.cfg.Options
	}
	return []string{""}
}

// Names are the seats' names in every game the suite sets up.
func Names(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = fmt.Sprintf("player%d", i)
	}
	return out
}

func raw(opts string) json.RawMessage {
	if opts == "" {
		return nil
	}
	return json.RawMessage(opts)
}

// checkInfo checks that the game's description is valid and agrees with
// what New accepts.
func (s *suite) checkInfo(tb testing.TB) {
	tb.Helper()
	info := s.info
	if err := info.Validate(); err != nil {
		tb.Errorf("Info.Validate: %v", err)
	}
	if info.Reviews != engine.Reviewable(s.g) {
		tb.Errorf("Info.Reviews is %v but the game is an engine.Analyst: %v", info.Reviews, engine.Reviewable(s.g))
	}
	if again := s.g.Info(); !equalInfo(info, again) {
		tb.Errorf("Info differs between two calls")
	}
	for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
		if _, err := s.newGame(n, nil); err != nil {
			tb.Errorf("New with %d players (Info says %d to %d): %v", n, info.MinPlayers, info.MaxPlayers, err)
		}
	}
	for _, n := range []int{info.MinPlayers - 1, info.MaxPlayers + 1} {
		if n < 0 {
			continue
		}
		if _, err := s.newGame(n, nil); err == nil {
			tb.Errorf("New accepts %d players (Info says %d to %d)", n, info.MinPlayers, info.MaxPlayers)
		}
	}
	// An option given explicitly at its default is the same game as none.
	n := max(info.MinPlayers, 1)
	base, err := s.newGame(n, nil)
	if err != nil {
		return
	}
	want, err := Snapshot(base)
	if err != nil {
		tb.Errorf("defaults: %v", err)
		return
	}
	same := func(opts string) {
		st, err := s.newGame(n, json.RawMessage(opts))
		if err != nil {
			tb.Errorf("New refuses options %s: %v", opts, err)
			return
		}
		if got, err := Snapshot(st); err != nil || got != want {
			tb.Errorf("options %s set up another game than the defaults (%v)", opts, err)
		}
	}
	refused := func(opts, why string) {
		if _, err := s.newGame(n, json.RawMessage(opts)); err == nil {
			tb.Errorf("New accepts options %s (%s)", opts, why)
		}
	}
	same(`{}`)
	refused(`{"noSuchOption":1}`, "no such option")
	refused(`{} {}`, "data after the object")
	refused(`[]`, "not an object")
	for _, o := range info.Options {
		same(fmt.Sprintf(`{%q:%s}`, o.Name, o.Default))
		switch o.Type {
		case engine.OptionInt:
			refused(fmt.Sprintf(`{%q:%d}`, o.Name, o.Min-1), fmt.Sprintf("Info says %d to %d", o.Min, o.Max))
			refused(fmt.Sprintf(`{%q:%d}`, o.Name, o.Max+1), fmt.Sprintf("Info says %d to %d", o.Min, o.Max))
			refused(fmt.Sprintf(`{%q:"7"}`, o.Name), "not an int")
		case engine.OptionBool:
			refused(fmt.Sprintf(`{%q:1}`, o.Name), "not a bool")
		case engine.OptionChoice:
			refused(fmt.Sprintf(`{%q:"no-such-value"}`, o.Name), fmt.Sprintf("Info says one of %v", o.ValueNames()))
			refused(fmt.Sprintf(`{%q:1}`, o.Name), "not a string")
			for _, v := range o.Values {
				if st, err := s.newGame(n, []byte(fmt.Sprintf(`{%q:%q}`, o.Name, v.Value))); err != nil || st == nil {
					tb.Errorf("New refuses %s %q, one of its values: %v", o.Name, v.Value, err)
				}
			}
		}
	}
}

func equalInfo(a, b engine.Info) bool {
	ja, err1 := json.Marshal(a)
	jb, err2 := json.Marshal(b)
	return err1 == nil && err2 == nil && bytes.Equal(ja, jb)
}

// newGame sets up n players, turning a panic into an error.
func (s *suite) newGame(n int, opts json.RawMessage) (st engine.State, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("New panicked: %v", p)
		}
	}()
	return s.g.New(Names(n), opts)
}

// garbage are inputs no game's DecodeAction may accept.
var garbage = []string{``, ` `, `null`, `[]`, `{`, `}`, `"draw"`, `42`, `true`, `{"noSuchField":1}`, "\xff\xfe", `{"a":`}

func (s *suite) checkGarbage(tb testing.TB) {
	tb.Helper()
	for _, in := range garbage {
		if err := refuseDecode(s.g, []byte(in)); err != nil {
			tb.Errorf("%v", err)
		}
	}
}

// refuseDecode requires DecodeAction to refuse data, without panicking.
func refuseDecode(g engine.Game, data []byte) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("DecodeAction(%q) panicked: %v", data, p)
		}
	}()
	if a, derr := g.DecodeAction(data); derr == nil {
		return fmt.Errorf("DecodeAction(%q) accepted garbage as %+v", data, a)
	}
	return nil
}

// DecodeRoundTrip checks what every game promises of DecodeAction for any
// input (a fuzz target's property): it returns an error or an action that
// encodes to JSON which decodes to an action encoding the same way.
func DecodeRoundTrip(g engine.Game, data []byte) error {
	a, err := g.DecodeAction(data)
	if err != nil {
		return nil
	}
	if a == nil {
		return fmt.Errorf("DecodeAction(%q) returned neither an action nor an error", data)
	}
	enc, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("%q decoded to %+v, which does not encode: %w", data, a, err)
	}
	b, err := g.DecodeAction(enc)
	if err != nil {
		return fmt.Errorf("%q → %s does not decode: %w", data, enc, err)
	}
	again, err := json.Marshal(b)
	if err != nil || !bytes.Equal(enc, again) {
		return fmt.Errorf("%q → %s → %s (%v)", data, enc, again, err)
	}
	return nil
}

// Snapshot is the observable state of st: the JSON of every seat's view,
// the spectator's and the result. Two states a client cannot tell apart
// have the same snapshot.
func Snapshot(st engine.State) (string, error) {
	return snapshotOf(st, allSeats(len(st.Players())))
}

// allSeats are the spectator and every player of n.
func allSeats(n int) []engine.Seat {
	seats := []engine.Seat{engine.Spectator}
	for p := range engine.Seat(n) {
		seats = append(seats, p)
	}
	return seats
}

// snapshotOf is the observable state of st for the given seats.
func snapshotOf(st engine.State, seats []engine.Seat) (string, error) {
	var b strings.Builder
	for _, seat := range seats {
		data, err := json.Marshal(st.View(seat))
		if err != nil {
			return "", fmt.Errorf("view of %v does not encode: %w", seat, err)
		}
		b.Write(data)
		b.WriteByte('\n')
	}
	data, err := json.Marshal(st.Result())
	if err != nil {
		return "", fmt.Errorf("result does not encode: %w", err)
	}
	b.Write(data)
	return b.String(), nil
}

// Try makes move m on st and checks how the rules treat it, whatever it
// is: Check and Apply agree, a refusal is a *engine.RuleError with a rule
// code and a message, and a refused move leaves every view and the result
// as they were. accepted says whether the move was played; err is a broken
// promise of the rules (nil when they behaved). Fuzz targets step with it.
func Try(st engine.State, m engine.Move) (events []engine.Event, accepted bool, err error) {
	before, err := Snapshot(st)
	if err != nil {
		return nil, false, err
	}
	return try(st, m, before, Snapshot)
}

// try is Try given the snapshot of st by snap (before empty: the caller
// compares after a refusal itself, once for several moves).
func try(st engine.State, m engine.Move, before string, snap func(engine.State) (string, error)) (events []engine.Event, accepted bool, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("%s by %v at %d panicked: %v", kind(m.Action), m.Seat, m.At, p)
		}
	}()
	checkErr := st.Check(m)
	if checkErr != nil {
		if err := isRefusal(checkErr); err != nil {
			return nil, false, fmt.Errorf("Check of %s by %v: %w", describe(m.Action), m.Seat, err)
		}
	}
	events, applyErr := st.Apply(m)
	switch {
	case checkErr == nil && applyErr != nil:
		return nil, false, fmt.Errorf("Check accepts %s by %v at %d but Apply refuses it: %v", describe(m.Action), m.Seat, m.At, applyErr)
	case checkErr != nil && applyErr == nil:
		return events, true, fmt.Errorf("Check refuses %s by %v at %d (%v) but Apply plays it", describe(m.Action), m.Seat, m.At, checkErr)
	case applyErr != nil:
		if err := isRefusal(applyErr); err != nil {
			return nil, false, fmt.Errorf("Apply of %s by %v: %w", describe(m.Action), m.Seat, err)
		}
		if before == "" {
			return nil, false, nil
		}
		if after, err := snap(st); err != nil || after != before {
			return nil, false, fmt.Errorf("refused %s by %v (%v) changed the state (%v)", describe(m.Action), m.Seat, applyErr, err)
		}
		return nil, false, nil
	}
	if _, err := json.Marshal(events); err != nil {
		return events, true, fmt.Errorf("events of %s do not encode: %w", describe(m.Action), err)
	}
	return events, true, nil
}

func isRefusal(err error) error {
	r, ok := engine.AsRuleError(err)
	switch {
	case !ok:
		return fmt.Errorf("refusal %q (%T) is not a *engine.RuleError", err, err)
	case r.Rule == "" || r.Message == "":
		return fmt.Errorf("refusal %+v lacks a rule code or a message", r)
	}
	return nil
}

func kind(a engine.Action) string {
	if a == nil {
		return "nil action"
	}
	return a.Kind()
}

// describe is an action for a failure message: its JSON form.
func describe(a engine.Action) string {
	if a == nil {
		return "nil action"
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Sprintf("%s %+v", a.Kind(), a)
	}
	return string(data)
}

func (s *suite) unlisted(a engine.Action) bool {
	return s.cfg.Representative != "" || slices.Contains(s.cfg.Unlisted, a.Kind())
}
