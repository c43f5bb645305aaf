package main

// The clients of the cluster tests (cluster_test.go, cluster_partition_test.go):
// spectators, and players who drive their seats over WebSocket as a page
// does, through whichever node they reach; and the checks that every
// stored log agrees with what the clients were told and sent.

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
)

// testCluster is the nodes of a cluster test and the test's own
// connection to their database.
type testCluster struct {
	t  *testing.T
	st *postgres.Store

	mu    sync.Mutex
	names []string  // each node's --node
	nodes []*served // nodes[i] runs as names[i]; replaced when it restarts
	rng   *rand.Rand
}

// newTestCluster opens the database of the nodes to come (migrating it)
// and seeds the test's choices: DICEHALL_CLUSTER_SEED replays a run's.
func newTestCluster(t *testing.T, db string, names ...string) *testCluster {
	seed := uint64(time.Now().UnixNano())
	if s := os.Getenv("DICEHALL_CLUSTER_SEED"); s != "" {
		var err error
		if seed, err = strconv.ParseUint(s, 10, 64); err != nil {
			t.Fatalf("DICEHALL_CLUSTER_SEED: %v", err)
		}
	}
	t.Logf("seed %d (DICEHALL_CLUSTER_SEED=%d repeats the test's choices)", seed, seed)
	st, err := postgres.Open(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = st.Close() })
	return &testCluster{t: t, st: st, names: names, nodes: make([]*served, len(names)), rng: rand.New(rand.NewPCG(seed, seed))}
}

// node and setNode read and replace the process running names[i].
func (c *testCluster) node(i int) *served {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nodes[i]
}

func (c *testCluster) setNode(i int, s *served) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.nodes[i] = s
}

func (c *testCluster) intN(n int) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.rng.IntN(n)
}

// newRand is a generator of its own for one client, from the test's seed.
func (c *testCluster) newRand() *rand.Rand {
	c.mu.Lock()
	defer c.mu.Unlock()
	return rand.New(rand.NewPCG(c.rng.Uint64(), c.rng.Uint64()))
}

// pick is any node, at random (it may be dead: the caller tries again).
func (c *testCluster) pick() *served { return c.node(c.intN(len(c.names))) }

// owner is the index of the node holding table id's lease, -1 for none.
func (c *testCluster) owner(id string) int {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	l, err := c.st.LeaseOf(ctx, id)
	if err != nil {
		return -1
	}
	name, _, _ := strings.Cut(l.Node, "~") // a run's suffix (server.Cluster.Node)
	for i, n := range c.names {
		if n == name {
			return i
		}
	}
	return -1
}

// pickAway is a node other than table id's owner, at random: a player
// reaches the table through another node where it can.
func (c *testCluster) pickAway(id string) *served {
	o := c.owner(id)
	if o < 0 {
		return c.pick()
	}
	i := c.intN(len(c.names) - 1)
	if i >= o {
		i++
	}
	return c.node(i)
}

