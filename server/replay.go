package server

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	meta, ok := s.getMeta(w, r, r.PathValue("id"))
	if !ok {
		return
	}
	if meta.Status != store.StatusOver {
		writeError(w, http.StatusConflict, "not-over", "replays open once the game is over")
		return
	}
	seat := engine.Spectator
	if q := r.URL.Query().Get("seat"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n >= len(meta.Seats) {
			writeError(w, http.StatusBadRequest, "bad-seat", fmt.Sprintf("seat is a number from 0 to %d", len(meta.Seats)-1))
			return
		}
		seat = engine.Seat(n)
	}
	g, ok := s.games.Lookup(meta.Game)
	if !ok {
		writeError(w, http.StatusInternalServerError, "internal", "the game of this table is not known")
		return
	}
	moves, err := s.store.Moves(r.Context(), meta.ID)
	if err != nil {
		s.log.Error("replay: moves", "table", meta.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the moves could not be read")
		return
	}
	body, err := buildReplay(g, playerNames(meta), meta.Options, moves, seat)
	if err != nil {
		s.log.Error("replay", "table", meta.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the game could not be replayed")
		return
	}
	writeJSON(w, http.StatusOK, body)
}

// buildReplay plays a record move by move, keeping what seat saw after each.
func buildReplay(g engine.Game, players []string, options json.RawMessage, moves []engine.LoggedMove, seat engine.Seat) (replayBody, error) {
	body := replayBody{Players: players, Seat: seat, Steps: make([]replayStep, 0, len(moves)+1)}
	st, err := g.New(players, options)
	if err != nil {
		return body, err
	}
	step := func(m *wireMove, ev []engine.Event) error {
		v, err := json.Marshal(st.View(seat))
		if err != nil {
			return err
		}
		body.Steps = append(body.Steps, replayStep{Move: m, Events: wireEvents(ev), Narration: narrate(g, ev, players),
			View: v, Turn: wireTurn(st.Turn())})
		return nil
	}
	if err := step(nil, nil); err != nil {
		return body, err
	}
	for i, lm := range moves {
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return body, fmt.Errorf("move %d: %w", i, err)
		}
		ev, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a})
		if err != nil {
			return body, fmt.Errorf("move %d: %w", i, err)
		}
		if err := step(&wireMove{Seat: lm.Seat, Action: lm.Action}, ev); err != nil {
			return body, err
		}
	}
	return body, nil
}
