package enginetest

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// checkReview plays one game with the game's default bots and reviews it:
// every judged decision names a seat that acted there, its best choice is
// legal in the position the seat decided in, the chosen one is the move
// played, and the verdicts and sums agree; a hint at the start is legal.
func (s *suite) checkReview(tb testing.TB) {
	bp, ok := s.g.(engine.BotProvider)
	if !ok || s.info.DefaultBot == "" {
		tb.Skip("no default bot to play a game to review")
	}
	n := max(2, s.info.MinPlayers)
	if n > s.info.MaxPlayers {
		n = s.info.MaxPlayers
	}
	names := Names(n)
	r, err := engine.NewRunner(s.g, names, nil, s.cfg.Seed, nil)
	if err != nil {
		tb.Fatal(err)
	}
	if r.State.Turn().Chance {
		if _, err := r.ResolveChance(0, nil); err != nil {
			tb.Fatal(err)
		}
	}
	for _, seat := range r.State.Turn().Actors {
		h, err := engine.Hint(s.g, r.State, seat, engine.JudgeOptions{Budget: s.cfg.ReviewBudget, Seed: 1})
		if err != nil {
			tb.Fatalf("hint for %v at the start: %v", seat, err)
		}
		if err := s.legalIn(r.State, seat, 0, h.Best.Action); err != nil {
			tb.Errorf("hint for %v: %v", seat, err)
		}
	}
	bots := make([]engine.Controller, n)
	for p := range bots {
		if bots[p], err = bp.NewBot(s.info.DefaultBot, engine.BotSeed(s.cfg.Seed, engine.Seat(p))); err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.PlayBots(bots); err != nil {
		tb.Fatal(err)
	}
	rec := r.Record
	rv, err := engine.ReviewRecord(context.Background(), s.g, rec, engine.ReviewOptions{Budget: s.cfg.ReviewBudget, Seed: 1, Workers: 2})
	if err != nil {
		tb.Fatalf("review: %v", err)
	}
	if len(rv.Decisions) == 0 {
		tb.Fatal("a whole game reviewed with no decision judged")
	}
	for k, d := range rv.Decisions {
		if d.Move < 0 || d.Move >= len(rec.Moves) || rec.Moves[d.Move].Seat != d.Seat {
			tb.Errorf("decision %d: move %d is not a move of %v", k, d.Move, d.Seat)
			continue
		}
		if string(d.Chosen.Action) != string(rec.Moves[d.Move].Action) {
			tb.Errorf("decision %d: chosen %s, but %s was played", k, d.Chosen.Action, rec.Moves[d.Move].Action)
		}
		before, err := engine.Replay(s.g, engine.Record{Game: rec.Game, Players: rec.Players, Options: rec.Options, Moves: rec.Moves[:d.Move]})
		if err != nil {
			tb.Fatal(err)
		}
		if err := s.legalIn(before, d.Seat, rec.Moves[d.Move].At, d.Best.Action); err != nil {
			tb.Errorf("decision %d (move %d): %v", k, d.Move, err)
		}
		if d.PointsLost < 0 || d.WinLost < 0 || !slices.Contains([]string{engine.VerdictBest, engine.VerdictGood, engine.VerdictInaccuracy, engine.VerdictMistake, engine.VerdictBlunder}, d.Verdict) {
			tb.Errorf("decision %d: verdict %q, lost %v points %v win", k, d.Verdict, d.PointsLost, d.WinLost)
		}
		for _, w := range d.Balance {
			if w < 0 || w > 1 {
				tb.Errorf("decision %d: balance %v out of 0..1", k, d.Balance)
			}
		}
	}
	for _, sr := range rv.Seats {
		if sr.Accuracy < 0 || sr.Accuracy > 1 || sr.Best > sr.Decisions || len(sr.Worst) > 3 {
			tb.Errorf("seat summary %+v", sr)
		}
	}
}

// legalIn checks that the action JSON is a legal move of seat in st at
// game time at.
func (s *suite) legalIn(st engine.State, seat engine.Seat, at int64, action []byte) error {
	a, err := s.g.DecodeAction(action)
	if err != nil {
		return fmt.Errorf("best action %s does not decode: %w", action, err)
	}
	if err := st.Check(engine.Move{Seat: seat, At: at, Action: a}); err != nil {
		return fmt.Errorf("best action %s is not legal: %w", action, err)
	}
	return nil
}
