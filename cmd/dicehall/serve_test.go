package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"net/http/cookiejar"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/store/sqlite"
)

const serveWait = 30 * time.Second

func TestServeRefusesBadFlags(t *testing.T) {
	if _, code := runDicehall(t, "", "serve", "--addr", "127.0.0.1:notaport", "--db", filepath.Join(t.TempDir(), "x.db")); code == 0 {
		t.Fatal("serve on a bad address succeeded")
	}
	if _, code := runDicehall(t, "", "serve", "--db", filepath.Join(t.TempDir(), "no", "such", "dir", "x.db")); code == 0 {
		t.Fatal("serve with an unusable database succeeded")
	}
	if _, code := runDicehall(t, "", "serve", "extra"); code == 0 {
		t.Fatal("serve with an argument succeeded")
	}
	if _, code := runDicehall(t, "", "serve", "--open-expiry", "-1h", "--db", filepath.Join(t.TempDir(), "x.db")); code == 0 {
		t.Fatal("serve with a negative expiry succeeded")
	}
	for _, bad := range [][]string{{"--ws-idle", "-1s"}, {"--body-timeout", "-1s"}, {"--max-conns-per-addr", "-1"},
		{"--max-ws-per-addr", "-2"}, {"--max-spectators", "-1"},
		{"--abandon-after", "-1m"}, {"--log-moves", "0"}, {"--log-format", "xml"}, {"--public-url", "example.org"}, {"--public-url", "https://example.org/dicehall"}} {
		if _, code := runDicehall(t, "", append([]string{"serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "x.db")}, bad...)...); code == 0 {
			t.Fatalf("serve %v succeeded", bad)
		}
	}
}

// TestServeHelpListsLimits: every limit a deployment may want to set is a
// flag, with its default.
func TestServeHelpListsLimits(t *testing.T) {
	out, code := runDicehall(t, "", "serve", "--help")
	if code != 0 {
		t.Fatalf("serve --help: exit %d", code)
	}
	for _, want := range []string{"--public-url", "--max-conns-per-addr int", "(default 64)", "--max-ws-per-addr", "--max-spectators int",
		"(default 200)", "--ws-idle duration", "(default 10m0s)", "--body-timeout duration", "(default 5s)", "docs/protocol.md",
		"--abandon-after duration", "(default 30m0s)", "--log-moves int", "(default 300)"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve --help lacks %q:\n%s", want, out)
		}
	}
}

// TestServeLimits runs the real binary with its flags: a Host other than
// --public-url is refused, and a POST whose body trickles neither holds a
// request past --body-timeout nor delays a shutdown.
func TestServeLimits(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildDicehall(t)
	s := startServe(t, bin, filepath.Join(t.TempDir(), "dicehall.db"), "--public-url", "https://example.org", "--body-timeout", "700ms")
	get := func(host string) int {
		req, _ := http.NewRequest("GET", s.url+"/api/games", nil)
		req.Host = host
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	if st := get("evil.example"); st != http.StatusMisdirectedRequest {
		t.Fatalf("Host evil.example: %d", st)
	}
	if st := get("example.org"); st != http.StatusOK {
		t.Fatalf("Host example.org: %d", st)
	}
	if st := get(strings.TrimPrefix(s.url, "http://")); st != http.StatusOK {
		t.Fatalf("the loopback address it listens on: %d", st)
	}
	// A POST trickling its body, one byte every 200 ms.
	conn, err := net.Dial("tcp", strings.TrimPrefix(s.url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if _, err := io.WriteString(conn, "POST /api/tables HTTP/1.1\r\nHost: example.org\r\nContent-Length: 100000\r\n\r\n"); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(200 * time.Millisecond):
			}
			if _, err := conn.Write([]byte("{")); err != nil {
				return
			}
		}
	}()
	time.Sleep(100 * time.Millisecond)
	start := time.Now()
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		s.exited <- err
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
	case <-time.After(serveWait):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("a slow POST held the shutdown %v", d)
	}
	_ = conn.SetReadDeadline(time.Now().Add(time.Second))
	if resp, err := http.ReadResponse(bufio.NewReader(conn), nil); err != nil || resp.StatusCode != http.StatusRequestTimeout {
		t.Fatalf("the slow POST was answered %v %v", resp, err)
	}
}

// served is a running `dicehall serve` process.
type served struct {
	cmd     *exec.Cmd
	url     string
	metrics string // the metrics' URL when serve has --metrics-addr
	stderr  *bytes.Buffer
	exited  chan error
}

func buildDicehall(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "dicehall")
	out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput()
	if err != nil {
		t.Fatalf("build: %v\n%s", err, out)
	}
	return bin
}

