package server

import (
	"encoding/json"
	"fmt"

	"github.com/dicehall/dicehall/engine"
)

// DefaultLogMoves is how many moves' narration a table keeps for the log
// every welcome carries (Config.LogMoves; docs/protocol.md, welcome).
const DefaultLogMoves = 300

// logEntry is one move of the welcome's log: the narration of its update,
// and the table's version after it.
type logEntry struct {
	Version   int             `json:"version"`
	Narration json.RawMessage `json:"narration"`
}

// moveLog keeps the narration of a table's last keep moves, oldest first.
// It holds at most 2×keep entries at any time.
type moveLog struct {
	keep    int
	entries []logEntry
}

func (l *moveLog) add(version int, narration json.RawMessage) {
	l.entries = append(l.entries, logEntry{Version: version, Narration: narration})
	if len(l.entries) >= 2*l.keep {
		l.entries = append([]logEntry(nil), l.entries[len(l.entries)-l.keep:]...)
	}
}

// last returns the kept entries (at most keep), oldest first; never nil.
func (l *moveLog) last() []logEntry {
	n := len(l.entries)
	out := make([]logEntry, 0, min(n, l.keep))
	return append(out, l.entries[max(0, n-l.keep):]...)
}

// playMoves plays a stored log on st (a game just set up), calling each
// (if not nil) after every move with the move's index, the move and its
// events (st is then the state after it).
func playMoves(g engine.Game, st engine.State, moves []engine.LoggedMove, each func(i int, lm engine.LoggedMove, ev []engine.Event) error) error {
	for i, lm := range moves {
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return fmt.Errorf("replay move %d: %w", i, err)
		}
		ev, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a})
		if err != nil {
			return fmt.Errorf("replay move %d: %w", i, err)
		}
		if each != nil {
			if err := each(i, lm, ev); err != nil {
				return err
			}
		}
	}
	return nil
}

// rebuild replays a table's stored moves into its state and its log (the
// narration of the last moves), as the moves were told when made.
func (t *table) rebuild(moves []engine.LoggedMove) error {
	players := t.players()
	log := moveLog{keep: t.history.keep} // what each move's update narrated
	from := len(moves) - log.keep
	st, err := t.game.New(players, t.meta.Options)
	if err != nil {
		return fmt.Errorf("replay setup: %w", err)
	}
	times := newTurnTimes()
	perMove, live := t.perMoveMs(), t.liveAt()
	times.observe(st.Turn(), 0, perMove, live)
	err = playMoves(t.game, st, moves, func(i int, lm engine.LoggedMove, ev []engine.Event) error {
		times.observe(st.Turn(), lm.At, perMove, live)
		if i < from {
			return nil
		}
		narration, err := json.Marshal(narrate(t.game, ev, players))
		if err != nil {
			return fmt.Errorf("encode narration of move %d: %w", i, err)
		}
		log.add(i+1, narration)
		return nil
	})
	if err != nil {
		return err
	}
	t.state, t.version, t.history, t.times = st, len(moves), log, times
	if n := len(moves); n > 0 {
		t.lastAt = moves[n-1].At
	}
	return nil
}
