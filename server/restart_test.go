package server

import (
	"context"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// checkChance replays a stored game and checks that every chance move k is
// what engine.SplitSeed(seed, k) draws: the outcomes an uninterrupted server
// draws, whatever restarts happened in between.
func checkChance(t *testing.T, st store.Store, id string) int {
	t.Helper()
	ctx := context.Background()
	meta, err := st.GetTable(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := st.Moves(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	names := make([]string, len(meta.Seats))
	for i, s := range meta.Seats {
		names[i] = s.Name
	}
	state, err := dicestars.Game{}.New(names, meta.Options)
	if err != nil {
		t.Fatal(err)
	}
	chance := 0
	for k, lm := range moves {
		if lm.Seat == engine.ChanceSeat {
			want, _ := json.Marshal(state.SampleChance(engine.NewSource(engine.SplitSeed(meta.Seed, uint64(k)))))
			if string(want) != string(lm.Action) {
				t.Fatalf("chance move %d is %s, the seed draws %s", k, lm.Action, want)
			}
			chance++
		}
		a, err := dicestars.DecodeAction(lm.Action)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := state.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a}); err != nil {
			t.Fatalf("move %d: %v", k, err)
		}
	}
	return chance
}

func TestRestartResumesTables(t *testing.T) {
	st := memstore.New()
	// The first server's bots never get to move: it stops with a bot to act.
	ts1 := startServer(t, Config{Store: st, BotDelay: time.Hour})
	ann := newPlayer(t, ts1)
	id := ann.create(duel("greedy"))
	watch := newPlayer(t, ts1)
	bots := watch.create(map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}}})

	c := ann.connect(id)
	last := playDiceStarsTurn(t, c, c.next())
	if !last.Turn.Has(1) {
		t.Fatalf("after ann's take the bot is to act: %s", last.raw)
	}
	ts1.stop()

	// A second server, its bots still asleep, shows exactly what was told.
	ts2 := startServer(t, Config{Store: st, BotDelay: time.Hour})
	ann.ts = ts2
	w2 := ann.connect(id).next()
	if w2.Seat != 0 || w2.Version != last.Version || string(w2.View) != string(last.View) {
		t.Fatalf("after the restart: seat %d version %d (want %d); same view: %v", w2.Seat, w2.Version, last.Version, string(w2.View) == string(last.View))
	}
	ts2.stop()

	// A third one resumes the bot, and the game plays to its end.
	ts3 := startServer(t, Config{Store: st, MsgRate: fast, MsgBurst: fast})
	ann.ts = ts3
	c3 := ann.connect(id)
	playToEnd(t, c3, 0, rand.New(rand.NewPCG(3, 4)), c3.next())
	if n := checkChance(t, st, id); n < 10 {
		t.Fatalf("only %d chance moves", n)
	}
	// The bots-only table went on by itself and finished.
	watch.ts = ts3
	cw := watch.connect(bots)
	if w := cw.next(); !w.Turn.Over {
		cw.await("update", func(m msg) bool { return m.Turn.Over })
	}
	checkChance(t, st, bots)
}

// playDiceStarsTurn plays seat 0's Dice Stars turn from w (its turn): the
// first draw, then the last take; it returns the update of the take.
func playDiceStarsTurn(t *testing.T, c *wsClient, w msg) msg {
	t.Helper()
	c.send(map[string]any{"type": "act", "action": w.view(t).Legal[0], "version": w.Version})
	roll := c.await("update", func(m msg) bool { return m.Move.Seat == engine.ChanceSeat })
	v := roll.view(t)
	c.send(map[string]any{"type": "act", "action": v.Legal[len(v.Legal)-1], "version": roll.Version})
	return c.await("update", func(m msg) bool { return m.Move.Seat == 0 })
}

// flakyStore fails AppendMoves while failing is set.
type flakyStore struct {
	store.Store
	failing atomic.Bool
	calls   atomic.Int32
}

func (f *flakyStore) AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, fence store.Fence) error {
	f.calls.Add(1)
	if f.failing.Load() {
		return errors.New("disk full")
	}
	return f.Store.AppendMoves(ctx, id, version, moves, fence)
}