func startServe(t *testing.T, bin, db string, flags ...string) *served {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db}, flags...)...)
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &served{cmd: cmd, stderr: &bytes.Buffer{}, exited: make(chan error, 1)}
	cmd.Stderr = s.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() { s.exited <- cmd.Wait() }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-s.exited
		t.Logf("server log:\n%s", s.stderr)
	})
	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			// The metrics line comes first: read before the address is sent.
			if u, ok := strings.CutPrefix(sc.Text(), "dicehall: metrics on "); ok {
				s.metrics = u
			}
			if u, ok := strings.CutPrefix(sc.Text(), "dicehall: serving on "); ok {
				lines <- u
			}
		}
		_, _ = io.Copy(io.Discard, stdout)
	}()
	select {
	case u := <-lines:
		s.url = strings.TrimSuffix(u, "/")
	case err := <-s.exited:
		t.Fatalf("serve exited: %v\n%s", err, s.stderr)
	case <-time.After(serveWait):
		t.Fatalf("serve printed no address\n%s", s.stderr)
	}
	return s
}

type update struct {
	Type    string            `json:"type"`
	Seat    engine.Seat       `json:"seat"`
	Version int               `json:"version"`
	View    json.RawMessage   `json:"view"`
	Turn    engine.Turn       `json:"turn"`
	Rule    string            `json:"rule"`
	Code    string            `json:"code"`
	Log     []json.RawMessage `json:"log"`
}

type client struct {
	t   *testing.T
	ws  *websocket.Conn
	ctx context.Context
}

func connectTo(t *testing.T, s *served, id string, jar http.CookieJar) *client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), serveWait)
	t.Cleanup(cancel)
	ws, _, err := websocket.Dial(ctx, "ws"+strings.TrimPrefix(s.url, "http")+"/ws/"+id, &websocket.DialOptions{HTTPClient: &http.Client{Jar: jar}})
	if err != nil {
		t.Fatal(err)
	}
	ws.SetReadLimit(1 << 22)
	t.Cleanup(func() { _ = ws.CloseNow() })
	return &client{t: t, ws: ws, ctx: ctx}
}

