package server

import (
	"context"
	"errors"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// Ownership without a bus: several nodes of one process share a store;
// leases decide which one runs each table.

// quickCluster is lease timing for tests: a node's death is noticed
// within a second.
func quickCluster(node string) *Cluster {
	return &Cluster{Node: node, LeaseTTL: 600 * time.Millisecond, SweepEvery: 100 * time.Millisecond}
}

// botsOnly is a two-bot Dice Stars table nobody sits at, its bots slow
// enough that the game lasts a few seconds.
func botsOnly() map[string]any {
	return map[string]any{"game": "dicestars", "seats": []map[string]any{{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}},
		"settings": map[string]any{"botDelayMs": 40}}
}

// crashStore is a node's view of the shared store that a crash cuts:
// from then on the node ends no lease, as a kill -9 would not.
type crashStore struct {
	store.Store
	dead atomic.Bool
}

func (c *crashStore) EndLease(ctx context.Context, l store.Lease, handOver bool) error {
	if c.dead.Load() {
		return nil
	}
	return c.Store.EndLease(ctx, l, handOver)
}

// crash stops a node as a kill -9 would: its leases are neither renewed
// nor ended, and (a cluster node) it says nothing more on the bus. The
// node must have been started on a *crashStore.
func (ts *testServer) crash() {
	if ts.nc != nil {
		ts.nc.Close()
	}
	ts.store.(*crashStore).dead.Store(true)
	ts.stop()
}

func ownerOf(t *testing.T, st store.Store, id string) store.Lease {
	t.Helper()
	l, err := st.LeaseOf(context.Background(), id)
	if err != nil {
		return store.Lease{}
	}
	l.Node, _, _ = strings.Cut(l.Node, "~") // the name the test gave, not the run's suffix
	return l
}

// checkLogReplays replays a table's stored moves through its game: one
// coherent game, whatever nodes wrote it.
func checkLogReplays(t *testing.T, st store.Store, id string) (engine.State, int) {
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
	g, _ := all.Registry.Lookup(meta.Game)
	state, err := engine.Replay(g, engine.Record{Game: meta.Game, Players: playerNames(meta), Options: meta.Options, Moves: moves})
	if err != nil {
		t.Fatalf("table %s: the stored log does not replay: %v", id, err)
	}
	if meta.Version != len(moves) {
		t.Fatalf("table %s: version %d, %d moves", id, meta.Version, len(moves))
	}
	return state, len(moves)
}

func TestLeaseOwnerRunsTheTable(t *testing.T) {
	st := memstore.New()
	a := startServer(t, Config{Store: st, Cluster: quickCluster("a")})
	b := startServer(t, Config{Store: st, Cluster: quickCluster("b")})
	ann := newPlayer(t, a)
	id := ann.create(botsOnly())
	if l := ownerOf(t, st, id); l.Node != "a" || l.Epoch != 1 {
		t.Fatalf("lease of a table made on a = %+v, want a's, epoch 1", l)
	}
	_, _, err := b.actor(context.Background(), id)
	var remote *errRemote
	if !errors.As(err, &remote) || !strings.HasPrefix(remote.lease.Node, "a~") {
		t.Fatalf("b loading a's table: %v, want it run by a", err)
	}
	eventually(t, "a finishes the bots' game", func() bool {
		m, _ := st.GetTable(context.Background(), id)
		return m.Status == store.StatusOver
	})
	// Nothing left to do: a released the table, and nobody adopts it.
	eventually(t, "a releases the finished table", func() bool { return ownerOf(t, st, id).Node == "" })
	if o, _ := st.Orphans(context.Background(), 10); len(o) != 0 {
		t.Errorf("orphans after a released a finished table: %+v", o)
	}
	checkLogReplays(t, st, id)
}

func TestNodeDeathTableAdopted(t *testing.T) {
	st := memstore.New()
	a := startServer(t, Config{Store: &crashStore{Store: st}, Cluster: quickCluster("a")})
	startServer(t, Config{Store: st, Cluster: quickCluster("b")})
	id := newPlayer(t, a).create(botsOnly())
	eventually(t, "a few moves on a", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Version >= 10 })
	a.crash()
	died := time.Now()
	eventually(t, "b adopts the table", func() bool { return ownerOf(t, st, id).Node == "b" })
	if d := time.Since(died); d > 3*time.Second {
		t.Errorf("adopted %v after the death, want within the lease time and a sweep", d)
	}
	if l := ownerOf(t, st, id); l.Epoch != 2 {
		t.Errorf("adopted under epoch %d, want 2", l.Epoch)
	}
	eventually(t, "b finishes the game", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Status == store.StatusOver })
	if state, _ := checkLogReplays(t, st, id); !state.Turn().Over {
		t.Error("the stored log does not end the game")
	}
}

