package server

import (
	"errors"
	"net/http"
	"slices"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Profile is the answer of GET /api/players/{name}: an account's games and
// ratings.
type Profile struct {
	Name  string    `json:"name"`
	Since time.Time `json:"since"`
	// You: the request is the account's own (signed in).
	You bool `json:"you,omitempty"`
	// Stats: one per game the account finished a table of, or is rated at,
	// in the order of GET /api/games.
	Stats []GameStats `json:"stats"`
	// Games is a page of the account's finished tables, the latest first;
	// Total counts them (at most profileTables: the latest).
	Games  []ProfileGame `json:"games"`
	Total  int           `json:"total"`
	Offset int           `json:"offset"`
	Limit  int           `json:"limit"`
}

// GameStats is an account's record at one game.
type GameStats struct {
	Game   string `json:"game"`
	Title  string `json:"title"`
	Played int    `json:"played"`
	Wins   int    `json:"wins"`
	// Mean and Best are of the account's scores (0 when Played is 0).
	Mean float64 `json:"mean"`
	Best int     `json:"best"`
	// Rating is nil until the account's first rated table at the game.
	Rating  *RatingNow     `json:"rating,omitempty"`
	History []HistoryPoint `json:"history"`
}

// RatingNow is an account's rating at a game.
type RatingNow struct {
	Rating int     `json:"rating"` // μ − 3σ, rounded
	Mu     float64 `json:"mu"`
	Sigma  float64 `json:"sigma"`
	Games  int     `json:"games"`
}

// HistoryPoint is the rating right after one rated table.
type HistoryPoint struct {
	Table  string    `json:"table"`
	At     time.Time `json:"at"`
	Rating int       `json:"rating"`
	Mu     float64   `json:"mu"`
	Sigma  float64   `json:"sigma"`
}

// ProfileGame is one finished table of a profile: its summary (seats with
// their profile names, result, rated), the account's seat and every seat's
// place (0 first, ratingPlaces).
type ProfileGame struct {
	TableSummary
	Seat   int   `json:"seat"`
	Places []int `json:"places"`
}

// maxProfileName bounds the {name} a profile is looked up by (bytes).
const maxProfileName = 200

func (s *Server) playerProfile(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	name := r.PathValue("name")
	if name == "" || len(name) > maxProfileName {
		writeError(w, http.StatusNotFound, "not-found", "there is no such player")
		return
	}
	offset, limit, ok := pageParams(w, r, 20)
	if !ok {
		return
	}
	ctx := r.Context()
	fail := func(what string, err error) {
		s.log.Error("profile: "+what, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the profile could not be read")
	}
	acc, err := s.store.AccountByName(ctx, nameKey(name))
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such player")
		return
	}
	if err != nil {
		fail("account", err)
		return
	}
	metas, err := s.store.List(ctx, store.Filter{Account: acc.ID, Status: []string{store.StatusOver}, Limit: profileTables})
	if err != nil {
		fail("tables", err)
		return
	}
	ratings, err := s.store.Ratings(ctx, acc.ID)
	if err != nil {
		fail("ratings", err)
		return
	}
	me, _ := s.account(r)
	out := Profile{Name: acc.Name, Since: acc.Created, You: me.ID == acc.ID, Stats: []GameStats{}, Games: []ProfileGame{},
		Total: len(metas), Offset: offset, Limit: limit}

	stats := map[string]*GameStats{}
	statsOf := func(game string) *GameStats {
		if st := stats[game]; st != nil {
			return st
		}
		st := &GameStats{Game: game, Title: gameOrUnknown(s.games, game).Info().Title, History: []HistoryPoint{}}
		stats[game] = st
		return st
	}
	scored := map[string]int{} // tables with a score, per game
	sums := map[string]int{}
	for _, meta := range metas {
		seat := seatOfAccount(meta, acc.ID)
		st := statsOf(meta.Game)
		st.Played++
		if meta.Result == nil || seat < 0 {
			continue
		}
		if slices.Contains(meta.Result.Winners, engine.Seat(seat)) {
			st.Wins++
		}
		if seat < len(meta.Result.Scores) {
			score := meta.Result.Scores[seat]
			if scored[meta.Game] == 0 || score > st.Best {
				st.Best = score
			}
			scored[meta.Game]++
			sums[meta.Game] += score
		}
	}
	for game, n := range scored {
		stats[game].Mean = float64(sums[game]) / float64(n)
	}
	for _, rt := range ratings {
		st := statsOf(rt.Game)
		st.Rating = &RatingNow{Rating: displayRating(rt.Mu, rt.Sigma), Mu: rt.Mu, Sigma: rt.Sigma, Games: rt.Games}
		points, err := s.store.RatingHistory(ctx, acc.ID, rt.Game, ratingHistory)
		if err != nil {
			fail("rating history", err)
			return
		}
		for _, p := range points {
			st.History = append(st.History, HistoryPoint{Table: p.Table, At: p.At, Rating: displayRating(p.Mu, p.Sigma), Mu: p.Mu, Sigma: p.Sigma})
		}
	}
	order := s.games.IDs()
	for _, st := range stats {
		out.Stats = append(out.Stats, *st)
	}
	slices.SortFunc(out.Stats, func(a, b GameStats) int {
		ia, ib := slices.Index(order, a.Game), slices.Index(order, b.Game)
		if ia != ib {
			return ia - ib
		}
		return b.Played - a.Played
	})

	if offset < len(metas) {
		for _, meta := range metas[offset:min(len(metas), offset+limit)] {
			g := ProfileGame{TableSummary: s.summaryOf(ctx, meta),
				Seat: seatOfAccount(meta, acc.ID), Places: []int{}}
			if meta.Result != nil {
				g.Places = ratingPlaces(*meta.Result, meta.Seats)
			}
			out.Games = append(out.Games, g)
		}
	}
	writeJSON(w, http.StatusOK, out)
}