func (c *client) next() update {
	c.t.Helper()
	_, data, err := c.ws.Read(c.ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	var u update
	if err := json.Unmarshal(data, &u); err != nil {
		c.t.Fatal(err)
	}
	if u.Type == "refused" || u.Type == "error" {
		c.t.Fatalf("server said %s", data)
	}
	return u
}

// act plays the seat's first legal action if it is to act in u, and tells
// whether it did.
func (c *client) act(u update) bool {
	c.t.Helper()
	if !u.Turn.Has(0) || (u.Type != "welcome" && u.Type != "update") {
		return false
	}
	var v dicestars.View
	if err := json.Unmarshal(u.View, &v); err != nil || len(v.Legal) == 0 {
		c.t.Fatalf("view %s: %v", u.View, err)
	}
	msg, _ := json.Marshal(map[string]any{"type": "act", "action": v.Legal[len(v.Legal)/2], "version": u.Version})
	if err := c.ws.Write(c.ctx, websocket.MessageText, msg); err != nil {
		c.t.Fatal(err)
	}
	return true
}

// TestServeSurvivesSIGKILL runs the real binary, kills it mid-game and
// starts it again on the same database: every acknowledged move is there and
// the game finishes.
func TestServeSurvivesSIGKILL(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	bin := buildDicehall(t)
	db := filepath.Join(t.TempDir(), "dicehall.db")
	s1 := startServe(t, bin, db)

	jar, _ := cookiejar.New(nil)
	hc := &http.Client{Jar: jar, Timeout: serveWait}
	body := `{"game":"dicestars","name":"ann","settings":{"botDelayMs":5},"seats":[{"kind":"human"},{"kind":"bot","bot":"greedy"}]}`
	resp, err := hc.Post(s1.url+"/api/tables", "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	var created struct{ ID string }
	_ = json.NewDecoder(resp.Body).Decode(&created)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || created.ID == "" {
		t.Fatalf("create: %d", resp.StatusCode)
	}

	// Play until a dozen moves are acknowledged, then kill the server right
	// after sending one more action, without waiting for its answer.
	c := connectTo(t, s1, created.ID, jar)
	var acked update
	for u := c.next(); ; u = c.next() {
		if u.Type == "update" || u.Type == "welcome" {
			acked = u
		}
		if c.act(u) && acked.Version >= 12 {
			break
		}
	}
	if err := s1.cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if err := <-s1.exited; err == nil || !strings.Contains(err.Error(), "killed") {
		t.Fatalf("the server was not killed: %v", err)
	}
	s1.exited <- err // for the cleanup

	// Every acknowledged move is in the database, and replaying them gives
	// the view the player was shown.
	st, err := sqlite.Open(db)
	if err != nil {
		t.Fatal(err)
	}
	meta, err := st.GetTable(context.Background(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	moves, err := st.Moves(context.Background(), created.ID)
	if err != nil {
		t.Fatal(err)
	}
	_ = st.Close()
	if len(moves) < acked.Version {
		t.Fatalf("%d moves stored, %d acknowledged", len(moves), acked.Version)
	}
	state, err := engine.Replay(dicestars.Game{}, engine.Record{Game: "dicestars", Players: []string{meta.Seats[0].Name, meta.Seats[1].Name}, Moves: moves[:acked.Version]})
	if err != nil {
		t.Fatal(err)
	}
	if v, _ := json.Marshal(state.View(0)); string(v) != string(acked.View) {
		t.Fatalf("the stored game differs from what was acknowledged:\n%s\n%s", v, acked.View)
	}

	// Start again: same seat (same cookie), same game, to the end. The
	// welcome's log tells the last --log-moves moves.
	s2 := startServe(t, bin, db, "--log-moves", "3")
	c2 := connectTo(t, s2, created.ID, jar)
	w := c2.next()
	if w.Type != "welcome" || w.Seat != 0 || w.Version < len(moves) {
		t.Fatalf("after the restart: %s seat %d version %d, %d moves were stored", w.Type, w.Seat, w.Version, len(moves))
	}
	if len(w.Log) != 3 {
		t.Fatalf("--log-moves 3: the welcome tells %d moves", len(w.Log))
	}
	u := w
	for steps := 0; !u.Turn.Over; steps++ {
		if steps > 5000 {
			t.Fatal("the game did not end")
		}
		c2.act(u)
		u = c2.next()
	}
	resp, err = hc.Get(s2.url + "/api/tables/" + created.ID)
	if err != nil {
		t.Fatal(err)
	}
	var sum struct{ Status string }
	_ = json.NewDecoder(resp.Body).Decode(&sum)
	resp.Body.Close()
	if sum.Status != "over" {
		t.Fatalf("status %q after the game", sum.Status)
	}

	// SIGTERM stops it cleanly.
	if err := s2.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s2.exited:
		if err != nil {
			t.Fatalf("exit after SIGTERM: %v", err)
		}
		s2.exited <- nil
	case <-time.After(serveWait):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if !strings.Contains(s2.stderr.String(), "shutting down") {
		t.Fatalf("no shutdown in the log:\n%s", s2.stderr)
	}
}

// TestServeProbesAndJSONLogs: an orchestrator's view of `serve` — ready
// once listening, metrics on their own listener, logs as JSON lines when
// asked, and on SIGTERM a drain logged before the clean exit.
func TestServeProbesAndJSONLogs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds and runs the binary")
	}
	s := startServe(t, buildDicehall(t), filepath.Join(t.TempDir(), "dicehall.db"), "--log-format", "json",
		"--metrics-addr", "127.0.0.1:0")
	for _, path := range []string{"/healthz", "/readyz"} {
		resp, err := http.Get(s.url + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK {
			t.Errorf("%s: %d", path, resp.StatusCode)
		}
	}
	checkMetrics(t, s) // after the probes: the requests are counted
	if err := s.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-s.exited:
		s.exited <- err // for the cleanup
		if err != nil {
			t.Fatalf("serve after SIGTERM: %v", err)
		}
	case <-time.After(serveWait):
		t.Fatal("serve did not stop after SIGTERM")
	}
	drained := false
	for _, line := range strings.Split(strings.TrimSpace(s.stderr.String()), "\n") {
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Fatalf("a log line is not JSON: %q", line)
		}
		if msg, _ := rec["msg"].(string); strings.HasPrefix(msg, "draining") {
			drained = true
		}
	}
	if !drained {
		t.Errorf("no drain logged:\n%s", s.stderr)
	}
}

// checkMetrics scrapes serve's metrics listener and finds dicehall's metrics
// and the runtime's there, and none on the game's listener.
func checkMetrics(t *testing.T, s *served) {
	t.Helper()
	if s.metrics == "" {
		t.Fatal("serve --metrics-addr printed no metrics address")
	}
	resp, err := http.Get(s.metrics)
	if err != nil {
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d %v", s.metrics, resp.StatusCode, err)
	}
	for _, name := range []string{"dicehall_websockets_open", "dicehall_websockets_accepted_total", "dicehall_tables_owned",
		"dicehall_moves_committed_total", "dicehall_commit_seconds", "dicehall_lease_takeovers_total", "dicehall_refused_total",
		"dicehall_store_errors_total", "dicehall_http_requests_total", "go_goroutines", "process_resident_memory_bytes"} {
		if !strings.Contains(string(body), "# TYPE "+name+" ") {
			t.Errorf("no %s in the metrics", name)
		}
	}
	resp, err = http.Get(s.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusNotFound {
		t.Errorf("GET /metrics on the game's listener: %d", resp.StatusCode)
	}
}
