package server

// Hostile clients against HTTP, over real loopback connections to the
// server's own http.Server (HTTPServer, as `dicehall serve` runs it): no
// request can be held open by trickling bytes, connections are capped per
// address, idle ones go, and with a public URL only its host is served.

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/store/memstore"
)

// hostPort is the server's address, for raw connections.
func (ts *testServer) hostPort() string { return strings.TrimPrefix(ts.http.URL, "http://") }

// trickle sends a request's head, then its body one byte every gap, until
// the connection fails or the test ends.
func trickle(t *testing.T, c net.Conn, head string, gap time.Duration) {
	t.Helper()
	if _, err := io.WriteString(c, head); err != nil {
		t.Fatal(err)
	}
	stop := make(chan struct{})
	t.Cleanup(func() { close(stop) })
	go func() {
		for {
			select {
			case <-stop:
				return
			case <-time.After(gap):
			}
			if _, err := c.Write([]byte("{")); err != nil {
				return
			}
		}
	}()
}

// answer reads the response on c within limit: its status and error code,
// or fails.
func answer(t *testing.T, c net.Conn, limit time.Duration) (int, string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(limit))
	resp, err := http.ReadResponse(bufio.NewReader(c), nil)
	if err != nil {
		t.Fatalf("no answer within %v: %v", limit, err)
	}
	defer resp.Body.Close()
	var e errorBody
	data, _ := io.ReadAll(resp.Body)
	_ = json.Unmarshal(data, &e)
	return resp.StatusCode, e.Error.Code
}

// closedWithin checks the server closes c within limit (reading nothing
// more than a possible error answer).
func closedWithin(t *testing.T, c net.Conn, limit time.Duration, what string) {
	t.Helper()
	_ = c.SetReadDeadline(time.Now().Add(limit))
	if _, err := io.Copy(io.Discard, c); err != nil {
		if ne, ok := err.(net.Error); ok && ne.Timeout() {
			t.Fatalf("%s: still open after %v", what, limit)
		}
	}
}

// TestSlowBodies: a body trickled a byte at a time cannot hold a request:
// a GET that reads no body is answered at once (and its connection
// closed, not drained); a POST's body must arrive within BodyTimeout.
func TestSlowBodies(t *testing.T) {
	ts := startServer(t, Config{Limits: Limits{BodyTimeout: 500 * time.Millisecond}})
	id := newPlayer(t, ts).create(twoHumans())
	for _, c := range []struct {
		name, head string
		status     int
		code       string
		within     time.Duration
	}{
		{"GET /api/games", "GET /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", 200, "", time.Second},
		{"GET /", "GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", 200, "", time.Second},
		{"POST /api/tables", "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n", 408, "too-slow", 2 * time.Second},
		{"POST join", "POST /api/tables/" + id + "/join HTTP/1.1\r\nHost: x\r\nContent-Length: 1000\r\n\r\n", 408, "too-slow", 2 * time.Second},
		{"chunked POST", "POST /api/tables HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n1\r\n", 408, "too-slow", 2 * time.Second},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			conn, err := net.Dial("tcp", ts.hostPort())
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			start := time.Now()
			trickle(t, conn, c.head, 200*time.Millisecond)
			status, code := answer(t, conn, c.within)
			if status != c.status || code != c.code {
				t.Fatalf("answered %d %q, want %d %q", status, code, c.status, c.code)
			}
			closedWithin(t, conn, time.Second, "the connection of a request whose body was not read")
			t.Logf("answered %d after %v", status, time.Since(start).Round(time.Millisecond))
		})
	}
}

