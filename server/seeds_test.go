package server

import (
	"context"
	"sync"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// seedSpy is Dice Stars with a NewBot that notes the seed each bot gets.
type seedSpy struct {
	dicestars.Game
	mu    sync.Mutex
	seeds map[engine.Seat]uint64 // by the order bots were made: seat 1, 2, ...
	n     engine.Seat
}

func (g *seedSpy) NewBot(kind string, seed uint64) (engine.Controller, error) {
	g.mu.Lock()
	g.n++
	g.seeds[g.n] = seed
	g.mu.Unlock()
	return g.Game.NewBot(kind, seed)
}

// TestBotSeedsAreNotChanceSeeds: the bots of a table and its chance moves
// draw from separate streams. A bot was seeded with SplitSeed(seed,
// 1000+seat), the very seed of chance move 1000+seat.
func TestBotSeedsAreNotChanceSeeds(t *testing.T) {
	spy := &seedSpy{seeds: map[engine.Seat]uint64{}}
	reg := &engine.Registry{}
	reg.Register(spy)
	ts := startServer(t, Config{Games: reg})
	watcher := newPlayer(t, ts)
	id := watcher.create(map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}}})
	eventually(t, "both bots are made", func() bool {
		spy.mu.Lock()
		defer spy.mu.Unlock()
		return len(spy.seeds) == 2
	})
	meta, err := ts.store.GetTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	chance := map[uint64]int{}
	for k := range 1 << 12 {
		chance[engine.SplitSeed(meta.Seed, uint64(k))] = k
	}
	spy.mu.Lock()
	defer spy.mu.Unlock()
	for _, seed := range spy.seeds {
		if k, ok := chance[seed]; ok {
			t.Fatalf("a bot draws from the stream of chance move %d", k)
		}
	}
	if spy.seeds[1] == spy.seeds[2] {
		t.Fatal("two bots share a seed")
	}
}
