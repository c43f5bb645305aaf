package server

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

const (
	kindHuman = "human"
	kindBot   = "bot"

	maxNameRunes   = 24
	maxTurnSeconds = 24 * 3600
	maxBotDelayMs  = 10_000
	cookiePrefix   = "dh_"
	cookieMaxAge   = 30 * 24 * 3600
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page("index.html"))
	mux.HandleFunc("GET /t/{id}", s.page("table.html"))
	mux.Handle("GET /static/", s.static())
	mux.HandleFunc("GET /api/games", s.listGames)
	mux.HandleFunc("POST /api/tables", s.createTable)
	mux.HandleFunc("GET /api/tables", s.listTables)
	mux.HandleFunc("GET /api/tables/{id}", s.getTable)
	mux.HandleFunc("POST /api/tables/{id}/join", s.joinTable)
	mux.HandleFunc("GET /api/tables/{id}/replay", s.replay)
	mux.HandleFunc("GET /ws/{id}", s.serveWS)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not-found", "no such API route")
	})
	return securityHeaders(mux)
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

// ---- pages and files

func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id := r.PathValue("id"); name == "table.html" && !validID(id) {
			http.NotFound(w, r)
			return
		}
		data, err := fs.ReadFile(s.cfg.Static, name)
		if err != nil {
			http.Error(w, "the page is missing from this build", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(data)
	}
}

func (s *Server) static() http.Handler {
	files := http.StripPrefix("/static", http.FileServerFS(s.cfg.Static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		// There is no build step and no file versioning: browsers check
		// back for every file rather than cache a stale client.
		w.Header().Set("Cache-Control", "no-cache")
		if path.Ext(r.URL.Path) == ".js" || path.Ext(r.URL.Path) == ".mjs" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		files.ServeHTTP(w, r)
	})
}

// ---- JSON helpers

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "the answer could not be encoded")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	data, _ := json.Marshal(errorBody{Error: apiError{Code: code, Message: message}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// readBody decodes a JSON request body, answering the error itself.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if !s.sameOrigin(r) {
		writeError(w, http.StatusForbidden, "cross-origin", "requests from other sites are not accepted")
		return false
	}
	if !s.posts.allow(clientAddr(r), s.clock.Now()) {
		writeError(w, http.StatusTooManyRequests, "rate-limited", "too many requests: wait a moment")
		return false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err == nil {
		err = engine.DecodeStrict(data, v)
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too-large", fmt.Sprintf("the request is larger than %d bytes", s.cfg.MaxBody))
		return false
	case len(bytes.TrimSpace(data)) == 0:
		writeError(w, http.StatusBadRequest, "malformed", "the request has no JSON body")
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, "malformed", "the request is not the expected JSON: "+err.Error())
		return false
	}
	return true
}

// sameOrigin refuses requests a browser sends on behalf of another site
// (the seat cookie would otherwise ride along).
func (s *Server) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not from a browser page
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
		return true
	}
	for _, p := range s.cfg.OriginPatterns {
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ipLimiter rate-limits POST requests per client address.
type ipLimiter struct {
	rate, burst float64
	mu          sync.Mutex
	m           map[string]*bucket
}

func (l *ipLimiter) allow(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) > 10_000 {
		// Forget clients whose bucket has refilled: they lose nothing.
		for k, b := range l.m {
			if now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.m, k)
			}
		}
	}
	b, ok := l.m[addr]
	if !ok {
		b = &bucket{rate: l.rate, burst: l.burst}
		l.m[addr] = b
	}
	return b.take(now)
}

// ---- identity

func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func newID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return idEncoding.EncodeToString(b)
}

func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// newToken returns a 256-bit seat token and the hash that is stored.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func tokenEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// presentedToken is the hash of the seat token the request carries for the
// table, or "" if it carries none that could be one.
func presentedToken(r *http.Request, id string) string {
	c, err := r.Cookie(cookiePrefix + id)
	if err != nil || len(c.Value) != 43 {
		return ""
	}
	if _, err := base64.RawURLEncoding.DecodeString(c.Value); err != nil {
		return ""
	}
	return hashToken(c.Value)
}

