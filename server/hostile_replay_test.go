package server

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// GETs that cost work, asked for as an attacker would: one replay by many
// clients at once, many replays at once, the lobby as fast as one can.

// get sends a GET with extra headers and returns the answer, its body read.
func (p *player) get(path string, header map[string]string) (*http.Response, []byte) {
	p.t.Helper()
	req, err := http.NewRequest("GET", p.ts.http.URL+path, nil)
	if err != nil {
		p.t.Fatal(err)
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	resp, err := p.client.Do(req)
	if err != nil {
		p.t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		p.t.Fatal(err)
	}
	return resp, body
}

// finishedTable plays a table of bots to its end and returns its ID.
func finishedTable(t *testing.T, ts *testServer, p *player) string {
	t.Helper()
	var out struct{ ID string }
	body := map[string]any{"game": "dicestars", "settings": map[string]any{"botDelayMs": 0},
		"seats": []map[string]any{{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}}}
	if s := p.do("POST", "/api/tables", body, &out); s != http.StatusCreated {
		t.Fatalf("create: %d", s)
	}
	eventually(t, "the bots finish", func() bool {
		m, err := ts.store.GetTable(context.Background(), out.ID)
		return err == nil && m.Status == store.StatusOver
	})
	eventually(t, "the table's actor stops", func() bool { return ts.running(out.ID) == nil })
	return out.ID
}

// slowStore counts the move logs read, how many at once at most, and
// makes each read take a while, so that builds overlap if nothing stops
// them.
type slowStore struct {
	store.Store
	delay   atomic.Int64 // nanoseconds per Moves
	reads   atomic.Int32
	running atomic.Int32
	most    atomic.Int32
}

func (s *slowStore) Moves(ctx context.Context, id string) ([]engine.LoggedMove, error) {
	s.reads.Add(1)
	n := s.running.Add(1)
	defer s.running.Add(-1)
	for {
		m := s.most.Load()
		if n <= m || s.most.CompareAndSwap(m, n) {
			break
		}
	}
	time.Sleep(time.Duration(s.delay.Load()))
	return s.Store.Moves(ctx, id)
}

// TestReplayBuiltOnce: sixteen clients fetching one finished table's
// replay ten times each read its moves and build it once (it used to be
// rebuilt on every request: 20 ms of CPU and 500 KB each); all get the
// same bytes, with validators.
func TestReplayBuiltOnce(t *testing.T) {
	ss := &slowStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: ss})
	id := finishedTable(t, ts, newPlayer(t, ts))
	ss.reads.Store(0)
	ss.delay.Store(int64(20 * time.Millisecond))

	var (
		wg     sync.WaitGroup
		mu     sync.Mutex
		bodies = map[string]int{}
		etags  = map[string]int{}
	)
	for c := range 16 {
		p := playerAt(t, ts, fmt.Sprintf("127.0.4.%d", c+1))
		wg.Go(func() {
			for range 10 {
				resp, body := p.get("/api/tables/"+id+"/replay", nil)
				mu.Lock()
				if resp.StatusCode == http.StatusOK {
					bodies[string(body)]++
					etags[resp.Header.Get("ETag")]++
				} else {
					bodies[fmt.Sprintf("status %d: %s", resp.StatusCode, body)]++
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if len(bodies) != 1 || len(etags) != 1 {
		t.Fatalf("%d different answers, %d ETags, want one of each", len(bodies), len(etags))
	}
	for e := range etags {
		if !strings.HasPrefix(e, `"`) || !strings.Contains(e, id) {
			t.Fatalf("ETag %q", e)
		}
	}
	if n := ss.reads.Load(); n != 1 {
		t.Fatalf("160 fetches of one replay read its moves %d times, want once", n)
	}
	if n := ts.budget().replays.built.Load(); n != 1 {
		t.Fatalf("the replay was built %d times", n)
	}
}

// TestReplayValidators: a finished table's replay comes with an ETag (per
// seat's view) and Cache-Control, and If-None-Match answers 304 without a
// body; a live table has no replay to cache (409, no validators).
func TestReplayValidators(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	id := finishedTable(t, ts, p)
	path := "/api/tables/" + id + "/replay"

	resp, body := p.get(path, nil)
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != http.StatusOK || etag == "" || !strings.Contains(resp.Header.Get("Cache-Control"), "max-age=") ||
		strings.Contains(resp.Header.Get("Cache-Control"), "no-store") {
		t.Fatalf("replay: %d ETag %q Cache-Control %q", resp.StatusCode, etag, resp.Header.Get("Cache-Control"))
	}
	if !bytes.HasPrefix(body, []byte(`{"players":`)) {
		t.Fatalf("replay body %.60s", body)
	}
	for _, inm := range []string{etag, "W/" + etag, `"nope", ` + etag, "*"} {
		resp, body := p.get(path, map[string]string{"If-None-Match": inm})
		if resp.StatusCode != http.StatusNotModified || len(body) != 0 || resp.Header.Get("ETag") != etag {
			t.Fatalf("If-None-Match %s: %d, %d bytes, ETag %q", inm, resp.StatusCode, len(body), resp.Header.Get("ETag"))
		}
	}
	if resp, _ := p.get(path, map[string]string{"If-None-Match": `"other"`}); resp.StatusCode != http.StatusOK {
		t.Fatalf("another ETag: %d", resp.StatusCode)
	}
	resp1, body1 := p.get(path+"?seat=1", nil)
	if resp1.StatusCode != http.StatusOK || resp1.Header.Get("ETag") == etag || bytes.Equal(body1, body) {
		t.Fatalf("seat 1's replay: %d ETag %q (public %q)", resp1.StatusCode, resp1.Header.Get("ETag"), etag)
	}
	if resp, _ := p.get(path+"?seat=1", map[string]string{"If-None-Match": etag}); resp.StatusCode != http.StatusOK {
		t.Fatalf("the public view's ETag matched seat 1's replay: %d", resp.StatusCode)
	}

	live := p.create(duel("random"))
	resp, _ = p.get("/api/tables/"+live+"/replay", nil)
	if resp.StatusCode != http.StatusConflict || resp.Header.Get("ETag") != "" || strings.Contains(resp.Header.Get("Cache-Control"), "max-age") {
		t.Fatalf("replay of a live table: %d ETag %q Cache-Control %q", resp.StatusCode, resp.Header.Get("ETag"), resp.Header.Get("Cache-Control"))
	}
}

// TestReplayBuildsBounded: many replays asked for at once, from many
// addresses, are built at most ReplayBuilds at a time (so the tables being
// played keep a core); one address has at most ReplayBuildsPerAddress
// building or waiting, and the next is refused 429.
func TestReplayBuildsBounded(t *testing.T) {
	ss := &slowStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: ss, Budgets: Budgets{ReplayBuilds: 1, ReplayBuildsPerAddress: 1}})
	p := newPlayer(t, ts)
	var tables []string
	for range 5 {
		tables = append(tables, finishedTable(t, ts, p))
	}
	ss.delay.Store(int64(30 * time.Millisecond))
	ss.most.Store(0)
	var wg sync.WaitGroup
	statuses := make(chan int, 16)
	for i := range 9 { // three tables × three views, one address each
		c := playerAt(t, ts, fmt.Sprintf("127.0.5.%d", i+1))
		path := fmt.Sprintf("/api/tables/%s/replay", tables[i%3])
		if i >= 3 {
			path += fmt.Sprintf("?seat=%d", i/3-1)
		}
		wg.Go(func() {
			resp, _ := c.get(path, nil)
			statuses <- resp.StatusCode
		})
	}
	wg.Wait()
	close(statuses)
	for s := range statuses {
		if s != http.StatusOK {
			t.Fatalf("a replay answered %d", s)
		}
	}
	if n := ss.most.Load(); n != 1 {
		t.Fatalf("%d replays were built at once, want at most 1", n)
	}

	// One address asking for two replays not built yet: the second waits
	// for nothing, it is refused.
	ss.delay.Store(int64(300 * time.Millisecond))
	one := playerAt(t, ts, "127.0.6.1")
	first := make(chan int, 1)
	go func() {
		resp, _ := one.get("/api/tables/"+tables[3]+"/replay", nil)
		first <- resp.StatusCode
	}()
	eventually(t, "the first build has started", func() bool { return ss.running.Load() == 1 })
	resp, body := one.get("/api/tables/"+tables[4]+"/replay", nil)
	if resp.StatusCode != http.StatusTooManyRequests || !strings.Contains(string(body), "rate-limited") || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("a second build from one address: %d %s", resp.StatusCode, body)
	}
	// Another address asking for the same replay meanwhile shares its build.
	resp, _ = playerAt(t, ts, "127.0.6.2").get("/api/tables/"+tables[3]+"/replay", nil)
	if s := <-first; s != http.StatusOK || resp.StatusCode != http.StatusOK {
		t.Fatalf("the first build: %d, the one sharing it: %d", s, resp.StatusCode)
	}
}

// TestReplayCacheBounded: the cache keeps at most ReplayCacheBytes; what
// it dropped is built again when asked.
func TestReplayCacheBounded(t *testing.T) {
	ss := &slowStore{Store: memstore.New()}
	ts := startServer(t, Config{Store: ss, Budgets: Budgets{ReplayCacheBytes: 1}})
	p := newPlayer(t, ts)
	id := finishedTable(t, ts, p)
	resp, body := p.get("/api/tables/"+id+"/replay", nil)
	if resp.StatusCode != http.StatusOK {
		t.Fatal(resp.StatusCode)
	}
	// A cache too small for one replay keeps none.
	ss.reads.Store(0)
	p.get("/api/tables/"+id+"/replay", nil)
	if ss.reads.Load() != 1 || ts.budget().replays.bytes() != 0 {
		t.Fatalf("a 1-byte cache: %d reads, %d bytes kept", ss.reads.Load(), ts.budget().replays.bytes())
	}

	size := int64(len(body))
	ts2 := startServer(t, Config{Store: ss, Budgets: Budgets{ReplayCacheBytes: size*2 + size/2}})
	q := newPlayer(t, ts2)
	for seat := range 2 {
		q.get(fmt.Sprintf("/api/tables/%s/replay?seat=%d", id, seat), nil)
	}
	q.get("/api/tables/"+id+"/replay", nil) // a third: the oldest goes
	if b := ts2.budget().replays.bytes(); b > size*2+size/2 {
		t.Fatalf("the cache holds %d bytes, over its %d", b, size*2+size/2)
	}
	ss.reads.Store(0)
	q.get("/api/tables/"+id+"/replay", nil) // kept
	q.get(fmt.Sprintf("/api/tables/%s/replay?seat=1", id), nil)
	if n := ss.reads.Load(); n != 0 {
		t.Fatalf("recent replays were rebuilt (%d)", n)
	}
	q.get(fmt.Sprintf("/api/tables/%s/replay?seat=0", id), nil) // dropped
	if n := ss.reads.Load(); n != 1 {
		t.Fatalf("the least recently used replay: %d reads, want 1", n)
	}
}

// TestCostlyGetsRateLimited: one address asking for the lobby, a table or
// a replay as fast as it can is refused 429 rate-limited (with
// Retry-After) once its burst is spent (a replay counts as ten); other
// addresses are not.
func TestCostlyGetsRateLimited(t *testing.T) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, Budgets: Budgets{GetRate: 1, GetBurst: 10}})
	p := newPlayer(t, ts)
	id := p.create(twoHumans())
	for path, want := range map[string]int{"/api/tables": 10, "/api/tables/" + id: 10, "/api/tables/" + id + "/replay": 19} {
		hammer := playerAt(t, ts, "127.0.7.1")
		clock.Advance(time.Minute) // a full bucket
		refused := 0
		for range 20 {
			resp, body := hammer.get(path, nil)
			if resp.StatusCode == http.StatusTooManyRequests {
				if !strings.Contains(string(body), `"rate-limited"`) || resp.Header.Get("Retry-After") == "" {
					t.Fatalf("%s: refusal %s", path, body)
				}
				refused++
			}
		}
		if refused != want {
			t.Fatalf("%s: %d of 20 refused, want %d", path, refused, want)
		}
		if resp, _ := playerAt(t, ts, "127.0.7.2").get(path, nil); resp.StatusCode == http.StatusTooManyRequests {
			t.Fatalf("%s: another address is refused", path)
		}
	}
	// The pages and the games' list are not costly.
	for range 10 {
		if resp, _ := playerAt(t, ts, "127.0.7.1").get("/api/games", nil); resp.StatusCode != http.StatusOK {
			t.Fatalf("/api/games: %d", resp.StatusCode)
		}
	}
}

