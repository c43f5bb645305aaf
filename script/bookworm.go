package script

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
)

func init() { Register("bookworm", bookwormAdapter{}) }

// bookwormAdapter is the script adapter of Bookworm. Chance (the card drawn,
// the dice rolled) is fixed by "card" and "roll" actions; when a player's
// action comes while chance is pending, the outcome is drawn from the seed
// first. Time is a script clock: every action happens at "at" (ms of game
// time), or "after" ms past the latest move, or else at the latest move's
// time; a timeout without a time happens at the running deadline.
type bookwormAdapter struct{}

// Refusals the adapter itself makes (the rules make all others).
const (
	RuleTimeBackwards = "time-backwards"
	RuleWhoActs       = "who-acts"
)

// ScriptOptions sets knownChallengeSeconds to 0 unless the script gives it:
// scripts were written when a word the lexicon knows was taken at once, and
// so it stays in scripts (docs/rules/bookworm.md#options). A script that
// wants the short window of a table gives the option.
func (bookwormAdapter) ScriptOptions(raw json.RawMessage) (json.RawMessage, error) {
	var o map[string]json.RawMessage
	if t := bytes.TrimSpace(raw); len(t) > 0 && string(t) != "null" {
		if err := engine.DecodeStrict(raw, &o); err != nil {
			return nil, err
		}
	}
	if _, ok := o["knownChallengeSeconds"]; ok {
		return raw, nil
	}
	if o == nil {
		o = map[string]json.RawMessage{}
	}
	o["knownChallengeSeconds"] = json.RawMessage("0")
	return json.Marshal(o)
}

// bwAction is the script form of a Bookworm action. Pointers tell an
// absent field from a zero one.
type bwAction struct {
	Card      *int     `json:"card"`
	Roll      []string `json:"roll"`
	Category  *int     `json:"category"`
	TurnTo    *string  `json:"turnTo"`
	Word      *string  `json:"word"`
	Name      *string  `json:"name"` // the wire's spelling of word
	Take      *string  `json:"take"`
	Die       *int     `json:"die"`
	From      *string  `json:"from"`
	Letter    *string  `json:"letter"`
	Question  *bool    `json:"question"`
	GiveUp    *bool    `json:"giveUp"`
	Challenge *bool    `json:"challenge"`
	Allow     *bool    `json:"allow"`
	Vote      *string  `json:"vote"`
	Timeout   *bool    `json:"timeout"`
	By        *string  `json:"by"`
	At        *int64   `json:"at"`
	After     *int64   `json:"after"`
}

// bwStep is one decoded script action.
type bwStep struct {
	action bookworm.Action
	chance bool        // a card or roll: nature's move
	by     engine.Seat // -1: whoever alone may act
	take   string      // a face to find ("" when the die is given)
	from   engine.Seat // with take: the seat to take from (-1 display)
	at     *int64
	after  *int64
}

