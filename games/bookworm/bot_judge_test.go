package bookworm

import (
	"math/rand/v2"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/internal/idlists"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// speaker plays seat 0 of the judging tests: on its turn it says a word of
// its own (say), and leaves every other decision (the category, the Turn
// face, judging others) to a medium bot.
type speaker struct {
	inner *Bot
	say   func(v *View, letter byte) string
	said  map[string]bool
}

func (p *speaker) Name() string { return "speaker" }

func (p *speaker) word(v *View) (Action, bool) {
	s := v.State
	if s.Phase != PhaseName || s.Current != int8(v.Seat) {
		return Action{}, false
	}
	rejected := 0
	for _, w := range s.Named {
		if w.Seat == int8(v.Seat) && w.Status == WordRejected {
			rejected++
		}
	}
	if rejected >= 3 {
		return Action{}, false // caught three times this round: give up
	}
	for _, o := range v.Takeable {
		for i := 0; i < len(o.Letters); i++ {
			if w := p.say(v, o.Letters[i]); w != "" && !p.said[w] {
				return Name(w, o.Die), true
			}
		}
	}
	return Action{}, false
}

func (p *speaker) Choose(view any, legal []engine.Action) (engine.Action, error) {
	v := view.(*View)
	if a, ok := p.word(v); ok {
		p.said[a.Word] = true
		return a, nil
	}
	if v.State.Phase == PhaseName && v.State.Current == int8(v.Seat) {
		return GiveUp(), nil
	}
	return p.inner.Choose(view, legal)
}

func (p *speaker) ThinkMillis(view any) int64 {
	v := view.(*View)
	if v.State.Phase == PhaseName && v.State.Current == int8(v.Seat) {
		return 500
	}
	return p.inner.ThinkMillis(view)
}

// judged plays games of seat 0 (speaker with say) against two bots of each
// kind, with the real deck and lexicon and the default options, and counts
// the words seat 0 said and how many stood.
func judged(t *testing.T, games int, say func(rng *rand.Rand, v *View, letter byte) string) (said, stood int, lost []string) {
	t.Helper()
	g := Game{Deck: words.Deck(), Lexicon: words.Default()}
	for n := range games {
		kind := BotKinds[n%len(BotKinds)]
		seed := uint64(1000 + n)
		m, err := g.NewMatch([]string{"p", "b1", "b2"}, []byte(`{"target":10}`))
		if err != nil {
			t.Fatal(err)
		}
		inner, _ := NewBot("medium", seed, g.Lexicon)
		rng := rand.New(rand.NewPCG(seed, 7))
		sp := &speaker{inner: inner, said: map[string]bool{}, say: func(v *View, l byte) string { return say(rng, v, l) }}
		bots := []engine.Controller{sp}
		for p := 1; p < 3; p++ {
			b, _ := NewBot(kind, engine.SplitSeed(seed, uint64(p)), g.Lexicon)
			bots = append(bots, b)
		}
		var pending string
		err = engine.PlayBots(m, bots, engine.NewSource(seed), func(mv engine.Move, evs []engine.Event, _ []engine.Move) {
			for _, e := range evs {
				switch d := e.Data.(type) {
				case WordEvent:
					if e.Seat == 0 {
						said++
						pending = d.Word
					}
				case TakeEvent:
					if d.To == 0 && d.Word != "" && d.Word == pending {
						stood++
						pending = ""
					}
				case VerdictEvent:
					if !d.Accepted && d.Word == pending {
						lost = append(lost, kind+":"+pending)
						pending = ""
					}
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	return said, stood, lost
}

// In games where one seat bluffs with made-up words, the bots challenge and
// vote them down: at least 99% are rejected (issue 10).
func TestBotsRejectBluffs(t *testing.T) {
	const letters = "bcdfghjklmnpqrstvwxz"
	said, stood, _ := judged(t, 30, func(rng *rand.Rand, v *View, l byte) string {
		for {
			b := []byte{l}
			for range 4 + rng.IntN(4) {
				b = append(b, letters[rng.IntN(len(letters))])
			}
			if w := string(b); !words.IsWord(w) {
				return w
			}
		}
	})
	rejected := said - stood
	t.Logf("made-up words: %d said, %d rejected (%.1f%%)", said, rejected, 100*float64(rejected)/float64(max(said, 1)))
	if said < 100 || rejected*100 < said*99 {
		t.Errorf("bots rejected %d of %d made-up words, want at least 99%%", rejected, said)
	}
}

// In games where one seat names very common valid answers (the words
// package's hand-written list, testdata/common.txt), the bots let them
// stand: at least 99% are accepted (issue 10).
func TestBotsAcceptCommonWords(t *testing.T) {
	common := readCommonAnswers(t)
	said, stood, lost := judged(t, 30, func(rng *rand.Rand, v *View, l byte) string {
		cat, ok := v.State.CategoryInPlay()
		if !ok {
			return ""
		}
		named := namedKeys(v.State)
		for _, w := range common[cat.ID] {
			if k, ok := WordKey(w); ok && k[0] == l && !named[k] {
				return w
			}
		}
		return ""
	})
	t.Logf("common words: %d said, %d accepted (%.1f%%); rejected: %v", said, stood, 100*float64(stood)/float64(max(said, 1)), lost)
	if said < 100 || stood*100 < said*99 {
		t.Errorf("bots accepted %d of %d common words, want at least 99%%; rejected: %v", stood, said, lost)
	}
}

// readCommonAnswers reads the words package's list of very common answers
// (category → answers).
func readCommonAnswers(t *testing.T) map[string][]string {
	t.Helper()
	lists, _, err := idlists.Read("words/testdata/common.txt")
	if err != nil {
		t.Fatal(err)
	}
	return lists
}
