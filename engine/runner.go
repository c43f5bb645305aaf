package engine

import "fmt"

// Runner drives one game outside a server: it resolves chance from a
// source, logs every move in a record, and hands moves to the rules. Scripts,
// the terminal client and tests use it.
type Runner struct {
	Game   Game
	State  State
	Source Source
	Record Record
}

// NewRunner sets up a game and its record.
func NewRunner(g Game, players []string, options []byte, seed uint64, src Source) (*Runner, error) {
	st, err := g.New(players, options)
	if err != nil {
		return nil, err
	}
	if src == nil {
		src = NewSource(seed)
	}
	return &Runner{
		Game: g, State: st, Source: src,
		Record: Record{Game: g.Info().ID, Players: append([]string(nil), players...), Options: options, Seed: seed},
	}, nil
}

// Play applies a move and logs it. Nothing is logged when the rules refuse it.
func (t *Runner) Play(m Move) ([]Event, error) {
	ev, err := t.State.Apply(m)
	if err != nil {
		return nil, err
	}
	if err := t.Record.Log(m); err != nil {
		return ev, err
	}
	return ev, nil
}

// ResolveChance lets nature act while the rules ask for it, drawing from the
// table's source (or using fixed, the outcome a script imposes, for the first
// chance move).
func (t *Runner) ResolveChance(at int64, fixed Action) ([]Event, error) {
	var all []Event
	for t.State.Turn().Chance {
		a := fixed
		fixed = nil
		if a == nil {
			a = t.State.SampleChance(t.Source)
		}
		ev, err := t.Play(Move{Seat: ChanceSeat, At: at, Action: a})
		if err != nil {
			return all, fmt.Errorf("chance: %w", err)
		}
		all = append(all, ev...)
	}
	return all, nil
}

// PlayBots plays the game to its end with bots[p] in seat p and chance
// from the runner's source (PlayBots), logging every move in the record.
func (t *Runner) PlayBots(bots []Controller) error {
	var logErr error
	err := PlayBots(t.State, bots, t.Source, func(m Move, _ []Event, _ []Move) {
		if e := t.Record.Log(m); e != nil && logErr == nil {
			logErr = e
		}
	})
	if err != nil {
		return err
	}
	return logErr
}
