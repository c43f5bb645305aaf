package server

import (
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/coder/websocket"
)

// Limits bounds what one client can hold, so that nobody can lock a player
// out or run the server out of descriptors (docs/protocol.md, Limits).
// Zero takes the default; a negative value means no limit. Client addresses
// are grouped: an IPv4 address counts alone, an IPv6 address by its /64 (one
// host usually holds a whole /64).
type Limits struct {
	// ConnsPerAddr caps the HTTP connections one address holds open at
	// once (a WebSocket counts here only until its upgrade). At the cap, a
	// new connection closes the address's longest-idle one (HTTP lets a
	// server close an idle connection at any time); when every one is busy
	// with a request, the new one is answered 429 and closed. 0 = 64.
	ConnsPerAddr int
	// WSPerAddr caps the spectators' WebSockets of one address across the
	// server: further ones are refused. Seated players always get in (their
	// connections count, but are never refused). 0 = 64.
	WSPerAddr int
	// ConnsPerSeat caps the WebSockets of one seat at one table: a newer
	// one always gets in and closes the seat's oldest (1008). 0 = 8.
	ConnsPerSeat int
	// WSIdle closes a WebSocket that sends nothing for this long (the page
	// sends a ping every 25 s), unless it holds a seat at a table whose game
	// is not over: players are never cut off for thinking. 0 = 10 minutes.
	WSIdle time.Duration
	// HeaderTimeout bounds reading a request's headers. 0 = 5s.
	HeaderTimeout time.Duration
	// BodyTimeout bounds reading a request's body once its headers are in
	// (bodies are 16 KiB at most); a whole request must arrive within
	// HeaderTimeout+BodyTimeout. 0 = 5s.
	BodyTimeout time.Duration
	// WriteTimeout bounds writing an answer (not a WebSocket's). 0 = 30s.
	WriteTimeout time.Duration
	// IdleTimeout closes a keep-alive connection idle this long. 0 = 30s.
	IdleTimeout time.Duration
}

// Defaults of Limits, as docs/protocol.md states them.
const (
	DefaultSpectators    = 200 // Config.MaxConnsPerTable
	DefaultConnsPerAddr  = 64
	DefaultWSPerAddr     = 64
	DefaultConnsPerSeat  = 8
	DefaultWSIdle        = 10 * time.Minute
	DefaultHeaderTimeout = 5 * time.Second
	DefaultBodyTimeout   = 5 * time.Second
	DefaultWriteTimeout  = 30 * time.Second
	DefaultIdleTimeout   = 30 * time.Second

	// maxHeaderBytes bounds a request's headers (cookies included: a
	// browser keeps a seat cookie per table it sat at).
	maxHeaderBytes = 64 << 10
	// idleGrace: a connection that has sent no request for this long may
	// give way to a newer one of its address at the cap (a browser sends
	// its request at once; one still silent is idle or trickling).
	idleGrace = time.Second
)

func (l *Limits) defaults() {
	zeroDefault(&l.ConnsPerAddr, DefaultConnsPerAddr)
	zeroDefault(&l.WSPerAddr, DefaultWSPerAddr)
	zeroDefault(&l.ConnsPerSeat, DefaultConnsPerSeat)
	zeroDefault(&l.WSIdle, DefaultWSIdle)
	zeroDefault(&l.HeaderTimeout, DefaultHeaderTimeout)
	zeroDefault(&l.BodyTimeout, DefaultBodyTimeout)
	zeroDefault(&l.WriteTimeout, DefaultWriteTimeout)
	zeroDefault(&l.IdleTimeout, DefaultIdleTimeout)
}

// under reports whether n is below limit (a limit of 0 or less is none).
func under[T int | time.Duration](n, limit T) bool { return limit <= 0 || n < limit }

// positive is d, or 0 (none, for http.Server) when d is negative.
func positive(d time.Duration) time.Duration { return max(d, 0) }

// HTTPServer is the http.Server to serve s with, its timeouts and
// connection caps set from Config.Limits: `dicehall serve` and the tests
// use it. Set Addr, or call Serve with a listener.
func (s *Server) HTTPServer() *http.Server {
	l := s.cfg.Limits
	read := time.Duration(0)
	if l.HeaderTimeout > 0 && l.BodyTimeout > 0 {
		read = l.HeaderTimeout + l.BodyTimeout
	}
	return &http.Server{
		Handler:           s.Handler(),
		ReadHeaderTimeout: positive(l.HeaderTimeout),
		ReadTimeout:       read,
		WriteTimeout:      positive(l.WriteTimeout),
		IdleTimeout:       positive(l.IdleTimeout),
		MaxHeaderBytes:    maxHeaderBytes,
		ConnState:         s.httpConns.track,
		ErrorLog:          slog.NewLogLogger(s.log.Handler(), slog.LevelWarn),
	}
}

