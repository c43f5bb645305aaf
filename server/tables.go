package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

func parseSettings(raw json.RawMessage) (settings, error) {
	var set settings
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return set, nil
	}
	if err := engine.DecodeStrict(raw, &set); err != nil {
		return set, fmt.Errorf("settings: %w", err)
	}
	if err := set.checkPace(); err != nil {
		return set, fmt.Errorf("settings: %w", err)
	}
	if set.BotDelayMs != nil && (*set.BotDelayMs < 0 || *set.BotDelayMs > maxBotDelayMs) {
		return set, fmt.Errorf("settings: botDelayMs must be between 0 and %d", maxBotDelayMs)
	}
	if set.Chat != "" && set.Chat != chatAll && set.Chat != chatPlayers {
		return set, fmt.Errorf("settings: chat is %q (everybody may write) or %q (only the players)", chatAll, chatPlayers)
	}
	return set, nil
}

// ---- API

// gameInfo is a game of GET /api/games: its description, and the expiry
// policies a turn-based table of it may choose (none: real time only).
type gameInfo struct {
	engine.Info
	Expiries []string `json:"expiries"`
}

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	out := []gameInfo{}
	for _, id := range s.games.IDs() {
		g, _ := s.games.Lookup(id)
		out = append(out, gameInfo{Info: g.Info(), Expiries: expiries(g)})
	}
	writeJSON(w, http.StatusOK, out)
}

func (s *Server) createTable(w http.ResponseWriter, r *http.Request) {
	var req createRequest
	if !s.readBody(w, r, &req) {
		return
	}
	bad := func(code, msg string) { writeError(w, http.StatusBadRequest, code, msg) }
	g, ok := s.games.Lookup(req.Game)
	if !ok {
		bad("unknown-game", fmt.Sprintf("there is no game %q here", clip(req.Game, 32)))
		return
	}
	// A table of bots only is for watching: its creator takes no seat.
	watchOnly := len(req.Seats) > 0 && !slices.ContainsFunc(req.Seats, func(sr seatRequest) bool { return sr.Kind != kindBot })
	acct, signedIn := s.account(r)
	name, err := s.personName(req.Name)
	if signedIn {
		name, err = acct.Name, nil // a signed-in player plays under their account's name
	}
	if err != nil && !watchOnly {
		bad("bad-name", err.Error())
		return
	}
	if n := len(req.Seats); n < g.Info().MinPlayers || n > g.Info().MaxPlayers {
		bad("bad-seats", fmt.Sprintf("%s is played by %d to %d seats", g.Info().Title, g.Info().MinPlayers, g.Info().MaxPlayers))
		return
	}
	bp, _ := g.(engine.BotProvider)
	var kinds []string
	if bp != nil {
		kinds = g.Info().BotKinds()
	}
	seats := make([]store.Seat, len(req.Seats))
	botNames := map[string]int{}
	for i, sr := range req.Seats {
		switch sr.Kind {
		case kindHuman:
		case kindBot:
			if bp == nil {
				bad("bad-seats", g.Info().Title+" has no bots")
				return
			}
			if sr.Bot == "" {
				sr.Bot = defaultBot(g)
			}
		default:
			bad("bad-seats", fmt.Sprintf("seat %d: a seat is \"human\" or \"bot\"", i))
			return
		}
		if sr.Bot != "" && !slices.Contains(kinds, sr.Bot) {
			bad("bad-seats", fmt.Sprintf("seat %d: there is no %q bot (have %s)", i, clip(sr.Bot, 24), strings.Join(kinds, ", ")))
			return
		}
		seats[i] = store.Seat{Kind: sr.Kind, Bot: sr.Bot}
		if sr.Kind == kindBot {
			botNames[sr.Bot]++
			seats[i].Name = botSeatName(sr.Bot, botNames[sr.Bot])
		}
	}
	if seats[0].Kind != kindHuman && !watchOnly {
		bad("bad-seats", "the first seat is yours: it must be a human seat")
		return
	}
	set, err := parseSettings(req.Settings)
	if err == nil {
		err = set.fitsGame(g)
	}
	if err != nil {
		bad("bad-settings", err.Error())
		return
	}
	var options json.RawMessage
	if trimmed := bytes.TrimSpace(req.Options); len(trimmed) > 0 && string(trimmed) != "null" {
		if !utf8.Valid(trimmed) {
			// Kept raw, they would reach the store and the lobby as they came.
			bad("bad-options", "the options are not valid text")
			return
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, trimmed); err != nil {
			bad("bad-options", "the options are not JSON")
			return
		}
		options = buf.Bytes()
	}
	token, hash := newToken()
	if !watchOnly {
		seats[0].Name, seats[0].TokenHash, seats[0].Account = name, hash, acct.ID
	}
	now := s.clock.Now().UTC().Truncate(time.Millisecond)
	meta := store.Table{Game: g.Info().ID, Options: options, Settings: mustJSON(set), Seed: newSeed(),
		Seats: seats, Status: store.StatusOpen, Created: now, Updated: now}
	cr := s.creatorOf(r)
	t, ref := s.openTable(r.Context(), meta, cr)
	if ref != nil {
		ref.write(w)
		return
	}
	s.log.Info("table created", "table", t.id, "game", g.Info().ID, "seats", len(seats))
	if cr.cookie != "" {
		setCreatorCookie(w, r, cr.cookie)
	}
	w.Header().Set("Location", "/t/"+t.id)
	if watchOnly {
		writeJSON(w, http.StatusCreated, map[string]any{"id": t.id, "seat": engine.Spectator})
		return
	}
	setSeatCookie(w, r, t.id, token)
	writeJSON(w, http.StatusCreated, map[string]any{"id": t.id, "seat": 0})
}

