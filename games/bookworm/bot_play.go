package bookworm

import (
	"fmt"

	"github.com/dicehall/dicehall/engine"
)

// DefaultBotDelayMs is how long a controller that is not an engine.Pacer
// takes to act in PlayBots.
const DefaultBotDelayMs = 1000

// PlayStats counts what happened in a game played by PlayBots, by seat.
type PlayStats struct {
	Rounds    int
	Timeouts  [MaxPlayers]int // turns lost to the clock (the player failed)
	Late      [MaxPlayers]int // of those, turns where a word came, but too late
	Words     [MaxPlayers]int // words named
	Steals    [MaxPlayers]int // dice taken from another player
	Questions [MaxPlayers]int // ? dice taken
}

// PlayBots plays m to the end on a simulated clock: seat p is driven by
// bots[p], chance comes from src. At each point every seat that may act is
// asked for its action and, if it is an engine.Pacer, how long it takes;
// the earliest action is played at its time unless the running deadline
// comes first, in which case the table's timeout is played at the deadline.
// Every move is checked by the rules, so a bot that returns an illegal
// action stops the game with an error. Simulations and bot tests share
// this loop.
func PlayBots(m *Match, bots []engine.Controller, src engine.Source) (PlayStats, error) {
	var st PlayStats
	s := m.S
	if len(bots) != int(s.NPlayers) {
		return st, fmt.Errorf("play: %d bots for %d seats", len(bots), s.NPlayers)
	}
	apply := func(seat engine.Seat, at int64, a engine.Action) error {
		ev, err := m.Apply(engine.Move{Seat: seat, At: at, Action: a})
		if err != nil {
			who := seat.String()
			if seat >= 0 {
				who = fmt.Sprintf("%s bot in seat %d", bots[seat].Name(), seat)
			}
			return fmt.Errorf("play: %s chose %v in phase %v at %d ms: %w", who, a, s.Phase, at, err)
		}
		for _, e := range ev {
			switch e.Kind {
			case "round-end":
				st.Rounds++
			case "fail":
				if f, ok := e.Data.(FailEvent); ok && f.Reason == "timeout" {
					st.Timeouts[f.Seat]++
				}
			case "word":
				st.Words[seat]++
			case "steal":
				// The table's timeout may close the window that
				// lets a steal pass: the taker is the die's owner.
				if te, ok := e.Data.(TakeEvent); ok {
					st.Steals[s.Owner[te.Die]]++
				}
			case "question":
				st.Questions[seat]++
			}
		}
		return nil
	}
	// A round has at most a few dozen moves; the cap only guards against a
	// rules or bot bug looping for ever.
	for steps := 0; !s.Over(); steps++ {
		if steps > 200000 {
			return st, fmt.Errorf("play: game did not end after %d steps", steps)
		}
		t := m.Turn()
		if t.Chance {
			if err := apply(engine.ChanceSeat, s.Now, m.SampleChance(src)); err != nil {
				return st, err
			}
			continue
		}
		bestSeat, bestAt := engine.Seat(-1), int64(0)
		var best engine.Action
		for _, seat := range t.Actors {
			view := m.SeatView(seat)
			a, err := bots[seat].Choose(view, m.Legal(seat))
			if err != nil {
				return st, fmt.Errorf("play: %s bot in seat %d: %w", bots[seat].Name(), seat, err)
			}
			if a == nil {
				continue
			}
			at := s.Now + DefaultBotDelayMs
			if p, ok := bots[seat].(engine.Pacer); ok {
				at = s.Now + max(0, p.ThinkMillis(view))
			}
			if best == nil || at < bestAt {
				bestSeat, bestAt, best = seat, at, a
			}
		}
		timed := s.Timed()
		switch {
		case best != nil && (!timed || bestAt <= s.Deadline):
			if err := apply(bestSeat, bestAt, best); err != nil {
				return st, err
			}
		case timed:
			if best != nil && s.Phase == PhaseName {
				st.Late[bestSeat]++
			}
			if err := apply(engine.SystemSeat, s.Deadline, Timeout()); err != nil {
				return st, err
			}
		default:
			return st, fmt.Errorf("play: nobody acts in phase %v and no clock runs", s.Phase)
		}
	}
	return st, nil
}
