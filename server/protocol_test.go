package server

import (
	"encoding/json"
	"io"
	"math/rand/v2"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"

	"github.com/dicehall/dicehall/games/all"
)

// playToEnd plays seat from the first message on, choosing randomly among
// the view's legal actions, until the game is over. It checks that updates
// arrive in version order with events, and returns them. It answers every
// turn at once, faster than any person: its server must not rate-limit the
// connection (MsgRate and MsgBurst fast), or a long game meets the limit.
func playToEnd(t *testing.T, c *wsClient, seat engine.Seat, rng *rand.Rand, first msg) []msg {
	t.Helper()
	if c.ts == nil || c.ts.cfg.MsgRate < fast || c.ts.cfg.MsgBurst < fast {
		t.Fatal("playToEnd needs a server started with MsgRate: fast, MsgBurst: fast")
	}
	var updates []msg
	m, version := first, first.Version
	for step := 0; step < 5000; step++ {
		if m.Turn.Over {
			return updates
		}
		if (m.Type == "welcome" || m.Type == "update") && m.Turn.Has(seat) {
			v := m.view(t)
			if len(v.Legal) == 0 {
				t.Fatalf("seat %d to act with no legal actions: %s", seat, m.raw)
			}
			c.send(map[string]any{"type": "act", "id": step, "action": v.Legal[rng.IntN(len(v.Legal))], "version": version})
		}
		m = c.next()
		switch m.Type {
		case "update":
			if m.Version != version+1 {
				t.Fatalf("update version %d after %d", m.Version, version)
			}
			if len(m.Events) == 0 || m.Move == nil {
				t.Fatalf("update without move or events: %s", m.raw)
			}
			version = m.Version
			updates = append(updates, m)
		case "welcome":
			version = m.Version
		case "refused", "error":
			t.Fatalf("unexpected %s", m.raw)
		}
	}
	t.Fatal("the game did not end")
	return nil
}