// openTable sets a new table up (its state from the game's New; live at
// once if no human seat is free), stores it within its creator's budgets
// and starts its actor. Whatever stops it is returned as the refusal to
// answer.
func (s *Server) openTable(ctx context.Context, meta store.Table, cr creator) (*table, *refusal) {
	t, err := s.newTable(meta)
	if err != nil {
		s.log.Error("table not set up", "err", err)
		return nil, &refusal{http.StatusInternalServerError, "internal", "the table could not be set up"}
	}
	if t.seatsFilled() {
		t.meta.Status = store.StatusLive
	}
	st, err := t.game.New(t.players(), meta.Options)
	if err != nil {
		t.stop()
		return nil, &refusal{http.StatusBadRequest, "bad-options", err.Error()}
	}
	t.state = st
	t.observeMove(0) // the first turn (its clock counts from when the table goes live)
	t.meta.Creator, t.meta.CreatorAddr = cr.key, cr.addr
	ref, err := s.storeNewTable(ctx, t, cr)
	if ref != nil {
		t.stop()
		s.log.Debug("table refused", "code", ref.code, "addr", cr.addr)
		return nil, ref
	}
	if err != nil {
		t.stop()
		s.log.Error("table not stored", "err", err)
		return nil, &refusal{http.StatusInternalServerError, "internal", "the table could not be saved"}
	}
	t.log = s.log.With("table", t.id)
	t.publish()
	if s.clustered() {
		l, err := s.acquire(ctx, t.id)
		var remote *errRemote
		if errors.As(err, &remote) {
			t.stop() // another node took it up already (its live tables at start)
			return t, nil
		}
		if err != nil {
			t.stop()
			s.log.Error("new table not leased", "table", t.id, "err", err)
			return nil, &refusal{http.StatusServiceUnavailable, "unavailable", "the table was saved but cannot be started now: open it again"}
		}
		t.lease, t.leasedAt = l, time.Now()
	}
	if _, err := s.start(t, false); err != nil {
		return nil, &refusal{http.StatusServiceUnavailable, "closing", "the server is shutting down"}
	}
	return t, nil
}

