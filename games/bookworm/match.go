// Package bookworm is Bookworm: The Dice Game (Zach & Palm) for the dicehall
// engine: rules, events and views. The rules are explained, with every
// ruling, in docs/rules/bookworm.md.
//
// Time is an input: the rules read Move.At and name their deadlines; the
// table feeds a timeout from engine.SystemSeat when one passes. Whether a
// word fits its category is judged by the lexicon when it knows the word,
// else by the players (a challenge window, then a vote).
package bookworm

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// Game is Bookworm for the engine registry: the category deck and the
// lexicon that pre-judges words (nil knows no word: every word then gets a
// challenge window).
type Game struct {
	Deck    []words.Card
	Lexicon words.Lexicon
}

// Options are the table options. Absent fields take the defaults below.
type Options struct {
	Special          *bool   `json:"special,omitempty"`               // play with the Special die (default true)
	ThinkSeconds     *int    `json:"thinkSeconds,omitempty"`          // before the countdown (default 10)
	CountdownSeconds *int    `json:"countdownSeconds,omitempty"`      // the visible countdown (default 5)
	ChallengeSeconds *int    `json:"challengeSeconds,omitempty"`      // to challenge a word the lexicon does not know (default 4)
	KnownSeconds     *int    `json:"knownChallengeSeconds,omitempty"` // to challenge a word it knows (default 2; 0: never)
	VoteSeconds      *int    `json:"voteSeconds,omitempty"`           // to vote (default 10)
	Target           *int    `json:"target,omitempty"`                // points that end the game (default 21)
	Language         *string `json:"language,omitempty"`              // the word language: "en" (default) or "fr"
}

// DefaultSettings are the settings of a table with no options.
var DefaultSettings = Settings{Special: true, ThinkMs: 10000, CountdownMs: 5000, ChallengeMs: 4000, KnownChallengeMs: 2000, VoteMs: 10000, Target: 21, Language: "en"}

// ParseOptions reads options strictly (nil or empty means defaults) and
// checks their ranges.
func ParseOptions(raw json.RawMessage) (Settings, error) {
	set := DefaultSettings
	var o Options
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return set, nil
	}
	if err := engine.DecodeStrict(raw, &o); err != nil {
		return set, fmt.Errorf("bookworm options: %w", err)
	}
	seconds := func(p *int, name string, lo int, into *int64) error {
		if p == nil {
			return nil
		}
		if *p < lo || *p > 600 {
			return fmt.Errorf("bookworm options: %s is %d, want %d to 600", name, *p, lo)
		}
		*into = int64(*p) * 1000
		return nil
	}
	if o.Special != nil {
		set.Special = *o.Special
	}
	for _, f := range []error{
		seconds(o.ThinkSeconds, "thinkSeconds", 0, &set.ThinkMs),
		seconds(o.CountdownSeconds, "countdownSeconds", 1, &set.CountdownMs),
		seconds(o.ChallengeSeconds, "challengeSeconds", 1, &set.ChallengeMs),
		seconds(o.KnownSeconds, "knownChallengeSeconds", 0, &set.KnownChallengeMs),
		seconds(o.VoteSeconds, "voteSeconds", 1, &set.VoteMs),
	} {
		if f != nil {
			return set, f
		}
	}
	if o.Language != nil {
		if _, err := words.ForLanguage(*o.Language); err != nil {
			return set, fmt.Errorf("bookworm options: language is %q, want one of %s", *o.Language, strings.Join(words.Languages(), ", "))
		}
		set.Language = *o.Language
	}
	if o.Target != nil {
		if *o.Target < 1 || *o.Target > 1000 {
			return set, fmt.Errorf("bookworm options: target is %d, want 1 to 1000", *o.Target)
		}
		set.Target = *o.Target
	}
	return set, nil
}

// New sets up a match.
func (g Game) New(players []string, options json.RawMessage) (engine.State, error) {
	return g.NewMatch(players, options)
}

// NewMatch sets up a match with typed access to its state.
func (g Game) NewMatch(players []string, options json.RawMessage) (*Match, error) {
	set, err := ParseOptions(options)
	if err != nil {
		return nil, err
	}
	deck, lex := g.Deck, g.Lexicon
	if set.Language != "en" {
		// Another language: its own deck names and lexicon (the game's
		// are the English ones).
		if deck, err = words.DeckIn(set.Language); err != nil {
			return nil, err
		}
		if lex, err = words.ForLanguage(set.Language); err != nil {
			return nil, err
		}
	}
	cfg, err := newConfig(deck, lex, set, &DefaultComponents)
	if err != nil {
		return nil, err
	}
	s, err := newState(cfg, len(players))
	if err != nil {
		return nil, err
	}
	return &Match{S: s, Names: append([]string(nil), players...)}, nil
}