// TestReplayFloodKeepsMovesFast: sixteen clients fetching one finished
// table's replay as fast as the limits let them do not slow the moves of a
// table being played (they did: p50 1 ms → 78 ms, p95 12 → 300 ms; here
// p95 went from ~10 ms to ~300 ms before the cache and the replay rate).
// The flood comes and goes in half-second windows, and the moves during it
// are compared with those between, so that other load on the machine
// weighs on both alike. Timing: not in -short runs.
// TestMeasureReplayFlood measures another table's move latency while 16
// clients pull one finished replay. It is a measurement, not a check (what
// keeps moves fast is checked without a clock: TestReplayBuiltOnce,
// TestReplayBuildsBounded, TestReplayCacheBounded): a loaded machine moves
// the figures, so it runs only when asked, DICEHALL_MEASURE=1, and reports
// them for docs/performance.md.
func TestMeasureReplayFlood(t *testing.T) {
	if os.Getenv("DICEHALL_MEASURE") == "" {
		t.Skip("a measurement: DICEHALL_MEASURE=1 go test ./server -run TestMeasureReplayFlood -v")
	}
	ts := startServer(t, Config{PostRate: 1000, PostBurst: 1000, Budgets: Budgets{TablesPerCreator: -1, TablesPerHour: -1}})
	var out struct{ ID string }
	four := map[string]any{"game": "dicestars", "settings": map[string]any{"botDelayMs": 0},
		"seats": []map[string]any{{"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}, {"kind": "bot", "bot": "greedy"}}}
	if s := newPlayer(t, ts).do("POST", "/api/tables", four, &out); s != http.StatusCreated {
		t.Fatal(s)
	}
	eventually(t, "the bots finish", func() bool { return ts.running(out.ID) == nil })
	path := "/api/tables/" + out.ID + "/replay"

	var (
		stop, flood atomic.Bool
		wg          sync.WaitGroup
		fetched     atomic.Int64
	)
	for c := range 16 {
		q := playerAt(t, ts, fmt.Sprintf("127.0.8.%d", c+1))
		wg.Go(func() {
			for !stop.Load() {
				if !flood.Load() {
					time.Sleep(time.Millisecond)
					continue
				}
				if resp, _ := q.get(path, nil); resp.StatusCode == http.StatusOK {
					fetched.Add(1)
				}
			}
		})
	}
	defer func() { stop.Store(true); wg.Wait() }()

	ann := newPlayer(t, ts)
	rng := rand.New(rand.NewPCG(1, 2))
	lat := map[bool][]time.Duration{}
	begin := time.Now()
	window := func() bool { return time.Since(begin)/(500*time.Millisecond)%2 == 1 }
	for end := begin.Add(4 * time.Second); time.Now().Before(end); {
		c := ann.connect(ann.create(map[string]any{"game": "dicestars", "name": "ann", "seats": []map[string]any{{"kind": "human"}}}))
		m := c.await("welcome", nil)
		for !m.Turn.Over && time.Now().Before(end) {
			legal := m.view(t).Legal
			on := window()
			flood.Store(on)
			start := time.Now()
			c.send(map[string]any{"type": "act", "action": legal[rng.IntN(len(legal))], "version": m.Version})
			m = c.await("update", nil)
			if window() == on {
				lat[on] = append(lat[on], time.Since(start))
			}
			for !m.Turn.Over && !m.Turn.Has(0) || m.Turn.Chance {
				m = c.await("update", nil)
			}
		}
		_ = c.ws.CloseNow()
	}
	p := func(on bool, q int) time.Duration {
		l := lat[on]
		slices.Sort(l)
		return l[len(l)*q/100]
	}
	t.Logf("p50/p95: %v/%v quiet (%d moves), %v/%v during the flood (%d moves, %d replays served)",
		p(false, 50), p(false, 95), len(lat[false]), p(true, 50), p(true, 95), len(lat[true]), fetched.Load())
}