// storeNewTable stores the table under a fresh ID if the creator's
// budgets allow it; the store counts and inserts as one step, so that
// racing creates, on this node or another, cannot overspend a budget. A
// refusal is returned, not written.
func (s *Server) storeNewTable(ctx context.Context, t *table, cr creator) (*refusal, error) {
	ctx, cancel := context.WithTimeout(ctx, s.cfg.StoreTimeout)
	defer cancel()
	budgets := s.budgetCaps(cr, t.meta.Status == store.StatusOpen)
	caps := make([]store.Cap, len(budgets))
	for i, b := range budgets {
		caps[i] = store.Cap{Filter: b.f, Max: b.limit}
	}
	var err error
	for range 3 { // an ID clash is astronomically rare; try again anyway
		t.meta.ID = newID()
		t.id = t.meta.ID
		var spent int
		spent, err = s.store.CreateTableCapped(ctx, t.meta, caps)
		if spent >= 0 {
			return &budgets[spent].ref, nil
		}
		if !errors.Is(err, store.ErrExists) {
			break
		}
	}
	return nil, err
}

// listTables answers GET /api/tables: the lobby. Each list shows what a
// person would want to join or watch first, not the newest tables: tables
// someone is at now (an open table whose seated player is connected,
// waiting for others; a live table being played), then the others by their
// last join or change (finished ones by when they ended); at most
// Budgets.LobbyPerCreator tables of one creator. Expired open tables and
// abandoned live ones are left out.
func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	greetCreator(w, r)
	var statuses []string
	if q := r.URL.Query().Get("status"); q != "" {
		for _, st := range strings.Split(q, ",") {
			switch st = strings.TrimSpace(st); st {
			case store.StatusOpen, store.StatusLive, store.StatusOver:
				statuses = append(statuses, st)
			default:
				writeError(w, http.StatusBadRequest, "bad-status", fmt.Sprintf("status is a list of open, live and over, not %q", clip(st, 16)))
				return
			}
		}
	}
	limit := 100
	if q := r.URL.Query().Get("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > 100 {
			writeError(w, http.StatusBadRequest, "bad-limit", "limit is a number from 1 to 100")
			return
		}
		limit = n
	}
	per := max(s.cfg.Budgets.LobbyPerCreator, 0)
	f := store.Filter{Status: statuses, Game: r.URL.Query().Get("game"), Limit: limit, PerCreator: per}
	if s.cfg.OpenExpiry > 0 {
		f.OpenSince = s.clock.Now().Add(-s.cfg.OpenExpiry)
	}
	if s.cfg.AbandonAfter > 0 {
		f.SeenSince = s.clock.Now().Add(-s.cfg.AbandonAfter)
	}
	metas, err := s.store.List(r.Context(), f)
	if err != nil {
		s.log.Error("list tables", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the tables could not be listed")
		return
	}
	out := make([]TableSummary, 0, len(metas))
	listed := map[string]bool{}
	for _, m := range metas {
		listed[m.ID] = true
		if sum := s.summaryOf(r.Context(), m); !s.abandoned(sum) {
			out = append(out, sum)
		}
	}
	// Tables someone is at now may be older than the store's page.
	for _, sum := range s.runningSummaries() {
		if !listed[sum.ID] && s.present(sum) && (len(statuses) == 0 || slices.Contains(statuses, sum.Status)) &&
			(f.Game == "" || sum.Game == f.Game) && !s.expiredSummary(sum) && !s.abandoned(sum) {
			out = append(out, sum)
		}
	}
	present := map[string]bool{}
	for _, sum := range out {
		present[sum.ID] = s.present(sum)
	}
	slices.SortStableFunc(out, func(a, b TableSummary) int {
		if pa, pb := present[a.ID], present[b.ID]; pa != pb {
			if pa {
				return -1
			}
			return 1
		}
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	if per > 0 {
		shown := map[string]int{}
		kept := out[:0]
		for _, sum := range out {
			who := "c:" + sum.creator
			if sum.creator == "" {
				who = "t:" + sum.ID
			}
			if shown[who]++; shown[who] <= per {
				kept = append(kept, sum)
			}
		}
		out = kept
	}
	if len(out) > limit {
		out = out[:limit]
	}
	writeJSON(w, http.StatusOK, out)
}

// runningSummaries are the summaries of the tables whose actor runs, here
// or on another node.
func (s *Server) runningSummaries() []TableSummary {
	s.mu.Lock()
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	out := s.runningElsewhere()
	for _, t := range tables {
		if sum := t.summary.Load(); sum != nil {
			out = append(out, *sum)
		}
	}
	return out
}

// present reports whether someone is at a table now: a seated player
// connected to an open table (waiting for others), or a live table's actor
// running, here or on another node (people connected, bots playing, a
// clock running).
func (s *Server) present(sum TableSummary) bool {
	switch sum.Status {
	case store.StatusOpen:
		return slices.ContainsFunc(sum.Seats, func(st SeatSummary) bool { return st.Connected })
	case store.StatusLive:
		if s.running(sum.ID) != nil {
			return true
		}
		_, ok := s.elsewhere(sum.ID)
		return ok
	}
	return false
}

// expiredSummary is Server.expired for a table's summary.
func (s *Server) expiredSummary(sum TableSummary) bool {
	return s.expired(store.Table{Status: sum.Status, Updated: sum.Updated})
}

// summaryOf describes a table: live from its actor when it runs (here, or
// as its node last told), else from its row (a finished table's stored
// result included), without replaying its moves. A table that finished
// before results were stored is loaded once: its actor stores the result
// and stops again.
func (s *Server) summaryOf(ctx context.Context, meta store.Table) TableSummary {
	if t := s.running(meta.ID); t != nil {
		if sum := t.summary.Load(); sum != nil {
			return *sum
		}
	}
	if sum, ok := s.elsewhere(meta.ID); ok && sum.Version >= meta.Version {
		return sum
	}
	if meta.Status == store.StatusOver && meta.Result == nil {
		t, release, err := s.actor(ctx, meta.ID)
		if err == nil {
			var sum TableSummary
			sum, err = call(ctx, t, t.publish)
			release()
			if err == nil {
				return sum
			}
		}
		s.log.Error("table not readable", "table", meta.ID, "err", err)
	}
	sum := summarize(meta, gameOrUnknown(s.games, meta.Game), nil)
	s.linkProfiles(sum.Seats, meta)
	return sum
}

type unknownGame struct{ id string }

func (g unknownGame) Info() engine.Info { return engine.Info{ID: g.id, Title: g.id} }
func (unknownGame) New([]string, json.RawMessage) (engine.State, error) {
	return nil, errors.New("unknown game")
}
func (unknownGame) DecodeAction([]byte) (engine.Action, error) {
	return nil, errors.New("unknown game")
}

func gameOrUnknown(r *engine.Registry, id string) engine.Game {
	if g, ok := r.Lookup(id); ok {
		return g
	}
	return unknownGame{id}
}

func (s *Server) getTable(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	greetCreator(w, r)
	id := r.PathValue("id")
	if t := s.running(id); validID(id) && t != nil {
		writeJSON(w, http.StatusOK, *t.summary.Load())
		return
	}
	meta, ok := s.getMeta(w, r, id)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, s.summaryOf(r.Context(), meta))
}

func (s *Server) getMeta(w http.ResponseWriter, r *http.Request, id string) (store.Table, bool) {
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return store.Table{}, false
	}
	meta, err := s.store.GetTable(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return meta, false
	}
	if err != nil {
		s.log.Error("get table", "table", id, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the table could not be read")
		return meta, false
	}
	return meta, true
}

func (s *Server) joinTable(w http.ResponseWriter, r *http.Request) {
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	var req joinRequest
	if !s.readBody(w, r, &req) {
		return
	}
	if req.Seat == nil {
		writeError(w, http.StatusBadRequest, "bad-seat", "say which seat to take")
		return
	}
	acct, signedIn := s.account(r)
	name, err := s.personName(req.Name)
	if signedIn {
		name, err = acct.Name, nil
	}
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad-name", err.Error())
		return
	}
	token, hash := newToken()
	holder := seatHolder{token: presentedToken(r, id), account: acct.ID}
	res, ok := callTable(s, w, r, id, "join", func(t *table) joinResult { return t.join(*req.Seat, name, hash, holder) })
	if !ok {
		return
	}
	if res.status != http.StatusOK {
		writeError(w, res.status, res.code, res.msg)
		return
	}
	setSeatCookie(w, r, id, token)
	writeJSON(w, http.StatusOK, map[string]any{"seat": *req.Seat})
}