// post sends a JSON POST to a node; transport errors come back as err.
func post(n *served, path, body, cookie string) (status int, answer []byte, cookies []*http.Cookie, err error) {
	req, err := http.NewRequest(http.MethodPost, n.url+path, strings.NewReader(body))
	if err != nil {
		return 0, nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if cookie != "" {
		req.Header.Set("Cookie", cookie)
	}
	resp, err := (&http.Client{Timeout: 5 * time.Second}).Do(req)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	answer, err = io.ReadAll(resp.Body)
	return resp.StatusCode, answer, resp.Cookies(), err
}

// retryable: the node died under the request, or was changing hands.
func retryable(status int, err error) bool {
	return err != nil || status == http.StatusTooManyRequests || status >= 500
}

// tableKind is a table to make: a game, its seats for test clients (first)
// and for bots.
type tableKind struct {
	game          string
	humans, bots  int
	botDelayMs    int
	thinkMs       [2]int // the clients' pause before each move, uniform in [min, max)
	createdOnNode int    // -1: any node
}

func (k tableKind) body() string {
	var seats []string
	for range k.humans {
		seats = append(seats, `{"kind":"human"}`)
	}
	for range k.bots {
		seats = append(seats, `{"kind":"bot"}`)
	}
	name := ""
	if k.humans > 0 {
		name = `"name":"p0",`
	}
	return fmt.Sprintf(`{"game":%q,%s"seats":[%s],"settings":{"botDelayMs":%d}}`, k.game, name, strings.Join(seats, ","), k.botDelayMs)
}

// watched is a table under test: what its clients were told and sent.
type watched struct {
	id   string
	kind tableKind
	// cookies[s]: the seat cookie of human seat s ("dh_<id>=<token>").
	cookies []string

	mu   sync.Mutex
	told map[int]toldMove                        // by version: the move that made it
	sent map[engine.Seat]map[int]json.RawMessage // by seat and the version it was sent at
	over chan struct{}
	once sync.Once
	// A player's figures, and what each player last did (for a table
	// that never finishes).
	acts, resends, reconnects, gaps int
	doing                           map[engine.Seat]string
}

type toldMove struct {
	Seat   engine.Seat     `json:"seat"`
	Action json.RawMessage `json:"action"`
}

func newWatched(id string, k tableKind, cookies []string) *watched {
	return &watched{id: id, kind: k, cookies: cookies, told: map[int]toldMove{}, sent: map[engine.Seat]map[int]json.RawMessage{},
		over: make(chan struct{}), doing: map[engine.Seat]string{}}
}

// tell records that a client was told version v was made by m: two
// clients told differently is a move played twice.
func (w *watched) tell(t *testing.T, v int, m toldMove) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if prev, ok := w.told[v]; ok && (prev.Seat != m.Seat || !bytes.Equal(prev.Action, m.Action)) {
		t.Errorf("table %s version %d told twice, differently: %v %s then %v %s", w.id, v, prev.Seat, prev.Action, m.Seat, m.Action)
	}
	w.told[v] = m
}

// sentAct records a player's act at version v (resends send the same).
func (w *watched) sentAct(t *testing.T, seat engine.Seat, v int, a json.RawMessage) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.sent[seat] == nil {
		w.sent[seat] = map[int]json.RawMessage{}
	}
	if prev, ok := w.sent[seat][v]; ok && !bytes.Equal(prev, a) {
		t.Errorf("table %s: %v sent two moves at version %d: %s and %s", w.id, seat, v, prev, a)
	}
	w.sent[seat][v] = a
}

func (w *watched) finish() { w.once.Do(func() { close(w.over) }) }

// note records what a player is doing now.
func (w *watched) note(seat engine.Seat, format string, args ...any) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.doing[seat] = time.Now().Format("15:04:05.000 ") + fmt.Sprintf(format, args...)
}

func (w *watched) count(f func(w *watched)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(w)
}

// makeTable makes a table of kind k and joins its human seats, through
// random nodes (or k.createdOnNode), trying again while nodes die. ok is
// false when a lost answer left the table unusable (a join that went
// through but never said so: its seat's cookie is gone); make another.
func (c *testCluster) makeTable(k tableKind) (w *watched, ok bool) {
	t := c.t
	node := func() *served {
		if k.createdOnNode >= 0 {
			return c.node(k.createdOnNode)
		}
		return c.pick()
	}
	var id string
	var cookies []string
	for attempt := 0; ; attempt++ {
		status, answer, set, err := post(node(), "/api/tables", k.body(), "")
		if status == http.StatusCreated {
			var out struct{ ID string }
			if err := json.Unmarshal(answer, &out); err != nil || out.ID == "" {
				t.Fatalf("create %s: %s", k.game, answer)
			}
			id = out.ID
			if k.humans > 0 {
				ck := seatCookie(set, id)
				if ck == "" {
					t.Fatalf("create %s: no seat cookie", k.game)
				}
				cookies = append(cookies, ck)
			}
			break
		}
		if !retryable(status, err) || attempt == 30 {
			t.Fatalf("create %s: %d %s %v", k.game, status, answer, err)
		}
		time.Sleep(200 * time.Millisecond) // a node dying: another may answer
	}
	for seat := 1; seat < k.humans; seat++ {
		body := fmt.Sprintf(`{"seat":%d,"name":"p%d"}`, seat, seat)
		for attempt := 0; ; attempt++ {
			status, answer, set, err := post(node(), "/api/tables/"+id+"/join", body, "")
			if status == http.StatusOK {
				ck := seatCookie(set, id)
				if ck == "" {
					t.Fatalf("join %s: no seat cookie", id)
				}
				cookies = append(cookies, ck)
				break
			}
			if status == http.StatusConflict && attempt > 0 {
				t.Logf("table %s: a join whose answer was lost took seat %d; this table is left", id, seat)
				return nil, false
			}
			if !retryable(status, err) || attempt == 30 {
				t.Fatalf("join %s seat %d: %d %s %v", id, seat, status, answer, err)
			}
			time.Sleep(200 * time.Millisecond)
		}
	}
	return newWatched(id, k, cookies), true
}