// TestSlowBodyDefaults: the issue's own case on the default limits: one
// byte every 2 s of a 100,000-byte body is answered within seconds.
func TestSlowBodyDefaults(t *testing.T) {
	if DefaultBodyTimeout > 5*time.Second || DefaultHeaderTimeout > 5*time.Second {
		t.Fatalf("default timeouts %v and %v: a trickle holds a request that long", DefaultHeaderTimeout, DefaultBodyTimeout)
	}
	ts := startServer(t, Config{})
	conn, err := net.Dial("tcp", ts.hostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	trickle(t, conn, "GET /api/games HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", 2*time.Second)
	if status, _ := answer(t, conn, 3*time.Second); status != 200 {
		t.Fatalf("GET /api/games: %d", status)
	}
}

// TestSlowHeaders: headers trickled a line at a time are cut off after
// HeaderTimeout.
func TestSlowHeaders(t *testing.T) {
	ts := startServer(t, Config{Limits: Limits{HeaderTimeout: 300 * time.Millisecond}})
	conn, err := net.Dial("tcp", ts.hostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	start := time.Now()
	io.WriteString(conn, "GET / HTTP/1.1\r\nHost: x\r\n")
	go func() {
		for i := 0; ; i++ {
			time.Sleep(50 * time.Millisecond)
			if _, err := fmt.Fprintf(conn, "X-Slow-%d: y\r\n", i); err != nil {
				return
			}
		}
	}()
	closedWithin(t, conn, 2*time.Second, "a request whose headers trickle")
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("cut after %v, before the header timeout", d)
	}
}

// TestSlowPostShutdown: a POST whose body trickles does not hold up the
// HTTP server's shutdown past the body timeout.
func TestSlowPostShutdown(t *testing.T) {
	ts := startServer(t, Config{Limits: Limits{BodyTimeout: 500 * time.Millisecond}})
	hs := ts.HTTPServer()
	ln := mustListen(t)
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	conn, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	trickle(t, conn, "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100000\r\n\r\n", 200*time.Millisecond)
	time.Sleep(100 * time.Millisecond) // the request is in
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := hs.Shutdown(ctx); err != nil {
		t.Fatalf("shutdown: %v after %v", err, time.Since(start))
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("shutdown took %v with a slow POST", d)
	}
	<-served
}

// TestHTTPConnsPerAddr: an address holds at most ConnsPerAddr connections.
// At the cap a new one closes the address's longest-idle connection; when
// all are busy with requests, it is answered 429 and closed. Other
// addresses are not concerned.
func TestHTTPConnsPerAddr(t *testing.T) {
	ts := startServer(t, Config{Limits: Limits{ConnsPerAddr: 3}})
	home, other := loopbackAddr(t, 1), loopbackAddr(t, 2)
	// Three requests in progress (bodies still coming).
	busy := rawConns(t, ts, home, 3)
	for _, c := range busy {
		trickle(t, c, "POST /api/tables HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n", time.Second)
	}
	time.Sleep(50 * time.Millisecond)
	fourth := rawConns(t, ts, home, 1)[0]
	if status, code := answer(t, fourth, time.Second); status != http.StatusTooManyRequests || code != "too-many-connections" {
		t.Fatalf("fourth connection: %d %s", status, code)
	}
	closedWithin(t, fourth, time.Second, "a refused connection")
	// Another address is served.
	resp, err := clientFrom(other, nil).Get(ts.http.URL + "/api/games")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("another address: %v %v", resp, err)
	}
	resp.Body.Close()
	for _, c := range busy {
		c.Close()
	}
	// Three idle connections (nothing sent): a new one takes the place of
	// the oldest once they have been idle a moment.
	eventually(t, "the busy connections to be gone", func() bool {
		ts.httpConns.mu.Lock()
		defer ts.httpConns.mu.Unlock()
		return len(ts.httpConns.byAddr["127.0.0.1"]) == 0
	})
	idle := rawConns(t, ts, home, 3)
	time.Sleep(idleGrace + 100*time.Millisecond)
	resp, err = clientFrom(home, nil).Get(ts.http.URL + "/api/games")
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("a new connection at the cap of idle ones: %v %v", resp, err)
	}
	resp.Body.Close()
	closedWithin(t, idle[0], time.Second, "the longest-idle connection")
}

// TestKeepAliveIdle: an idle keep-alive connection is closed after
// IdleTimeout.
func TestKeepAliveIdle(t *testing.T) {
	ts := startServer(t, Config{Limits: Limits{IdleTimeout: 300 * time.Millisecond}})
	conn, err := net.Dial("tcp", ts.hostPort())
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "GET /api/games HTTP/1.1\r\nHost: x\r\n\r\n")
	if status, _ := answer(t, conn, time.Second); status != 200 {
		t.Fatal(status)
	}
	start := time.Now()
	closedWithin(t, conn, 2*time.Second, "an idle keep-alive connection")
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Fatalf("closed after %v, before the idle timeout", d)
	}
}

