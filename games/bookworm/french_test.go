package bookworm

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// A French table plays the same deck with French names, judges French
// words with the French lexicon and dictionary, and its bots say French
// words and vote down words that are not French.
func TestFrenchTable(t *testing.T) {
	g := Game{Deck: words.Deck(), Lexicon: words.Default()}
	m, err := g.NewMatch([]string{"ann", "bob", "cy"}, []byte(`{"language":"fr"}`))
	if err != nil {
		t.Fatal(err)
	}
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	if r := m.Report(); r.Card == nil || r.Card.Categories[0].Name != "Animaux" {
		t.Fatalf("card %+v, want the French names", r.Card)
	}
	do(t, m, 0, 0, ChooseCategory(0)) // animals
	do(t, m, engine.ChanceSeat, 0, RollNames(roll("a-z")...))
	if !m.S.Known("souris") || !m.S.Known("chevaux") || m.S.Known("mouse") {
		t.Fatal("the French lexicon does not judge French words")
	}
	do(t, m, 1, 100, Name("sxqzt", 7))
	for _, kind := range BotKinds {
		b, _ := NewBot(kind, 1, nil)
		if a, ok := b.Choose(m.SeatView(2), nil); ok != nil || a == nil || a.(Action).Type != ActChallenge {
			t.Fatalf("%s bot in French let a made-up word pass: %v", kind, a)
		}
	}
	// Whole games of French bots: every word they say is in the French
	// lexicon.
	for seed := range uint64(4) {
		m, err := g.NewMatch([]string{"a", "b", "c"}, []byte(`{"language":"fr","target":10}`))
		if err != nil {
			t.Fatal(err)
		}
		var bots []engine.Controller
		for p, k := range []string{"easy", "medium", "hard"} {
			b, _ := g.NewBot(k, engine.SplitSeed(seed, uint64(p+1)))
			bots = append(bots, b)
		}
		said := 0
		err = engine.PlayBots(m, bots, engine.NewSource(seed), func(_ engine.Move, evs []engine.Event, _ []engine.Move) {
			for _, e := range evs {
				if w, ok := e.Data.(WordEvent); ok {
					said++
					if !w.Known {
						t.Errorf("a French bot said %q, not in the French lexicon", w.Word)
					}
				}
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if said < 10 {
			t.Errorf("seed %d: French bots said %d words in a game", seed, said)
		}
	}
}