func seatCookie(set []*http.Cookie, id string) string {
	for _, ck := range set {
		if ck.Name == "dh_"+id && ck.Value != "" {
			return ck.Name + "=" + ck.Value
		}
	}
	return ""
}

// dialTable opens a WebSocket to table id at node n, as the cookie's seat.
func dialTable(ctx context.Context, n *served, id, cookie string) (*websocket.Conn, error) {
	opts := &websocket.DialOptions{HTTPClient: &http.Client{Timeout: 3 * time.Second}, HTTPHeader: http.Header{}}
	if cookie != "" {
		opts.HTTPHeader.Set("Cookie", cookie)
	}
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(n.url, "http")+"/ws/"+id, opts)
	if err != nil {
		return nil, err
	}
	ws.SetReadLimit(1 << 22)
	return ws, nil
}

// wsMsg is what the clients read of the server's messages.
type wsMsg struct {
	Type    string      `json:"type"`
	ID      *int64      `json:"id"`
	Seat    int         `json:"seat"`
	Version int         `json:"version"`
	Move    toldMove    `json:"move"`
	Turn    engine.Turn `json:"turn"`
	Rule    string      `json:"rule"`
	Code    string      `json:"code"`
	Message string      `json:"message"`
}

// spectate watches table w through any node, reconnecting whenever the
// connection drops, until the game is over; it records every update.
func (c *testCluster) spectate(ctx context.Context, wg *sync.WaitGroup, w *watched) {
	wg.Go(func() {
		told := 0 // the highest version heard of
		for ctx.Err() == nil {
			ws, err := dialTable(ctx, c.pick(), w.id, "")
			if err != nil {
				time.Sleep(100 * time.Millisecond)
				continue
			}
			for {
				_, data, err := ws.Read(ctx)
				if err != nil {
					break
				}
				var m wsMsg
				if json.Unmarshal(data, &m) != nil {
					continue
				}
				switch m.Type {
				case "update":
					w.tell(c.t, m.Version, m.Move)
					told = max(told, m.Version)
				case "welcome":
					if m.Version < told {
						c.t.Errorf("table %s: a spectator welcomed at version %d after being told of version %d: stored moves lost", w.id, m.Version, told)
					}
					told = max(told, m.Version)
				}
				if m.Turn.Over {
					_ = ws.Close(websocket.StatusNormalClosure, "")
					w.finish()
					return
				}
			}
			_ = ws.CloseNow()
		}
	})
}

// player drives one human seat of a table as a page would: one WebSocket
// at a time, to a node other than the table's owner where it can, opened
// again on a random node whenever it drops; each act carries the version
// it was chosen at, so the table plays it at that version or refuses it
// (stale), and an act never answered is sent again, same action, same
// version, never played twice. Moves come from a seeded bot of the game,
// on the seat's view: the client rebuilds the game from the stored log up
// to the version it was told (a test's oracle: stored before told makes
// that log at least as long), so any game is played without knowing it.
type player struct {
	c    *testCluster
	w    *watched
	seat engine.Seat
	game engine.Game
	ctrl engine.Controller
	rng  *rand.Rand

	state engine.State // the game at version at, for decisions
	at    int
	// told is the highest version this player was told of.
	told int
	// pend is the act sent and not yet seen played or refused.
	pend   *pendingAct
	nextID int64
	failed bool // the player could not choose a move: it stops
}

