package server

import (
	"encoding/json"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/internal/pig"
)

// A game the server has never heard of (the test-only pig) is served from
// its registration alone: the lobby lists it, its default bot takes an
// unnamed bot seat, a person plays it over the socket with the game's own
// refusals, every update is narrated from its catalogue, and the finished
// table lists its result.
func TestServesAnyGame(t *testing.T) {
	reg := &engine.Registry{}
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		reg.Register(g)
	}
	reg.Register(pig.Game{})
	ts := startServer(t, Config{Games: reg})
	ann := newPlayer(t, ts)

	var games []engine.Info
	if st := ann.do("GET", "/api/games", nil, &games); st != 200 {
		t.Fatal(st)
	}
	var listed bool
	for _, g := range games {
		listed = listed || g.ID == "pig" && g.Messages["pig.won"] != ""
	}
	if !listed {
		t.Fatalf("pig is not in /api/games: %+v", games)
	}

	id := ann.create(map[string]any{"game": "pig", "name": "ann", "options": map[string]any{"target": 10},
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot"}}})
	c := ann.connect(id)
	w := c.next()
	if w.Type != "welcome" || w.Seat != 0 || w.Table.Seats[1].Bot != "cautious" {
		t.Fatalf("welcome %s", w.raw)
	}
	// A face is nature's to give: the game's own refusal comes back.
	c.send(`{"type":"act","id":1,"action":{"face":6}}`)
	if e := c.await("refused", nil); e.Rule == "" || e.Message == "" {
		t.Fatalf("no rule named: %s", e.raw)
	}
	keys := map[string]bool{}
	next := int64(2)
	for m := w; !m.Turn.Over; {
		if m.Turn.Has(0) {
			// Roll until the turn holds 4 or more, then bank it.
			var v struct{ Turn int }
			_ = json.Unmarshal(m.View, &v)
			act := `{"roll":true}`
			if v.Turn >= 4 {
				act = `{"hold":true}`
			}
			c.send(map[string]any{"type": "act", "id": next, "action": json.RawMessage(act)})
			next++
		}
		m = c.await("update", nil)
		var narr []engine.Message
		if err := json.Unmarshal(m.Narration, &narr); err != nil {
			t.Fatalf("narration %s: %v", m.Narration, err)
		}
		for _, n := range narr {
			if (pig.Game{}).Info().Messages[n.Key] == "" {
				t.Fatalf("narration key %q is not in pig's catalogue", n.Key)
			}
			keys[n.Key] = true
		}
		if m.Turn.Over {
			break
		}
	}
	if !keys["pig.rolled"] || !keys["pig.won"] {
		t.Fatalf("narrated keys %v", keys)
	}
	if s := ann.summary(id); s.Status != "over" || len(s.Result.Winners) != 1 {
		t.Fatalf("summary %+v", s)
	}
}
