package bookworm

import (
	"fmt"
	"slices"

	"github.com/dicehall/dicehall/games/bookworm/words"
)

// Phase is where a round stands.
type Phase uint8

const (
	PhaseCard      Phase = iota // chance: a category card is turned over
	PhaseCategory               // the chooser picks 1 of the card's 3 categories
	PhaseRoll                   // chance: the dice are rolled
	PhaseTurnTo                 // the Special die shows Turn: the Bookworm turns it
	PhaseName                   // the current player names a word (clock running)
	PhaseChallenge              // the others may challenge the word just named
	PhaseVote                   // everyone but the speaker votes on it
	PhaseOver
)

var phaseNames = [...]string{"card", "category", "roll", "turn-to", "name", "challenge", "vote", "over"}

func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "phase?"
}

// Display is the owner value of a die in the centre.
const Display int8 = -1

// Word statuses in the list of words named this round.
const (
	WordPending  = "pending"
	WordAccepted = "accepted"
	WordRejected = "rejected"
)

// NamedWord is a word named this round. Every word named counts for
// "already named", rejected ones too.
type NamedWord struct {
	Seat   int8
	Word   string // as typed (trimmed)
	Key    string // WordKey(Word)
	Die    int8
	From   int8 // Display, or the seat robbed
	Letter byte
	Known  bool   // the lexicon knew it: its window is the short one (knownChallengeSeconds)
	Status string // WordPending, WordAccepted or WordRejected
}

// Settings are the table options, in milliseconds where they are times.
type Settings struct {
	Special     bool
	ThinkMs     int64
	CountdownMs int64
	ChallengeMs int64
	// KnownChallengeMs is the window to dispute a word the lexicon knows
	// (0: the lexicon settles it, the word is taken at once).
	KnownChallengeMs int64
	VoteMs           int64
	Target           int
	// Language is the word language (words.Languages): the deck's names,
	// the lexicon and the dictionary the table plays with.
	Language string
}

// config is what never changes during a game; clones share it.
type config struct {
	C      *Components
	Deck   []words.Card
	Lex    words.Lexicon
	Set    Settings
	cardIx map[int]int // card ID → deck index
}

// State is a game of Bookworm. Arrays keep it cheap to copy; Named and Used
// are the only slices (Clone copies them).
type State struct {
	cfg *config

	NPlayers int8
	NDice    int8 // 8, or 7 without the Special die
	Phase    Phase
	Round    int16 // rounds started, from 1

	Bookworm int8 // the round's Bookworm
	Current  int8 // PhaseName: whose turn; PhaseCategory/PhaseCard: who chooses
	MidRound bool // the card on its way replaces the category (the "?" die)

	Card     int16  // deck index of the card in play, -1 before the first
	Category int8   // 0..2, -1 while not chosen
	Used     []bool // deck index → returned to the box

	Rolled bool // this round's dice were rolled
	Faces  [MaxDice]uint8
	Owner  [MaxDice]int8  // Display or the holder's seat
	Seq    [MaxDice]int16 // order of taking: a stack's top die has the highest
	Taken  int16          // dice taken this round (the next Seq)

	Cards     [MaxPlayers]uint8 // Bookworm cards in front of each player
	CardsLeft uint8             // in the centre

	Named   []NamedWord
	Pending int16 // index in Named of the word under judgement (-1 none)

	Challenger int8
	Allowed    uint8 // bit per seat: let the word pass
	Votes      [MaxPlayers]int8

	Now         int64 // the latest Move.At seen (ms of game time)
	CountdownAt int64 // PhaseName: when the visible countdown starts
	Deadline    int64 // the running clock of PhaseName, PhaseChallenge, PhaseVote

	Totals    [MaxPlayers]int
	LastRound *RoundScore // the last round's scoring (nil before the first ends)
	History   [][MaxPlayers]int
}

// RoundScore is how a round was scored.
type RoundScore struct {
	Round  int
	Ender  int8 // who took the last white die or failed
	Failer int8 // -1 when the last white die was taken
	Lines  [MaxPlayers]ScoreLine
}

// ScoreLine is one player's round score.
type ScoreLine struct {
	Dots    int `json:"dots"`
	Cards   int `json:"bookwormCards"`
	Special int `json:"special"`
	Penalty int `json:"penalty"`
	Total   int `json:"total"`
}

// newState sets up the first round: the first card is to be drawn, seat 0
// is the Bookworm (the table seats players in the order it likes).
func newState(cfg *config, n int) (*State, error) {
	if n < MinPlayers || n > MaxPlayers {
		return nil, fmt.Errorf("bookworm is for %d to %d players, not %d", MinPlayers, MaxPlayers, n)
	}
	s := &State{cfg: cfg, NPlayers: int8(n), Card: -1, Pending: -1, Challenger: -1,
		Used: make([]bool, len(cfg.Deck))}
	s.NDice = int8(len(cfg.C.LetterDice))
	if cfg.Set.Special {
		s.NDice++
	}
	s.startRound(0)
	return s, nil
}

// special is the index of the Special die, or -1 without it.
func (s *State) special() int {
	if int(s.NDice) > len(s.cfg.C.LetterDice) {
		return len(s.cfg.C.LetterDice)
	}
	return -1
}

