package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"net/http/cookiejar"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// Tables made as an attacker would: many, from one browser, from one
// address with fresh or forged cookies, from many addresses; and a lobby
// that must still show the table a person is waiting at.

// playerAt is a browser on another loopback address (127.0.0.0/8 is all
// this machine's), so the server sees a client address of its own.
func playerAt(t *testing.T, ts *testServer, ip string) *player {
	p := newPlayer(t, ts)
	d := &net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}, Timeout: waitLimit}
	p.client.Transport = &http.Transport{DialContext: d.DialContext}
	return p
}

// scriptAt is a client that keeps no cookies (a script, or a browser that
// refuses them) at ip.
func scriptAt(t *testing.T, ts *testServer, ip string) *player {
	p := playerAt(t, ts, ip)
	p.client.Jar = nil
	p.jar, _ = cookiejar.New(nil) // connect() reads it: it stays empty
	return p
}

// tryCreate posts a table and returns the status, the error body, and the
// table's ID when created.
func (p *player) tryCreate(body map[string]any) (int, apiError, string) {
	p.t.Helper()
	var out struct {
		ID    string   `json:"id"`
		Error apiError `json:"error"`
	}
	st := p.do("POST", "/api/tables", body, &out)
	return st, out.Error, out.ID
}

func (p *player) mustRefuse(body map[string]any, status int, code string) apiError {
	p.t.Helper()
	st, e, _ := p.tryCreate(body)
	if st != status || e.Code != code || e.Message == "" {
		p.t.Fatalf("create: %d %+v, want %d %s with a sentence", st, e, status, code)
	}
	return e
}

func (p *player) creatorCookie() *http.Cookie {
	u, _ := url.Parse(p.ts.http.URL)
	for _, c := range p.jar.Cookies(u) {
		if c.Name == creatorCookie {
			return c
		}
	}
	return nil
}

// browser is a player who has looked at the lobby, as a page does first:
// it holds its creator cookie.
func browser(t *testing.T, ts *testServer) *player {
	t.Helper()
	p := newPlayer(t, ts)
	var list []TableSummary
	if s := p.do("GET", "/api/tables", nil, &list); s != http.StatusOK {
		t.Fatalf("lobby: %d", s)
	}
	if c := p.creatorCookie(); c == nil || c.Value == "" {
		t.Fatal("no creator cookie after a look at the lobby")
	}
	return p
}

// budgetConfig: small budgets, POSTs not rate-limited, a fake clock.
func budgetConfig(b Budgets) Config {
	return Config{Clock: newFakeClock(), PostRate: 1000, PostBurst: 1000, Budgets: b}
}

// TestTableBudgetPerCreator: one browser cannot have more than
// TablesPerCreator tables waiting or in play; the refusal is 429
// too-many-tables with a sentence. Expired open tables and finished ones
// give their place back. The budget holds for a browser refusing cookies
// (counted by its address) and for one sending a fresh or forged cookie
// every time (its address's budget).
func TestTableBudgetPerCreator(t *testing.T) {
	ts := startServer(t, budgetConfig(Budgets{TablesPerCreator: 3, CreatorsPerAddress: 2, TablesPerHour: -1, OpenTables: -1}))
	clock := ts.cfg.Clock.(*fakeClock)
	// A browser that creates before anything else gets its cookie then.
	first := newPlayer(t, ts)
	first.create(twoHumans())
	if c := first.creatorCookie(); c == nil || c.Value == "" {
		t.Fatalf("no creator cookie after the first create: %+v", c)
	}
	clock.Advance(25 * time.Hour) // that table expires

	ann := browser(t, ts)
	c := ann.creatorCookie()
	ann.create(twoHumans())
	solo := map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}}}
	ann.create(solo) // live at once: counts too
	ann.create(twoHumans())
	if got := ann.creatorCookie(); got == nil || got.Value != c.Value {
		t.Fatal("the creator cookie changed between creates")
	}
	e := ann.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")
	if !strings.Contains(e.Message, "3") {
		t.Fatalf("the refusal does not say the budget: %q", e.Message)
	}
	ann.mustRefuse(solo, http.StatusTooManyRequests, "too-many-tables")
	ann.mustRefuse(map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot"}, {"kind": "bot"}}},
		http.StatusTooManyRequests, "too-many-tables")

	// Another browser at the same address has its own budget, until the
	// address's (3 × 2) is spent.
	bob := browser(t, ts)
	for range 3 {
		bob.create(twoHumans())
	}
	carl := browser(t, ts)
	e = carl.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")
	if !strings.Contains(e.Message, "network") || !strings.Contains(e.Message, "6") {
		t.Fatalf("the address's refusal: %q", e.Message)
	}
	// Forged cookies change nothing: the address is spent.
	for range 5 {
		forger := newPlayer(t, ts)
		raw := make([]byte, 32)
		_, _ = rand.Read(raw)
		u, _ := url.Parse(ts.http.URL)
		forger.jar.SetCookies(u, []*http.Cookie{{Name: creatorCookie, Value: base64.RawURLEncoding.EncodeToString(raw), Path: "/"}})
		forger.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")
	}

	// Open tables expire (24 h after their last join) and give their place
	// back; the live solo table counts for a day after it started.
	clock.Advance(24*time.Hour + time.Minute)
	for range 3 {
		ann.create(twoHumans())
	}
	ann.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")

	// A browser that refuses cookies is counted by its address.
	clock.Advance(48 * time.Hour)
	script := scriptAt(t, ts, "127.0.0.2")
	for range 3 {
		script.create(twoHumans())
	}
	script.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")
	// Another address is another budget.
	playerAt(t, ts, "127.0.0.3").create(twoHumans())
}

