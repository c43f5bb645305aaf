package diceflick

import (
	"fmt"

	"github.com/dicehall/dicehall/engine"
)

// PlayBots plays m to the end: bots[p] chooses for seat p from its view,
// nature's moves are sampled from src. The outcome depends only on the
// bots' seeds and src, so simulations are reproducible.
func PlayBots(m *Match, bots []engine.Controller, src engine.Source) error {
	if len(bots) != m.S.NPlayers {
		return fmt.Errorf("play: %d bots for %d seats", len(bots), m.S.NPlayers)
	}
	// A game has rounds × players turns of a few moves each; the cap only
	// guards against a rules or bot bug looping for ever.
	limit := 20 * m.S.C.Rounds * m.S.NPlayers * (m.S.C.HandSize + 4)
	for steps := 0; !m.S.Over(); steps++ {
		if steps > limit {
			return fmt.Errorf("play: game did not end after %d moves", steps)
		}
		seat := engine.ChanceSeat
		var a engine.Action
		if m.Turn().Chance {
			a = m.SampleChance(src)
		} else {
			seat = engine.Seat(m.S.Current)
			var err error
			if a, err = bots[seat].Choose(m.View(seat), m.Legal(seat)); err != nil {
				return fmt.Errorf("play: %s bot in seat %d: %w", bots[seat].Name(), seat, err)
			}
		}
		if _, err := m.Apply(engine.Move{Seat: seat, Action: a}); err != nil {
			return fmt.Errorf("play: %v chose %v in phase %v: %w", seat, a, m.S.Phase, err)
		}
	}
	return nil
}
