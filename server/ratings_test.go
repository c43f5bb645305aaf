package server

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/rating"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// ratingWorld builds accounts and finished tables directly in a store.
type ratingWorld struct {
	t   *testing.T
	st  *memstore.Store
	at  time.Time
	ids map[string]string // name -> account ID
}

func newRatingWorld(t *testing.T) *ratingWorld {
	return &ratingWorld{t: t, st: memstore.New(), at: time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC), ids: map[string]string{}}
}

// account makes (once) the account of a name and returns its ID.
func (w *ratingWorld) account(name string) string {
	w.t.Helper()
	if id, ok := w.ids[name]; ok {
		return id
	}
	id := fmt.Sprintf("acc%d", len(w.ids)+1)
	if err := w.st.CreateAccount(context.Background(), store.Account{ID: id, Name: name, NameKey: nameKey(name), Created: w.at}); err != nil {
		w.t.Fatal(err)
	}
	w.ids[name] = id
	return id
}

// seat is a seat of a finished table: "ann" an account's, "guest:x" a
// guest's, "bot" a bot's; a trailing "!" marks a seat a bot took over.
func (w *ratingWorld) seat(spec string) store.Seat {
	over := len(spec) > 1 && spec[len(spec)-1] == '!'
	if over {
		spec = spec[:len(spec)-1]
	}
	switch {
	case spec == "bot":
		return store.Seat{Name: "Greedy bot", Kind: kindBot, Bot: "greedy"}
	case len(spec) > 6 && spec[:6] == "guest:":
		return store.Seat{Name: spec[6:], Kind: kindHuman, TokenHash: "h-" + spec, TakenOver: over}
	}
	return store.Seat{Name: spec, Kind: kindHuman, TokenHash: "h-" + spec, Account: w.account(spec), TakenOver: over}
}

// table stores a finished dicestars table and returns its ID.
func (w *ratingWorld) table(settings string, scores []int, winners []engine.Seat, seats ...string) string {
	w.t.Helper()
	w.at = w.at.Add(time.Minute)
	meta := store.Table{ID: fmt.Sprintf("t%d", w.at.Unix()%100000), Game: "dicestars", Seed: 1, Status: store.StatusOver,
		Created: w.at, Updated: w.at, Result: &engine.Result{Over: true, Scores: scores, Winners: winners}}
	if settings != "" {
		meta.Settings = json.RawMessage(settings)
	}
	for _, s := range seats {
		meta.Seats = append(meta.Seats, w.seat(s))
	}
	if err := w.st.CreateTable(context.Background(), meta); err != nil {
		w.t.Fatal(err)
	}
	return meta.ID
}

func (w *ratingWorld) rating(name string) store.Rating {
	w.t.Helper()
	rs, err := w.st.Ratings(context.Background(), w.ids[name])
	if err != nil {
		w.t.Fatal(err)
	}
	for _, r := range rs {
		if r.Game == "dicestars" {
			return r
		}
	}
	return store.Rating{}
}

func (w *ratingWorld) rated(id string) bool {
	ok, err := w.st.Rated(context.Background(), id)
	if err != nil {
		w.t.Fatal(err)
	}
	return ok
}

// TestWhichTablesAreRated: only finished tables of 2+ seats, every seat
// a distinct account's, with the setting on, are rated.
func TestWhichTablesAreRated(t *testing.T) {
	w := newRatingWorld(t)
	two := []int{10, 5}
	cases := []struct {
		name     string
		settings string
		seats    []string
		rated    bool
	}{
		{"two accounts", "", []string{"ann", "bob"}, true},
		{"setting on", `{"turnSeconds":0,"rated":true}`, []string{"ann", "bob"}, true},
		{"a guest", "", []string{"ann", "guest:gus"}, false},
		{"a bot seat", "", []string{"ann", "bot"}, false},
		{"solo", "", []string{"ann"}, false},
		{"setting off", `{"turnSeconds":0,"rated":false}`, []string{"ann", "bob"}, false},
		{"one account twice", "", []string{"ann", "ann"}, false},
		{"taken over still rated", "", []string{"ann", "bob!"}, true},
	}
	ids := map[string]string{}
	for _, c := range cases {
		ids[c.name] = w.table(c.settings, two[:len(c.seats)], []engine.Seat{0}, c.seats...)
	}
	ts := startServer(t, Config{Store: w.st})
	p := newPlayer(t, ts)
	for _, c := range cases {
		if got := w.rated(ids[c.name]); got != c.rated {
			t.Errorf("%s: rated %v, want %v", c.name, got, c.rated)
		}
		if sum := p.summary(ids[c.name]); sum.Rated != c.rated {
			t.Errorf("%s: summary says rated %v", c.name, sum.Rated)
		}
	}
	if r := w.rating("ann"); r.Games != 3 {
		t.Errorf("ann has %d rated games, want 3", r.Games)
	}
}