// ---- client addresses

// addrKey is the client address limits count by: an IPv4 address (an
// IPv4-mapped IPv6 one too), or an IPv6 address's /64.
func addrKey(remote string) string {
	host, _, err := net.SplitHostPort(remote)
	if err != nil {
		host = remote
	}
	ip, err := netip.ParseAddr(host)
	if err != nil {
		return host
	}
	ip = ip.Unmap().WithZone("")
	if ip.Is4() {
		return ip.String()
	}
	p, _ := ip.Prefix(64)
	return p.String()
}

// ---- HTTP connections per address

// connLimiter caps the HTTP connections of each client address; it is the
// http.Server's ConnState hook. Hijacked connections (WebSockets) leave it:
// they are counted by wsCounter.
type connLimiter struct {
	limit int
	log   *slog.Logger

	mu     sync.Mutex
	conns  map[net.Conn]*trackedConn
	byAddr map[string]map[*trackedConn]struct{}
	warned map[string]time.Time // last refusal logged per address
}

type trackedConn struct {
	c     net.Conn
	key   string
	state http.ConnState
	since time.Time // when it entered state
}

func newConnLimiter(limit int, log *slog.Logger) *connLimiter {
	return &connLimiter{limit: limit, log: log, conns: map[net.Conn]*trackedConn{}, byAddr: map[string]map[*trackedConn]struct{}{},
		warned: map[string]time.Time{}}
}

func (l *connLimiter) track(c net.Conn, state http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	now := time.Now()
	switch state {
	case http.StateNew:
		key := addrKey(c.RemoteAddr().String())
		held := l.byAddr[key]
		if !under(len(held), l.limit) {
			victim := l.idlest(held, now)
			if victim == nil {
				refuseConn(c, key, l.limit)
				l.warn(key, now)
				return
			}
			l.forget(victim)
			_ = victim.c.Close()
		}
		tc := &trackedConn{c: c, key: key, state: state, since: now}
		l.conns[c] = tc
		if held == nil {
			held = map[*trackedConn]struct{}{}
			l.byAddr[key] = held
		}
		held[tc] = struct{}{}
	case http.StateActive, http.StateIdle:
		if tc, ok := l.conns[c]; ok {
			tc.state, tc.since = state, now
		}
	case http.StateHijacked, http.StateClosed:
		if tc, ok := l.conns[c]; ok {
			l.forget(tc)
		}
	}
}

// idlest is the connection of held that has waited longest without a
// request in progress, or nil if all are busy (or just opened).
func (l *connLimiter) idlest(held map[*trackedConn]struct{}, now time.Time) *trackedConn {
	var best *trackedConn
	for tc := range held {
		if tc.state == http.StateActive || now.Sub(tc.since) < idleGrace && tc.state == http.StateNew {
			continue
		}
		if best == nil || tc.since.Before(best.since) {
			best = tc
		}
	}
	return best
}

// warn logs a refusal, once a minute per address at most: a client
// hammering the cap must not flood the log too.
func (l *connLimiter) warn(key string, now time.Time) {
	if now.Sub(l.warned[key]) < time.Minute {
		return
	}
	if len(l.warned) > 1000 {
		for k, at := range l.warned {
			if now.Sub(at) >= time.Minute {
				delete(l.warned, k)
			}
		}
	}
	l.warned[key] = now
	l.log.Warn("connections refused: too many from one address (logged once a minute)", "remote", key, "limit", l.limit)
}

func (l *connLimiter) forget(tc *trackedConn) {
	delete(l.conns, tc.c)
	held := l.byAddr[tc.key]
	delete(held, tc)
	if len(held) == 0 {
		delete(l.byAddr, tc.key)
	}
}

// refuseConn answers a connection over its address's cap before reading
// anything, and closes it: it must not hold a descriptor any longer.
func refuseConn(c net.Conn, key string, limit int) {
	if _, isTLS := c.(*tls.Conn); !isTLS {
		body := mustJSON(errorBody{Error: apiError{Code: "too-many-connections",
			Message: fmt.Sprintf("too many connections from your address (%s): at most %d at once", key, limit)}})
		_ = c.SetWriteDeadline(time.Now().Add(time.Second))
		_, _ = fmt.Fprintf(c, "HTTP/1.1 429 Too Many Requests\r\nContent-Type: application/json; charset=utf-8\r\n"+
			"Cache-Control: no-store\r\nRetry-After: 5\r\nConnection: close\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	}
	_ = c.Close()
}

// ---- WebSockets per address

// wsCounter counts the open WebSockets of each client address.
type wsCounter struct {
	mu sync.Mutex
	n  map[string]int
}

// acquire counts one more WebSocket for key unless it has limit already
// (limit 0 or less: always).
func (w *wsCounter) acquire(key string, limit int) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n == nil {
		w.n = map[string]int{}
	}
	if !under(w.n[key], limit) {
		return false
	}
	w.n[key]++
	return true
}

func (w *wsCounter) release(key string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.n[key]--; w.n[key] <= 0 {
		delete(w.n, key)
	}
}

func (w *wsCounter) count(key string) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.n[key]
}

