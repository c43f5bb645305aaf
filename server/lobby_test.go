package server

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// fast is a rate no test reaches: playToEnd answers every turn at once.
const fast = 1 << 20

func (p *player) lobby(q string) []string {
	p.t.Helper()
	var list []TableSummary
	if s := p.do("GET", "/api/tables"+q, nil, &list); s != 200 {
		p.t.Fatalf("list: %d", s)
	}
	var ids []string
	for _, tb := range list {
		ids = append(ids, tb.ID)
	}
	return ids
}

// A live table nobody has had open for Config.AbandonAfter leaves the
// lobby; its players still find it among their tables.
func TestAbandonedTablesLeaveTheLobby(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(twoHumans())
	if s := bob.join(id, 1, "bob"); s != 200 {
		t.Fatal(s)
	}
	if got := ann.lobby("?status=live"); !slices.Equal(got, []string{id}) {
		t.Fatalf("a new live table: %v", got)
	}
	clock.Advance(DefaultAbandonAfter + time.Second)
	if got := ann.lobby("?status=live"); len(got) != 0 {
		t.Fatalf("a table nobody opened for %v is listed: %v", DefaultAbandonAfter, got)
	}
	if m := ann.mine(); len(m) != 1 || m[0].ID != id {
		t.Fatalf("ann's tables: %+v", m)
	}
	// Somebody opens it: it is back, however long they stay.
	c := ann.connect(id)
	c.next()
	clock.Advance(2 * DefaultAbandonAfter)
	if got := ann.lobby(""); !slices.Equal(got, []string{id}) {
		t.Fatalf("a table somebody has open: %v", got)
	}
	// They leave: it stays listed for AbandonAfter from then.
	_ = c.ws.CloseNow()
	deadline := time.Now().Add(waitLimit)
	for ann.summary(id).Seats[0].Connected {
		if time.Now().After(deadline) {
			t.Fatal("the connection never went")
		}
		time.Sleep(time.Millisecond)
	}
	clock.Advance(DefaultAbandonAfter - time.Second)
	// The actor may have stopped by now: the row says when it was seen.
	if got := ann.lobby(""); !slices.Equal(got, []string{id}) {
		t.Fatalf("%v after the last visit: %v", DefaultAbandonAfter-time.Second, got)
	}
	clock.Advance(2 * time.Second)
	if got := ann.lobby(""); len(got) != 0 {
		t.Fatalf("%v after the last visit: %v", DefaultAbandonAfter+time.Second, got)
	}
}

// Finished tables list their players' names and the winners.
func TestLobbyShowsWhoWon(t *testing.T) {
	ts := startServer(t, Config{MsgRate: fast, MsgBurst: fast})
	ann := newPlayer(t, ts)
	id := ann.create(duel("random"))
	c := ann.connect(id)
	playToEnd(t, c, 0, rand.New(rand.NewPCG(3, 3)), c.next())
	var list []TableSummary
	ann.do("GET", "/api/tables?status=over", nil, &list)
	if len(list) != 1 || list[0].ID != id {
		t.Fatalf("finished tables: %+v", list)
	}
	s := list[0]
	if s.Seats[0].Name != "ann" || s.Seats[1].Name == "" || !s.Result.Over || len(s.Result.Scores) != 2 || len(s.Result.Winners) == 0 {
		t.Fatalf("a finished table in the lobby: %+v", s)
	}
}

// Two people choosing the same free seat: one gets it, the other is told
// who did.
func TestSeatRaceSaysWhoWon(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}, {"kind": "bot"}}})
	type answer struct {
		status int
		body   errorBody
	}
	answers := make(chan answer, 2)
	for _, name := range []string{"bob", "carol"} {
		p := newPlayer(t, ts)
		go func() {
			var a answer
			a.status = p.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 1, "name": name}, &a.body)
			answers <- a
		}()
	}
	a, b := <-answers, <-answers
	if a.status != 200 {
		a, b = b, a
	}
	winner := ann.summary(id).Seats[1].Name
	if a.status != 200 || b.status != 409 || b.body.Error.Code != "seat-taken" ||
		!strings.Contains(b.body.Error.Message, "seat 2") || !strings.Contains(b.body.Error.Message, winner) {
		t.Fatalf("the race: %d and %d %+v (seat 1 went to %s)", a.status, b.status, b.body, winner)
	}
	var e errorBody
	if s := newPlayer(t, ts).do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 2, "name": "dan"}, &e); s != 409 ||
		e.Error.Code != "seat-taken" || !strings.Contains(e.Error.Message, "seat 3") {
		t.Fatalf("joining a bot's seat: %d %+v", s, e)
	}
}
