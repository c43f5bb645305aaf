package server

import (
	"sync"
	"testing"
	"time"
)

// TestManyWatchers: one table's updates reach many connections, each in
// order and complete, with bots playing as fast as they can.
func TestManyWatchers(t *testing.T) {
	const watchers = 50
	ts := startServer(t, Config{BotDelay: -1})
	p := newPlayer(t, ts)
	var out struct{ ID string }
	// Ann's seat acts first: nothing moves until she hands it to a bot.
	body := map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}}}
	if st := p.do("POST", "/api/tables", body, &out); st != 201 {
		t.Fatal(st)
	}
	clients := make([]*wsClient, watchers)
	for i := range clients {
		clients[i] = newPlayer(t, ts).connect(out.ID)
		clients[i].next()
	}
	start := time.Now()
	// Ann hands her seat to a bot at once: from here on only bots play.
	me := p.connect(out.ID)
	me.next()
	me.send(map[string]any{"type": "leave"})
	var wg sync.WaitGroup
	errs := make(chan string, watchers)
	last := make([]int, watchers)
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			version := 0
			for m := range c.msgs {
				if m.Type != "update" {
					continue
				}
				if m.Version != version+1 {
					errs <- "out of order"
					return
				}
				version = m.Version
				if m.Turn.Over {
					last[i] = version
					return
				}
			}
			errs <- "connection ended"
		}()
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
	elapsed := time.Since(start)
	for _, v := range last {
		if v != last[0] {
			t.Fatalf("watchers saw games of different lengths: %v", last)
		}
	}
	t.Logf("%d moves to %d watchers in %v (%.0f µs a move, all deliveries included)", last[0], watchers, elapsed, float64(elapsed.Microseconds())/float64(last[0]))
}