func TestDrainHandsTablesOver(t *testing.T) {
	st := memstore.New()
	a := startServer(t, Config{Store: st, Cluster: quickCluster("a")})
	// b's leases last an hour: it adopts the table because a handed it
	// over, not because a lease lapsed.
	startServer(t, Config{Store: st, Cluster: &Cluster{Node: "b", LeaseTTL: time.Hour, SweepEvery: 100 * time.Millisecond}})
	id := newPlayer(t, a).create(botsOnly())
	eventually(t, "a few moves on a", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Version >= 5 })
	a.stop() // a clean stop hands the live table over at once, without waiting for its lease to lapse
	eventually(t, "b adopts the handed-over table", func() bool { return ownerOf(t, st, id).Node == "b" })
	eventually(t, "b finishes the game", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Status == store.StatusOver })
	checkLogReplays(t, st, id)
}

// partitionStore cuts a node off the store's leases: renewals fail, as
// for a node that cannot reach the database.
type partitionStore struct {
	store.Store
	cut chan struct{}
}

func (p *partitionStore) RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	select {
	case <-p.cut:
		return nil, errors.New("connection refused")
	default:
		return p.Store.RenewLeases(ctx, node, ttl)
	}
}

func TestPartitionedNodeStopsWriting(t *testing.T) {
	st := memstore.New()
	ps := &partitionStore{Store: st, cut: make(chan struct{})}
	a := startServer(t, Config{Store: ps, Cluster: quickCluster("a")})
	startServer(t, Config{Store: st, Cluster: quickCluster("b")})
	id := newPlayer(t, a).create(botsOnly())
	eventually(t, "a few moves on a", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Version >= 5 })
	close(ps.cut)
	eventually(t, "b adopts the table a cannot renew", func() bool { return ownerOf(t, st, id).Node == "b" })
	eventually(t, "a stops running the table", func() bool { return a.running(id) == nil })
	eventually(t, "b finishes the game", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Status == store.StatusOver })
	checkLogReplays(t, st, id)
}

// silentStore is a node's view of the shared store once the network to it
// goes silent (cut closed): every call waits, unanswered, until its context
// ends, as a query sent into a partition does.
type silentStore struct {
	store.Store
	cut chan struct{}
}

func (p *silentStore) wait(ctx context.Context) error {
	select {
	case <-p.cut:
		<-ctx.Done()
		return ctx.Err()
	default:
		return nil
	}
}

func (p *silentStore) AppendMoves(ctx context.Context, id string, version int, moves []engine.LoggedMove, f store.Fence) error {
	if err := p.wait(ctx); err != nil {
		return err
	}
	return p.Store.AppendMoves(ctx, id, version, moves, f)
}

func (p *silentStore) UpdateTable(ctx context.Context, t store.Table, f store.Fence) error {
	if err := p.wait(ctx); err != nil {
		return err
	}
	return p.Store.UpdateTable(ctx, t, f)
}

func (p *silentStore) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	if err := p.wait(ctx); err != nil {
		return nil, err
	}
	return p.Store.Moves(ctx, id)
}

func (p *silentStore) RenewLeases(ctx context.Context, node string, ttl time.Duration) ([]store.Lease, error) {
	if err := p.wait(ctx); err != nil {
		return nil, err
	}
	return p.Store.RenewLeases(ctx, node, ttl)
}

func (p *silentStore) Orphans(ctx context.Context, limit int) ([]store.Lease, error) {
	if err := p.wait(ctx); err != nil {
		return nil, err
	}
	return p.Store.Orphans(ctx, limit)
}

// TestSilentStoreStopsActors: a node whose store stops answering (a
// partition that drops packets, not one that refuses connections) stops
// its actors once a lease time passes without a renewal, even though each
// is stuck in a write that would wait its whole StoreTimeout (a minute
// here); its players are sent away, and another node finishes the game.
func TestSilentStoreStopsActors(t *testing.T) {
	st := memstore.New()
	ss := &silentStore{Store: st, cut: make(chan struct{})}
	a := startServer(t, Config{Store: ss, Cluster: quickCluster("a"), StoreTimeout: time.Minute})
	startServer(t, Config{Store: st, Cluster: quickCluster("b")})
	ann := newPlayer(t, a)
	id := ann.create(botsOnly())
	watching := ann.connect(id)
	eventually(t, "a few moves on a", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Version >= 5 })
	close(ss.cut)
	eventually(t, "a stops running the table", func() bool { return a.running(id) == nil })
	select {
	case err := <-watching.err:
		if websocket.CloseStatus(err) != websocket.StatusTryAgainLater {
			t.Errorf("the spectator at a was closed with %v, want 1013 (come back)", err)
		}
	case <-time.After(waitLimit):
		t.Fatal("the spectator at a was not sent away")
	}
	eventually(t, "b adopts the table", func() bool { return ownerOf(t, st, id).Node == "b" })
	eventually(t, "b finishes the game", func() bool { m, _ := st.GetTable(context.Background(), id); return m.Status == store.StatusOver })
	checkLogReplays(t, st, id)
}
