package server

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/rating"
	"github.com/dicehall/dicehall/store"
)

// Ratings (docs/protocol.md, Ratings). A finished table is rated when it
// had two seats or more, every seat held by an account (no guest, no bot
// seat), each account at one seat only, and its creator left the "rated"
// setting on. Its seats are placed by ratingPlaces; the store applies the
// new ratings exactly once per table (store.RateTable), when the game
// ends and, for a table a crash or a store failure left unrated, at the
// next sweep (at startup and every ratingSweepEvery).

const (
	// ratingSweepEvery is how often finished tables are looked at again
	// for ratings not applied yet.
	ratingSweepEvery = 10 * time.Minute
	// ratingSweepStart and ratingSweep bound a sweep: the latest finished
	// tables it looks at, at startup and then each time. A table is rated
	// when it ends; a sweep only catches up on the few a failure missed,
	// among the latest ones.
	ratingSweepStart = 1000
	ratingSweep      = 200
	// profileTables bounds the finished tables a profile's statistics
	// come from (the latest).
	profileTables = 1000
	// ratingHistory bounds a profile's rating points per game.
	ratingHistory = 100
)

// DefaultMinRatedGames is Config.MinRatedGames's default: on a small site
// every rated player is on the leaderboard (μ − 3σ already ranks a
// player with few games low, for their uncertain σ); a busy site asks for
// more.
const DefaultMinRatedGames = 1

// ratedAccounts says whether a finished table is rated, and if so the
// accounts of its seats, in seat order.
func ratedAccounts(meta store.Table) ([]string, bool) {
	if meta.Status != store.StatusOver || meta.Result == nil || len(meta.Seats) < 2 {
		return nil, false
	}
	if set, err := parseSettings(meta.Settings); err != nil || !set.rated() {
		return nil, false
	}
	return seatAccounts(meta.Seats)
}

// seatAccounts is the seats' accounts when every seat is a person's with
// an account, each account at one seat only.
func seatAccounts(seats []store.Seat) ([]string, bool) {
	out := make([]string, len(seats))
	for i, st := range seats {
		if st.Kind != kindHuman || st.Account == "" || slices.Contains(out[:i], st.Account) {
			return nil, false
		}
		out[i] = st.Account
	}
	return out, true
}

// ratable reports whether a table may still be rated as it stands: the
// lobby's "rated" mark. An open or live table is, while its setting is on,
// it has two seats or more, no bot seat, and every taken seat's account
// differs from the others'; a finished one is if ratedAccounts says so.
func ratable(meta store.Table) bool {
	if meta.Status == store.StatusOver {
		_, ok := ratedAccounts(meta)
		return ok
	}
	if set, err := parseSettings(meta.Settings); err != nil || !set.rated() || len(meta.Seats) < 2 {
		return false
	}
	seen := map[string]bool{}
	for _, st := range meta.Seats {
		switch {
		case st.Kind != kindHuman:
			return false
		case st.TokenHash == "": // free: whoever takes it decides
		case st.Account == "" || seen[st.Account]:
			return false
		}
		seen[st.Account] = true
	}
	return true
}

// ratingPlaces ranks a finished table's seats, 0 first: the winners share
// the first place, the others follow by score, highest first (equal scores
// share a place); a seat a bot was playing at the end (TakenOver) ranks
// after every other, tied with any other such seat. It is the order of
// the lobby's final ranking (home.js ranking), with abandoned seats last.
func ratingPlaces(res engine.Result, seats []store.Seat) []int {
	type key struct {
		left, lost bool
		score      int
	}
	keys := make([]key, len(seats))
	for i, st := range seats {
		keys[i] = key{left: st.TakenOver, lost: !slices.Contains(res.Winners, engine.Seat(i))}
		if i < len(res.Scores) {
			keys[i].score = res.Scores[i]
		}
	}
	ahead := func(a, b key) bool {
		switch {
		case a.left || b.left:
			return !a.left && b.left
		case a.lost != b.lost:
			return !a.lost
		}
		return a.score > b.score
	}
	places := make([]int, len(seats))
	for i, k := range keys {
		for _, o := range keys {
			if ahead(o, k) {
				places[i]++
			}
		}
	}
	return places
}

