package server

import (
	"context"
	"reflect"
	"slices"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// eventually polls cond until it holds, failing after waitLimit.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	limit := time.Now().Add(waitLimit)
	for !cond() {
		if time.Now().After(limit) {
			t.Fatalf("never: %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// TestIdleActorStopsAndReloads: once nobody is connected and the bot has
// played, the table's actor stops; the lobby still describes the table
// without it, and a connection loads it again and play goes on.
func TestIdleActorStopsAndReloads(t *testing.T) {
	ts := startServer(t, Config{})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	took := playDiceStarsTurn(t, c, c.next())
	back := c.await("update", func(m msg) bool { return m.Version > took.Version && m.Turn.Has(0) && !m.Turn.Chance })
	_ = c.ws.Close(websocket.StatusNormalClosure, "")

	eventually(t, "the idle actor stops", func() bool { return ts.running(id) == nil })
	if s := ann.summary(id); s.Status != "live" || s.Version != back.Version || s.Seats[0].Connected {
		t.Fatalf("summary of a stopped table: %+v", s)
	}
	if ts.running(id) != nil {
		t.Fatal("reading the summary loaded the table")
	}

	c2 := ann.connect(id)
	w2 := c2.next()
	if w2.Seat != 0 || w2.Version != back.Version || string(w2.View) != string(back.View) {
		t.Fatalf("reloaded: seat %d version %d (want %d), same view %v", w2.Seat, w2.Version, back.Version, string(w2.View) == string(back.View))
	}
	c2.send(map[string]any{"type": "act", "action": w2.view(t).Legal[0], "version": w2.Version})
	if u := c2.await("update", nil); u.Version != back.Version+1 || u.Move.Seat != 0 {
		t.Fatalf("play after the reload: %s", u.raw)
	}
	checkChance(t, ts.store, id)
}

// TestRestartLoadsOnlyTablesThatMoveByThemselves: at boot a live table with
// a running turn clock is loaded (its clock runs out and a bot plays with
// nobody connected); an open table is not.
func TestRestartLoadsOnlyTablesThatMoveByThemselves(t *testing.T) {
	st := memstore.New()
	clock := newFakeClock()
	ts1 := startServer(t, Config{Store: st, Clock: clock, BotDelay: -1})
	ann, bob := newPlayer(t, ts1), newPlayer(t, ts1)
	body := twoHumans()
	body["settings"] = map[string]any{"turnSeconds": 30}
	live := ann.create(body)
	if s := bob.join(live, 1, "bob"); s != 200 {
		t.Fatal(s)
	}
	open := ann.create(twoHumans())
	ts1.stop()

	ts2 := startServer(t, Config{Store: st, Clock: clock, BotDelay: -1})
	if ts2.running(open) != nil {
		t.Fatal("an open table was loaded at boot")
	}
	if ts2.running(live) == nil {
		t.Fatal("a live table with a turn clock was not loaded at boot")
	}
	eventually(t, "the turn clock is armed", func() bool { return clock.Pending() > 0 })
	clock.Advance(30 * time.Second)
	eventually(t, "a bot takes ann's seat and plays", func() bool {
		meta, err := st.GetTable(context.Background(), live)
		return err == nil && meta.Seats[0].TakenOver && meta.Version > 0
	})
}

// TestOpenTablesExpire: an open table nobody joined leaves the lobby after
// Config.OpenExpiry and refuses joins; a live table does not expire (it
// may be abandoned: TestAbandonedTablesLeaveTheLobby).
func TestOpenTablesExpire(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, OpenExpiry: time.Hour, AbandonAfter: -1})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	open := ann.create(twoHumans())
	live := ann.create(twoHumans())
	if s := bob.join(live, 1, "bob"); s != 200 {
		t.Fatal(s)
	}
	listed := func(q string) []string {
		t.Helper()
		var list []TableSummary
		if s := ann.do("GET", "/api/tables"+q, nil, &list); s != 200 {
			t.Fatalf("list: %d", s)
		}
		var ids []string
		for _, tb := range list {
			ids = append(ids, tb.ID)
		}
		slices.Sort(ids)
		return ids
	}
	both := []string{open, live}
	slices.Sort(both)
	clock.Advance(time.Hour)
	if got := listed(""); !slices.Equal(got, both) {
		t.Fatalf("after an hour: %v, want both", got)
	}
	clock.Advance(time.Millisecond)
	if got := listed(""); !slices.Equal(got, []string{live}) {
		t.Fatalf("after the expiry: %v, want only the live table", got)
	}
	if got := listed("?status=open"); len(got) != 0 {
		t.Fatalf("open tables after the expiry: %v", got)
	}
	var e errorBody
	if s := bob.do("POST", "/api/tables/"+open+"/join", map[string]any{"seat": 1, "name": "bob"}, &e); s != 410 || e.Error.Code != "expired" {
		t.Fatalf("join of an expired table: %d %+v", s, e)
	}
}

// countingStore counts the move logs read.
type countingStore struct {
	store.Store
	moves atomic.Int32
}

func (c *countingStore) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	c.moves.Add(1)
	return c.Store.Moves(ctx, id)
}

// TestFinishedTablesListedFromTheirRow: a finished game's result is stored
// with its row, and the lobby lists it without reading its moves. A row
// finished before results were stored is loaded once and gets its result.
func TestFinishedTablesListedFromTheirRow(t *testing.T) {
	cs := &countingStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: cs})
	p := newPlayer(t, ts)
	var out struct{ ID string }
	if s := p.do("POST", "/api/tables", map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "greedy"}}}, &out); s != 201 {
		t.Fatal(s)
	}
	id := out.ID
	eventually(t, "the game ends and its actor stops", func() bool { return ts.running(id) == nil })
	meta, err := cs.GetTable(context.Background(), id)
	if err != nil || meta.Status != store.StatusOver || meta.Result == nil || !meta.Result.Over || len(meta.Result.Winners) == 0 {
		t.Fatalf("stored row: %+v %v", meta, err)
	}
	cs.moves.Store(0)
	var list []TableSummary
	if s := p.do("GET", "/api/tables?status=over", nil, &list); s != 200 || len(list) != 1 || !reflect.DeepEqual(list[0].Result, *meta.Result) || list[0].Version != meta.Version {
		t.Fatalf("lobby: %d %+v, stored result %+v", s, list, meta.Result)
	}
	if sum := p.summary(id); !reflect.DeepEqual(sum.Result, *meta.Result) {
		t.Fatalf("table summary: %+v", sum.Result)
	}
	if n := cs.moves.Load(); n != 0 {
		t.Fatalf("listing finished tables read %d move logs", n)
	}

	// An old row without its result: loaded once, the result stored.
	old := meta
	old.Result = nil
	if err := cs.UpdateTable(context.Background(), old, store.NoFence); err != nil {
		t.Fatal(err)
	}
	if s := p.do("GET", "/api/tables?status=over", nil, &list); s != 200 || len(list) != 1 || !reflect.DeepEqual(list[0].Result, *meta.Result) {
		t.Fatalf("lobby of an old row: %d %+v", s, list)
	}
	eventually(t, "the result is stored", func() bool {
		m, err := cs.GetTable(context.Background(), id)
		return err == nil && reflect.DeepEqual(m.Result, meta.Result)
	})
	eventually(t, "the actor stops again", func() bool { return ts.running(id) == nil })
	cs.moves.Store(0)
	p.do("GET", "/api/tables?status=over", nil, &list)
	if n := cs.moves.Load(); n != 0 {
		t.Fatalf("the repaired row was replayed again (%d)", n)
	}
}