var (
	errTableFull = errors.New("too many people at this table")
	errAddrFull  = errors.New("too many connections from your address")
)

// admit applies the connection caps to c, whose seat attach has just
// found. A spectator counts against the table's cap and its address's; a
// seat always gets in, and past Limits.ConnsPerSeat its oldest connection
// gives way. Run by the actor.
func (t *table) admit(c *conn) error {
	lim := t.s.cfg.Limits
	if c.seat < 0 {
		spectators := 0
		for o := range t.conns {
			if o.seat < 0 {
				spectators++
			}
		}
		if !under(spectators, t.s.cfg.MaxConnsPerTable) {
			return errTableFull
		}
		if !t.s.wsConns.acquire(c.addr, lim.WSPerAddr) {
			return errAddrFull
		}
	} else {
		if lim.ConnsPerSeat > 0 {
			var same []*conn
			for o := range t.conns {
				if o.seat == c.seat {
					same = append(same, o)
				}
			}
			for len(same) >= lim.ConnsPerSeat {
				oldest := 0
				for i, o := range same {
					if o.serial < same[oldest].serial {
						oldest = i
					}
				}
				o := same[oldest]
				same = append(same[:oldest], same[oldest+1:]...)
				t.detach(o)
				o.closeGracefully(websocket.StatusPolicyViolation, "replaced by a newer connection to your seat")
			}
		}
		t.s.wsConns.acquire(c.addr, 0)
	}
	c.counted.Store(true)
	return nil
}

// ---- hosts and origins

// parsePublicURL checks Config.PublicURL: an http or https URL with a host
// and no path.
func parsePublicURL(raw string) (*url.URL, error) {
	if raw == "" {
		return nil, nil
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" || u.User != nil ||
		(u.Path != "" && u.Path != "/") || u.RawQuery != "" || u.Fragment != "" {
		return nil, fmt.Errorf("server: the public URL %q must be like https://example.org (a scheme and a host, nothing else)", raw)
	}
	u.Host = normalHost(u.Scheme, u.Host)
	u.Path = ""
	return u, nil
}

// normalHost lowercases host and drops the scheme's default port.
func normalHost(scheme, host string) string {
	host = strings.ToLower(strings.TrimSuffix(host, "."))
	if h, port, err := net.SplitHostPort(host); err == nil &&
		(scheme == "https" && port == "443" || scheme == "http" && port == "80" || scheme == "" && (port == "443" || port == "80")) {
		if strings.Contains(h, ":") {
			return "[" + h + "]"
		}
		return h
	}
	return host
}

// loopbackName reports whether host (with or without a port) names this
// machine's loopback: localhost or a loopback address.
func loopbackName(host string) bool {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.ToLower(strings.Trim(host, "[]")), ".")
	if host == "localhost" || strings.HasSuffix(host, ".localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// onLoopback reports whether the request came in on a loopback listener.
func onLoopback(r *http.Request) bool {
	a, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return false
	}
	ap, err := netip.ParseAddrPort(a.String())
	return err == nil && ap.Addr().Unmap().IsLoopback()
}

// hostAllowed: with a public URL, the request's Host must be its host, or
// a loopback name when the request came in on a loopback listener (a
// reverse proxy or a person on the machine itself).
func (s *Server) hostAllowed(r *http.Request) bool {
	if s.public == nil {
		return true
	}
	if normalHost(s.public.Scheme, r.Host) == s.public.Host {
		return true
	}
	return loopbackName(r.Host) && onLoopback(r)
}

// checkHost refuses requests for hosts other than the public URL's.
func (s *Server) checkHost(h http.Handler) http.Handler {
	if s.public == nil {
		return h
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !s.hostAllowed(r) {
			w.Header().Set("Connection", "close")
			writeError(w, http.StatusMisdirectedRequest, "wrong-host",
				fmt.Sprintf("this server answers for %s only, not for %q", s.public.Host, clip(r.Host, 100)))
			return
		}
		h.ServeHTTP(w, r)
	})
}