func TestMoveNotStoredIsNotTold(t *testing.T) {
	fs := &flakyStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: fs, RetryDelay: 10 * time.Millisecond})
	ann := newPlayer(t, ts)
	id := ann.create(duel("greedy"))
	c := ann.connect(id)
	c.next()
	watcher := newPlayer(t, ts).connect(id)
	watcher.next()
	fs.failing.Store(true)
	c.send(map[string]any{"type": "act", "id": 1, "action": dicestars.Draw(3, false)})
	if m := c.await("error", nil); m.Code != "internal" || *m.ID != 1 {
		t.Fatalf("unsaved move: %s", m.raw)
	}
	watcher.quiet(50 * time.Millisecond) // nobody heard of it
	if s := ann.summary(id); s.Version != 0 {
		t.Fatalf("version %d after a failed write", s.Version)
	}
	fs.failing.Store(false)
	c.send(map[string]any{"type": "act", "id": 2, "action": dicestars.Draw(3, false), "version": 0})
	if u := c.await("update", nil); u.Version != 1 {
		t.Fatalf("after recovery: %s", u.raw)
	}
	if u := watcher.await("update", nil); u.Version != 1 {
		t.Fatalf("watcher after recovery: %s", u.raw)
	}
	checkChance(t, fs, id)
}

func TestBotsRetryAfterStoreFailure(t *testing.T) {
	fs := &flakyStore{Store: memstore.New()}
	fs.failing.Store(true)
	ts := startServer(t, Config{Store: fs, RetryDelay: 5 * time.Millisecond})
	p := newPlayer(t, ts)
	var out struct{ ID string }
	if st := p.do("POST", "/api/tables", map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}}}, &out); st != 201 {
		t.Fatal(st)
	}
	c := p.connect(out.ID)
	c.next()
	// The bot keeps trying while the store fails; nothing is told.
	deadline := time.Now().Add(waitLimit)
	for fs.calls.Load() < 3 {
		if time.Now().After(deadline) {
			t.Fatal("the bot did not retry")
		}
		time.Sleep(5 * time.Millisecond)
	}
	c.quiet(20 * time.Millisecond)
	fs.failing.Store(false)
	if u := c.await("update", nil); u.Version != 1 {
		t.Fatalf("first stored move: %s", u.raw)
	}
	c.await("update", func(m msg) bool { return m.Turn.Over })
	checkChance(t, fs, out.ID)
}

// TestFinishedTablesLeaveMemory: a finished table nobody watches stops its
// actor; opening it again loads it from the store.
func TestFinishedTablesLeaveMemory(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	var out struct{ ID string }
	if st := p.do("POST", "/api/tables", map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "random"}}}, &out); st != 201 {
		t.Fatal(st)
	}
	c := p.connect(out.ID)
	end := c.await("update", func(m msg) bool { return m.Turn.Over })
	_ = c.ws.Close(websocket.StatusNormalClosure, "")
	deadline := time.Now().Add(waitLimit)
	for ts.running(out.ID) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the finished table stayed in memory")
		}
		time.Sleep(2 * time.Millisecond)
	}
	s := p.summary(out.ID)
	if s.Status != "over" || !s.Result.Over || s.Version != end.Version {
		t.Fatalf("summary from the store: %+v", s)
	}
	w := p.connect(out.ID).next()
	if !w.Turn.Over || w.Version != end.Version || string(w.View) != string(end.View) {
		t.Fatalf("reopened: %s", w.raw)
	}
}

func TestCloseSaysGoodbye(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	id := p.create(duel("random"))
	c := p.connect(id)
	c.next()
	done := make(chan error, 1)
	go func() { done <- ts.Close() }()
	if err := c.closed(); websocket.CloseStatus(err) != websocket.StatusGoingAway {
		t.Fatalf("close: %v", err)
	}
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if _, err := dialWS(ts, id, p.jar); err == nil {
		t.Fatal("a closed server accepts connections")
	}
}