// SpecialFace is the Special die's face this round (ok false without the
// die, or before the roll).
func (s *State) SpecialFace() (Special, bool) {
	sp := s.special()
	if sp < 0 || !s.Rolled {
		return 0, false
	}
	return Special(s.Faces[sp]), true
}

// IsSpecial reports whether die d is the Special die.
func (s *State) IsSpecial(d int) bool { return d == s.special() }

// startRound puts every die back in the display and the Bookworm cards in
// the centre; the round's card is to be drawn.
func (s *State) startRound(bookworm int8) {
	s.Round++
	s.Bookworm, s.Current = bookworm, bookworm
	s.Phase, s.MidRound = PhaseCard, false
	// The last round's card went back to the box.
	s.Card, s.Category = -1, -1
	for d := range s.Owner {
		s.Owner[d], s.Seq[d], s.Faces[d] = Display, 0, 0
	}
	s.Taken, s.Rolled = 0, false
	s.Cards = [MaxPlayers]uint8{}
	s.CardsLeft = uint8(s.cfg.C.BookwormCards)
	s.Named = s.Named[:0:0]
	s.Pending, s.Challenger, s.Allowed = -1, -1, 0
	s.Votes = [MaxPlayers]int8{}
	s.CountdownAt, s.Deadline = 0, 0
}

// Over reports the end of the game.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// CardInPlay is the current card (ok false before the first is drawn).
func (s *State) CardInPlay() (words.Card, bool) {
	if s.Card < 0 {
		return words.Card{}, false
	}
	return s.cfg.Deck[s.Card], true
}

// CategoryInPlay is the chosen category (ok false while none is chosen).
func (s *State) CategoryInPlay() (words.Category, bool) {
	c, ok := s.CardInPlay()
	if !ok || s.Category < 0 {
		return words.Category{}, false
	}
	return c.Categories[s.Category], true
}

// WhiteInDisplay counts the white dice left in the display.
func (s *State) WhiteInDisplay() int {
	n := 0
	for d := 0; d < len(s.cfg.C.LetterDice); d++ {
		if s.Owner[d] == Display {
			n++
		}
	}
	return n
}

// StackTop is the die on top of seat's pile (-1 if they hold none).
func (s *State) StackTop(seat int8) int {
	top := -1
	for d := 0; d < int(s.NDice); d++ {
		if s.Owner[d] == seat && (top < 0 || s.Seq[d] > s.Seq[top]) {
			top = d
		}
	}
	return top
}

// DiceOf lists seat's dice in the order they were taken (bottom of the pile
// first).
func (s *State) DiceOf(seat int8) []int {
	var out []int
	for d := 0; d < int(s.NDice); d++ {
		if s.Owner[d] == seat {
			out = append(out, d)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && s.Seq[out[j]] < s.Seq[out[j-1]]; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// FaceName is what die d shows ("C/K", "not").
func (s *State) FaceName(d int) string { return s.cfg.C.faceName(d, s.Faces[d]) }

// Points is what die d is worth to its holder at the end of the round
// (the NOT face depends on the holder's other dice).
func (s *State) Points(d int) int {
	if d != s.special() {
		return s.cfg.C.LetterDice[d].Faces[s.Faces[d]].Points
	}
	switch Special(s.Faces[d]) {
	case SpecialDots:
		return s.cfg.C.DotsPoints
	case SpecialNot:
		if h := s.Owner[d]; h != Display && len(s.DiceOf(h)) > 1 {
			return s.cfg.C.NotWithOther
		}
		return s.cfg.C.NotAlone
	}
	return 0
}

// score computes the round's scores; failer is -1 when nobody failed.
func (s *State) score(ender, failer int8) RoundScore {
	rs := RoundScore{Round: int(s.Round), Ender: ender, Failer: failer}
	for p := int8(0); p < s.NPlayers; p++ {
		l := &rs.Lines[p]
		for _, d := range s.DiceOf(p) {
			if d == s.special() {
				l.Special += s.Points(d)
			} else {
				l.Dots += s.Points(d)
			}
		}
		l.Cards = int(s.Cards[p])
		if p == failer {
			l.Penalty = -s.cfg.C.FailPenalty
		}
		l.Total = l.Dots + l.Cards + l.Special + l.Penalty
	}
	return rs
}

// Winners are the seats with the highest total (ties share).
func (s *State) Winners() []int {
	best := s.Totals[0]
	for p := 1; p < int(s.NPlayers); p++ {
		best = max(best, s.Totals[p])
	}
	var w []int
	for p := 0; p < int(s.NPlayers); p++ {
		if s.Totals[p] == best {
			w = append(w, p)
		}
	}
	return w
}

// clone is a deep copy (the config is shared: it never changes).
func (s *State) clone() *State {
	c := *s
	c.Named = slices.Clone(s.Named)
	c.Used = slices.Clone(s.Used)
	c.History = slices.Clone(s.History)
	if s.LastRound != nil {
		lr := *s.LastRound
		c.LastRound = &lr
	}
	return &c
}

// next is the seat to the left of p.
func (s *State) next(p int8) int8 { return (p + 1) % s.NPlayers }

// Known reports whether the lexicon knows word to fit the category in play.
func (s *State) Known(word string) bool {
	cat, ok := s.CategoryInPlay()
	return ok && s.cfg.Lex != nil && s.cfg.Lex.Fits(cat.ID, word)
}