// TestStaleTimerDoesNothing: a timer that fires after the table re-armed
// (its Stop came too late) neither plays nor disturbs the current timer.
func TestStaleTimerDoesNothing(t *testing.T) {
	reg := &engine.Registry{}
	reg.Register(tickGame{})
	clock := newFakeClock()
	clock.Leaky = true
	ts := startServer(t, Config{Clock: clock, Games: reg})
	ann := newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "tick", "name": "ann", "seats": []map[string]any{{"kind": "human"}}})
	c := ann.connect(id)
	c.next()
	eventually(t, "the deadline's timer is armed", func() bool { return clock.Pending() == 1 })
	clock.Advance(3 * time.Second)
	c.send(map[string]any{"type": "act", "action": map[string]any{"t": "pass"}})
	c.await("update", nil)
	// The deadline moved from 5 s to 8 s; the 5 s timer could not be stopped.
	eventually(t, "the new timer is armed", func() bool { return clock.Pending() == 2 })
	clock.Advance(2 * time.Second) // the stale timer fires
	c.quiet(50 * time.Millisecond)
	if n := clock.Pending(); n != 1 {
		t.Fatalf("%d timers armed after the stale one fired, want the one at 8 s", n)
	}
	at := inActor(t, ts, id, func(tb *table) int64 { return tb.timerAt.Sub(tb.meta.Created).Milliseconds() })
	if at != 8000 {
		t.Fatalf("the table's timer is at %d ms, want 8000", at)
	}
	clock.Advance(3 * time.Second)
	if u := c.await("update", nil); u.Move.Seat != engine.SystemSeat {
		t.Fatalf("at 8 s: %s", u.raw)
	}
	c.quiet(50 * time.Millisecond)
	if got := storedMoves(t, ts, id); len(got) != 2 || got[0].At != 3000 || got[1].At != 8000 {
		t.Fatalf("stored moves: %+v", got)
	}
}

