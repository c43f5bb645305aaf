package e2e

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// sessionCookie is the signed-in browser's cookie (identity's).
const sessionCookie = "dh-session"

// ratedWorld is a store with two accounts that have finished rated games
// (the server rates them when it starts), a game with a guest and one of
// Ann's against a deleted account; it
// returns the server and a session token of Ann's.
func ratedWorld(t *testing.T) (*httptest.Server, string) {
	t.Helper()
	st := memstore.New()
	ctx := context.Background()
	at := time.Now().UTC().Add(-48 * time.Hour).Truncate(time.Millisecond)
	for _, a := range []store.Account{{ID: "acc-ann", Name: "Ann", NameKey: "ann"}, {ID: "acc-bob", Name: "Bob", NameKey: "bob"}} {
		a.Created = at
		if err := st.CreateAccount(ctx, a); err != nil {
			t.Fatal(err)
		}
	}
	seat := func(name, account string) store.Seat {
		return store.Seat{Name: name, Kind: "human", TokenHash: "x" + name, Account: account}
	}
	ann, bob, gus := seat("Ann", "acc-ann"), seat("Bob", "acc-bob"), seat("Gus", "")
	games := []struct {
		seats   []store.Seat
		scores  []int
		winners []engine.Seat
	}{
		{[]store.Seat{ann, bob}, []int{41, 30}, []engine.Seat{0}},
		{[]store.Seat{bob, ann}, []int{35, 28}, []engine.Seat{0}},
		{[]store.Seat{ann, bob}, []int{52, 33}, []engine.Seat{0}},
		{[]store.Seat{ann, bob}, []int{47, 39}, []engine.Seat{0}},
		{[]store.Seat{gus, bob}, []int{20, 25}, []engine.Seat{1}}, // a guest: unrated
		// Against a deleted account (the server's neutral name): unrated.
		{[]store.Seat{ann, {Name: "Former player", Kind: "human", TokenHash: "xgone", Former: true}}, []int{30, 31}, []engine.Seat{1}},
	}
	for i, g := range games {
		at = at.Add(time.Hour)
		meta := store.Table{ID: fmt.Sprintf("rated%d", i), Game: "dicestars", Seed: 1, Seats: g.seats, Status: store.StatusOver,
			Created: at, Updated: at, Result: &engine.Result{Over: true, Scores: g.scores, Winners: g.winners}}
		if err := st.CreateTable(ctx, meta); err != nil {
			t.Fatal(err)
		}
	}
	token := "annsessiontoken-annsessiontoken-annsessionx" // 43 characters, as identity makes them
	sum := sha256.Sum256([]byte(token))
	if err := st.CreateSession(ctx, store.Session{TokenHash: hex.EncodeToString(sum[:]), Account: "acc-ann",
		Created: at, Expires: time.Now().Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: all.Registry, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() { ts.Close(); srv.Close() })
	return ts, token
}

type boardState struct {
	Tabs    int      `json:"tabs"`
	Current string   `json:"current"`
	Names   []string `json:"names"`
	Me      string   `json:"me"`
	Wide    bool     `json:"wide"`
}

type profileState struct {
	Name   string `json:"name"`
	Cards  int    `json:"cards"`
	Played string `json:"played"`
	Line   int    `json:"line"`
	Games  int    `json:"games"`
	Replay int    `json:"replay"`
	Links  int    `json:"links"`
	Wide   bool   `json:"wide"`
}

// TestLeaderboardAndProfile: two accounts' finished rated games put them
// on the game's leaderboard in order, the signed-in player's row marked;
// a name leads to the profile, with the game's stats, the rating chart
// and the games with their replays; the lobby links the names too. Both
// pages at both sizes, scanned by axe.
func TestLeaderboardAndProfile(t *testing.T) {
	t.Parallel()
	ts, token := ratedWorld(t)
	for _, vp := range []struct {
		name string
		w, h int64
	}{{"1440x900", 1440, 900}, {"390x844", 390, 844}} {
		p := newPage(t, "ratings-"+vp.name)
		p.do(chromedp.EmulateViewport(vp.w, vp.h))
		p.do(chromedp.Navigate(ts.URL + "/"))
		eval[bool](p, `(localStorage.setItem('dh.lang','en'), document.cookie = '`+sessionCookie+`=`+token+`; path=/', true)`)
		// The lobby: a Leaderboards link, the finished games' names link to profiles.
		p.do(chromedp.Navigate(ts.URL + "/"))
		p.waitJS(10*time.Second, `document.querySelector('.list-over a.profile-link[href="/u/Bob"]') !== null`)
		p.shot("lobby-" + vp.name)
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=nav-leaderboards]`)))

		p.waitJS(10*time.Second, `document.querySelector('.lb-table, [data-testid=lb-empty]') !== null`)
		if eval[string](p, `document.querySelector('.lb-tabs a[aria-current=page]').dataset.game`) != "dicestars" {
			// The first tab is whichever game comes first: Dice Stars's.
			p.do(chromedp.Click(chromedp.CSS(`.lb-tabs a[data-game=dicestars]`)))
		}
		p.waitJS(10*time.Second, `document.querySelectorAll('.lb-table tbody tr').length > 0`)
		b := eval[boardState](p, `(() => ({
  tabs: document.querySelectorAll('.lb-tabs a').length,
  current: document.querySelector('.lb-tabs a[aria-current=page]')?.dataset.game || '',
  names: [...document.querySelectorAll('.lb-table tbody tr')].map((r) => r.dataset.name),
  me: document.querySelector('.lb-table tr.me')?.dataset.name || '',
  wide: document.documentElement.scrollWidth > window.innerWidth + 1,
}))()`)
		if b.Tabs != len(all.Registry.IDs()) || b.Current != "dicestars" || len(b.Names) != 2 || b.Names[0] != "Ann" || b.Names[1] != "Bob" || b.Me != "Ann" || b.Wide {
			p.fail("leaderboard: %+v", b)
		}
		p.shot("leaderboard-" + vp.name)
		p.axeClean("leaderboard " + vp.name)

		p.do(chromedp.Click(chromedp.CSS(`.lb-table a.profile-link[href="/u/Bob"]`)))
		p.waitJS(10*time.Second, `document.querySelector('[data-testid=games] .game-item') !== null`)
		pr := eval[profileState](p, `(() => ({
  name: document.querySelector('.profile-head h1')?.textContent || '',
  cards: document.querySelectorAll('.stat-card').length,
  played: document.querySelector('.stat-card[data-game=dicestars] .stat dd')?.textContent || '',
  line: document.querySelectorAll('.stat-card[data-game=dicestars] svg polyline').length,
  games: document.querySelectorAll('[data-testid=games] .game-item').length,
  replay: document.querySelectorAll('[data-testid=games] a[data-replay]').length,
  links: document.querySelectorAll('[data-testid=games] a.profile-link[href="/u/Ann"]').length,
  wide: document.documentElement.scrollWidth > window.innerWidth + 1,
}))()`)
		if pr.Name != "Bob" || pr.Cards != 1 || pr.Played != "5" || pr.Line != 1 || pr.Games != 5 || pr.Replay != 5 || pr.Links != 4 || pr.Wide {
			p.fail("profile: %+v", pr)
		}
		p.fullShot("profile-" + vp.name)
		p.axeClean("profile " + vp.name)
		p.noExceptions()
	}
}
