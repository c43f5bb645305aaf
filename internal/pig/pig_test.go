package pig_test

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
	"github.com/dicehall/dicehall/internal/pig"
)

// A game the platform has never seen plays to the end through the shared
// bot loop, and its narration renders from its own catalogue.
func TestPlaysThroughGenericPaths(t *testing.T) {
	g := pig.Game{}
	if err := g.Info().Validate(); err != nil {
		t.Fatal(err)
	}
	for seed := range uint64(50) {
		st, err := g.New([]string{"a", "b", "c"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		bots := make([]engine.Controller, 3)
		for i := range bots {
			bots[i], _ = g.NewBot([]string{"cautious", "bold", "cautious"}[i], seed)
		}
		var lines []string
		err = engine.PlayBots(st, bots, engine.NewSource(seed), func(m engine.Move, ev []engine.Event, _ []engine.Move) {
			for _, e := range ev {
				lines = append(lines, engine.Describe(g, e, st.Players())...)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		r := st.Result()
		if !r.Over || len(r.Winners) != 1 || r.Scores[r.Winners[0]] < 30 {
			t.Fatalf("seed %d: result %+v", seed, r)
		}
		if last := lines[len(lines)-1]; last != st.Players()[r.Winners[0]]+" wins" {
			t.Fatalf("seed %d: last line %q", seed, last)
		}
	}
}

// Pig keeps every promise the conformance suite checks, as each real game
// does.
func TestConformance(t *testing.T) {
	enginetest.Run(t, pig.Game{}, enginetest.Config{Options: []string{"", `{"target": 10}`}})
}

// Coach, Pig with an analyst, keeps them too, its reviews included.
func TestCoachConformance(t *testing.T) {
	enginetest.Run(t, pig.Coach{}, enginetest.Config{Options: []string{`{"target": 10}`}})
}