// TestLimitDefaults: the server `dicehall serve` runs has every timeout
// and cap, at the values docs/protocol.md states.
func TestLimitDefaults(t *testing.T) {
	s, err := New(Config{Store: memstore.New(), Games: all.Registry, Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	want := Limits{ConnsPerAddr: 64, WSPerAddr: 64, ConnsPerSeat: 8, WSIdle: 10 * time.Minute,
		HeaderTimeout: 5 * time.Second, BodyTimeout: 5 * time.Second, WriteTimeout: 30 * time.Second, IdleTimeout: 30 * time.Second}
	if s.cfg.Limits != want || s.cfg.MaxConnsPerTable != 200 {
		t.Fatalf("limits %+v, spectators %d", s.cfg.Limits, s.cfg.MaxConnsPerTable)
	}
	hs := s.HTTPServer()
	if hs.ReadHeaderTimeout != 5*time.Second || hs.ReadTimeout != 10*time.Second || hs.WriteTimeout != 30*time.Second ||
		hs.IdleTimeout != 30*time.Second || hs.MaxHeaderBytes != 64<<10 || hs.ConnState == nil || hs.Handler == nil || hs.ErrorLog == nil {
		t.Fatalf("http.Server %+v", hs)
	}
	// Negative: none.
	s2, err := New(Config{Store: memstore.New(), Games: all.Registry, Logger: testLogger(t), MaxConnsPerTable: -1,
		Limits: Limits{ConnsPerAddr: -1, WSPerAddr: -1, ConnsPerSeat: -1, WSIdle: -1, HeaderTimeout: -1, BodyTimeout: -1, WriteTimeout: -1, IdleTimeout: -1}})
	if err != nil {
		t.Fatal(err)
	}
	defer s2.Close()
	hs = s2.HTTPServer()
	if hs.ReadHeaderTimeout != 0 || hs.ReadTimeout != 0 || hs.WriteTimeout != 0 || hs.IdleTimeout != 0 || s2.cfg.MaxConnsPerTable != -1 {
		t.Fatalf("no limits: %+v", hs)
	}
}

func TestAddrKey(t *testing.T) {
	for in, want := range map[string]string{
		"192.0.2.7:5000":                  "192.0.2.7",
		"[::ffff:192.0.2.7]:5000":         "192.0.2.7",
		"[2001:db8:1:2:3:4:5:6]:443":      "2001:db8:1:2::/64",
		"[2001:db8:1:2:ffff::1]:1":        "2001:db8:1:2::/64",
		"[2001:db8:1:3::1]:1":             "2001:db8:1:3::/64",
		"[fe80::1%eth0]:80":               "fe80::/64",
		"[::1]:8080":                      "::/64",
		"not an address":                  "not an address",
		"127.0.0.1:1":                     "127.0.0.1",
		"[2001:db8::1]:1":                 "2001:db8::/64",
		"[2001:0db8:0000:0000::0002]:999": "2001:db8::/64",
	} {
		if got := addrKey(in); got != want {
			t.Errorf("addrKey(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestContentSecurityPolicy: every page and file carries the policy the
// pages need, and no more (the browser tests run under it).
func TestContentSecurityPolicy(t *testing.T) {
	ts := startServer(t, Config{})
	host := ts.hostPort()
	for _, path := range []string{"/", "/t/abc", "/static/table.js", "/static/style.css", "/api/games"} {
		resp, err := http.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		csp := resp.Header.Get("Content-Security-Policy")
		for _, d := range []string{"default-src 'self'", "script-src 'self';", "style-src 'self';", "img-src 'self' data:",
			"connect-src 'self' ws://" + host + " wss://" + host + ";", "frame-ancestors 'none'", "base-uri 'none'", "form-action 'self'", "object-src 'none'"} {
			if !strings.Contains(csp, d) {
				t.Fatalf("%s: policy %q lacks %q", path, csp, d)
			}
		}
		if strings.Contains(csp, "unsafe") {
			t.Fatalf("%s: %q", path, csp)
		}
	}
	// A Host that could smuggle a directive is left out of connect-src.
	if csp := contentSecurityPolicy("x; script-src *"); strings.Contains(csp, "script-src *") {
		t.Fatalf("policy %q", csp)
	}
}

// TestPublicURL: with a public URL only its host is served (and loopback
// names on a loopback listener), and pages must come from its origin.
func TestPublicURL(t *testing.T) {
	for _, bad := range []string{"example.org", "ftp://example.org", "https://", "https://example.org/path", "https://u@example.org", "https://example.org/?q"} {
		if _, err := New(Config{Store: memstore.New(), Games: all.Registry, PublicURL: bad}); err == nil {
			t.Errorf("public URL %q accepted", bad)
		}
	}
	ts := startServer(t, Config{PublicURL: "https://Example.org:443/"})
	do := func(method, path, host, origin string) (int, string) {
		t.Helper()
		var body io.Reader
		if method == "POST" {
			body = strings.NewReader(`{"game":"dicestars","name":"ann","seats":[{"kind":"human"}]}`)
		}
		req, _ := http.NewRequest(method, ts.http.URL+path, body)
		req.Host = host
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var e errorBody
		data, _ := io.ReadAll(resp.Body)
		_ = json.Unmarshal(data, &e)
		return resp.StatusCode, e.Error.Code + " " + e.Error.Message
	}
	for _, c := range []struct {
		method, host, origin string
		want                 int
	}{
		{"GET", "example.org", "", 200},
		{"GET", "EXAMPLE.org:443", "", 200},
		{"GET", "evil.example", "", 421},
		{"GET", "example.org.evil.example", "", 421},
		{"GET", "example.org:8443", "", 421},
		{"GET", ts.hostPort(), "", 200}, // loopback, on a loopback listener
		{"GET", strings.Replace(ts.hostPort(), "127.0.0.1", "localhost", 1), "", 200},
		{"POST", "example.org", "https://example.org", 201},
		{"POST", "example.org", "http://example.org", 403},
		{"POST", "example.org", "https://evil.example", 403},
		{"POST", "evil.example", "https://evil.example", 421},
		{"POST", ts.hostPort(), "http://" + ts.hostPort(), 201},
		{"POST", ts.hostPort(), "https://evil.example", 403},
	} {
		path := "/api/games"
		if c.method == "POST" {
			path = "/api/tables"
		}
		if got, msg := do(c.method, path, c.host, c.origin); got != c.want {
			t.Errorf("%s Host %s Origin %q: %d %s, want %d", c.method, c.host, c.origin, got, msg, c.want)
		} else if got == 421 && !strings.Contains(msg, "wrong-host") || got == 421 && !strings.Contains(msg, "example.org only") {
			t.Errorf("421 says %q", msg)
		}
	}
	// WebSockets: the same rules.
	id := newPlayer(t, ts).create(duel("random"))
	u, _ := url.Parse(ts.wsURL(id))
	for _, c := range []struct {
		host, origin string
		ok           bool
	}{
		{"example.org", "https://example.org", true},
		{"example.org", "", true},
		{"example.org", "http://example.org", false},
		{"evil.example", "https://evil.example", false},
		{u.Host, "http://" + u.Host, true},
	} {
		h := http.Header{}
		if c.origin != "" {
			h.Set("Origin", c.origin)
		}
		ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
		conn, resp, err := websocket.Dial(ctx, ts.wsURL(id), &websocket.DialOptions{HTTPHeader: h, Host: c.host})
		cancel()
		if (err == nil) != c.ok {
			status := 0
			if resp != nil {
				status = resp.StatusCode
			}
			t.Errorf("websocket Host %s Origin %q: %v (%d)", c.host, c.origin, err, status)
		}
		if conn != nil {
			conn.CloseNow()
		}
	}
	// A loopback name on a listener that is not loopback is refused.
	if ip := nonLoopbackIP(); ip != nil {
		hs := ts.HTTPServer()
		ln, err := net.Listen("tcp", net.JoinHostPort(ip.String(), "0"))
		if err != nil {
			t.Fatal(err)
		}
		go hs.Serve(ln)
		defer hs.Close()
		req, _ := http.NewRequest("GET", "http://"+ln.Addr().String()+"/api/games", nil)
		req.Host = "localhost"
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 421 {
			t.Fatalf("Host localhost on %s: %d", ip, resp.StatusCode)
		}
	}
}

// nonLoopbackIP is an address of this machine that is not loopback, or nil.
func nonLoopbackIP() net.IP {
	addrs, _ := net.InterfaceAddrs()
	for _, a := range addrs {
		if n, ok := a.(*net.IPNet); ok && !n.IP.IsLoopback() && n.IP.To4() != nil {
			return n.IP
		}
	}
	return nil
}
