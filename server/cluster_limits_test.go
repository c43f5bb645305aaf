package server

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// Limits and the lobby across nodes: what one node would refuse, three
// refuse together; what the owner of a table knows (presence, whose turn),
// every node's lobby shows.

// nodes starts n nodes named a, b, c… on one memstore and one NATS server,
// with cfg.
func nodes(t *testing.T, n int, cfg Config) (store.Store, []*testServer) {
	t.Helper()
	st := memstore.New()
	return st, nodesOn(t, st, n, cfg)
}

func nodesOn(t *testing.T, st store.Store, n int, cfg Config) []*testServer {
	t.Helper()
	url := startNATS(t)
	out := make([]*testServer, n)
	for i := range out {
		out[i] = startNodeWith(t, st, url, string(rune('a'+i)), cfg)
	}
	return out
}

// lagStore takes its time to count tables and to store one, as a remote
// database does: creates that race overlap.
type lagStore struct{ store.Store }

const slowness = 20 * time.Millisecond

func (s lagStore) Count(ctx context.Context, f store.Filter) (int, error) {
	time.Sleep(slowness)
	return s.Store.Count(ctx, f)
}

func (s lagStore) CreateTableCapped(ctx context.Context, t store.Table, caps []store.Cap) (int, error) {
	time.Sleep(slowness)
	return s.Store.CreateTableCapped(ctx, t, caps)
}

// roomy: POSTs and GETs per address are not what these tests count.
var roomy = Config{PostRate: 1000, PostBurst: 1000, Budgets: Budgets{GetRate: 1000, GetBurst: 1000}}

// TestSigninLimitsAcrossNodes: failed sign-ins spread over three nodes are
// refused where one node would refuse them: per username, then per
// address.
func TestSigninLimitsAcrossNodes(t *testing.T) {
	_, ns := nodes(t, 3, roomy)
	if st, _ := newPlayer(t, ns[0]).signup("ann", goodPassword); st != http.StatusCreated {
		t.Fatalf("signup: %d", st)
	}
	guesser := newPlayer(t, ns[0])
	try := func(i int, name, password string) int {
		st, _ := guesser.on(ns[i%3]).signin(name, password)
		return st
	}
	for i := range DefaultSigninsPerName {
		if st := try(i, "ann", fmt.Sprint("guess ", i)); st != http.StatusUnauthorized {
			t.Fatalf("guess %d on node %d: %d, want 401", i+1, i%3, st)
		}
	}
	// The next guess, on any node, is refused; the right password too.
	for i := range 3 {
		if st := try(i, "ann", goodPassword); st != http.StatusTooManyRequests {
			t.Fatalf("sign-in after %d failures, on node %d: %d, want 429", DefaultSigninsPerName, i, st)
		}
	}
	// Other names: the address's budget is what is left of SigninsPerAddr.
	left := DefaultSigninsPerAddr - DefaultSigninsPerName
	for i := range left {
		if st := try(i, fmt.Sprint("user", i), "nope nope nope"); st != http.StatusUnauthorized {
			t.Fatalf("failure %d from the address, on node %d: %d, want 401", DefaultSigninsPerName+i+1, i%3, st)
		}
	}
	if st := try(left, "someone", "nope nope nope"); st != http.StatusTooManyRequests {
		t.Fatalf("failure %d from the address: %d, want 429", DefaultSigninsPerAddr+1, st)
	}
}

// TestSignupLimitAcrossNodes: accounts made from one address, over three
// nodes, stop at the one-node limit.
func TestSignupLimitAcrossNodes(t *testing.T) {
	cfg := roomy
	cfg.Identity.SignupsPerAddr = 4
	_, ns := nodes(t, 3, cfg)
	for i := range 4 {
		if st, _ := newPlayer(t, ns[i%3]).signup(fmt.Sprint("player", i), goodPassword); st != http.StatusCreated {
			t.Fatalf("account %d on node %d: %d", i+1, i%3, st)
		}
	}
	for i := range 3 {
		var out struct {
			Error apiError `json:"error"`
		}
		st := newPlayer(t, ns[i]).do("POST", "/api/account/signup", map[string]any{"name": fmt.Sprint("more", i), "password": goodPassword}, &out)
		if st != http.StatusTooManyRequests || out.Error.Code != "too-many-accounts" {
			t.Fatalf("a 5th account on node %d: %d %+v, want 429 too-many-accounts", i, st, out.Error)
		}
	}
}