func (bookwormAdapter) Decode(raw json.RawMessage, st engine.State) (Step, error) {
	var j bwAction
	if err := engine.DecodeStrict(raw, &j); err != nil {
		return nil, fmt.Errorf("bookworm action: %w", err)
	}
	if bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return nil, fmt.Errorf("bookworm action: want an object, got null")
	}
	if j.Name != nil {
		if j.Word != nil {
			return nil, fmt.Errorf(`"word" and "name" are one field: give one of them`)
		}
		j.Word = j.Name
	}
	forms := []struct {
		set  bool
		name string
	}{{j.Card != nil, "card"}, {j.Roll != nil, "roll"}, {j.Category != nil, "category"}, {j.TurnTo != nil, "turnTo"},
		{j.Word != nil, "word"}, {j.Question != nil, "question"}, {j.GiveUp != nil, "giveUp"},
		{j.Challenge != nil, "challenge"}, {j.Allow != nil, "allow"}, {j.Vote != nil, "vote"}, {j.Timeout != nil, "timeout"}}
	var kind []string
	for _, f := range forms {
		if f.set {
			kind = append(kind, f.name)
		}
	}
	if len(kind) != 1 {
		return nil, fmt.Errorf("an action has exactly one of card, roll, category, turnTo, word, question, giveUp, challenge, allow, vote or timeout (got %d)", len(kind))
	}
	s := &bwStep{by: -1, from: -1, at: j.At, after: j.After}
	if j.At != nil && j.After != nil {
		return nil, fmt.Errorf(`"at" and "after" cannot both be given`)
	}
	if j.At != nil && *j.At < 0 || j.After != nil && *j.After < 0 {
		return nil, fmt.Errorf("times are milliseconds ≥ 0")
	}
	if kind[0] != "word" && (j.Take != nil || j.Die != nil || j.From != nil || j.Letter != nil) {
		return nil, fmt.Errorf("take, die, from and letter belong to a word")
	}
	if j.By != nil {
		if kind[0] == "card" || kind[0] == "roll" || kind[0] == "timeout" {
			return nil, fmt.Errorf(`"by" names a player; %s is not a player's action`, kind[0])
		}
		seat, err := seatNamed(st, *j.By)
		if err != nil {
			return nil, err
		}
		s.by = seat
	}
	for _, f := range []struct {
		p    *bool
		name string
	}{{j.Question, "question"}, {j.GiveUp, "giveUp"}, {j.Challenge, "challenge"}, {j.Allow, "allow"}, {j.Timeout, "timeout"}} {
		if f.p != nil && !*f.p {
			return nil, fmt.Errorf("%q must be true", f.name)
		}
	}
	switch kind[0] {
	case "card":
		s.chance, s.action = true, bookworm.DrawCard(*j.Card)
	case "roll":
		if len(j.Roll) < 1 || len(j.Roll) > bookworm.MaxDice {
			return nil, fmt.Errorf("roll: %d faces, want 7 or 8", len(j.Roll))
		}
		s.chance, s.action = true, bookworm.RollNames(j.Roll...)
	case "category":
		s.action = bookworm.ChooseCategory(*j.Category)
	case "turnTo":
		f, err := bookworm.ParseSpecial(*j.TurnTo)
		if err != nil {
			return nil, fmt.Errorf("turnTo: %w", err)
		}
		s.action = bookworm.TurnTo(f)
	case "word":
		return decodeWord(&j, s, st)
	case "question":
		s.action = bookworm.TakeQuestion()
	case "giveUp":
		s.action = bookworm.GiveUp()
	case "challenge":
		s.action = bookworm.Challenge()
	case "allow":
		s.action = bookworm.Allow()
	case "vote":
		accept, err := bookworm.ParseVote(*j.Vote)
		if err != nil {
			return nil, err
		}
		s.action = bookworm.Vote(accept)
	case "timeout":
		s.action = bookworm.Timeout()
	}
	return s, nil
}

func decodeWord(j *bwAction, s *bwStep, st engine.State) (Step, error) {
	if utf8Count(*j.Word) > 4*bookworm.MaxWordRunes {
		return nil, fmt.Errorf("word: too long")
	}
	switch {
	case (j.Take == nil) == (j.Die == nil):
		return nil, fmt.Errorf(`word: say which die it takes, with "take" (the face, e.g. "Z", "C/K", "not") or "die" (its number)`)
	case j.Die != nil:
		if j.From != nil {
			return nil, fmt.Errorf(`word: "from" goes with "take"; a die number says where the die is`)
		}
		s.action = bookworm.Name(*j.Word, *j.Die)
	default:
		if strings.TrimSpace(*j.Take) == "" {
			return nil, fmt.Errorf("word: take names a face")
		}
		s.take = *j.Take
		s.action = bookworm.Name(*j.Word, 0)
		if j.From != nil {
			seat, err := seatNamed(st, *j.From)
			if err != nil {
				return nil, fmt.Errorf("word: from: %w", err)
			}
			s.from = seat
		}
	}
	if j.Letter != nil {
		l, err := bookworm.ParseLetter(*j.Letter)
		if err != nil {
			return nil, fmt.Errorf("word: %w", err)
		}
		s.action.Letter = l
	}
	return s, nil
}

func utf8Count(s string) int { return len([]rune(s)) }

