package server

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func twoHumans() map[string]any {
	return map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}}
}

// withCookie is a player whose jar holds one cookie for the server's host.
func withCookie(t *testing.T, ts *testServer, name, value string) *player {
	p := newPlayer(t, ts)
	u, _ := url.Parse(ts.http.URL)
	p.jar.SetCookies(u, []*http.Cookie{{Name: name, Value: value, Path: "/"}})
	return p
}

func TestSeatTokens(t *testing.T) {
	ts := startServer(t, Config{})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(twoHumans())
	if s := ann.summary(id); s.Status != "open" || !s.Seats[0].Taken || s.Seats[1].Taken {
		t.Fatalf("a table with a free seat: %+v", s)
	}
	// The cookie is HttpOnly, SameSite=Lax, scoped to the site.
	resp, err := http.Post(ts.http.URL+"/api/tables", "application/json", strings.NewReader(`{"game":"dicestars","name":"zed","seats":[{"kind":"human"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if sc := resp.Header.Get("Set-Cookie"); !strings.Contains(sc, "HttpOnly") || !strings.Contains(sc, "SameSite=Lax") || !strings.Contains(sc, "Path=/") {
		t.Fatalf("seat cookie %q", sc)
	}
	// Nobody can act while a seat is free: the game waits.
	ca := ann.connect(id)
	ca.next()
	ca.send(map[string]any{"type": "act", "id": 1, "action": dicestars.Draw(3, false)})
	if m := ca.await("refused", nil); m.Rule != "waiting-for-players" || *m.ID != 1 {
		t.Fatalf("act before the table is full: %s", m.raw)
	}
	if st := bob.join(id, 1, "bob"); st != 200 {
		t.Fatalf("join: %d", st)
	}
	ca.await("welcome", func(m msg) bool { return m.Table.Status == "live" })

	// Joins of taken seats and second seats are refused.
	eve := newPlayer(t, ts)
	var e errorBody
	if st := eve.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 1, "name": "eve"}, &e); st != 409 || e.Error.Code != "seat-taken" {
		t.Fatalf("join of a taken seat: %d %+v", st, e)
	}
	if st := eve.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 0, "name": "eve"}, &e); st != 409 {
		t.Fatalf("join of the creator's seat: %d", st)
	}
	if st := eve.do("POST", "/api/tables/zzzzzz/join", map[string]any{"seat": 0, "name": "eve"}, &e); st != 404 {
		t.Fatalf("join of no table: %d", st)
	}

	// Eve's own table gives her a genuine cookie, for another table.
	eveTable := eve.create(duel("random"))
	u, _ := url.Parse(ts.http.URL)
	var eveToken string
	for _, c := range eve.jar.Cookies(u) {
		if c.Name == cookiePrefix+eveTable {
			eveToken = c.Value
		}
	}
	if eveToken == "" {
		t.Fatal("no cookie for the creator")
	}
	forged := make([]byte, 32)
	_, _ = rand.Read(forged)
	intruders := map[string]*player{
		"no cookie":                 newPlayer(t, ts),
		"forged token":              withCookie(t, ts, cookiePrefix+id, base64.RawURLEncoding.EncodeToString(forged)),
		"another table's token":     withCookie(t, ts, cookiePrefix+id, eveToken),
		"a token of the wrong size": withCookie(t, ts, cookiePrefix+id, "x"),
	}
	for name, p := range intruders {
		c := p.connect(id)
		if w := c.next(); w.Seat != engine.Spectator {
			t.Fatalf("%s: welcomed as seat %d", name, w.Seat)
		}
		for _, m := range []map[string]any{
			{"type": "act", "id": 5, "action": dicestars.Draw(3, false)},
			{"type": "act", "id": 5, "seat": 0, "action": dicestars.Draw(3, false)},
			{"type": "leave", "id": 5},
			{"type": "reclaim", "id": 5},
			{"type": "takeover", "id": 5, "seat": 1},
		} {
			c.send(m)
			if r := c.await("refused", nil); r.Rule != "not-seated" || r.ID == nil || *r.ID != 5 {
				t.Fatalf("%s: %v answered %s", name, m, r.raw)
			}
		}
	}
	// Bob holds seat 1: he cannot act for seat 0, nor out of turn.
	cb := bob.connect(id)
	if w := cb.next(); w.Seat != 1 {
		t.Fatalf("bob welcomed as seat %d", w.Seat)
	}
	cb.send(map[string]any{"type": "act", "id": 6, "seat": 0, "action": dicestars.Draw(3, false)})
	if r := cb.await("refused", nil); r.Rule != "not-your-seat" {
		t.Fatalf("act for another seat: %s", r.raw)
	}
	cb.send(map[string]any{"type": "act", "id": 7, "action": dicestars.Draw(3, false)})
	if r := cb.await("refused", nil); r.Rule != engine.ErrNotYourTurn.Rule || !strings.Contains(r.Message, "ann") {
		t.Fatalf("act out of turn: %s", r.raw)
	}
	cb.send(map[string]any{"type": "takeover", "id": 8, "seat": 0})
	if r := cb.await("refused", nil); r.Rule != "player-connected" {
		t.Fatalf("takeover of a connected player: %s", r.raw)
	}
	// Nothing changed: no move, nobody taken over.
	s := ann.summary(id)
	if s.Version != 0 || s.Seats[0].TakenOver || s.Seats[1].TakenOver {
		t.Fatalf("intruders changed the table: %+v", s)
	}
	// Ann is the one who may act.
	ca.send(map[string]any{"type": "act", "id": 9, "action": dicestars.Draw(3, false), "version": 0})
	if u := ca.await("update", nil); u.Version != 1 || u.Move.Seat != 0 {
		t.Fatalf("ann's draw: %s", u.raw)
	}
	// The tokens are not in any answer.
	var raw map[string]any
	ann.do("GET", "/api/tables/"+id, nil, &raw)
	for _, p := range []string{"tokenHash", "token"} {
		for _, seat := range raw["seats"].([]any) {
			if _, ok := seat.(map[string]any)[p]; ok {
				t.Fatalf("the summary shows %s", p)
			}
		}
	}
}

func TestCrossSiteRequestsRefused(t *testing.T) {
	ts := startServer(t, Config{})
	req, _ := http.NewRequest("POST", ts.http.URL+"/api/tables", strings.NewReader(`{"game":"dicestars","name":"x","seats":[{"kind":"human"}]}`))
	req.Header.Set("Origin", "https://evil.example")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site create: %d", resp.StatusCode)
	}
	id := newPlayer(t, ts).create(duel("random"))
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	defer cancel()
	h := http.Header{}
	h.Set("Origin", "https://evil.example")
	_, resp, err = websocket.Dial(ctx, "ws"+strings.TrimPrefix(ts.http.URL, "http")+"/ws/"+id, &websocket.DialOptions{HTTPHeader: h})
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("cross-site websocket: %v %v", err, resp)
	}
}

func TestPostRateLimit(t *testing.T) {
	ts := startServer(t, Config{PostRate: 0.001, PostBurst: 3, Clock: newFakeClock()})
	p := newPlayer(t, ts)
	for range 3 {
		p.create(duel("random"))
	}
	var e errorBody
	if st := p.do("POST", "/api/tables", duel("random"), &e); st != http.StatusTooManyRequests || e.Error.Code != "rate-limited" {
		t.Fatalf("fourth create: %d %+v", st, e)
	}
}
