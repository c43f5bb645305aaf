package server

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/url"
	"slices"
	"testing"
	"time"
)

func (p *player) mine() []MyTable {
	p.t.Helper()
	var out []MyTable
	if s := p.do("GET", "/api/tables/mine", nil, &out); s != http.StatusOK {
		p.t.Fatalf("mine: %d", s)
	}
	return out
}

func TestMyTables(t *testing.T) {
	ts := startServer(t, Config{BotDelay: time.Hour, MsgRate: fast, MsgBurst: fast})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	if got := ann.mine(); got == nil || len(got) != 0 {
		t.Fatalf("no cookies: %v", got)
	}
	open := ann.create(twoHumans())
	// Ann's turn: a live table where her seat is to act.
	turn := ann.create(duel("greedy"))
	// Bob's table, where Ann holds seat 1 and Bob is to act.
	waiting := bob.create(twoHumans())
	if s := ann.join(waiting, 1, "ann"); s != 200 {
		t.Fatal(s)
	}
	// A finished one.
	over := ann.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}}})
	c := ann.connect(over)
	playToEnd(t, c, 0, rand.New(rand.NewPCG(1, 1)), c.next())

	// Cookies that hold nothing are skipped: an unknown table, a token of
	// no seat, a value that is no token, a name that is no table id.
	u, _ := url.Parse(ts.http.URL)
	ann.jar.SetCookies(u, []*http.Cookie{
		{Name: "dh_nosuchtable", Value: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Path: "/"},
		{Name: "dh_" + bob.create(twoHumans()), Value: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Path: "/"},
		{Name: "dh_" + open + "x", Value: "short", Path: "/"},
		{Name: "dh_BAD", Value: "x", Path: "/"},
	})
	got := ann.mine()
	var ids []string
	for _, m := range got {
		ids = append(ids, m.ID)
	}
	if want := []string{turn, waiting, open, over}; !slices.Equal(ids, want) {
		t.Fatalf("my tables %v, want %v (your turn, live, open, over)", ids, want)
	}
	want := []struct {
		seat     int
		yourTurn bool
		status   string
	}{{0, true, "live"}, {1, false, "live"}, {0, false, "open"}, {0, false, "over"}}
	for i, w := range want {
		if m := got[i]; m.Seat != w.seat || m.YourTurn != w.yourTurn || m.Status != w.status {
			t.Fatalf("table %d: seat %d yourTurn %v status %s, want %+v", i, m.Seat, m.YourTurn, m.Status, w)
		}
	}
	if got[3].Result.Winners == nil || len(got[3].Result.Scores) != 1 || got[3].Seats[0].Name != "ann" {
		t.Fatalf("a finished table lists its result and names: %+v", got[3].TableSummary)
	}
	// Bob sees his own: the table where Ann's turn is not his.
	if b := bob.mine(); len(b) != 2 || b[0].ID != waiting || !b[0].YourTurn {
		t.Fatalf("bob's tables: %+v", b)
	}
}

// Only mineOver finished tables, the latest, and only mineCookies cookies
// are looked at.
func TestMyTablesBounded(t *testing.T) {
	ts := startServer(t, Config{Budgets: Budgets{TablesPerHour: -1, TablesPerCreator: -1}, PostRate: fast, PostBurst: fast, MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	var over []string
	for i := range mineOver + 2 {
		id := ann.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}}})
		c := ann.connect(id)
		playToEnd(t, c, 0, rand.New(rand.NewPCG(uint64(i), 1)), c.next())
		over = append(over, id)
	}
	got := ann.mine()
	if len(got) != mineOver {
		t.Fatalf("%d finished tables listed, want %d", len(got), mineOver)
	}
	for _, m := range got {
		if m.ID == over[0] || m.ID == over[1] {
			t.Fatalf("an older finished table is listed before newer ones: %v", m.ID)
		}
	}

	// A request with more cookies: only the first mineCookies count.
	u, _ := url.Parse(ts.http.URL)
	many := newPlayer(t, ts)
	var cookies []*http.Cookie
	for i := range mineCookies {
		cookies = append(cookies, &http.Cookie{Name: fmt.Sprintf("dh_x%d", i), Value: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", Path: "/"})
	}
	many.jar.SetCookies(u, cookies)
	late := many.create(map[string]any{"game": "dicestars", "name": "zed", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if got := many.mine(); len(got) != 0 {
		// The jar sends cookies in the order they were set: the table's
		// comes after the mineCookies unknown ones.
		t.Fatalf("a cookie past the first %d was looked at: %v", mineCookies, got[0].ID)
	}
	_ = late
}