type pendingAct struct {
	version int
	id      int64
	action  json.RawMessage
}

func (c *testCluster) play(ctx context.Context, wg *sync.WaitGroup, w *watched, seat engine.Seat) {
	g, ok := all.Registry.Lookup(w.kind.game)
	if !ok {
		c.t.Fatalf("no game %q", w.kind.game)
	}
	bp, ok := g.(engine.BotProvider)
	if !ok {
		c.t.Fatalf("%s has no bots to choose the players' moves", w.kind.game)
	}
	p := &player{c: c, w: w, seat: seat, game: g, rng: c.newRand()}
	ctrl, err := bp.NewBot(g.Info().DefaultBot, p.rng.Uint64())
	if err != nil {
		c.t.Fatal(err)
	}
	p.ctrl = ctrl
	wg.Go(func() { p.run(ctx) })
}

func (p *player) run(ctx context.Context) {
	for first := true; ctx.Err() == nil; first = false {
		if !first {
			p.w.count(func(w *watched) { w.reconnects++ })
		}
		n := p.c.pickAway(p.w.id)
		ws, err := dialTable(ctx, n, p.w.id, p.w.cookies[p.seat])
		if err != nil {
			p.w.note(p.seat, "dial %s: %v", n.url, err)
			time.Sleep(100 * time.Millisecond)
			continue
		}
		p.w.note(p.seat, "connected to %s", n.url)
		over := p.session(ctx, ws)
		_ = ws.CloseNow()
		if over {
			p.w.finish()
			return
		}
	}
}

// session plays over one connection until it drops (false) or the game is
// over (true).
func (p *player) session(ctx context.Context, ws *websocket.Conn) bool {
	t := p.c.t
	msgs := make(chan wsMsg, 64)
	sctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go func() {
		defer close(msgs)
		for {
			_, data, err := ws.Read(sctx)
			if err != nil {
				return
			}
			var m wsMsg
			if err := json.Unmarshal(data, &m); err != nil {
				t.Errorf("table %s: a message that is not JSON: %s", p.w.id, data)
				continue
			}
			select {
			case msgs <- m:
			case <-sctx.Done():
				return
			}
		}
	}()
	version := -1 // until the welcome
	var turn engine.Turn
	timer := time.NewTimer(time.Hour)
	defer timer.Stop()
	// soon schedules the next look at the turn: after a think, a resend's
	// pause, or at once.
	soon := func(d time.Duration) {
		timer.Stop()
		timer.Reset(d)
	}
	for {
		select {
		case <-ctx.Done():
			return false
		case <-timer.C:
			if version >= 0 && turn.Has(p.seat) && !turn.Over {
				if err := p.act(ctx, ws, version); err != nil {
					return p.failed // a failed choice ends this player; a failed write, the connection
				}
				soon(3 * time.Second) // unanswered by then: send it again
			}
			continue
		case m, ok := <-msgs:
			if !ok {
				return false
			}
			switch m.Type {
			case "welcome":
				if m.Seat != int(p.seat) {
					t.Errorf("table %s: the seat cookie of %v was welcomed as seat %d", p.w.id, p.seat, m.Seat)
					return false
				}
				if m.Version < p.told {
					t.Errorf("table %s: welcomed at version %d after being told of version %d: stored moves lost", p.w.id, m.Version, p.told)
				}
				version, turn = m.Version, m.Turn
				p.told = max(p.told, version)
				p.w.note(p.seat, "welcomed at version %d, actors %v", version, turn.Actors)
				if p.pend != nil && p.pend.version != version {
					p.pend = nil // played, or the table moved on: choose again
				}
				soon(0) // unacknowledged at this version: send it again now
			case "update":
				if version < 0 {
					t.Errorf("table %s: an update before the welcome", p.w.id)
					return false
				}
				p.w.tell(t, m.Version, m.Move)
				if m.Version <= version {
					continue // told already
				}
				if m.Version != version+1 {
					p.w.count(func(w *watched) { w.gaps++ })
					return false // a gap: reconnect for a fresh welcome (docs/protocol.md)
				}
				version, turn = m.Version, m.Turn
				p.told = max(p.told, version)
				if p.pend != nil && p.pend.version < version {
					p.pend = nil // answered: played (this update) or overtaken (refused as stale)
				}
				soon(p.think())
			case "refused":
				if p.pend == nil || m.ID == nil || *m.ID != p.pend.id {
					continue
				}
				if m.Rule != "stale" {
					t.Errorf("table %s: %v's move %s at version %d refused: %s (%s)", p.w.id, p.seat, p.pend.action, p.pend.version, m.Rule, m.Message)
				} else if p.pend.version == version {
					// The table moved on and this connection was not told:
					// a fresh welcome says how (docs/protocol.md).
					return false
				}
				p.pend = nil
				soon(p.think())
			case "error":
				if p.pend == nil || m.ID == nil || *m.ID != p.pend.id {
					t.Logf("table %s: error %s: %s", p.w.id, m.Code, m.Message)
					continue
				}
				switch m.Code {
				case "busy", "unavailable", "internal": // nothing changed: try again
				default:
					t.Errorf("table %s: %v's move %s: error %s (%s)", p.w.id, p.seat, p.pend.action, m.Code, m.Message)
				}
				soon(200 * time.Millisecond)
			}
			if turn.Over {
				_ = ws.Close(websocket.StatusNormalClosure, "")
				return true
			}
		}
	}
}

