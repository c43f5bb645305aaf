package server

import (
	"net/http"
	"time"

	"github.com/dicehall/dicehall/store"
)

// rematchMsg tells every connection of a finished table that a rematch
// was made.
type rematchMsg struct {
	Type  string       `json:"type"` // "rematch"
	Table TableSummary `json:"table"`
}

// rematchResult answers a rematch request.
type rematchResult struct {
	ref     *refusal
	id      string
	created bool   // this request made the table: 201, and the caller's seat
	token   string // the caller's seat token at the new table (created only)
}

// rematch answers POST /api/tables/{id}/rematch: a seated player of a
// finished table asks to play again. The first request makes the new table
// (same game, options, settings and seats: bots alike, the caller in the
// same seat, other human seats free), within the caller's table budgets;
// every later one answers with the same table.
func (s *Server) rematch(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	if !s.allowPost(w, r) {
		return
	}
	holder := seatHolder{token: presentedToken(r, id), account: s.accountID(r)}
	cr := s.creatorOf(r)
	res, ok := callTable(s, w, r, id, "rematch", func(t *table) rematchResult { return t.rematch(r, holder, cr) })
	if !ok {
		return
	}
	if res.ref != nil {
		res.ref.write(w)
		return
	}
	w.Header().Set("Location", "/t/"+res.id)
	if !res.created {
		writeJSON(w, http.StatusOK, map[string]any{"id": res.id})
		return
	}
	if cr.cookie != "" {
		setCreatorCookie(w, r, cr.cookie)
	}
	setSeatCookie(w, r, res.id, res.token)
	writeJSON(w, http.StatusCreated, map[string]any{"id": res.id})
}

// rematch makes (once) the table that plays this one again; run in the
// actor, so two requests at once make one table.
func (t *table) rematch(r *http.Request, holder seatHolder, cr creator) rematchResult {
	seat := seatOf(t.meta, holder.token, holder.account)
	switch {
	case seat < 0:
		return rematchResult{ref: &refusal{http.StatusForbidden, "not-seated", "only the players of this table can ask for a rematch"}}
	case t.meta.Status != store.StatusOver:
		return rematchResult{ref: &refusal{http.StatusConflict, "not-over", "a rematch can be asked for once the game is over"}}
	case t.meta.Rematch != "":
		return rematchResult{id: t.meta.Rematch}
	}
	token, hash := newToken()
	seats := make([]store.Seat, len(t.meta.Seats))
	for i, st := range t.meta.Seats {
		seats[i] = store.Seat{Kind: st.Kind, Bot: st.Bot}
		switch {
		case st.Kind == kindBot:
			seats[i].Name = st.Name
		case i == seat:
			seats[i].Name, seats[i].TokenHash, seats[i].Account, seats[i].Former = st.Name, hash, st.Account, st.Former
		}
	}
	now := t.s.clock.Now().UTC().Truncate(time.Millisecond)
	meta := store.Table{Game: t.meta.Game, Options: t.meta.Options, Settings: t.meta.Settings, Seed: newSeed(),
		Seats: seats, Status: store.StatusOpen, Created: now, Updated: now}
	nt, ref := t.s.openTable(r.Context(), meta, cr)
	if ref != nil {
		return rematchResult{ref: ref}
	}
	t.log.Info("rematch made", "rematch", nt.id, "by", seat)
	// The new table exists whether or not this write lands: while the actor
	// runs it answers with it anyway.
	t.meta.Rematch = nt.id
	if err := t.saveMeta(false); err != nil {
		t.log.Error("rematch not stored with the table", "rematch", nt.id, "err", err)
	}
	msg := mustJSON(rematchMsg{Type: "rematch", Table: *nt.summary.Load()})
	for c := range t.conns {
		c.enqueue(msg)
	}
	return rematchResult{id: nt.id, created: true, token: token}
}
