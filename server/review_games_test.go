package server

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/store"
)

// analysts are the real games that judge decisions; a test of them is
// skipped while there are none.
func analysts(t *testing.T) []engine.Game {
	var out []engine.Game
	for _, id := range all.Registry.IDs() {
		if g, _ := all.Registry.Lookup(id); engine.Reviewable(g) {
			out = append(out, g)
		}
	}
	if len(out) == 0 {
		t.Skip("no game judges decisions yet")
	}
	return out
}

// Every real game that judges decisions is reviewed by the server and
// coaches a practice game there.
func TestEveryAnalyst(t *testing.T) {
	games := analysts(t)
	// The server's plumbing is under test here, not the games' analysis
	// (each game tests its own): a small budget keeps a whole game's
	// review to a moment even on a loaded machine.
	ts := startServer(t, Config{Reviews: Reviews{Budget: 4, HintBudget: 4}})
	ann := newPlayer(t, ts)
	for _, g := range games {
		t.Run(g.Info().ID+"/review", func(t *testing.T) { reviewedByServer(t, ts, ann, g) })
		t.Run(g.Info().ID+"/hint", func(t *testing.T) { coachedByServer(t, ann, g) })
	}
}

// reviewedByServer: a two-seat game of g's default bots, finished and
// stored, is reviewed on demand, each decision at a move of its seat.
func reviewedByServer(t *testing.T, ts *testServer, ann *player, g engine.Game) {
	info := g.Info()
	n := min(max(2, info.MinPlayers), info.MaxPlayers)
	players := []string{"ann", "bot"}[:n]
	r, err := engine.NewRunner(g, players, nil, 42, nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]engine.Controller, n)
	for p := range bots {
		if bots[p], err = g.(engine.BotProvider).NewBot(info.DefaultBot, engine.BotSeed(42, engine.Seat(p))); err != nil {
			t.Fatal(err)
		}
	}
	if err := r.PlayBots(bots); err != nil {
		t.Fatal(err)
	}
	id := "review" + info.ID
	res := wireResult(r.State.Result())
	now := time.Now().UTC()
	seats := []store.Seat{{Name: "ann", Kind: kindHuman, TokenHash: hashToken("x")}, {Name: "bot", Kind: kindBot, Bot: info.DefaultBot}}[:n]
	if err := ts.store.CreateTable(context.Background(), store.Table{ID: id, Game: info.ID, Seed: 42, Seats: seats,
		Status: store.StatusOver, Created: now, Updated: now, Result: &res}); err != nil {
		t.Fatal(err)
	}
	if err := ts.store.AppendMoves(context.Background(), id, 0, r.Record.Moves, store.NoFence); err != nil {
		t.Fatal(err)
	}
	rv := ann.awaitReview(id)
	if rv.Game != info.ID || rv.Moves != len(r.Record.Moves) || len(rv.Decisions) == 0 || len(rv.Seats) != n {
		t.Fatalf("review of %d moves: %d decisions, %d seats", rv.Moves, len(rv.Decisions), len(rv.Seats))
	}
	for _, d := range rv.Decisions {
		if d.Move < 0 || d.Move >= len(r.Record.Moves) || r.Record.Moves[d.Move].Seat != d.Seat {
			t.Fatalf("decision of %v at move %d", d.Seat, d.Move)
		}
	}
}

// coachedByServer: in a practice game of g, on the person's turn, the hint
// comes for the table's version, and its best choice is a move the table
// takes.
func coachedByServer(t *testing.T, ann *player, g engine.Game) {
	info := g.Info()
	id := ann.create(map[string]any{"game": info.ID, "name": "ann",
		"seats": []map[string]any{{"kind": "human"}, {"kind": "bot", "bot": info.DefaultBot}}})
	c := ann.connect(id)
	m := c.next()
	for !m.Turn.Has(0) {
		if m.Turn.Over {
			t.Fatal("the game ended before ann's turn")
		}
		m = c.await("update", nil)
	}
	c.send(`{"type":"hint","id":1}`)
	var h hintAnswer
	for {
		got := c.next()
		if got.Type == "refused" || got.Type == "error" {
			t.Fatalf("hint refused: %s", got.raw)
		}
		if got.Type == "hint" {
			h = asHint(t, got)
			break
		}
	}
	if h.ID != 1 || h.Version != m.Version || len(h.Hint.Best.Action) == 0 {
		t.Fatalf("hint %+v at version %d", h, m.Version)
	}
	c.send(map[string]any{"type": "act", "id": 2, "action": h.Hint.Best.Action, "version": m.Version})
	u := c.next()
	for u.Type != "update" && u.Type != "refused" && u.Type != "error" {
		u = c.next()
	}
	if u.Version != m.Version+1 || u.Move == nil || u.Move.Seat != 0 {
		t.Fatalf("the hint's move %s: %s", h.Hint.Best.Action, u.raw)
	}
	if st, _ := ann.review(id); st != http.StatusConflict {
		t.Errorf("review of the live game: %d, want 409", st)
	}
}
