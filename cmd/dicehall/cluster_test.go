package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/internal/natsrv"
	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
)

// TestClusterSurvivesKills runs three `serve` nodes on one PostgreSQL and
// one NATS server, plays bots-only games on them while spectators watch
// through whichever node they reach, and kills a node with SIGKILL every
// few seconds for a minute (it comes back). Every game finishes; every move a
// spectator was told is in the stored log at its place, exactly once;
// every log replays.
func TestClusterSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster test kills and restarts servers for half a minute")
	}
	bin := buildDicehall(t)
	ns, err := natsrv.Start("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Close)
	// One PostgreSQL, as a cluster has (testpg skips without its binaries
	// unless DICEHALL_CLUSTER=require).
	db := testpg.New(t, testpg.Options{}).CreateDB(t)
	flags := func(i int) []string {
		return []string{"--nats", ns.URL(), "--node", fmt.Sprintf("n%d", i), "--lease-ttl", "2s", "--bot-delay", "30ms",
			"--max-ws-per-addr", "0", "--max-conns-per-addr", "0"}
	}
	var mu sync.Mutex
	nodes := make([]*served, 3)
	for i := range nodes {
		nodes[i] = startServe(t, bin, db, flags(i)...)
	}
	pick := func() *served {
		mu.Lock()
		defer mu.Unlock()
		return nodes[rand.IntN(len(nodes))]
	}

	const tables = 6
	ids := make([]string, tables)
	create := func(i int) {
		body := `{"game":"dicestars","seats":[{"kind":"bot","bot":"greedy"},{"kind":"bot","bot":"greedy"}],"settings":{"botDelayMs":150}}`
		for attempt := 0; ; attempt++ {
			resp, err := http.Post(pick().url+"/api/tables", "application/json", strings.NewReader(body))
			if err == nil {
				var out struct{ ID string }
				_ = json.NewDecoder(resp.Body).Decode(&out)
				resp.Body.Close()
				if resp.StatusCode == http.StatusCreated && out.ID != "" {
					ids[i] = out.ID
					return
				}
				err = fmt.Errorf("status %d", resp.StatusCode)
			}
			if attempt == 20 {
				t.Fatalf("create: %v", err)
			}
			time.Sleep(200 * time.Millisecond) // that node was just killed
		}
	}
	// Half the games start now, half while nodes are dying.
	for i := range tables / 2 {
		create(i)
	}

	// Spectators: what they were told, by table and version.
	type toldMove struct {
		Seat   engine.Seat     `json:"seat"`
		Action json.RawMessage `json:"action"`
	}
	told := make([]map[int]toldMove, tables)
	over := make([]chan struct{}, tables)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	for i := range ids {
		told[i] = map[int]toldMove{}
		over[i] = make(chan struct{})
	}
	watch := func(i int) {
		id := ids[i]
		wg.Go(func() {
			for ctx.Err() == nil {
				n := pick()
				ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.url, "http")+"/ws/"+id, nil)
				if err != nil {
					time.Sleep(100 * time.Millisecond)
					continue
				}
				ws.SetReadLimit(1 << 22)
				for {
					_, data, err := ws.Read(ctx)
					if err != nil {
						break
					}
					var m struct {
						Type    string      `json:"type"`
						Version int         `json:"version"`
						Move    toldMove    `json:"move"`
						Turn    engine.Turn `json:"turn"`
					}
					if json.Unmarshal(data, &m) != nil {
						continue
					}
					if m.Type == "update" {
						if prev, ok := told[i][m.Version]; ok && (prev.Seat != m.Move.Seat || !bytes.Equal(prev.Action, m.Move.Action)) {
							t.Errorf("table %s version %d told twice, differently: %s then %s", id, m.Version, prev.Action, m.Move.Action)
						}
						told[i][m.Version] = m.Move
					}
					if m.Turn.Over {
						_ = ws.Close(websocket.StatusNormalClosure, "")
						close(over[i])
						return
					}
				}
				_ = ws.CloseNow()
			}
		})
	}
	for i := range tables / 2 {
		watch(i)
	}

	// Kill a node every few seconds, and bring it back.
	began := time.Now()
	killUntil := began.Add(time.Minute)
	kills := 0
	for time.Now().Before(killUntil) {
		if ids[tables-1] == "" && time.Since(began) > 20*time.Second {
			for i := tables / 2; i < tables; i++ {
				create(i)
				watch(i)
			}
		}
		time.Sleep(3 * time.Second)
		i := rand.IntN(3)
		mu.Lock()
		victim := nodes[i]
		mu.Unlock()
		_ = victim.cmd.Process.Signal(syscall.SIGKILL)
		victim.exited <- <-victim.exited // startServe's cleanup waits for it too
		kills++
		time.Sleep(500 * time.Millisecond)
		fresh := startServe(t, bin, db, flags(i)...)
		mu.Lock()
		nodes[i] = fresh
		mu.Unlock()
	}
	for i, id := range ids {
		select {
		case <-over[i]:
		case <-time.After(90 * time.Second):
			t.Fatalf("table %s never finished (%d kills)", id, kills)
		}
	}
	cancel()
	wg.Wait()

	st, err := postgres.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i, id := range ids {
		meta, err := st.GetTable(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := st.Moves(context.Background(), id)
		if err != nil {
			t.Fatal(err)
		}
		if meta.Status != store.StatusOver || meta.Version != len(moves) {
			t.Errorf("table %s: %s, version %d, %d moves", id, meta.Status, meta.Version, len(moves))
		}
		for v, m := range told[i] {
			if v < 1 || v > len(moves) || moves[v-1].Seat != m.Seat || !bytes.Equal(moves[v-1].Action, m.Action) {
				t.Errorf("table %s: version %d was told as %s, not what the log holds", id, v, m.Action)
			}
		}
		g, _ := all.Registry.Lookup(meta.Game)
		var players []string
		for _, s := range meta.Seats {
			players = append(players, s.Name)
		}
		state, err := engine.Replay(g, engine.Record{Game: meta.Game, Players: players, Options: meta.Options, Moves: moves})
		if err != nil {
			t.Errorf("table %s: the log does not replay: %v", id, err)
		} else if !state.Turn().Over {
			t.Errorf("table %s: the log does not end the game", id)
		}
		t.Logf("table %s: %d moves, %d told to spectators", id, len(moves), len(told[i]))
	}
	t.Logf("%d nodes killed", kills)
}