func TestRatingPlaces(t *testing.T) {
	human := store.Seat{Kind: kindHuman}
	left := store.Seat{Kind: kindHuman, TakenOver: true}
	cases := []struct {
		name    string
		scores  []int
		winners []engine.Seat
		seats   []store.Seat
		want    []int
	}{
		{"by score", []int{3, 9, 5}, []engine.Seat{1}, []store.Seat{human, human, human}, []int{2, 0, 1}},
		{"ties share", []int{7, 9, 7}, []engine.Seat{1}, []store.Seat{human, human, human}, []int{1, 0, 1}},
		{"shared win", []int{9, 9, 2}, []engine.Seat{0, 1}, []store.Seat{human, human, human}, []int{0, 0, 2}},
		{"winner before score", []int{5, 9}, []engine.Seat{0}, []store.Seat{human, human}, []int{0, 1}},
		{"taken over last", []int{20, 9, 5}, []engine.Seat{0}, []store.Seat{left, human, human}, []int{2, 0, 1}},
		{"taken over tied last", []int{20, 9, 5, 1}, []engine.Seat{0}, []store.Seat{left, human, left, human}, []int{2, 0, 2, 1}},
		{"draw", []int{0, 0}, nil, []store.Seat{human, human}, []int{0, 0}},
	}
	for _, c := range cases {
		got := ratingPlaces(engine.Result{Over: true, Scores: c.scores, Winners: c.winners}, c.seats)
		if !slices.Equal(got, c.want) {
			t.Errorf("%s: places %v, want %v", c.name, got, c.want)
		}
	}
}

// TestTakenOverSeatLosesRating: a seat a bot finished ranks last even with
// the best score, so its account loses rating.
func TestTakenOverSeatLosesRating(t *testing.T) {
	w := newRatingWorld(t)
	w.table("", []int{30, 10}, []engine.Seat{0}, "ann!", "bob")
	w.table("", []int{10, 10}, []engine.Seat{0, 1}, "cat", "dan")
	startServer(t, Config{Store: w.st})
	ann, bob := w.rating("ann"), w.rating("bob")
	if !(ann.Mu < 25 && bob.Mu > 25) {
		t.Fatalf("ann (taken over, best score) μ %v, bob μ %v", ann.Mu, bob.Mu)
	}
	// A tie leaves two new players' μ where it was.
	if cat, dan := w.rating("cat"), w.rating("dan"); math.Abs(cat.Mu-25) > 1e-9 || math.Abs(dan.Mu-25) > 1e-9 || cat.Sigma >= 25.0/3 {
		t.Fatalf("tie: cat %+v dan %+v", cat, dan)
	}
}

// TestRatingsExactlyOnce: the startup sweep rates what is unrated, and
// neither another sweep nor a restart rates a table again.
func TestRatingsExactlyOnce(t *testing.T) {
	w := newRatingWorld(t)
	id := w.table("", []int{10, 5}, []engine.Seat{0}, "ann", "bob")
	ts := startServer(t, Config{Store: w.st})
	first := w.rating("ann")
	want, _ := rating.DefaultModel().Rate([]rating.Rating{rating.DefaultModel().New(), rating.DefaultModel().New()}, []int{0, 1})
	if first.Games != 1 || math.Abs(first.Mu-want[0].Mu) > 1e-9 || math.Abs(first.Sigma-want[0].Sigma) > 1e-9 || !w.rated(id) {
		t.Fatalf("after the first start: %+v, want %+v", first, want[0])
	}
	if n, err := ts.sweepRatings(context.Background(), 100); n != 0 || err != nil {
		t.Fatalf("a second sweep rated %d (%v)", n, err)
	}
	ts.stop()
	// A table that ended while the server was down (no rating yet), and a
	// restart: only that one is rated.
	id2 := w.table("", []int{1, 8}, []engine.Seat{1}, "ann", "bob")
	startServer(t, Config{Store: w.st})
	if r := w.rating("ann"); r.Games != 2 || !w.rated(id2) {
		t.Fatalf("after the restart ann has %d games", r.Games)
	}
	h, err := w.st.RatingHistory(context.Background(), w.ids["bob"], "dicestars", 0)
	if err != nil || len(h) != 2 || h[0].Table != id || h[1].Table != id2 {
		t.Fatalf("bob's history: %+v %v", h, err)
	}
}

