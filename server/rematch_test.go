package server

import (
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store/memstore"
)

// rematchOf posts a rematch request and returns the status, the new id and
// the error code.
func (p *player) rematchOf(id string) (int, string, string) {
	p.t.Helper()
	var out struct {
		ID    string   `json:"id"`
		Error apiError `json:"error"`
	}
	st := p.do("POST", "/api/tables/"+id+"/rematch", nil, &out)
	return st, out.ID, out.Error.Code
}

func TestRematch(t *testing.T) {
	st := memstore.New()
	ts := startServer(t, Config{Store: st, MsgRate: fast, MsgBurst: fast})
	ann, bob, carol := newPlayer(t, ts), newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "dicestars", "name": "ann", "options": map[string]any{}, "settings": map[string]any{"turnSeconds": 300},
		"seats": []map[string]any{{"kind": "human"}, {"kind": "human", "bot": "random"}, {"kind": "bot", "bot": "random"}}})
	if s := bob.join(id, 1, "bob"); s != 200 {
		t.Fatal(s)
	}
	if s, _, code := bob.rematchOf(id); s != http.StatusConflict || code != "not-over" {
		t.Fatalf("rematch of a live game: %d %s", s, code)
	}
	// Bob leaves: a bot plays his seat; Ann plays the game to its end.
	cb := bob.connect(id)
	cb.next()
	cb.send(map[string]any{"type": "leave"})
	cb.await("welcome", func(m msg) bool { return m.Table.Seats[1].TakenOver })
	ca := ann.connect(id)
	playToEnd(t, ca, 0, rand.New(rand.NewPCG(1, 2)), ca.next())
	watcher := carol.connect(id)
	watcher.next()

	if s, _, code := carol.rematchOf(id); s != http.StatusForbidden || code != "not-seated" {
		t.Fatalf("rematch asked by a spectator: %d %s", s, code)
	}
	s, next, _ := bob.rematchOf(id)
	if s != http.StatusCreated || next == "" || next == id {
		t.Fatalf("rematch: %d %q", s, next)
	}
	for who, c := range map[string]*wsClient{"spectator": watcher, "ann": ca, "bob": cb} {
		m := c.await("rematch", nil)
		var body struct {
			Table TableSummary `json:"table"`
		}
		if err := json.Unmarshal(m.raw, &body); err != nil || body.Table.ID != next {
			t.Fatalf("%s told of the rematch: %s", who, m.raw)
		}
	}
	old, sum := ann.summary(id), ann.summary(next)
	if old.Rematch != next {
		t.Fatalf("the old table does not name its rematch: %+v", old)
	}
	if sum.Game != old.Game || string(sum.Options) != string(old.Options) || string(sum.Settings) != string(old.Settings) || sum.Status != "open" {
		t.Fatalf("rematch table %+v, old %+v", sum, old)
	}
	if len(sum.Seats) != 3 ||
		sum.Seats[0].Kind != "human" || sum.Seats[0].Taken || sum.Seats[0].Name != "" ||
		sum.Seats[1].Kind != "human" || !sum.Seats[1].Taken || sum.Seats[1].Name != "bob" || sum.Seats[1].TakenOver || sum.Seats[1].Bot != "random" ||
		sum.Seats[2].Kind != "bot" || sum.Seats[2].Bot != "random" || sum.Seats[2].Name != old.Seats[2].Name {
		t.Fatalf("rematch seats: %+v (old %+v)", sum.Seats, old.Seats)
	}
	// Bob holds his seat at the new table.
	if w := bob.connect(next).next(); w.Seat != 1 {
		t.Fatalf("bob at the rematch: seat %d", w.Seat)
	}
	// Asking again, by anyone seated, answers the same table.
	if s, again, _ := ann.rematchOf(id); s != http.StatusOK || again != next {
		t.Fatalf("second rematch: %d %q, want 200 %q", s, again, next)
	}
	if s, again, _ := bob.rematchOf(id); s != http.StatusOK || again != next {
		t.Fatalf("bob asking again: %d %q", s, again)
	}
	// Ann takes her seat as anyone invited would.
	if s := ann.join(next, 0, "ann"); s != 200 {
		t.Fatalf("ann joins the rematch: %d", s)
	}
	// The rematch is kept with the table: after a restart too.
	ts.stop()
	ts2 := startServer(t, Config{Store: st, MsgRate: fast, MsgBurst: fast})
	ann.ts = ts2
	if s, again, _ := ann.rematchOf(id); s != http.StatusOK || again != next {
		t.Fatalf("after a restart: %d %q", s, again)
	}
	if w := ann.connect(id).next(); w.Table.Rematch != next {
		t.Fatalf("the welcome of the old table: %s", w.raw)
	}
}

func TestRematchObeysBudgets(t *testing.T) {
	ts := startServer(t, Config{Budgets: Budgets{TablesPerHour: 1, CreatorsPerAddress: 1}, MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("random"))
	c := ann.connect(id)
	playToEnd(t, c, 0, rand.New(rand.NewPCG(5, 6)), c.next())
	if s, _, code := ann.rematchOf(id); s != http.StatusTooManyRequests || code != "too-many-new-tables" {
		t.Fatalf("rematch over the hour's budget: %d %s", s, code)
	}
	if s := ann.summary(id); s.Rematch != "" {
		t.Fatalf("a refused rematch is named: %+v", s)
	}
	if s, _, code := newPlayer(t, ts).rematchOf("nosuchtable"); s != http.StatusNotFound || code != "not-found" {
		t.Fatalf("rematch of no table: %d %s", s, code)
	}
}

// Two seated players asking at the same moment make one table.
func TestRematchOnce(t *testing.T) {
	ts := startServer(t, Config{BotDelay: time.Millisecond, MsgRate: fast, MsgBurst: fast})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(twoHumans())
	bob.join(id, 1, "bob")
	cb := bob.connect(id)
	cb.next()
	cb.send(map[string]any{"type": "leave"})
	cb.await("welcome", func(m msg) bool { return m.Table.Seats[1].TakenOver })
	ca := ann.connect(id)
	playToEnd(t, ca, 0, rand.New(rand.NewPCG(7, 8)), ca.next())
	ids := make(chan string, 2)
	for _, p := range []*player{ann, bob} {
		go func() {
			var out struct {
				ID string `json:"id"`
			}
			p.do("POST", "/api/tables/"+id+"/rematch", nil, &out)
			ids <- out.ID
		}()
	}
	if a, b := <-ids, <-ids; a == "" || a != b {
		t.Fatalf("two rematches at once: %q and %q", a, b)
	}
}
