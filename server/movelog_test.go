package server

import (
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store/memstore"
)

func TestMoveLogKeepsTheLastMoves(t *testing.T) {
	l := moveLog{keep: 300}
	if got := l.last(); got == nil || len(got) != 0 {
		t.Fatalf("empty log: %#v", got)
	}
	for v := 1; v <= 1000; v++ {
		l.add(v, json.RawMessage(fmt.Sprintf(`[{"key":"k","args":{"n":%d}}]`, v)))
		if len(l.entries) >= 2*l.keep {
			t.Fatalf("%d entries kept after %d moves", len(l.entries), v)
		}
	}
	got := l.last()
	if len(got) != l.keep || got[0].Version != 1000-l.keep+1 || got[len(got)-1].Version != 1000 {
		t.Fatalf("last: %d entries, versions %d..%d", len(got), got[0].Version, got[len(got)-1].Version)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Version != got[i-1].Version+1 {
			t.Fatalf("versions out of order at %d: %d after %d", i, got[i].Version, got[i-1].Version)
		}
	}
}

// playTurnCollecting plays seat 0's Dice Stars turn from its welcome w and
// returns every update the connection received meanwhile.
func playTurnCollecting(t *testing.T, c *wsClient, w msg) []msg {
	t.Helper()
	var got []msg
	until := func(done func(msg) bool) msg {
		for {
			m := c.next()
			if m.Type != "update" {
				continue
			}
			got = append(got, m)
			if done(m) {
				return m
			}
		}
	}
	c.send(map[string]any{"type": "act", "action": w.view(t).Legal[0], "version": w.Version})
	roll := until(func(m msg) bool { return m.Move.Seat == engine.ChanceSeat })
	v := roll.view(t)
	c.send(map[string]any{"type": "act", "action": v.Legal[len(v.Legal)-1], "version": roll.Version})
	until(func(m msg) bool { return m.Move.Seat == 0 })
	return got
}

// sameLog checks that a welcome's log is the narration of the updates, in
// order, byte for byte.
func sameLog(t *testing.T, who string, w msg, updates []msg) {
	t.Helper()
	if w.Type != "welcome" {
		t.Fatalf("%s: want a welcome, got %s", who, w.raw)
	}
	if len(w.Log) != len(updates) {
		t.Fatalf("%s: log of %d moves, %d were told: %s", who, len(w.Log), len(updates), w.raw)
	}
	for i, u := range updates {
		if e := w.Log[i]; e.Version != u.Version || string(e.Narration) != string(u.Narration) {
			t.Fatalf("%s: log entry %d is version %d %s, the update was version %d %s", who, i, e.Version, e.Narration, u.Version, u.Narration)
		}
	}
	if n := len(w.Log); n > 0 && w.Log[n-1].Version != w.Version {
		t.Fatalf("%s: the log ends at version %d, the welcome is at %d", who, w.Log[n-1].Version, w.Version)
	}
}

func TestWelcomeCarriesTheLog(t *testing.T) {
	st := memstore.New()
	// The bot sleeps: nothing moves but what the test plays.
	ts := startServer(t, Config{Store: st, BotDelay: time.Hour})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	w := c.next()
	if w.Log == nil || len(w.Log) != 0 || !json.Valid(w.raw) {
		t.Fatalf("a new table's welcome has an empty log: %s", w.raw)
	}
	updates := playTurnCollecting(t, c, w)
	if len(updates) < 3 {
		t.Fatalf("only %d updates", len(updates))
	}

	// Reconnect (a reload): the same seat gets everything it was told.
	sameLog(t, "reload", ann.connect(id).next(), updates)
	// A spectator arriving mid-game gets the same log.
	watcher := newPlayer(t, ts)
	sameLog(t, "spectator", watcher.connect(id).next(), updates)

	// After a restart the log is rebuilt from the stored moves.
	ts.stop()
	ts2 := startServer(t, Config{Store: st, BotDelay: time.Hour})
	ann.ts, watcher.ts = ts2, ts2
	sameLog(t, "restart, seat", ann.connect(id).next(), updates)
	sameLog(t, "restart, spectator", watcher.connect(id).next(), updates)
}

// A long game keeps only the last Config.LogMoves moves, rebuilt the same after a
// restart.
func TestWelcomeLogIsBounded(t *testing.T) {
	st := memstore.New()
	const keep = 50
	ts := startServer(t, Config{Store: st, BotDelay: -1, LogMoves: keep})
	watch := newPlayer(t, ts)
	bot := map[string]any{"kind": "bot", "bot": "easy"}
	id := watch.create(map[string]any{"game": "diceflick", "seats": []map[string]any{bot, bot, bot, bot}})
	c := watch.connect(id)
	told := map[int]msg{} // the updates this connection saw, by version
	if w := c.next(); !w.Turn.Over {
		for {
			m := c.next()
			if m.Type != "update" {
				continue
			}
			told[m.Version] = m
			if m.Turn.Over {
				break
			}
		}
	}
	w := newPlayer(t, ts).connect(id).next()
	if w.Version <= keep {
		t.Fatalf("the game has only %d moves: too short to test the bound", w.Version)
	}
	if len(w.Log) != keep || w.Log[0].Version != w.Version-keep+1 {
		t.Fatalf("the log has %d moves from version %d of %d", len(w.Log), w.Log[0].Version, w.Version)
	}
	var updates []msg
	for _, e := range w.Log {
		u, ok := told[e.Version]
		if !ok {
			u = msg{Version: e.Version, Narration: e.Narration} // made before the connection
		}
		updates = append(updates, u)
	}
	sameLog(t, "finished", w, updates)
	ts.stop()
	ts2 := startServer(t, Config{Store: st, LogMoves: keep})
	watch.ts = ts2
	sameLog(t, "finished, after a restart", watch.connect(id).next(), updates)
}

// A move the store did not take is in nobody's log.
func TestUnsavedMoveIsNotLogged(t *testing.T) {
	fs := &flakyStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: fs, RetryDelay: 10 * time.Millisecond, BotDelay: time.Hour})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	w := c.next()
	fs.failing.Store(true)
	c.send(map[string]any{"type": "act", "id": 1, "action": w.view(t).Legal[0]})
	c.await("error", nil)
	if w := newPlayer(t, ts).connect(id).next(); w.Version != 0 || len(w.Log) != 0 {
		t.Fatalf("after an unsaved move: %s", w.raw)
	}
	fs.failing.Store(false)
	c.send(map[string]any{"type": "act", "id": 2, "action": w.view(t).Legal[0]})
	u := c.await("update", nil)
	if w := newPlayer(t, ts).connect(id).next(); w.Version < 1 || len(w.Log) != w.Version || string(w.Log[0].Narration) != string(u.Narration) {
		t.Fatalf("after the saved move %s: %s", u.raw, w.raw)
	}
}
