package bookworm

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// ActType says which kind of action an Action is.
type ActType uint8

const (
	ActInvalid   ActType = iota
	ActCard              // chance: the category card drawn
	ActRoll              // chance: the faces the dice show
	ActCategory          // choose 1 of the card's 3 categories
	ActTurnTo            // turn the Special die (rolled Turn) to another face
	ActName              // name a word and take a die with it
	ActQuestion          // take the "?" die instead of naming a word
	ActGiveUp            // give up naming: the same as running out of time
	ActChallenge         // dispute the word just named
	ActAllow             // let the word just named pass (no challenge)
	ActVote              // vote on a challenged word
	ActTimeout           // SystemSeat: a deadline passed
)

var actKinds = [...]string{"invalid", "card", "roll", "category", "turn-to", "name", "question",
	"give-up", "challenge", "allow", "vote", "timeout"}

// Action is one Bookworm move. Only the fields of its Type are meaningful.
type Action struct {
	Type     ActType
	Card     int             // ActCard: the card's ID
	NDice    uint8           // ActRoll: dice rolled (8, or 7 without the Special die)
	Faces    [MaxDice]uint8  // ActRoll: face index per die
	Category int             // ActCategory: 0, 1 or 2 (any number: the rules refuse the others)
	Face     Special         // ActTurnTo
	Word     string          // ActName, as typed
	Die      int             // ActName: the die taken (display or another player; any number: the rules refuse one that does not exist)
	Letter   byte            // ActName: optional, the letter claimed ('a'..'z'; 0 = the word's first)
	Accept   bool            // ActVote
	raw      [MaxDice]string // ActRoll from JSON: face names before they are matched to dice
	rawRoll  bool
}

// Kind names the action for the engine.
func (a Action) Kind() string {
	if int(a.Type) < len(actKinds) {
		return actKinds[a.Type]
	}
	return "invalid"
}

// Constructors, for tests, bots and clients.
func DrawCard(id int) Action           { return Action{Type: ActCard, Card: id} }
func ChooseCategory(i int) Action      { return Action{Type: ActCategory, Category: i} }
func TurnTo(f Special) Action          { return Action{Type: ActTurnTo, Face: f} }
func Name(word string, die int) Action { return Action{Type: ActName, Word: word, Die: die} }
func TakeQuestion() Action             { return Action{Type: ActQuestion} }
func GiveUp() Action                   { return Action{Type: ActGiveUp} }
func Challenge() Action                { return Action{Type: ActChallenge} }
func Allow() Action                    { return Action{Type: ActAllow} }
func Vote(accept bool) Action          { return Action{Type: ActVote, Accept: accept} }
func Timeout() Action                  { return Action{Type: ActTimeout} }
func NameAs(word string, die int, letter byte) Action {
	return Action{Type: ActName, Word: word, Die: die, Letter: letter}
}

// Roll is a chance outcome with the face index of every die, in die order.
func Roll(faces ...uint8) Action {
	a := Action{Type: ActRoll, NDice: uint8(min(len(faces), MaxDice))}
	copy(a.Faces[:], faces)
	return a
}

// RollNames is a chance outcome given as face names ("D", "C/K", "not"), in
// any order: they are matched to the dice when the rules check the roll.
func RollNames(names ...string) Action {
	a := Action{Type: ActRoll, NDice: uint8(min(len(names), MaxDice)), rawRoll: true}
	if len(names) > MaxDice {
		a.NDice = MaxDice + 1 // refused as a wrong count
		return a
	}
	copy(a.raw[:], names)
	return a
}

// String is a short human form.
func (a Action) String() string {
	switch a.Type {
	case ActCard:
		return fmt.Sprintf("card %d", a.Card)
	case ActRoll:
		if a.rawRoll {
			return "roll " + strings.Join(a.raw[:min(a.NDice, MaxDice)], " ")
		}
		parts := make([]string, min(a.NDice, MaxDice))
		for i := range parts {
			parts[i] = fmt.Sprint(a.Faces[i])
		}
		return "roll faces " + strings.Join(parts, " ")
	case ActCategory:
		return fmt.Sprintf("category %d", a.Category)
	case ActTurnTo:
		return "turn the special die to " + a.Face.String()
	case ActName:
		s := fmt.Sprintf("%q for die %d", a.Word, a.Die)
		if a.Letter != 0 {
			s += fmt.Sprintf(" (letter %c)", a.Letter)
		}
		return s
	case ActVote:
		if a.Accept {
			return "vote accept"
		}
		return "vote reject"
	}
	return a.Kind()
}

// actionJSON is the wire form (records, the web protocol). Exactly one of
// the leading fields is set.
type actionJSON struct {
	Card      *int     `json:"card,omitempty"`
	Roll      []string `json:"roll,omitempty"`
	Category  *int     `json:"category,omitempty"`
	TurnTo    *string  `json:"turnTo,omitempty"`
	Name      *string  `json:"name,omitempty"`
	Question  bool     `json:"question,omitempty"`
	GiveUp    bool     `json:"giveUp,omitempty"`
	Challenge bool     `json:"challenge,omitempty"`
	Allow     bool     `json:"allow,omitempty"`
	Vote      *string  `json:"vote,omitempty"`
	Timeout   bool     `json:"timeout,omitempty"`
	Die       *int     `json:"die,omitempty"`
	Letter    *string  `json:"letter,omitempty"`
}

