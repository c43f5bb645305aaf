package server

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// replayFormat names the shape of a replay's JSON in its ETag: bump it
// when the shape changes, so that browsers and caches holding the old one
// fetch the new.
const replayFormat = 1

// replayMaxAge is how long a browser keeps a finished table's replay
// without asking again; then it asks with If-None-Match and gets 304.
const replayMaxAge = time.Hour

// buildTag tells the server's build apart in replay ETags: the commit it
// was built from when Go recorded a clean one, else (go run, tests, a
// modified tree) a tag of this process, so a changed replay never passes
// for a cached one.
var buildTag = sync.OnceValue(func() string {
	rev, clean := "", false
	if bi, ok := debug.ReadBuildInfo(); ok {
		for _, kv := range bi.Settings {
			switch kv.Key {
			case "vcs.revision":
				rev = kv.Value
			case "vcs.modified":
				clean = kv.Value == "false"
			}
		}
	}
	if len(rev) < 12 || !clean {
		rev = "p" + newID()[:11]
	}
	return fmt.Sprintf("%s.%d", rev[:12], replayFormat)
})

// replay answers GET /api/tables/{id}/replay. A finished table never
// changes, so its replay (one per seat's view) is built once, kept in the
// replay cache, and served with an ETag (table, version, seat, build) that
// lets browsers keep it too; live tables have none (409 not-over).
func (s *Server) replay(w http.ResponseWriter, r *http.Request) {
	meta, ok := s.finishedTable(w, r, true, "not-over", "replays open once the game is over")
	if !ok {
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
	// The chat may go on after the end ("good game"): its length is part
	// of what the replay is.
	last, err := s.store.ChatLatest(r.Context(), meta.ID, 1)
	if err != nil {
		s.log.Error("replay chat", "table", meta.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the game could not be replayed")
		return
	}
	chatLen := 0
	if len(last) > 0 {
		chatLen = last[0].Index + 1
	}
	key := fmt.Sprintf("%s-%d-%d-%d", meta.ID, meta.Version, seat, chatLen)
	etag := fmt.Sprintf(`"r-%s-%s"`, key, buildTag())
	w.Header().Set("ETag", etag)
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(replayMaxAge.Seconds())))
	if etagMatch(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	body, err := s.budget().replays.do(r.Context(), key, func() ([]byte, error) {
		release, ref := s.buildSlot(r.Context(), addrKey(r.RemoteAddr))
		if ref != nil {
			return nil, ref
		}
		defer release()
		moves, err := s.store.Moves(r.Context(), meta.ID)
		if err != nil {
			return nil, fmt.Errorf("moves: %w", err)
		}
		rep, err := buildReplay(g, playerNames(meta), meta.Options, moves, seat)
		if err != nil {
			return nil, err
		}
		chat, err := s.store.Chat(r.Context(), meta.ID, 0, ChatMaxLines)
		if err != nil {
			return nil, fmt.Errorf("chat: %w", err)
		}
		rep.Chat = replayChat(meta, chat, moves)
		data, err := json.Marshal(rep)
		return append(data, '\n'), err
	})
	var ref *refusal
	switch {
	case errors.As(err, &ref):
		w.Header().Del("ETag")
		w.Header().Del("Cache-Control")
		ref.write(w)
		return
	case err != nil:
		s.log.Error("replay", "table", meta.ID, "err", err)
		w.Header().Del("ETag")
		w.Header().Del("Cache-Control")
		writeError(w, http.StatusInternalServerError, "internal", "the game could not be replayed")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	_, _ = w.Write(body)
}

// finishedTable reads the table of a GET of what is made of a finished
// game (its replay, its review), answering the request itself when it
// cannot go on: over the address's rate of GETs (costly: of replays), no
// such table, or a game still running (409 with code and message).
func (s *Server) finishedTable(w http.ResponseWriter, r *http.Request, costly bool, code, message string) (store.Table, bool) {
	if !s.allowGet(w, r, costly) {
		return store.Table{}, false
	}
	meta, ok := s.getMeta(w, r, r.PathValue("id"))
	if !ok {
		return meta, false
	}
	if meta.Status != store.StatusOver {
		writeError(w, http.StatusConflict, code, message)
		return meta, false
	}
	return meta, true
}

// etagMatch reports whether an If-None-Match header names etag (weakly, as
// RFC 9110 compares for If-None-Match) or is "*".
func etagMatch(header, etag string) bool {
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == etag || t == "*" {
			return true
		}
	}
	return false
}

// buildReplay plays a record move by move, keeping what seat saw after each.
func buildReplay(g engine.Game, players []string, options json.RawMessage, moves []engine.LoggedMove, seat engine.Seat) (replayBody, error) {
	body := replayBody{Players: players, Seat: seat, Steps: make([]replayStep, 0, len(moves)+1), Chat: []chatLine{}}
	step := func(st engine.State, m *wireMove, ev []engine.Event) error {
		v, err := json.Marshal(st.View(seat))
		if err != nil {
			return err
		}
		body.Steps = append(body.Steps, replayStep{Move: m, Events: wireEvents(ev), Narration: narrate(g, ev, players),
			View: v, Turn: wireTurn(st.Turn())})
		return nil
	}
	st, err := g.New(players, options)
	if err != nil {
		return body, err
	}
	if err := step(st, nil, nil); err != nil {
		return body, err
	}
	return body, playMoves(g, st, moves, func(_ int, lm engine.LoggedMove, ev []engine.Event) error {
		return step(st, &wireMove{Seat: lm.Seat, Action: lm.Action}, ev)
	})
}
