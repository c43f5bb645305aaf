package bookworm

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// testDeck is a small deck; its categories are what fakeLex knows.
var testDeck = []words.Card{
	{ID: 1, Categories: [3]words.Category{{ID: "animals", Name: "Animals", Level: words.Easy},
		{ID: "fruits", Name: "Fruit", Level: words.Medium}, {ID: "cheeses", Name: "Cheeses", Level: words.Hard}}},
	{ID: 2, Categories: [3]words.Category{{ID: "kitchen", Name: "Things in a kitchen", Level: words.Easy},
		{ID: "birds", Name: "Birds", Level: words.Medium}, {ID: "dog_breeds", Name: "Dog breeds", Level: words.Hard}}},
	{ID: 7, Categories: [3]words.Category{{ID: "clothing", Name: "Clothes", Level: words.Easy},
		{ID: "instruments", Name: "Musical instruments", Level: words.Medium}, {ID: "capitals", Name: "Capital cities", Level: words.Hard}}},
}

// fakeLex knows a few words per category.
type fakeLex map[string][]string

func (l fakeLex) Fits(cat, word string) bool {
	for _, w := range l[cat] {
		if w == words.Normalize(word) {
			return true
		}
	}
	return false
}

func (l fakeLex) Words(cat string) []string { return l[cat] }

func (l fakeLex) IsWord(word string) bool { return words.IsWord(word) }

var testLex = fakeLex{
	"animals": {"ant", "ape", "bat", "bee", "cat", "cow", "dog", "eel", "emu", "fox", "frog", "goat", "hen", "horse",
		"ibis", "jay", "koala", "lion", "mole", "moose", "newt", "owl", "pig", "quail", "rat", "seal", "snake", "tiger",
		"toad", "urchin", "vole", "wolf", "yak", "zebra", "xerus", "gnu", "lynx", "mouse", "otter", "puma", "wasp",
		"crab", "crow", "camel", "kudu", "kite", "dingo", "cicada"},
	"fruits": {"apple", "banana", "cherry", "date", "fig", "grape", "kiwi", "lemon", "mango", "nectarine", "orange",
		"pear", "quince", "raspberry", "strawberry", "tomato", "ugli", "watermelon", "yuzu", "zucchini"},
}

func testGame() Game { return Game{Deck: testDeck, Lexicon: testLex} }

// newTest sets up n players with options (JSON or ""). Unless the options
// set knownChallengeSeconds, a word the lexicon knows is taken at once: the
// tests of other rules need no window after each known word (the disputes
// of known words have their own tests).
func newTest(t *testing.T, n int, options string) *Match {
	t.Helper()
	if !strings.Contains(options, "knownChallengeSeconds") {
		if options == "" || options == "{}" {
			options = `{"knownChallengeSeconds":0}`
		} else {
			options = `{"knownChallengeSeconds":0,` + strings.TrimPrefix(strings.TrimSpace(options), "{")
		}
	}
	raw := []byte(options)
	m, err := testGame().NewMatch([]string{"ann", "bob", "cy", "di", "eve", "fay"}[:n], raw)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// do applies a move that must be legal.
func do(t *testing.T, m *Match, seat engine.Seat, at int64, a Action) []engine.Event {
	t.Helper()
	ev, err := m.Apply(engine.Move{Seat: seat, At: at, Action: a})
	if err != nil {
		t.Fatalf("%v at %d: %v refused: %v", seat, at, a, err)
	}
	checkInvariants(t, m)
	return ev
}

// refused checks that a move is refused with rule and changes nothing.
func refused(t *testing.T, m *Match, seat engine.Seat, at int64, a Action, rule string) {
	t.Helper()
	before := m.S.clone()
	_, err := m.Apply(engine.Move{Seat: seat, At: at, Action: a})
	if err == nil {
		t.Fatalf("%v at %d: %v accepted, want refusal %s", seat, at, a, rule)
	}
	if !errors.Is(err, engine.Refuse(rule, "")) {
		re, _ := engine.AsRuleError(err)
		t.Fatalf("%v: refused with %v (%v), want %s", a, re, err, rule)
	}
	if !reflect.DeepEqual(before, m.S) {
		t.Fatalf("%v: a refused move changed the state", a)
	}
}

// atTurns draws card 1 (or the card given by opts), lets seat 0 choose
// category 0 (animals) and rolls faces at time 0: the first turn begins.
func atTurns(t *testing.T, n int, options string, faces ...string) *Match {
	t.Helper()
	m := newTest(t, n, options)
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	do(t, m, 0, 0, ChooseCategory(0))
	do(t, m, engine.ChanceSeat, 0, RollNames(faces...))
	return m
}

// standard roll: die 0 C/K, 1 D, 2 M, 3 P, 4 A, 5 B, 6 N, 7 (special).
func roll(special string) []string {
	return []string{"C/K", "D", "M", "P", "A", "B", "N", special}
}

// dieShowing finds the die showing face name (first one).
func dieShowing(t *testing.T, m *Match, face string) int {
	t.Helper()
	for d := 0; d < int(m.S.NDice); d++ {
		if strings.EqualFold(m.S.FaceName(d), face) {
			return d
		}
	}
	t.Fatalf("no die shows %s", face)
	return -1
}

func kinds(ev []engine.Event) string {
	k := make([]string, len(ev))
	for i, e := range ev {
		k[i] = e.Kind
	}
	return strings.Join(k, " ")
}

// checkInvariants: dice accounted for, Bookworm cards conserved, clocks sane.
func checkInvariants(t *testing.T, m *Match) {
	t.Helper()
	if err := invariants(m.S); err != nil {
		t.Fatal(err)
	}
}

func invariants(s *State) error {
	held := 0
	for d := 0; d < int(s.NDice); d++ {
		if o := s.Owner[d]; o != Display {
			if o < 0 || o >= s.NPlayers {
				return errorf("die %d owned by %d", d, o)
			}
			held++
		}
	}
	for d := int(s.NDice); d < MaxDice; d++ {
		if s.Owner[d] != Display {
			return errorf("die %d beyond the %d dice is held", d, s.NDice)
		}
	}
	cards := int(s.CardsLeft)
	for p := 0; p < MaxPlayers; p++ {
		if p >= int(s.NPlayers) && s.Cards[p] != 0 {
			return errorf("seat %d has cards", p)
		}
		cards += int(s.Cards[p])
	}
	if cards != s.cfg.C.BookwormCards {
		return errorf("%d bookworm cards in all, want %d", cards, s.cfg.C.BookwormCards)
	}
	steals := 0
	for _, w := range s.Named {
		if w.Status == WordAccepted && w.From != Display {
			steals++
		}
	}
	if steals != s.cfg.C.BookwormCards-int(s.CardsLeft) && s.Phase != PhaseOver {
		return errorf("%d steals, %d cards taken", steals, s.cfg.C.BookwormCards-int(s.CardsLeft))
	}
	if s.Phase == PhaseName || s.Phase == PhaseChallenge || s.Phase == PhaseVote {
		if s.WhiteInDisplay() == 0 {
			return errorf("a turn with no white die in the display")
		}
	}
	if (s.Phase == PhaseChallenge || s.Phase == PhaseVote) != (s.Pending >= 0) {
		return errorf("pending word %d in phase %v", s.Pending, s.Phase)
	}
	sum := [MaxPlayers]int{}
	for _, h := range s.History {
		for p := range h {
			sum[p] += h[p]
		}
	}
	if sum != s.Totals {
		return errorf("totals %v, rounds add to %v", s.Totals, sum)
	}
	return nil
}

func errorf(format string, args ...any) error { return fmt.Errorf(format, args...) }