// TestPacedMoveAtTheDeadlineBeatsTheTimeout: a bot whose think time ends
// exactly at its deadline votes (engine.Next: a move stamped at the
// deadline plays first); no timeout is played.
func TestPacedMoveAtTheDeadlineBeatsTheTimeout(t *testing.T) {
	ts, _, clock := voteServer(t, Config{})
	watcher := newPlayer(t, ts)
	id := watcher.create(voteTable("yes", "edge"))
	c := watcher.connect(id)
	c.next()
	// Seat 0 said go and voted at 0; seat 1 votes at 6 s, its deadline.
	if at := waitPlans(t, ts, id, 1); at[0] != 6000 {
		t.Fatalf("seat 1 plays at %v", at)
	}
	clock.Advance(6 * time.Second)
	c.await("update", func(m msg) bool { return m.Move.Seat == 1 })
	// Seat 0 votes at once in the second vote too; its answer comes from
	// its own goroutine, so wait for it before the clock jumps on.
	c.await("update", func(m msg) bool { return m.Move.Seat == 0 })
	if at := waitPlans(t, ts, id, 1); at[0] != 12000 {
		t.Fatalf("in the second vote seat 1 plays at %v", at)
	}
	clock.Advance(6 * time.Second)
	end := c.await("update", func(m msg) bool { return m.Turn.Over })
	if v := voteOf(end, t); !reflect.DeepEqual(v.History, [][]string{{"yes", "yes"}, {"yes", "yes"}}) {
		t.Fatalf("votes: %s", end.raw)
	}
	want := []storedMove{{0, 0, `{"a":"go"}`}, {0, 0, `{"a":"vote","v":"yes"}`}, {1, 6000, `{"a":"vote","v":"yes"}`},
		{0, 6000, `{"a":"vote","v":"yes"}`}, {1, 12000, `{"a":"vote","v":"yes"}`}}
	if got := storedMoves(t, ts, id); !slices.Equal(got, want) {
		t.Fatalf("stored moves:\n got %+v\nwant %+v", got, want)
	}
}

// TestRestartedBotsDoNotRush: after a restart a bot's delay counts from
// when the table was loaded, not from the last move before the server
// went away, so a bots-only table does not play the missed time at once.
func TestRestartedBotsDoNotRush(t *testing.T) {
	st := memstore.New()
	clock := newFakeClock()
	cfg := Config{Store: st, Clock: clock, BotDelay: time.Second}
	ts1 := startServer(t, cfg)
	p := newPlayer(t, ts1)
	var out struct{ ID string }
	if s := p.do("POST", "/api/tables", map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}}}, &out); s != 201 {
		t.Fatal(s)
	}
	eventually(t, "the first bot move is timed", func() bool { return clock.Pending() > 0 })
	ts1.stop()
	clock.Advance(time.Hour)

	startServer(t, cfg)
	eventually(t, "the bot decides again", func() bool { return clock.Pending() > 0 })
	if meta, err := st.GetTable(context.Background(), out.ID); err != nil || meta.Version != 0 {
		t.Fatalf("right after the restart: version %d, %v", meta.Version, err)
	}
	clock.Advance(time.Second)
	eventually(t, "the bot moves a second after the restart", func() bool {
		moves, err := st.Moves(context.Background(), out.ID)
		return err == nil && len(moves) > 0 && moves[0].At == (time.Hour+time.Second).Milliseconds()
	})
}

// TestConnectLoadsAStoppedTableOnce: the actor a connection loads is held
// until the connection is attached, so it does not stop for idleness in
// between (and get loaded again).
func TestConnectLoadsAStoppedTableOnce(t *testing.T) {
	cs := &countingStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: cs})
	ann := newPlayer(t, ts)
	for range 5 {
		id := ann.create(twoHumans())
		eventually(t, "the open table's actor stops", func() bool { return ts.running(id) == nil })
		cs.moves.Store(0)
		if w := ann.connect(id).next(); w.Type != "welcome" || w.Seat != 0 {
			t.Fatalf("welcome: %s", w.raw)
		}
		if n := cs.moves.Load(); n != 1 {
			t.Fatalf("the table was loaded %d times for one connection", n)
		}
	}
}