func (p *player) think() time.Duration {
	lo, hi := p.w.kind.thinkMs[0], p.w.kind.thinkMs[1]
	return time.Duration(lo+p.rng.IntN(max(1, hi-lo))) * time.Millisecond
}

// act sends the seat's move at version: the pending one again when it was
// sent at this version and not answered, else a new choice.
func (p *player) act(ctx context.Context, ws *websocket.Conn, version int) error {
	if p.pend != nil && p.pend.version == version {
		p.w.count(func(w *watched) { w.resends++ })
	} else {
		a, err := p.choose(ctx, version)
		if err != nil {
			p.c.t.Errorf("table %s, %v: %v", p.w.id, p.seat, err)
			p.failed = true
			return err
		}
		if a == nil {
			return nil
		}
		p.pend = &pendingAct{version: version, action: a}
		p.w.sentAct(p.c.t, p.seat, version, a)
		p.w.count(func(w *watched) { w.acts++ })
	}
	p.nextID++
	p.pend.id = p.nextID
	p.w.note(p.seat, "sent act %d at version %d: %s", p.pend.id, version, p.pend.action)
	msg, _ := json.Marshal(map[string]any{"type": "act", "id": p.pend.id, "version": version, "action": p.pend.action})
	wctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	return ws.Write(wctx, websocket.MessageText, msg)
}

// choose asks the seat's bot for a move on the game at version, brought
// there from the stored log.
func (p *player) choose(ctx context.Context, version int) (json.RawMessage, error) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	if p.state == nil || p.at > version {
		meta, err := p.c.st.GetTable(ctx, p.w.id)
		if err != nil {
			return nil, err
		}
		if p.state, err = p.game.New(playerNames(meta), meta.Options); err != nil {
			return nil, err
		}
		p.at = 0
	}
	if p.at < version {
		moves, err := p.c.st.Moves(ctx, p.w.id)
		if err != nil {
			return nil, err
		}
		if len(moves) < version {
			return nil, fmt.Errorf("told of version %d, the store holds %d moves", version, len(moves))
		}
		for _, lm := range moves[p.at:version] {
			a, err := p.game.DecodeAction(lm.Action)
			if err != nil {
				return nil, err
			}
			if _, err := p.state.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a}); err != nil {
				return nil, fmt.Errorf("the stored log does not replay: %w", err)
			}
		}
		p.at = version
	}
	if !p.state.Turn().Has(p.seat) {
		return nil, fmt.Errorf("told it is %v's turn at version %d, the log says not", p.seat, version)
	}
	legal := p.state.Legal(p.seat)
	a, err := p.ctrl.Choose(p.state.View(p.seat), legal)
	if err != nil {
		return nil, err
	}
	if a == nil {
		// The bot would pass; nothing else moves the table on here.
		if len(legal) == 0 {
			return nil, nil
		}
		a = legal[0]
	}
	return json.Marshal(a)
}

