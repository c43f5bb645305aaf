package tui

import (
	"errors"
	"fmt"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// replayShell is a table showing game g's record rec after its first at
// moves, drawn by the game's own board: what a review shows of the
// position a seat decided in. Nobody plays at its keyboard and no bot
// plays by itself: every seat is watched, as a bot's is. The clock stands
// at the last move's time, and a board that holds the table (to animate a
// move, to sum up a round) is let go on, as it had when the seat decided.
func replayShell(g engine.Game, rec engine.Record, at int) (*Shell, error) {
	newBoard, ok := boards[g.Info().ID]
	if !ok {
		return nil, fmt.Errorf("%s has no terminal board", g.Info().Title)
	}
	if at < 0 || at > len(rec.Moves) {
		return nil, fmt.Errorf("no position after %d moves: the record has %d", at, len(rec.Moves))
	}
	if len(rec.Players) == 0 {
		return nil, errors.New("the record has no players")
	}
	seats := make([]Seat, len(rec.Players))
	for i, name := range rec.Players {
		seats[i] = Seat{Name: name}
	}
	var stopped time.Time
	sh, err := openShell(Config{Game: g, Seats: seats, Options: rec.Options, Seed: rec.Seed,
		ManualClock: true, Now: func() time.Time { return stopped }}, newBoard())
	if err != nil {
		return nil, err
	}
	sh.watching = true
	for i, lm := range rec.Moves[:at] {
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return nil, fmt.Errorf("replay move %d: %w", i, err)
		}
		m := engine.Move{Seat: lm.Seat, At: lm.At, Action: a}
		sh.now = max(sh.now, lm.At)
		ev, err := sh.table.Play(m)
		if err != nil {
			return nil, fmt.Errorf("replay move %d: %w", i, err)
		}
		sh.changed(m, ev)
	}
	// Let an animation run out, then set the clock back to the move's time
	// (a board's header may show it).
	at0 := sh.now
	t, _ := sh.board.(Ticker)
	for ticks := 0; t != nil && sh.holding() && ticks < 100000; ticks++ {
		sh.now += sh.spec.Frame.Milliseconds()
		t.Tick()
	}
	sh.now = at0
	return sh, nil
}