func setSeatCookie(w http.ResponseWriter, r *http.Request, id, token string) {
	http.SetCookie(w, &http.Cookie{Name: cookiePrefix + id, Value: token, Path: "/", MaxAge: cookieMaxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}

// cleanName checks a player's name: trimmed, 1 to 24 characters, no
// control or text-direction characters. It is stored as text; pages escape it.
func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) {
		return "", errors.New("the name is not valid text")
	}
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return "", errors.New("pick a name")
	}
	if n > maxNameRunes {
		return "", fmt.Errorf("names are at most %d characters", maxNameRunes)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f {
			return "", errors.New("the name contains a control character")
		}
	}
	return name, nil
}

func parseSettings(raw json.RawMessage) (settings, error) {
	var set settings
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return set, nil
	}
	if err := engine.DecodeStrict(raw, &set); err != nil {
		return set, fmt.Errorf("settings: %w", err)
	}
	if set.TurnSeconds < 0 || set.TurnSeconds > maxTurnSeconds {
		return set, fmt.Errorf("settings: turnSeconds must be between 0 (no clock) and %d", maxTurnSeconds)
	}
	if set.BotDelayMs != nil && (*set.BotDelayMs < 0 || *set.BotDelayMs > maxBotDelayMs) {
		return set, fmt.Errorf("settings: botDelayMs must be between 0 and %d", maxBotDelayMs)
	}
	return set, nil
}

// ---- API

func (s *Server) listGames(w http.ResponseWriter, r *http.Request) {
	out := []engine.Info{}
	for _, id := range s.games.IDs() {
		g, _ := s.games.Lookup(id)
		out = append(out, g.Info())
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
	name, err := cleanName(req.Name)
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
			base := strings.ToUpper(sr.Bot[:1]) + sr.Bot[1:] + " bot"
			botNames[base]++
			seats[i].Name = base
			if k := botNames[base]; k > 1 {
				seats[i].Name = fmt.Sprintf("%s %d", base, k)
			}
		}
	}
	if seats[0].Kind != kindHuman && !watchOnly {
		bad("bad-seats", "the first seat is yours: it must be a human seat")
		return
	}
	set, err := parseSettings(req.Settings)
	if err != nil {
		bad("bad-settings", err.Error())
		return
	}
	var options json.RawMessage
	if trimmed := bytes.TrimSpace(req.Options); len(trimmed) > 0 && string(trimmed) != "null" {
		var buf bytes.Buffer
		if err := json.Compact(&buf, trimmed); err != nil {
			bad("bad-options", "the options are not JSON")
			return
		}
		options = buf.Bytes()
	}
	token, hash := newToken()
	if !watchOnly {
		seats[0].Name, seats[0].TokenHash = name, hash
	}
	now := s.clock.Now().UTC().Truncate(time.Millisecond)
	meta := store.Table{Game: g.Info().ID, Options: options, Settings: mustJSON(set), Seed: newSeed(),
		Seats: seats, Status: store.StatusOpen, Created: now, Updated: now}
	t, err := s.newTable(meta)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "the table could not be set up")
		return
	}
	if t.seatsFilled() {
		t.meta.Status = store.StatusLive
	}
	st, err := g.New(t.players(), options)
	if err != nil {
		t.stop()
		bad("bad-options", err.Error())
		return
	}
	t.state = st
	for range 3 { // an ID clash is astronomically rare; try again anyway
		t.meta.ID = newID()
		t.id = t.meta.ID
		ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
		err = s.store.CreateTable(ctx, t.meta)
		cancel()
		if !errors.Is(err, store.ErrExists) {
			break
		}
	}
	if err != nil {
		t.stop()
		s.log.Error("table not stored", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the table could not be saved")
		return
	}
	t.log = s.log.With("table", t.id)
	t.publish()
	if _, err := s.start(t, false); err != nil {
		writeError(w, http.StatusServiceUnavailable, "closing", "the server is shutting down")
		return
	}
	s.log.Info("table created", "table", t.id, "game", g.Info().ID, "seats", len(seats))
	w.Header().Set("Location", "/t/"+t.id)
	if watchOnly {
		writeJSON(w, http.StatusCreated, map[string]any{"id": t.id, "seat": engine.Spectator})
		return
	}
	setSeatCookie(w, r, t.id, token)
	writeJSON(w, http.StatusCreated, map[string]any{"id": t.id, "seat": 0})
}