// TestFinishedTablesGiveTheirPlaceBack: a finished game no longer counts.
func TestFinishedTablesGiveTheirPlaceBack(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, PostRate: 1000, PostBurst: 1000, Budgets: Budgets{TablesPerCreator: 1, TablesPerHour: -1}})
	ann := browser(t, ts)
	// The bots move a second apart, on the fake clock.
	bots := map[string]any{"game": "dicestars", "settings": map[string]any{"botDelayMs": 1000},
		"seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}}}
	id := ann.create(bots)
	ann.mustRefuse(bots, http.StatusTooManyRequests, "too-many-tables")
	eventually(t, "the bots finish their game", func() bool {
		clock.Advance(time.Second)
		return ann.summary(id).Status == store.StatusOver
	})
	ann.create(bots)
}

// TestTableBudgetPerHour: however fast its tables finish or expire, a
// creator makes at most TablesPerHour tables an hour (a table of bots with
// no delay ends within a second: without it, one address made ~173,000
// tables a day at the allowed POST rate). 429 too-many-new-tables.
func TestTableBudgetPerHour(t *testing.T) {
	ts := startServer(t, budgetConfig(Budgets{TablesPerCreator: -1, TablesPerHour: 4, CreatorsPerAddress: 2, OpenTables: -1}))
	clock := ts.cfg.Clock.(*fakeClock)
	ann := browser(t, ts)
	solo := map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}}}
	for range 4 {
		ann.create(solo)
	}
	e := ann.mustRefuse(solo, http.StatusTooManyRequests, "too-many-new-tables")
	if !strings.Contains(e.Message, "hour") {
		t.Fatalf("the refusal: %q", e.Message)
	}
	bob := browser(t, ts)
	for range 4 {
		bob.create(solo)
	}
	browser(t, ts).mustRefuse(solo, http.StatusTooManyRequests, "too-many-new-tables") // the address: 4 × 2
	clock.Advance(time.Hour + time.Millisecond)
	ann.create(solo)
}

// TestOpenTablesCapAcrossServer: at OpenTables open tables across the
// server, a new table with a free seat is refused (503 server-full),
// whatever the address; a table that starts at once still goes, and so do
// joins, which make room.
func TestOpenTablesCapAcrossServer(t *testing.T) {
	ts := startServer(t, budgetConfig(Budgets{OpenTables: 5, TablesPerCreator: -1, TablesPerHour: -1}))
	var ids []string
	for i := range 5 {
		ids = append(ids, playerAt(t, ts, fmt.Sprintf("127.0.1.%d", i+1)).create(twoHumans()))
	}
	late := playerAt(t, ts, "127.0.2.1")
	e := late.mustRefuse(twoHumans(), http.StatusServiceUnavailable, "server-full")
	if !strings.Contains(e.Message, "5") {
		t.Fatalf("the refusal: %q", e.Message)
	}
	late.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}, {"kind": "bot"}}})
	if s := late.join(ids[0], 1, "bob"); s != http.StatusOK {
		t.Fatalf("join at the cap: %d", s)
	}
	late.create(twoHumans())
	late.mustRefuse(twoHumans(), http.StatusServiceUnavailable, "server-full")
}