// rateTable applies a finished table's ratings if it is rated and they
// were not applied yet; it says whether it applied them now.
func (s *Server) rateTable(ctx context.Context, meta store.Table) (bool, error) {
	accounts, ok := ratedAccounts(meta)
	if !ok {
		return false, nil
	}
	places := ratingPlaces(*meta.Result, meta.Seats)
	model := rating.DefaultModel()
	return s.store.RateTable(ctx, meta.ID, meta.Game, accounts, meta.Updated, func(prior []store.Rating) ([]store.Rating, error) {
		before := make([]rating.Rating, len(prior))
		for i, p := range prior {
			before[i] = rating.Rating{Mu: p.Mu, Sigma: p.Sigma}
			if p.Games == 0 {
				before[i] = model.New()
			}
		}
		after, err := model.Rate(before, places)
		if err != nil {
			return nil, err
		}
		out := slices.Clone(prior)
		for i := range out {
			out[i].Mu, out[i].Sigma = after[i].Mu, after[i].Sigma
		}
		return out, nil
	})
}

// rate applies the table's ratings when its game has just ended (the
// status is stored). A failure is the next sweep's to repair.
func (t *table) rate() {
	ctx, cancel := context.WithTimeout(context.Background(), t.s.cfg.StoreTimeout)
	defer cancel()
	if applied, err := t.s.rateTable(ctx, t.meta); err != nil {
		t.log.Error("ratings not applied; the next sweep tries again", "err", err)
	} else if applied {
		t.log.Info("ratings applied")
	}
}

// sweepRatings rates the latest limit finished tables that are rated and
// were not rated yet, oldest first; it says how many it rated.
func (s *Server) sweepRatings(ctx context.Context, limit int) (int, error) {
	metas, err := s.store.List(ctx, store.Filter{Status: []string{store.StatusOver}, Limit: limit})
	if err != nil {
		return 0, fmt.Errorf("list finished tables: %w", err)
	}
	n := 0
	for _, meta := range slices.Backward(metas) {
		if _, ok := ratedAccounts(meta); !ok {
			continue
		}
		if done, err := s.store.Rated(ctx, meta.ID); err != nil || done {
			continue
		}
		applied, err := s.rateTable(ctx, meta)
		if err != nil {
			s.log.Error("ratings not applied", "table", meta.ID, "err", err)
			continue
		}
		if applied {
			n++
		}
	}
	return n, nil
}

// sweepRatingsLater arms the next periodic sweep, in real time (it is
// no table's timer: the tests' fake clocks count those).
func (s *Server) sweepRatingsLater() {
	time.AfterFunc(ratingSweepEvery, func() {
		if !s.track() {
			return
		}
		defer s.wg.Done()
		ctx, cancel := context.WithTimeout(s.ctx, time.Minute)
		n, err := s.sweepRatings(ctx, ratingSweep)
		cancel()
		if err != nil {
			s.log.Error("rating sweep", "err", err)
		} else if n > 0 {
			s.log.Info("rating sweep", "rated", n)
		}
		s.sweepRatingsLater()
	})
}

// ---- profile names at tables

// profiles caches account names by account ID, for the profile links of
// seats (SeatSummary.Profile): a table's summary is drawn often, an
// account's name never changes.
type profiles struct {
	mu    sync.Mutex
	names map[string]string // "" = no such account (deleted)
}

const profileCache = 4096

// profileName is the name of the account holding a seat, for a link to its
// profile; "" for none.
func (s *Server) profileName(account string) string {
	if account == "" {
		return ""
	}
	p := &s.profiles
	p.mu.Lock()
	name, ok := p.names[account]
	p.mu.Unlock()
	if ok {
		return name
	}
	ctx, cancel := context.WithTimeout(s.ctx, s.cfg.StoreTimeout)
	defer cancel()
	a, err := s.store.GetAccount(ctx, account)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		return "" // not cached: the store may answer next time
	}
	p.mu.Lock()
	if p.names == nil || len(p.names) >= profileCache {
		p.names = map[string]string{}
	}
	p.names[account] = a.Name
	p.mu.Unlock()
	return a.Name
}

// linkProfiles fills in the seats' profile names from the table's row.
func (s *Server) linkProfiles(seats []SeatSummary, meta store.Table) {
	for i := range seats {
		if i < len(meta.Seats) {
			seats[i].Profile = s.profileName(meta.Seats[i].Account)
		}
	}
}

// ---- GET /api/leaderboard/{game}