func playerNames(meta store.Table) []string {
	var names []string
	for _, s := range meta.Seats {
		names = append(names, s.Name)
	}
	return names
}

// waitOver waits for every table's game to end, until the deadline or
// the test fails.
func (c *testCluster) waitOver(tables []*watched, within time.Duration) {
	t := c.t
	t.Helper()
	deadline := time.Now().Add(within)
	for _, w := range tables {
		for done := false; !done; {
			select {
			case <-w.over:
				done = true
			case <-time.After(500 * time.Millisecond):
				if t.Failed() {
					t.FailNow()
				}
				if time.Now().After(deadline) {
					c.explain(w)
					t.Fatalf("table %s (%s) never finished", w.id, w.kind.game)
				}
			}
		}
	}
}

// explain logs where an unfinished table stands, and its players.
func (c *testCluster) explain(w *watched) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	meta, err := c.st.GetTable(ctx, w.id)
	l, lerr := c.st.LeaseOf(ctx, w.id)
	c.t.Logf("table %s: %s at version %d (%v); lease %+v (%v)", w.id, meta.Status, meta.Version, err, l, lerr)
	w.mu.Lock()
	defer w.mu.Unlock()
	for seat, d := range w.doing {
		c.t.Logf("table %s, %v: %s", w.id, seat, d)
	}
}

// checkTables checks every table against the store: over; its version is
// its log's length; the log replays to the end; every move a client was
// told is the log's at that version; every move of a human seat is the
// one its player sent at the version before, so none was played twice.
func checkTables(t *testing.T, st store.Store, tables []*watched) {
	t.Helper()
	ctx := context.Background()
	for _, w := range tables {
		meta, err := st.GetTable(ctx, w.id)
		if err != nil {
			t.Fatal(err)
		}
		moves, err := st.Moves(ctx, w.id)
		if err != nil {
			t.Fatal(err)
		}
		if meta.Status != store.StatusOver || meta.Version != len(moves) {
			t.Errorf("table %s: %s, version %d, %d moves", w.id, meta.Status, meta.Version, len(moves))
		}
		g, _ := all.Registry.Lookup(meta.Game)
		w.mu.Lock()
		for v, m := range w.told {
			if v < 1 || v > len(moves) || moves[v-1].Seat != m.Seat || !sameAction(g, moves[v-1].Action, m.Action) {
				t.Errorf("table %s: version %d was told as %v %s, not what the log holds", w.id, v, m.Seat, m.Action)
			}
		}
		humanMoves := 0
		for i, m := range moves {
			if m.Seat < 0 || int(m.Seat) >= w.kind.humans {
				continue
			}
			humanMoves++
			if sent, ok := w.sent[m.Seat][i]; !ok || !sameAction(g, sent, m.Action) {
				t.Errorf("table %s: move %d of %v is %s, but its player sent %s at version %d", w.id, i+1, m.Seat, m.Action, sent, i)
			}
		}
		t.Logf("table %s (%s, %d players, %d bots): %d moves, %d told to clients; players: %d moves, %d acts sent, %d sent again, %d reconnections, %d gaps",
			w.id, meta.Game, w.kind.humans, w.kind.bots, len(moves), len(w.told), humanMoves, w.acts, w.resends, w.reconnects, w.gaps)
		w.mu.Unlock()
		state, err := engine.Replay(g, engine.Record{Game: meta.Game, Players: playerNames(meta), Options: meta.Options, Moves: moves})
		if err != nil {
			t.Errorf("table %s: the log does not replay: %v", w.id, err)
		} else if !state.Turn().Over {
			t.Errorf("table %s: the log does not end the game", w.id)
		}
	}
}

// sameAction compares two encodings of an action by the game's reading.
func sameAction(g engine.Game, a, b json.RawMessage) bool {
	if bytes.Equal(a, b) {
		return true
	}
	x, err1 := g.DecodeAction(a)
	y, err2 := g.DecodeAction(b)
	if err1 != nil || err2 != nil {
		return false
	}
	xa, _ := json.Marshal(x)
	ya, _ := json.Marshal(y)
	return bytes.Equal(xa, ya)
}