// MarshalJSON encodes the wire form. A roll is written as face indexes
// resolved to names by DefaultComponents only when it came from names;
// otherwise as the names of the default dice (records of games with other
// components keep their rolls as they were given).
func (a Action) MarshalJSON() ([]byte, error) {
	var j actionJSON
	switch a.Type {
	case ActCard:
		j.Card = &a.Card
	case ActRoll:
		if a.NDice < 1 || a.NDice > MaxDice {
			return nil, fmt.Errorf("encode: a roll of %d dice", a.NDice)
		}
		j.Roll = make([]string, a.NDice)
		for i := range j.Roll {
			if a.rawRoll {
				j.Roll[i] = a.raw[i]
			} else {
				j.Roll[i] = faceNameFor(&DefaultComponents, int(a.NDice), i, a.Faces[i])
			}
		}
	case ActCategory:
		c := a.Category
		j.Category = &c
	case ActTurnTo:
		s := a.Face.String()
		j.TurnTo = &s
	case ActName:
		w, d := a.Word, a.Die
		j.Name, j.Die = &w, &d
		if a.Letter != 0 {
			l := string(rune(a.Letter))
			j.Letter = &l
		}
	case ActQuestion:
		j.Question = true
	case ActGiveUp:
		j.GiveUp = true
	case ActChallenge:
		j.Challenge = true
	case ActAllow:
		j.Allow = true
	case ActVote:
		v := "reject"
		if a.Accept {
			v = "accept"
		}
		j.Vote = &v
	case ActTimeout:
		j.Timeout = true
	default:
		return nil, fmt.Errorf("encode: invalid bookworm action type %d", a.Type)
	}
	return json.Marshal(j)
}

// faceNameFor names face f of die i in a roll of n dice: the last die of a
// full roll is the Special die.
func faceNameFor(c *Components, n, i int, f uint8) string {
	if i == len(c.LetterDice) && n == len(c.LetterDice)+1 {
		return Special(f).String()
	}
	if i < len(c.LetterDice) && int(f) < NumFaces {
		return c.LetterDice[i].Faces[f].Name()
	}
	return fmt.Sprintf("face%d", f)
}

// UnmarshalJSON decodes the wire form strictly. It judges the form only: a
// category or a die number out of range is well formed, and the rules
// refuse it with their code, as they do the same action from a script.
func (a *Action) UnmarshalJSON(data []byte) error {
	return engine.DecodeWire(data, a, "bookworm action", func(j *actionJSON) (Action, error) {
		act, err := j.action()
		if err != nil {
			return Action{}, fmt.Errorf("bookworm action: %w", err)
		}
		return act, nil
	})
}

func (j *actionJSON) action() (Action, error) {
	forms, kind := 0, ActInvalid
	set := func(ok bool, t ActType) {
		if ok {
			forms++
			kind = t
		}
	}
	set(j.Card != nil, ActCard)
	set(j.Roll != nil, ActRoll)
	set(j.Category != nil, ActCategory)
	set(j.TurnTo != nil, ActTurnTo)
	set(j.Name != nil, ActName)
	set(j.Question, ActQuestion)
	set(j.GiveUp, ActGiveUp)
	set(j.Challenge, ActChallenge)
	set(j.Allow, ActAllow)
	set(j.Vote != nil, ActVote)
	set(j.Timeout, ActTimeout)
	if forms != 1 {
		return Action{}, fmt.Errorf("want exactly one of card, roll, category, turnTo, name, question, giveUp, challenge, allow, vote or timeout")
	}
	if kind != ActName && (j.Die != nil || j.Letter != nil) {
		return Action{}, fmt.Errorf("die and letter belong to a name action")
	}
	switch kind {
	case ActCard:
		return DrawCard(*j.Card), nil
	case ActRoll:
		if len(j.Roll) < 1 || len(j.Roll) > MaxDice {
			return Action{}, fmt.Errorf("roll: %d faces, want 1 to %d", len(j.Roll), MaxDice)
		}
		return RollNames(j.Roll...), nil
	case ActCategory:
		return ChooseCategory(*j.Category), nil
	case ActTurnTo:
		f, err := ParseSpecial(*j.TurnTo)
		if err != nil {
			return Action{}, err
		}
		return TurnTo(f), nil
	case ActName:
		if j.Die == nil {
			return Action{}, fmt.Errorf(`name: "die" is missing`)
		}
		if utf8Len(*j.Name) > 4*MaxWordRunes {
			return Action{}, fmt.Errorf("name: the word is too long")
		}
		a := Name(*j.Name, *j.Die)
		if j.Letter != nil {
			l, err := ParseLetter(*j.Letter)
			if err != nil {
				return Action{}, err
			}
			a.Letter = l
		}
		return a, nil
	case ActVote:
		accept, err := ParseVote(*j.Vote)
		if err != nil {
			return Action{}, err
		}
		return Vote(accept), nil
	}
	return Action{Type: kind}, nil
}

func utf8Len(s string) int { return len([]rune(s)) }

// ParseVote reads a vote: "accept" (or "yes") or "reject" (or "no"),
// either case.
func ParseVote(s string) (accept bool, err error) {
	switch strings.ToLower(s) {
	case "accept", "yes":
		return true, nil
	case "reject", "no":
		return false, nil
	}
	return false, fmt.Errorf("vote: %q, want accept or reject", s)
}

// ParseLetter reads a claimed letter: one of a–z, either case.
func ParseLetter(s string) (byte, error) {
	if len(s) == 1 {
		c := s[0] | 0x20
		if c >= 'a' && c <= 'z' {
			return c, nil
		}
	}
	return 0, fmt.Errorf("letter: %q, want one letter a–z", s)
}

// DecodeAction reads an action in its JSON form.
func DecodeAction(data []byte) (Action, error) {
	var a Action
	err := a.UnmarshalJSON(data)
	return a, err
}

var _ engine.Action = Action{}