// TestRatedWhenTheGameEnds: a table played to its end is rated at once,
// by the actor that stored the end.
func TestRatedWhenTheGameEnds(t *testing.T) {
	reg := &engine.Registry{}
	reg.Register(tickGame{})
	clock := newFakeClock()
	st := memstore.New()
	ts := startServer(t, Config{Clock: clock, Games: reg, Store: st})
	for i, n := range []string{"ann", "bob"} {
		if err := st.CreateAccount(context.Background(), store.Account{ID: "a" + n, Name: n, NameKey: n, Created: clock.Now()}); err != nil {
			t.Fatal(i, err)
		}
	}
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "tick", "name": "ann", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if s := bob.join(id, 1, "bob"); s != http.StatusOK {
		t.Fatalf("join: %d", s)
	}
	c := ann.connect(id)
	c.next()
	// Signed-in players' seats (what identity does when they sit down).
	inActor(t, ts, id, func(tb *table) error {
		return tb.changeMeta(func(m *store.Table) { m.Seats[0].Account, m.Seats[1].Account = "aann", "abob" })
	})
	if sum := ann.summary(id); !sum.Rated || sum.Seats[0].Profile != "ann" || sum.Seats[1].Profile != "bob" {
		t.Fatalf("summary: rated %v, seats %+v", sum.Rated, sum.Seats)
	}
	for range 3 {
		clock.Advance(5 * time.Second)
		c.await("update", nil)
	}
	if ok, _ := st.Rated(context.Background(), id); !ok {
		t.Fatal("the finished table is not rated")
	}
	rs, _ := st.Ratings(context.Background(), "abob")
	if len(rs) != 1 || rs[0].Game != "tick" || rs[0].Games != 1 {
		t.Fatalf("bob's ratings: %+v", rs)
	}
}

func TestLeaderboard(t *testing.T) {
	w := newRatingWorld(t)
	// ann beats everyone, dan loses to everyone.
	names := []string{"ann", "bob", "cat", "dan"}
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			w.table("", []int{9, 1}, []engine.Seat{0}, names[i], names[j])
		}
	}
	w.table("", []int{9, 1}, []engine.Seat{0}, "ann", "eve") // eve: one game
	ts := startServer(t, Config{Store: w.st, MinRatedGames: 2})
	p := newPlayer(t, ts)
	var lb Leaderboard
	if s := p.do("GET", "/api/leaderboard/dicestars", nil, &lb); s != 200 {
		t.Fatalf("leaderboard: %d", s)
	}
	var got []string
	for i, r := range lb.Rows {
		got = append(got, r.Name)
		if r.Rank != i+1 || r.Rating != int(math.Round(r.Mu-3*r.Sigma)) || r.Games < 2 {
			t.Errorf("row %+v", r)
		}
	}
	if !slices.Equal(got, names) || lb.Total != 4 || lb.MinGames != 2 {
		t.Fatalf("leaderboard %v (total %d, min %d), want %v without eve", got, lb.Total, lb.MinGames, names)
	}
	var page Leaderboard
	p.do("GET", "/api/leaderboard/dicestars?offset=2&limit=1", nil, &page)
	if len(page.Rows) != 1 || page.Rows[0].Name != "cat" || page.Rows[0].Rank != 3 || page.Total != 4 {
		t.Fatalf("page 3 of 1: %+v", page)
	}
	for path, want := range map[string]int{
		"/api/leaderboard/nosuchgame":          404,
		"/api/leaderboard/dicestars?limit=0":   400,
		"/api/leaderboard/dicestars?limit=101": 400,
		"/api/leaderboard/dicestars?offset=-1": 400,
		"/api/leaderboard/bookworm":            200,
	} {
		if s := p.do("GET", path, nil, nil); s != want {
			t.Errorf("%s: %d, want %d", path, s, want)
		}
	}
}