// TestSpamDoesNotBuryTheLobby: a person waits at a table; then 40 tables
// come from 20 addresses, and one browser makes 6 more. The lobby's open
// list starts with the table a person is waiting at, shows at most
// LobbyPerCreator tables of a creator, and the live list starts with the
// game being played. (The lobby used to list the newest 100: all junk.)
func TestSpamDoesNotBuryTheLobby(t *testing.T) {
	ts := startServer(t, Config{PostRate: 1000, PostBurst: 1000, Budgets: Budgets{LobbyPerCreator: 2, TablesPerCreator: 10}})
	ann := newPlayer(t, ts)
	waiting := ann.create(twoHumans())
	annWS := ann.connect(waiting)
	annWS.await("welcome", nil)
	// A live game with people at it, and an older one nobody plays.
	dan, eve := newPlayer(t, ts), newPlayer(t, ts)
	abandoned := dan.create(twoHumans())
	if s := eve.join(abandoned, 1, "eve"); s != http.StatusOK {
		t.Fatal(s)
	}
	played := dan.create(twoHumans())
	if s := eve.join(played, 1, "eve"); s != http.StatusOK {
		t.Fatal(s)
	}
	time.Sleep(5 * time.Millisecond) // spam is newer, to the millisecond
	danWS := dan.connect(played)
	danWS.await("welcome", nil)
	for i := range 20 {
		spammer := scriptAt(t, ts, fmt.Sprintf("127.0.3.%d", i+1))
		for range 2 {
			spammer.create(twoHumans())
			spammer.create(map[string]any{"game": "dicestars", "name": "x", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
		}
	}
	one := newPlayer(t, ts)
	for range 6 {
		one.create(twoHumans())
	}

	lobby := func(q string) []TableSummary {
		t.Helper()
		var list []TableSummary
		if s := ann.do("GET", "/api/tables?"+q, nil, &list); s != http.StatusOK {
			t.Fatalf("lobby: %d", s)
		}
		return list
	}
	open := lobby("status=open")
	if len(open) == 0 || open[0].ID != waiting {
		t.Fatalf("the open list does not start with the table ann waits at: %v", ids(open))
	}
	perCreator := map[string]int{}
	for _, sum := range open {
		meta, err := ts.store.GetTable(context.Background(), sum.ID)
		if err != nil {
			t.Fatal(err)
		}
		if perCreator[meta.Creator]++; perCreator[meta.Creator] > 2 {
			t.Fatalf("the open list shows more than 2 tables of one creator: %v", ids(open))
		}
	}
	live := lobby("status=live")
	if len(live) < 2 || live[0].ID != played {
		t.Fatalf("the live list does not start with the game being played: %v (played %s)", ids(live), played)
	}
	// A narrow page still starts with what matters.
	if got := lobby("status=open&limit=1"); len(got) != 1 || got[0].ID != waiting {
		t.Fatalf("limit=1: %v", ids(got))
	}
	// Once ann leaves, her table goes back among the others.
	_ = annWS.ws.CloseNow()
	eventually(t, "ann's table is no longer first", func() bool {
		open := lobby("status=open")
		return len(open) > 0 && open[0].ID != waiting
	})
}

func ids(list []TableSummary) []string {
	var out []string
	for _, s := range list {
		out = append(out, s.ID)
	}
	return out
}

// TestOpenTableCannotBeKeptFromExpiring: leaving and reclaiming a seat at
// an open table is no join: it does not restart the table's expiry (it
// did: one connection kept a table in the lobby, on top, for ever).
func TestOpenTableCannotBeKeptFromExpiring(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, OpenExpiry: time.Hour})
	ann := newPlayer(t, ts)
	id := ann.create(twoHumans())
	c := ann.connect(id)
	c.await("welcome", nil)
	for range 3 {
		clock.Advance(40 * time.Minute)
		c.send(map[string]any{"type": "leave"})
		c.await("welcome", func(m msg) bool { return m.Table.Seats[0].TakenOver })
		c.send(map[string]any{"type": "reclaim"})
		c.await("welcome", func(m msg) bool { return !m.Table.Seats[0].TakenOver })
	}
	var list []TableSummary
	if s := ann.do("GET", "/api/tables?status=open", nil, &list); s != http.StatusOK || len(list) != 0 {
		t.Fatalf("after 2 hours with no join the table is still listed: %d %v", s, ids(list))
	}
	var e errorBody
	if s := newPlayer(t, ts).do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 1, "name": "bob"}, &e); s != http.StatusGone {
		t.Fatalf("join after the expiry: %d %+v", s, e)
	}
}