func TestFullGameOverWebSocket(t *testing.T) {
	ts := startServer(t, Config{MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))

	watcher := newPlayer(t, ts).connect(id)
	w0 := watcher.next()
	if w0.Type != "welcome" || w0.Seat != engine.Spectator || w0.Table == nil || w0.Table.Status != "live" {
		t.Fatalf("spectator welcome %s", w0.raw)
	}
	c := ann.connect(id)
	first := c.next()
	if first.Type != "welcome" || first.Seat != 0 || first.Version != 0 || !first.Turn.Has(0) {
		t.Fatalf("player welcome %s", first.raw)
	}
	if first.Table.Seats[0].Name != "ann" || !first.Table.Seats[0].Connected || first.Table.Seats[1].Kind != "bot" {
		t.Fatalf("seats %+v", first.Table.Seats)
	}
	updates := playToEnd(t, c, 0, rand.New(rand.NewPCG(1, 2)), first)
	last := updates[len(updates)-1]
	lv := last.view(t)
	if !lv.Over || !last.Turn.Over || len(lv.Winners) == 0 {
		t.Fatalf("last update is not the end: %s", last.raw)
	}
	seats := map[engine.Seat]int{}
	narrated := 0
	for _, u := range updates {
		seats[u.Move.Seat]++
		// Every update narrates its events (the replay below checks the
		// messages are the game's for those events, in order).
		var got []engine.Message
		if err := json.Unmarshal(u.Narration, &got); err != nil || got == nil {
			t.Fatalf("update %d has no narration list: %s", u.Version, u.raw)
		}
		for _, m := range got {
			if m.Key == "" {
				t.Fatalf("update %d: a message without a key: %s", u.Version, u.Narration)
			}
		}
		narrated += len(got)
	}
	if narrated == 0 {
		t.Fatal("no update was narrated")
	}
	if seats[0] == 0 || seats[1] == 0 || seats[engine.ChanceSeat] == 0 {
		t.Fatalf("moves by seat %v: the person, the bot and chance all move", seats)
	}

	// The spectator saw the same moves, in order, with public views.
	var seen []msg
	for len(seen) < len(updates) {
		m := watcher.next()
		if m.Type != "update" {
			continue
		}
		if m.Version != len(seen)+1 {
			t.Fatalf("spectator: version %d after %d", m.Version, len(seen))
		}
		v := m.view(t)
		if v.Seat != engine.Spectator || len(v.Legal) != 0 {
			t.Fatalf("spectator view has seat %d and %d legal actions", v.Seat, len(v.Legal))
		}
		if string(m.Move.Action) != string(updates[len(seen)].Move.Action) {
			t.Fatalf("version %d: spectator saw %s, player %s", m.Version, m.Move.Action, updates[len(seen)].Move.Action)
		}
		seen = append(seen, m)
	}

	sum := ann.summary(id)
	if sum.Status != "over" || !sum.Result.Over || sum.Version != len(updates) || len(sum.Result.Winners) == 0 {
		t.Fatalf("summary after the game: %+v", sum)
	}
	var list []TableSummary
	if st := ann.do("GET", "/api/tables?status=over", nil, &list); st != 200 || len(list) != 1 || list[0].ID != id {
		t.Fatalf("over tables: %d %+v", st, list)
	}
	if st := ann.do("GET", "/api/tables?status=open,live", nil, &list); st != 200 || len(list) != 0 {
		t.Fatalf("open and live tables: %d %+v", st, list)
	}

	// Replays: every step, from a seat and from the public view.
	for _, q := range []string{"", "?seat=0", "?seat=1"} {
		var rep struct {
			Players []string `json:"players"`
			Seat    int      `json:"seat"`
			Steps   []struct {
				Move      *wireMove       `json:"move"`
				Events    []engine.Event  `json:"events"`
				Narration json.RawMessage `json:"narration"`
				View      json.RawMessage `json:"view"`
			} `json:"steps"`
		}
		if st := ann.do("GET", "/api/tables/"+id+"/replay"+q, nil, &rep); st != 200 {
			t.Fatalf("replay%s: %d", q, st)
		}
		if len(rep.Steps) != len(updates)+1 || rep.Steps[0].Move != nil || !reflect.DeepEqual(rep.Players, []string{"ann", "Greedy bot"}) {
			t.Fatalf("replay%s: %d steps, players %v", q, len(rep.Steps), rep.Players)
		}
		for i, u := range updates {
			st := rep.Steps[i+1]
			if st.Move == nil || st.Move.Seat != u.Move.Seat || string(st.Move.Action) != string(u.Move.Action) || len(st.Events) != len(u.Events) {
				t.Fatalf("replay%s step %d differs from the live update", q, i+1)
			}
			if string(st.Narration) != string(u.Narration) {
				t.Fatalf("replay%s step %d narrates %s, the live update %s", q, i+1, st.Narration, u.Narration)
			}
		}
		if q == "?seat=0" && string(rep.Steps[len(rep.Steps)-1].View) != string(last.View) {
			t.Fatalf("replay's final view of seat 0 differs from the live one")
		}
	}
	var e errorBody
	if st := ann.do("GET", "/api/tables/"+id+"/replay?seat=7", nil, &e); st != 400 || e.Error.Code != "bad-seat" {
		t.Fatalf("replay of seat 7: %d %+v", st, e)
	}
}

func TestReplayOnlyWhenOver(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(duel("random"))
	var e errorBody
	if st := ann.do("GET", "/api/tables/"+id+"/replay", nil, &e); st != http.StatusConflict || e.Error.Code != "not-over" {
		t.Fatalf("replay of a live game: %d %+v", st, e)
	}
	if st := ann.do("GET", "/api/tables/nosuchtable/replay", nil, &e); st != http.StatusNotFound {
		t.Fatalf("replay of no table: %d", st)
	}
}

func TestBotsOnlyTablePlaysItselfAndIsWatched(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	var out struct {
		ID   string `json:"id"`
		Seat int    `json:"seat"`
	}
	body := map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "bot"}}}
	if st := p.do("POST", "/api/tables", body, &out); st != 201 || out.Seat != int(engine.Spectator) {
		t.Fatalf("create bots-only: %d %+v", st, out)
	}
	c := p.connect(out.ID)
	w := c.next()
	if w.Table.Seats[2].Bot != "greedy" || w.Table.Seats[1].Name != "Random bot 2" {
		t.Fatalf("bot seats %+v", w.Table.Seats)
	}
	end := c.await("update", func(m msg) bool { return m.Turn.Over })
	if p.summary(out.ID).Version != end.Version {
		t.Fatal("the summary's version is not the last update's")
	}
}