func TestProfile(t *testing.T) {
	w := newRatingWorld(t)
	w.table("", []int{12, 5}, []engine.Seat{0}, "Ann", "bob")
	w.table("", []int{3, 20}, []engine.Seat{1}, "Ann", "bob")
	w.table("", []int{30, 1}, []engine.Seat{0}, "Ann", "guest:gus")
	last := w.table("", []int{7, 9}, []engine.Seat{0}, "bot", "Ann") // the bot won (a game rule), Ann scored more
	ts := startServer(t, Config{Store: w.st})
	p := newPlayer(t, ts)
	var pr Profile
	// Found by name whatever the case.
	if s := p.do("GET", "/api/players/"+url.PathEscape("ANN"), nil, &pr); s != 200 {
		t.Fatalf("profile: %d", s)
	}
	if pr.Name != "Ann" || pr.Total != 4 || len(pr.Stats) != 1 {
		t.Fatalf("profile %+v", pr)
	}
	st := pr.Stats[0]
	if st.Game != "dicestars" || st.Played != 4 || st.Wins != 2 || st.Best != 30 || math.Abs(st.Mean-(12+3+30+9)/4.0) > 1e-9 {
		t.Fatalf("stats %+v", st)
	}
	if st.Rating == nil || st.Rating.Games != 2 || len(st.History) != 2 {
		t.Fatalf("rating %+v, history %+v", st.Rating, st.History)
	}
	g := pr.Games[0]
	if g.ID != last || g.Seat != 1 || !slices.Equal(g.Places, []int{0, 1}) || g.Rated || len(g.Seats) != 2 {
		t.Fatalf("latest game %+v", g)
	}
	if pr.Games[1].Seats[1].Profile != "" || pr.Games[2].Seats[1].Profile != "bob" || !pr.Games[2].Rated {
		t.Fatalf("opponents: %+v / %+v", pr.Games[1].Seats, pr.Games[2].Seats)
	}
	var page Profile
	p.do("GET", "/api/players/ann?offset=3&limit=2", nil, &page)
	if len(page.Games) != 1 || page.Total != 4 || page.Stats[0].Played != 4 {
		t.Fatalf("last page: %+v", page)
	}
	if s := p.do("GET", "/api/players/nobody", nil, nil); s != 404 {
		t.Fatalf("unknown player: %d", s)
	}
}

// TestBoardGame: /api/leaderboard with no game opens on the signed-in
// player's most played rated game, else the game with the most players on
// its board, else the first game.
func TestBoardGame(t *testing.T) {
	w := newRatingWorld(t)
	ts := startServer(t, Config{Store: w.st})
	ctx := context.Background()
	board := func(account string) string {
		t.Helper()
		id, err := ts.boardGame(ctx, account)
		if err != nil {
			t.Fatal(err)
		}
		return id
	}
	first := ts.games.IDs()[0]
	if got := board(""); got != first {
		t.Fatalf("nobody rated: %q, want the first game %q", got, first)
	}
	var lb Leaderboard
	if s := newPlayer(t, ts).do("GET", "/api/leaderboard", nil, &lb); s != 200 || lb.Game != first || len(lb.Rows) != 0 {
		t.Fatalf("GET /api/leaderboard: %d %+v", s, lb)
	}
	// Two players rated at dicestars, one at bookworm.
	rate := func(table, game string, times int, names ...string) {
		t.Helper()
		accounts := make([]string, len(names))
		for i, n := range names {
			accounts[i] = w.account(n)
		}
		for k := range times {
			id := fmt.Sprintf("%s-%d", table, k)
			meta := store.Table{ID: id, Game: game, Status: store.StatusOver, Created: w.at, Updated: w.at}
			for _, n := range names {
				meta.Seats = append(meta.Seats, w.seat(n))
			}
			if err := w.st.CreateTable(ctx, meta); err != nil {
				t.Fatal(err)
			}
			if _, err := w.st.RateTable(ctx, id, game, accounts, w.at, func(prior []store.Rating) ([]store.Rating, error) {
				return prior, nil
			}); err != nil {
				t.Fatal(err)
			}
		}
	}
	rate("r1", "dicestars", 1, "ann", "bob")
	rate("r2", "bookworm", 3, "cat")
	if got := board(""); got != "dicestars" {
		t.Fatalf("a guest: %q, want the game with the most rated players", got)
	}
	if got := board(w.account("cat")); got != "bookworm" {
		t.Fatalf("cat: %q, want the game cat played most", got)
	}
	if got := board(w.account("dan")); got != "dicestars" {
		t.Fatalf("an account rated nowhere: %q", got)
	}
}

// TestShownPlaces: the pages rank a seat a bot stood in for by its game
// (it won: first), a forfeit last; the ratings put both last.
func TestShownPlaces(t *testing.T) {
	res := engine.Result{Over: true, Scores: []int{130, 124, 90}, Winners: []engine.Seat{0}}
	seats := []store.Seat{{Name: "ann", TakenOver: true}, {Name: "bot", Kind: kindBot}, {Name: "cy", TakenOver: true, Forfeit: true}}
	if got := shownPlaces(res, seats); !slices.Equal(got, []int{0, 1, 2}) {
		t.Errorf("shown places %v, want [0 1 2]", got)
	}
	if got := ratingPlaces(res, seats); !slices.Equal(got, []int{1, 0, 1}) {
		t.Errorf("rating places %v, want [1 0 1]", got)
	}
}