// TestThousandsOfOpenTablesAtBoot: a store full of open tables (ten
// thousand six-seat tables, as an attacker left them, some expired) costs
// nothing at boot: only live tables are loaded, and the lobby lists no
// expired one.
func TestThousandsOfOpenTablesAtBoot(t *testing.T) {
	st := memstore.New()
	clock := newFakeClock()
	ctx := context.Background()
	now := clock.Now().UTC()
	six := []store.Seat{{Name: "x", Kind: kindHuman, TokenHash: "ab"}, {Kind: kindHuman}, {Kind: kindHuman}, {Kind: kindHuman}, {Kind: kindHuman}, {Kind: kindHuman}}
	const n = 10_000
	for i := range n {
		updated := now.Add(-time.Duration(i%48) * time.Hour) // half of them expired
		if err := st.CreateTable(ctx, store.Table{ID: fmt.Sprintf("spam%05d", i), Game: "bookworm", Seats: six, Status: store.StatusOpen,
			Created: updated, Updated: updated, Creator: fmt.Sprintf("c:%d", i%400), CreatorAddr: fmt.Sprintf("a:127.0.%d.1", i%400)}); err != nil {
			t.Fatal(err)
		}
	}
	start := time.Now()
	ts := startServer(t, Config{Store: st, Clock: clock})
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("boot took %v with %d open tables", d, n)
	}
	ts.mu.Lock()
	loaded := len(ts.tables)
	ts.mu.Unlock()
	if loaded != 0 {
		t.Fatalf("%d open tables loaded at boot", loaded)
	}
	var list []TableSummary
	if s := newPlayer(t, ts).do("GET", "/api/tables?status=open", nil, &list); s != http.StatusOK || len(list) != 100 {
		t.Fatalf("lobby: %d, %d tables", s, len(list))
	}
	for _, sum := range list {
		if clock.Now().Sub(sum.Updated) > 24*time.Hour {
			t.Fatalf("the lobby lists an expired table: %s updated %v", sum.ID, sum.Updated)
		}
	}
	// The budget counts none of the expired ones: the server is at its
	// cap (1000 open tables by default) with the ~5,000 that are not.
	newPlayer(t, ts).mustRefuse(twoHumans(), http.StatusServiceUnavailable, "server-full")
}

// TestBudgetDefaults: the defaults docs/protocol.md states.
func TestBudgetDefaults(t *testing.T) {
	var c Config
	c.defaults()
	b := c.Budgets
	if b.TablesPerCreator != 8 || b.TablesPerHour != 30 || b.CreatorsPerAddress != 4 || b.OpenTables != 1000 ||
		b.LobbyPerCreator != 2 || b.GetRate != 20 || b.GetBurst != 120 || b.ReplayBuilds < 1 ||
		b.ReplayBuildsPerAddress != 2 || b.ReplayCacheBytes != 64<<20 {
		t.Fatalf("defaults %+v", b)
	}
	c = Config{Budgets: Budgets{TablesPerCreator: -1, OpenTables: -1, GetRate: -1}}
	c.defaults()
	if c.Budgets.TablesPerCreator != -1 || c.Budgets.OpenTables != -1 || c.Budgets.GetRate != -1 {
		t.Fatalf("negative (no limit) not kept: %+v", c.Budgets)
	}
}

// TestTableBudgetFollowsTheAccount: a signed-in creator's tables count
// against its account on every device: a second browser with a fresh
// creator cookie but the same session has no budget of its own.
func TestTableBudgetFollowsTheAccount(t *testing.T) {
	ts := startServer(t, budgetConfig(Budgets{TablesPerCreator: 2, CreatorsPerAddress: 10, TablesPerHour: -1, OpenTables: -1}))
	phone := browser(t, ts)
	if st, _ := phone.signup("Nadia", goodPassword); st != http.StatusCreated {
		t.Fatalf("signup: %d", st)
	}
	phone.create(twoHumans())
	phone.create(twoHumans())
	phone.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")

	// The laptop: its own creator cookie, the same account.
	laptop := browser(t, ts)
	u, _ := url.Parse(ts.http.URL)
	for _, ck := range phone.jar.Cookies(u) {
		if ck.Name == sessionCookie {
			laptop.jar.SetCookies(u, []*http.Cookie{ck})
		}
	}
	if laptop.me() != "Nadia" {
		t.Fatal("the laptop is not signed in")
	}
	laptop.mustRefuse(twoHumans(), http.StatusTooManyRequests, "too-many-tables")

	// A guest in the same house keeps a budget of its own.
	browser(t, ts).create(twoHumans())
}