func TestGamesAndPages(t *testing.T) {
	// Pages come from the configured tree; the real one is web.Static().
	files := fstest.MapFS{
		"index.html":  {Data: []byte(`<script type="module" src="/static/home.js"></script>`)},
		"table.html":  {Data: []byte(`<script type="module" src="/static/table.js"></script>`)},
		"home.js":     {Data: []byte(`export const x = 1;`)},
		"style.css":   {Data: []byte(`body{}`)},
		"sub/dice.js": {Data: []byte(`export const y = 2;`)},
	}
	ts := startServer(t, Config{Static: files})
	p := newPlayer(t, ts)
	var games []engine.Info
	if st := p.do("GET", "/api/games", nil, &games); st != 200 {
		t.Fatal(st)
	}
	var found bool
	for _, g := range games {
		found = found || g.ID == "dicestars" && g.Title == "Dice Stars" && g.MinPlayers == 1 && g.MaxPlayers == 4 &&
			reflect.DeepEqual(g.BotKinds(), []string{"random", "greedy", "expert", "master"}) && g.DefaultBot == "greedy" &&
			g.Messages["dicestars.bot.expert"] == "expert"
	}
	if !found || len(games) != len(all.Registry.IDs()) {
		t.Fatalf("games %+v", games)
	}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		data, _ := io.ReadAll(resp.Body)
		return resp, string(data)
	}
	for path, want := range map[string]string{"/": "home.js", "/t/abc123": "table.js"} {
		resp, body := get(path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/html") || !strings.Contains(body, want) {
			t.Fatalf("%s: %d %s %q", path, resp.StatusCode, resp.Header.Get("Content-Type"), body)
		}
	}
	for path, ctype := range map[string]string{"/static/home.js": "text/javascript", "/static/sub/dice.js": "text/javascript", "/static/style.css": "text/css"} {
		resp, body := get(path)
		if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), ctype) || body == "" {
			t.Fatalf("%s: %d %q", path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
	if resp, _ := get("/static/missing.js"); resp.StatusCode != 404 {
		t.Fatalf("missing static file: %d", resp.StatusCode)
	}
	if resp, _ := get("/static/"); resp.StatusCode != 404 {
		t.Fatalf("static directory listing: %d", resp.StatusCode)
	}
	if resp, _ := get("/t/Not-An-ID"); resp.StatusCode != 404 {
		t.Fatalf("bad table id page: %d", resp.StatusCode)
	}
	resp, body := get("/api/nothing")
	if resp.StatusCode != 404 || !strings.Contains(body, `"code":"not-found"`) {
		t.Fatalf("unknown API route: %d %s", resp.StatusCode, body)
	}
}

// TestViewsAreTheSeats checks that each connection gets its own seat's view:
// only the seat to act sees legal actions.
func TestViewsAreTheSeats(t *testing.T) {
	ts := startServer(t, Config{})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if st := bob.join(id, 1, "bob"); st != 200 {
		t.Fatalf("join: %d", st)
	}
	ca, cb := ann.connect(id), bob.connect(id)
	wa, wb := ca.next(), cb.next()
	if wa.Seat != 0 || wb.Seat != 1 || len(wa.view(t).Legal) == 0 || len(wb.view(t).Legal) != 0 {
		t.Fatalf("welcomes: ann seat %d (%d legal), bob seat %d (%d legal)", wa.Seat, len(wa.view(t).Legal), wb.Seat, len(wb.view(t).Legal))
	}
	ca.send(map[string]any{"type": "act", "action": dicestars.Draw(3, false)})
	for _, c := range []*wsClient{ca, cb} {
		u := c.await("update", func(m msg) bool { return m.Version == 2 })
		if u.Move.Seat != engine.ChanceSeat {
			t.Fatalf("version 2 is the roll: %s", u.raw)
		}
		if got := len(u.view(t).Legal) > 0; got != (c == ca) {
			t.Fatalf("after the roll, legal actions shown to the wrong seat: %s", u.raw)
		}
	}
}