// LeaderRow is one line of a leaderboard.
type LeaderRow struct {
	Rank int    `json:"rank"`
	Name string `json:"name"`
	// Rating is the number shown: μ − 3σ, rounded.
	Rating int     `json:"rating"`
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
	Games  int     `json:"games"`
	// You marks the signed-in account's row.
	You bool `json:"you,omitempty"`
}

// Leaderboard is the answer of GET /api/leaderboard/{game}.
type Leaderboard struct {
	Game     string      `json:"game"`
	MinGames int         `json:"minGames"`
	Total    int         `json:"total"`
	Offset   int         `json:"offset"`
	Limit    int         `json:"limit"`
	Rows     []LeaderRow `json:"rows"`
}

const maxPage = 100

// boardGame is the leaderboard to open on when none is asked for: the
// game the account (if any) has played the most rated games of, else the
// one with the most players on its board, else the first game (by ID).
func (s *Server) boardGame(ctx context.Context, account string) (string, error) {
	ids := s.games.IDs()
	if len(ids) == 0 {
		return "", nil
	}
	best, most := ids[0], 0
	if account != "" {
		rs, err := s.store.Ratings(ctx, account)
		if err != nil {
			return "", err
		}
		for _, rt := range rs {
			if _, ok := s.games.Lookup(rt.Game); ok && (rt.Games > most || rt.Games == most && most > 0 && rt.Game < best) {
				best, most = rt.Game, rt.Games
			}
		}
		if most > 0 {
			return best, nil
		}
	}
	for _, id := range ids {
		_, n, err := s.store.Leaderboard(ctx, id, s.cfg.MinRatedGames, 0, 1)
		if err != nil {
			return "", err
		}
		if n > most {
			best, most = id, n
		}
	}
	return best, nil
}

// pageParams reads ?offset=&limit= (limit 1 to maxPage, def by default);
// false once it has answered a bad request.
func pageParams(w http.ResponseWriter, r *http.Request, def int) (offset, limit int, ok bool) {
	offset, limit = 0, def
	if q := r.URL.Query().Get("offset"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 0 || n > 1_000_000 {
			writeError(w, http.StatusBadRequest, "bad-offset", "offset is a number from 0")
			return 0, 0, false
		}
		offset = n
	}
	if q := r.URL.Query().Get("limit"); q != "" {
		n, err := strconv.Atoi(q)
		if err != nil || n < 1 || n > maxPage {
			writeError(w, http.StatusBadRequest, "bad-limit", fmt.Sprintf("limit is a number from 1 to %d", maxPage))
			return 0, 0, false
		}
		limit = n
	}
	return offset, limit, true
}

// displayRating is the leaderboard's number for μ and σ: μ − 3σ, rounded.
func displayRating(mu, sigma float64) int {
	return int(math.Round(rating.Rating{Mu: mu, Sigma: sigma}.Display()))
}

// leaderboard answers GET /api/leaderboard/{game}, and GET
// /api/leaderboard (no game) with the board boardGame picks for the
// request.
func (s *Server) leaderboard(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	offset, limit, ok := pageParams(w, r, 50)
	if !ok {
		return
	}
	me, _ := s.account(r)
	id := r.PathValue("game")
	if id == "" {
		var err error
		if id, err = s.boardGame(r.Context(), me.ID); err != nil {
			s.log.Error("leaderboard: the game to show", "err", err)
			writeError(w, http.StatusInternalServerError, "internal", "the leaderboard could not be read")
			return
		}
	}
	g, ok := s.games.Lookup(id)
	if !ok {
		writeError(w, http.StatusNotFound, "unknown-game", "there is no such game here")
		return
	}
	minGames := s.cfg.MinRatedGames
	rows, total, err := s.store.Leaderboard(r.Context(), g.Info().ID, minGames, offset, limit)
	if err != nil {
		s.log.Error("leaderboard", "game", g.Info().ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the leaderboard could not be read")
		return
	}
	out := Leaderboard{Game: g.Info().ID, MinGames: minGames, Total: total, Offset: offset, Limit: limit, Rows: []LeaderRow{}}
	for i, rt := range rows {
		out.Rows = append(out.Rows, LeaderRow{Rank: offset + i + 1, Name: rt.Name, Rating: displayRating(rt.Mu, rt.Sigma),
			Mu: rt.Mu, Sigma: rt.Sigma, Games: rt.Games, You: me.ID != "" && rt.Account == me.ID})
	}
	writeJSON(w, http.StatusOK, out)
}
