package dicestars

import (
	"fmt"

	"github.com/dicehall/dicehall/engine"
)

// PlayBots plays s to the end: seat p is driven by bots[p] and chance comes
// from src. Every bot decision is checked by the rules, so a bot that
// returns an illegal action stops the game with an error instead of
// corrupting it. Simulations and bot tests share this loop.
func PlayBots(s State, bots []Bot, src engine.Source) (State, error) {
	if len(bots) != int(s.NPlayers) {
		return s, fmt.Errorf("play: %d bots for %d seats", len(bots), s.NPlayers)
	}
	// A game has at most 20 white cells per sheet plus penalties; this cap
	// only guards against a rules bug looping for ever.
	for steps := 0; !s.Over(); steps++ {
		if steps > 20000 {
			return s, fmt.Errorf("play: game did not end after %d steps", steps)
		}
		if s.Phase == PhaseRoll {
			s.ApplyUnchecked(s.SampleRoll(src))
			continue
		}
		seat := s.Current
		view := s // bots get a copy: they cannot change the table's state
		a := bots[seat].Decide(&view)
		if err := s.Apply(a); err != nil {
			return s, fmt.Errorf("play: %s bot in seat %d chose %v in phase %v: %w", bots[seat].Name(), seat, a, s.Phase, err)
		}
	}
	return s, nil
}