func seatNamed(st engine.State, name string) (engine.Seat, error) {
	for i, p := range st.Players() {
		if p == name {
			return engine.Seat(i), nil
		}
	}
	return 0, fmt.Errorf("no player is called %q", name)
}

func (s *bwStep) Play(t *engine.Runner) ([]engine.Event, error) {
	m, ok := t.State.(*bookworm.Match)
	if !ok {
		return nil, fmt.Errorf("not a bookworm game (%T)", t.State)
	}
	now := m.S.Now
	at := now
	switch {
	case s.at != nil:
		if *s.at < now {
			return nil, engine.Refuse(RuleTimeBackwards, fmt.Sprintf("the action is at %d ms, but the game is already at %d ms", *s.at, now))
		}
		at = *s.at
	case s.after != nil:
		at = now + *s.after
	}
	if s.chance {
		return t.Play(engine.Move{Seat: engine.ChanceSeat, At: at, Action: s.action})
	}
	// Outcomes the script leaves open come from the seed.
	ev, err := t.ResolveChance(at, nil)
	if err != nil {
		return nil, err
	}
	seat := s.by
	a := s.action
	switch {
	case a.Type == bookworm.ActTimeout:
		seat = engine.SystemSeat
		if s.at == nil && s.after == nil {
			if d := t.State.Turn().Deadlines; len(d) > 0 {
				at = max(at, d[0].At)
			}
		}
	case seat < 0:
		actors := t.State.Turn().Actors
		switch len(actors) {
		case 0:
			seat = 0 // nobody may act: the rules say why
		case 1:
			seat = actors[0]
		default:
			names := make([]string, len(actors))
			for i, p := range actors {
				names[i] = t.State.Players()[p]
			}
			return nil, engine.Refuse(RuleWhoActs, fmt.Sprintf("%s may act now: say who with \"by\"", strings.Join(names, ", ")))
		}
	}
	if s.take != "" {
		d, err := findDie(m, seat, s.take, s.from)
		if err != nil {
			// The rules speak first: a word that no die could take is
			// refused for what they see wrong before the die (the game is
			// over, it is not this player's turn, the word is already
			// named), as the same word with a die that does not exist.
			probe := a
			probe.Die = -1
			if re, ok := engine.AsRuleError(t.State.Check(engine.Move{Seat: seat, At: at, Action: probe})); ok && re.Rule != bookworm.RuleNoSuchDie {
				return nil, re
			}
			return nil, err
		}
		a.Die = d
	}
	more, err := t.Play(engine.Move{Seat: seat, At: at, Action: a})
	if err != nil {
		return nil, err
	}
	return append(ev, more...), nil
}

// findDie finds the die a script's "take" names: one showing that face (a
// single letter also finds a double face: "K" finds C/K) in the display, or
// held by from. Several alike: the top of a pile first, else the lowest
// number. None: the rules' no-such-die refusal.
func findDie(m *bookworm.Match, seat engine.Seat, take string, from engine.Seat) (int, error) {
	s := m.S
	want := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(take), "/", ""))
	sp, spErr := bookworm.ParseSpecial(take)
	owner := int8(bookworm.Display)
	if from >= 0 {
		owner = int8(from)
	}
	best := -1
	for d := 0; d < int(s.NDice); d++ {
		if s.Owner[d] != owner || !s.Rolled {
			continue
		}
		face := strings.ReplaceAll(s.FaceName(d), "/", "")
		match := false
		if s.IsSpecial(d) {
			f, _ := s.SpecialFace()
			match = spErr == nil && f == sp
		} else {
			match = strings.ToUpper(face) == want || len(want) == 1 && strings.Contains(face, want)
		}
		if match && (best < 0 || s.Seq[d] > s.Seq[best]) {
			best = d
		}
	}
	if best < 0 {
		where := "in the display"
		if from >= 0 {
			where = "in front of " + m.Names[from]
		}
		return 0, engine.Refuse(bookworm.RuleNoSuchDie, fmt.Sprintf("no die %s shows %s", where, take))
	}
	return best, nil
}

func (bookwormAdapter) Report(st engine.State) any {
	if m, ok := st.(*bookworm.Match); ok {
		return m.Report()
	}
	return st.View(engine.Spectator)
}