func newConfig(deck []words.Card, lex words.Lexicon, set Settings, c *Components) (*config, error) {
	if len(deck) == 0 {
		return nil, fmt.Errorf("bookworm: the category deck is empty")
	}
	if len(deck) > 1<<15 {
		return nil, fmt.Errorf("bookworm: %d category cards, at most %d", len(deck), 1<<15)
	}
	if err := c.Validate(); err != nil {
		return nil, err
	}
	cfg := &config{C: c, Deck: deck, Lex: lex, Set: set, cardIx: make(map[int]int, len(deck))}
	for i, card := range deck {
		if _, dup := cfg.cardIx[card.ID]; dup {
			return nil, fmt.Errorf("bookworm: card ID %d appears twice in the deck", card.ID)
		}
		cfg.cardIx[card.ID] = i
	}
	return cfg, nil
}

// DecodeAction reads the JSON form of an action.
func (Game) DecodeAction(data []byte) (engine.Action, error) { return DecodeAction(data) }

// Match is a game of Bookworm behind the engine.State interface.
type Match struct {
	S     *State
	Names []string
}

var _ engine.State = (*Match)(nil)

// Turn says who may act, and the running clocks.
func (m *Match) Turn() engine.Turn {
	s := m.S
	switch s.Phase {
	case PhaseOver:
		return engine.Turn{Over: true}
	case PhaseCard, PhaseRoll:
		return engine.Turn{Chance: true}
	}
	t := engine.Turn{Actors: []engine.Seat{}}
	for _, p := range s.Actors() {
		t.Actors = append(t.Actors, engine.Seat(p))
		if s.Timed() {
			t.Deadlines = append(t.Deadlines, engine.Deadline{Seat: engine.Seat(p), At: s.Deadline})
		}
	}
	return t
}

// Legal lists the enumerable legal actions of seat: every action but a
// word (words cannot be listed; the view's Takeable says which dice a word
// could take). SystemSeat gets the timeout while a clock runs.
func (m *Match) Legal(seat engine.Seat) []engine.Action {
	s := m.S
	var cands []Action
	switch {
	case seat == engine.SystemSeat:
		if s.Timed() {
			cands = []Action{Timeout()}
		}
	case seat >= 0 && seat < engine.Seat(s.NPlayers) && s.isActor(int8(seat)):
		switch s.Phase {
		case PhaseCategory:
			cands = []Action{ChooseCategory(0), ChooseCategory(1), ChooseCategory(2)}
		case PhaseTurnTo:
			for f := SpecialAZ; f < NumSpecial; f++ {
				cands = append(cands, TurnTo(f))
			}
		case PhaseName:
			cands = []Action{TakeQuestion(), GiveUp()}
		case PhaseChallenge:
			cands = []Action{Challenge(), Allow()}
		case PhaseVote:
			cands = []Action{Vote(true), Vote(false)}
		}
	}
	var out []engine.Action
	for _, a := range cands {
		// Time is not known here: judge as of the latest move.
		if a.Type == ActTimeout || s.Check(seat, s.Now, a) == nil {
			out = append(out, a)
		}
	}
	return out
}

// Check tells whether a move is legal, and why not.
func (m *Match) Check(mv engine.Move) error {
	a, ok := mv.Action.(Action)
	if !ok {
		return engine.Refuse(engine.ErrBadAction.Rule, "not a bookworm action")
	}
	return m.S.Check(mv.Seat, mv.At, a)
}

// Apply performs a legal move and reports what happened.
func (m *Match) Apply(mv engine.Move) ([]engine.Event, error) {
	a, ok := mv.Action.(Action)
	if !ok {
		return nil, engine.Refuse(engine.ErrBadAction.Rule, "not a bookworm action")
	}
	return m.S.Apply(mv.Seat, mv.At, a)
}

// SampleChance draws the pending card or roll.
func (m *Match) SampleChance(src engine.Source) engine.Action { return m.S.SampleChance(src) }

// SampleChance draws nature's next action: a card among those that may be
// drawn, or a face for every die.
func (s *State) SampleChance(src engine.Source) Action {
	if s.Phase == PhaseRoll {
		names := make([]string, s.NDice)
		for d := range names {
			names[d] = s.cfg.C.faceName(d, uint8(src.IntN(NumFaces)))
		}
		return RollNames(names...)
	}
	var avail []int
	for i := range s.cfg.Deck {
		if ok, _ := s.available(i); ok {
			avail = append(avail, i)
		}
	}
	return DrawCard(s.cfg.Deck[avail[src.IntN(len(avail))]].ID)
}

// Players returns the seat names.
func (m *Match) Players() []string { return m.Names }

// Clone copies the match.
func (m *Match) Clone() engine.State {
	return &Match{S: m.S.clone(), Names: append([]string(nil), m.Names...)}
}

// Result gives the totals and, when over, the winners.
func (m *Match) Result() engine.Result {
	s := m.S
	var winners []int
	if s.Over() {
		winners = s.Winners()
	}
	return engine.NewResult(s.Over(), append([]int(nil), s.Totals[:s.NPlayers]...), winners)
}

func (m *Match) name(p int) string {
	if p >= 0 && p < len(m.Names) {
		return m.Names[p]
	}
	return engine.Seat(p).String()
}