func (s *Server) listTables(w http.ResponseWriter, r *http.Request) {
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
	f := store.Filter{Status: statuses, Game: r.URL.Query().Get("game"), Limit: limit}
	if s.cfg.OpenExpiry > 0 {
		f.OpenSince = s.clock.Now().Add(-s.cfg.OpenExpiry)
	}
	metas, err := s.store.List(r.Context(), f)
	if err != nil {
		s.log.Error("list tables", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the tables could not be listed")
		return
	}
	out := make([]TableSummary, 0, len(metas))
	for _, m := range metas {
		out = append(out, s.summaryOf(r.Context(), m))
	}
	writeJSON(w, http.StatusOK, out)
}

// summaryOf describes a table: live from its actor when it runs, else from
// its row (a finished table's stored result included), without replaying
// its moves. A table that finished before results were stored is loaded
// once: its actor stores the result and stops again.
func (s *Server) summaryOf(ctx context.Context, meta store.Table) TableSummary {
	if t := s.running(meta.ID); t != nil {
		if sum := t.summary.Load(); sum != nil {
			return *sum
		}
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
	return summarize(meta, gameOrUnknown(s.games, meta.Game), nil)
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
	name, err := cleanName(req.Name)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad-name", err.Error())
		return
	}
	token, hash := newToken()
	presented := presentedToken(r, id)
	var res joinResult
	for attempt := 0; ; attempt++ {
		t, release, err := s.actor(r.Context(), id)
		if errors.Is(err, store.ErrNotFound) {
			writeError(w, http.StatusNotFound, "not-found", "there is no such table")
			return
		}
		if err != nil {
			s.log.Error("join: table not loaded", "table", id, "err", err)
			writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
			return
		}
		res, err = call(r.Context(), t, func() joinResult { return t.join(*req.Seat, name, hash, presented) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			continue
		}
		if err != nil {
			writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
			return
		}
		break
	}
	if res.status != http.StatusOK {
		writeError(w, res.status, res.code, res.msg)
		return
	}
	setSeatCookie(w, r, id, token)
	writeJSON(w, http.StatusOK, map[string]any{"seat": *req.Seat})
}

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

// ---- WebSocket

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.track() {
		writeError(w, http.StatusServiceUnavailable, "closing", "the server is shutting down")
		return
	}
	defer s.wg.Done()
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	t, release, err := s.actor(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	if err != nil {
		s.log.Error("ws: table not loaded", "table", id, "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		release()
		return // Accept has answered the request
	}
	ws.SetReadLimit(hardFrameLimit)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	c := &conn{s: s, ws: ws, tokenHash: presentedToken(r, id), send: make(chan []byte, s.cfg.SendQueue),
		ctx: ctx, cancel: cancel, log: s.log.With("table", id, "remote", clientAddr(r)),
		bucket: bucket{rate: s.cfg.MsgRate, burst: float64(s.cfg.MsgBurst)}}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()
	defer func() {
		cancel()
		<-writerDone
		_ = ws.CloseNow()
	}()
	// The hold keeps the actor from stopping for idleness before the
	// connection is attached (from then on the connection keeps it).
	for attempt := 0; ; attempt++ {
		var aerr error
		aerr, err = call(ctx, t, func() error { return t.attach(c) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			if t, release, err = s.actor(ctx, id); err == nil {
				continue
			}
		}
		if err == nil {
			err = aerr
		}
		break
	}
	if err != nil {
		_ = ws.Close(websocket.StatusTryAgainLater, clip(err.Error(), 100))
		return
	}
	c.t = t
	c.readLoop()
	// The table must hear that the connection went, even when its inbox is
	// full for a moment.
	dctx, dcancel := context.WithTimeout(s.ctx, 5*time.Second)
	_ = t.postWait(dctx, func() { t.detach(c) })
	dcancel()
}