// TestTableBudgetAcrossNodes: one browser asks two nodes at once for many
// tables; no more are made than its budget.
func TestTableBudgetAcrossNodes(t *testing.T) {
	cfg := roomy
	cfg.Budgets.TablesPerCreator, cfg.Budgets.TablesPerHour, cfg.Budgets.CreatorsPerAddress, cfg.Budgets.OpenTables = 1, -1, -1, -1
	st := lagStore{memstore.New()}
	ns := nodesOn(t, st, 2, cfg)
	for round := range 3 {
		p := browser(t, ns[0])
		var wg sync.WaitGroup
		statuses := make([]int, 12)
		for i := range statuses {
			wg.Go(func() {
				statuses[i], _, _ = p.on(ns[i%2]).tryCreate(twoHumans())
			})
		}
		wg.Wait()
		made := 0
		for _, s := range statuses {
			switch s {
			case http.StatusCreated:
				made++
			case http.StatusTooManyRequests:
			default:
				t.Fatalf("round %d: a create answered %d", round, s)
			}
		}
		creator := "c:" + hashToken(p.creatorCookie().Value)
		n, err := st.Count(context.Background(), store.Filter{Creator: creator})
		if err != nil {
			t.Fatal(err)
		}
		if made != 1 || n != 1 {
			t.Fatalf("round %d: %d tables made (%d stored) for a budget of 1: %v", round, made, n, statuses)
		}
	}
}

// TestLobbyAcrossNodes: the table runs on a, Bob is connected through b,
// Ann looks at her tables and the lobby on c: her turn, and who is there.
func TestLobbyAcrossNodes(t *testing.T) {
	_, ns := nodes(t, 3, roomy)
	a, b, c := ns[0], ns[1], ns[2]
	ann, bob := newPlayer(t, a), newPlayer(t, a)
	id := ann.create(twoHumans())
	if st := bob.join(id, 1, "bob"); st != http.StatusOK {
		t.Fatalf("join: %d", st)
	}
	annWS := ann.connect(id)
	if w := annWS.next(); w.Type != "welcome" || !w.Turn.Has(0) {
		t.Fatalf("ann's welcome: %s", w.raw)
	}
	bob.on(b).connect(id).next()
	if a.running(id) == nil {
		t.Fatal("the table does not run on a")
	}
	annC := ann.on(c)
	var mine MyTable
	eventually(t, "ann's tables on c say it is her turn, and that bob is there", func() bool {
		got := annC.mine()
		if len(got) != 1 {
			return false
		}
		mine = got[0]
		return mine.YourTurn && mine.Seats[1].Connected && mine.Seats[0].Connected
	})
	if mine.ID != id || mine.Seat != 0 || mine.Status != store.StatusLive {
		t.Fatalf("ann's table on c: %+v", mine)
	}
	// Bob, on b, waits for Ann.
	if got := bob.on(b).mine(); len(got) != 1 || got[0].YourTurn || got[0].Seat != 1 {
		t.Fatalf("bob's tables on b: %+v", got)
	}
	// The lobby on c puts the table first, with both players there.
	var list []TableSummary
	newPlayer(t, c).do("GET", "/api/tables?status=live", nil, &list)
	i := slices.IndexFunc(list, func(s TableSummary) bool { return s.ID == id })
	if i != 0 || !list[0].Seats[0].Connected || !list[0].Seats[1].Connected {
		t.Fatalf("c's lobby: %+v", list)
	}
	if b.running(id) != nil || c.running(id) != nil {
		t.Fatal("a lobby started the table on another node")
	}
	// Once the owner stops, the others forget what it told.
	ann.on(c).mine()
	a.crash()
	eventually(t, "c forgets the table a ran", func() bool {
		_, ok := c.elsewhere(id)
		return !ok
	})
}

// TestClaimSeatOnOwner: a guest who signs up on b claims their seat at a
// table a runs.
func TestClaimSeatOnOwner(t *testing.T) {
	_, ns := nodes(t, 2, roomy)
	a, b := ns[0], ns[1]
	guest := newPlayer(t, a)
	id := guest.create(twoHumans())
	guest.connect(id).next() // keeps the table on a
	_, me := guest.on(b).signup("gus", goodPassword)
	if me.Account == nil {
		t.Fatal("no account")
	}
	if st := seatAccount(t, a, id, 0); st.Account != me.Account.ID {
		t.Fatalf("seat at the table a runs, after signing up on b: %+v", st)
	}
	if b.running(id) != nil {
		t.Fatal("b took the table")
	}
}

// TestOpenRemoteRestartsStoppedActor: a connection from an edge that
// reaches an actor as it stops attaches to the table started again.
func TestOpenRemoteRestartsStoppedActor(t *testing.T) {
	_, ns := nodes(t, 2, roomy)
	a, b := ns[0], ns[1]
	id := newPlayer(t, a).create(twoHumans())
	old, release, err := a.actor(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	release()
	select {
	case <-old.done: // nobody there: it stops
	case <-time.After(waitLimit):
		t.Fatal("the idle actor did not stop")
	}
	key := remoteKey{edge: b.Node(), id: 1 << 40}
	old.openRemote(a.bus, key, openMsg{Addr: "192.0.2.1"})
	t2 := a.running(id)
	if t2 == nil || t2 == old || t2.remote(key) == nil {
		t.Fatalf("the connection was not attached to the table started again (running %v)", t2 != nil)
	}
}
