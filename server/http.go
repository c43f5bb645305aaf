package server

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base32"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"sync"
	"time"

	"github.com/dicehall/dicehall/engine"
)

const (
	kindHuman = "human"
	kindBot   = "bot"

	maxNameRunes   = 24
	maxTurnSeconds = 24 * 3600
	maxBotDelayMs  = 10_000
	cookiePrefix   = "dh_"
	cookieMaxAge   = 30 * 24 * 3600
)

func (s *Server) routes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.page("index.html"))
	mux.HandleFunc("GET /t/{id}", s.page("table.html"))
	mux.HandleFunc("GET /rules/{id}", s.rulesPage)
	mux.Handle("GET /static/", s.static())
	// Probes for orchestrators and load balancers (health.go).
	mux.HandleFunc("GET /healthz", s.health)
	mux.HandleFunc("GET /readyz", s.ready)
	mux.HandleFunc("GET /api/games", s.listGames)
	mux.HandleFunc("GET /api/games/{id}/rules", s.getRules)
	mux.HandleFunc("POST /api/tables", s.createTable)
	mux.HandleFunc("GET /api/tables", s.listTables)
	mux.HandleFunc("GET /api/tables/{id}", s.ownerRoute(s.getTable))
	mux.HandleFunc("GET /api/tables/mine", s.myTables)
	mux.HandleFunc("POST /api/tables/{id}/join", s.ownerRoute(s.joinTable))
	mux.HandleFunc("POST /api/tables/{id}/rematch", s.ownerRoute(s.rematch))
	mux.HandleFunc("GET /api/tables/{id}/replay", s.replay)
	mux.HandleFunc("GET /api/tables/{id}/review", s.getReview)
	mux.HandleFunc("GET /ws/{id}", s.serveWS)
	// Ratings, leaderboards and profiles (ratings.go, profiles.go).
	mux.HandleFunc("GET /leaderboard", s.page("players.html"))
	mux.HandleFunc("GET /u/{name}", s.page("players.html"))
	mux.HandleFunc("GET /api/leaderboard", s.leaderboard)
	mux.HandleFunc("GET /api/leaderboard/{game}", s.leaderboard)
	mux.HandleFunc("GET /api/players/{name}", s.playerProfile)
	// Identity (auth.go, auth_passkey.go).
	mux.HandleFunc("GET /signin", s.page("signin.html"))
	mux.HandleFunc("GET /account", s.page("account.html"))
	mux.HandleFunc("GET /api/account", s.getAccount)
	mux.HandleFunc("DELETE /api/account", s.deleteAccount)
	mux.HandleFunc("POST /api/account/signup", s.signup)
	mux.HandleFunc("POST /api/account/signin", s.signin)
	mux.HandleFunc("POST /api/account/signout", s.signout)
	mux.HandleFunc("POST /api/account/signout-all", s.signoutAll)
	mux.HandleFunc("POST /api/account/passkeys/begin", s.passkeyBegin)
	mux.HandleFunc("POST /api/account/passkeys/finish", s.passkeyFinish)
	mux.HandleFunc("DELETE /api/account/passkeys/{id}", s.passkeyDelete)
	mux.HandleFunc("POST /api/account/passkey-signin/begin", s.passkeySigninBegin)
	mux.HandleFunc("POST /api/account/passkey-signin/finish", s.passkeySigninFinish)
	mux.HandleFunc("POST /api/account/passkey-signup/begin", s.passkeySignupBegin)
	mux.HandleFunc("POST /api/account/passkey-signup/finish", s.passkeySignupFinish)
	// The installable app (pwa.go): the manifest, the service worker (at the
	// root, so its scope is the whole site) and the page it shows when a
	// page cannot load.
	mux.HandleFunc("GET /manifest.webmanifest", s.manifest)
	mux.HandleFunc("GET /sw.js", s.serviceWorker())
	mux.HandleFunc("GET /offline.html", s.page("offline.html"))
	// Notifications (notify_push.go).
	mux.HandleFunc("GET /api/notify/vapid", s.notifyVAPID)
	mux.HandleFunc("POST /api/notify/subscriptions", s.notifySubscribe)
	mux.HandleFunc("DELETE /api/notify/subscriptions", s.notifyUnsubscribe)
	mux.HandleFunc("GET /api/notify/settings", s.notifySettings)
	mux.HandleFunc("PUT /api/notify/settings", s.notifySetSettings)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not-found", "no such API route")
	})
	return securityHeaders(s.checkHost(s.guardBody(s.metrics.countRequests(mux))))
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "same-origin")
		w.Header().Set("Content-Security-Policy", contentSecurityPolicy(r.Host))
		h.ServeHTTP(w, r)
	})
}

// contentSecurityPolicy allows the pages what they use: their own scripts
// (modules, loaded by import too), stylesheets and images (files and
// data: URLs), fetch to the API and WebSockets to the same host, the
// service worker and the manifest from the same origin; no inline script
// or style, no framing, no plugins, no <base>.
func contentSecurityPolicy(host string) string {
	connect := "'self'"
	if plainHost(host) {
		// 'self' covers ws: and wss: of the same host in CSP 3; older
		// browsers need them named.
		connect += " ws://" + host + " wss://" + host
	}
	return "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src " + connect +
		"; worker-src 'self'; manifest-src 'self'; object-src 'none'; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
}

// plainHost reports whether host is letters, digits and .-:[] only (no
// character that could end a CSP directive).
func plainHost(host string) bool {
	if host == "" || len(host) > 255 {
		return false
	}
	for _, r := range host {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune(".-:[]", r)) {
			return false
		}
	}
	return true
}

// guardBody bounds the time a request body may take (Limits.BodyTimeout
// from when the handler starts) and makes sure an answer never waits for a
// body nobody reads: if the handler has not read the body to its end, the
// answer says Connection: close, so the server does not drain a trickle
// before answering. Requests without a body (WebSocket upgrades among them)
// pass untouched.
func (s *Server) guardBody(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.ContentLength == 0 || r.Body == nil || r.Body == http.NoBody {
			h.ServeHTTP(w, r)
			return
		}
		if d := s.cfg.Limits.BodyTimeout; d > 0 {
			_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(d))
		}
		b := &watchedBody{ReadCloser: r.Body}
		r.Body = b
		h.ServeHTTP(&closeUnread{ResponseWriter: w, body: b}, r)
	})
}

// watchedBody notes whether a request body was read to its end.
type watchedBody struct {
	io.ReadCloser
	mu  sync.Mutex
	eof bool
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if errors.Is(err, io.EOF) {
		b.mu.Lock()
		b.eof = true
		b.mu.Unlock()
	}
	return n, err
}

func (b *watchedBody) done() bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.eof
}

// closeUnread closes the connection after an answer given before the
// request's body was read to its end.
type closeUnread struct {
	http.ResponseWriter
	body    *watchedBody
	checked bool
}

func (w *closeUnread) WriteHeader(status int) {
	if !w.checked {
		w.checked = true
		if !w.body.done() {
			w.Header().Set("Connection", "close")
		}
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *closeUnread) Write(p []byte) (int, error) {
	if !w.checked {
		w.WriteHeader(http.StatusOK)
	}
	return w.ResponseWriter.Write(p)
}

func (w *closeUnread) Unwrap() http.ResponseWriter { return w.ResponseWriter }

// ---- pages and files

func (s *Server) page(name string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if id := r.PathValue("id"); name == "table.html" && !validID(id) {
			http.NotFound(w, r)
			return
		}
		data, err := fs.ReadFile(s.cfg.Static, name)
		if err != nil {
			http.Error(w, "the page is missing from this build", http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "no-cache")
		_, _ = w.Write(data)
	}
}

func (s *Server) static() http.Handler {
	files := http.StripPrefix("/static", http.FileServerFS(s.cfg.Static))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r) // no directory listings
			return
		}
		// There is no build step and no file versioning: browsers check
		// back for every file rather than cache a stale client.
		w.Header().Set("Cache-Control", "no-cache")
		if path.Ext(r.URL.Path) == ".js" || path.Ext(r.URL.Path) == ".mjs" {
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		files.ServeHTTP(w, r)
	})
}

// ---- JSON helpers

func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "the answer could not be encoded")
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

func writeError(w http.ResponseWriter, status int, code, message string) {
	data, _ := json.Marshal(errorBody{Error: apiError{Code: code, Message: message}})
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	_, _ = w.Write(append(data, '\n'))
}

// allowPost refuses a POST from another site or over its address's rate,
// answering the error itself.
func (s *Server) allowPost(w http.ResponseWriter, r *http.Request) bool {
	if forwarded(r) {
		return true // checked by the node the client reached (bus.go)
	}
	if !s.sameOrigin(r) {
		writeError(w, http.StatusForbidden, "cross-origin", "requests from other sites are not accepted")
		return false
	}
	if !s.posts.allow(addrKey(r.RemoteAddr), s.clock.Now()) {
		writeError(w, http.StatusTooManyRequests, "rate-limited", "too many requests: wait a moment")
		return false
	}
	return true
}

// readBody decodes a JSON request body, answering the error itself.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if !s.allowPost(w, r) {
		return false
	}
	// guardBody has set the body's deadline (Limits.BodyTimeout); once the
	// body is in, the handler's own work is not bounded by it.
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err == nil {
		_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
		err = engine.DecodeStrict(data, v)
	}
	var tooBig *http.MaxBytesError
	var netErr net.Error
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too-large", fmt.Sprintf("the request is larger than %d bytes", s.cfg.MaxBody))
		return false
	case errors.As(err, &netErr) && netErr.Timeout():
		writeError(w, http.StatusRequestTimeout, "too-slow", fmt.Sprintf("the request's body did not arrive within %v", s.cfg.Limits.BodyTimeout))
		return false
	case len(bytes.TrimSpace(data)) == 0:
		writeError(w, http.StatusBadRequest, "malformed", "the request has no JSON body")
		return false
	case err != nil:
		writeError(w, http.StatusBadRequest, "malformed", "the request is not the expected JSON: "+err.Error())
		return false
	}
	return true
}

// sameOrigin refuses requests a browser sends on behalf of another site
// (the seat and session cookies would otherwise ride along). With a public
// URL, the page must come from it (scheme and host).
func (s *Server) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		// Not from a browser page, unless the browser says it is another
		// site's (Fetch Metadata) without an Origin.
		site := r.Header.Get("Sec-Fetch-Site")
		return site != "cross-site" && site != "same-site"
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	switch {
	case s.public == nil:
		if strings.EqualFold(u.Host, r.Host) {
			return true
		}
	case u.Scheme == s.public.Scheme && normalHost(u.Scheme, u.Host) == s.public.Host:
		return true
	case loopbackName(r.Host) && strings.EqualFold(u.Host, r.Host):
		// A page of the loopback host this request was let in for
		// (hostAllowed: only on a loopback listener).
		return true
	}
	for _, p := range s.cfg.OriginPatterns {
		if ok, _ := path.Match(strings.ToLower(p), strings.ToLower(u.Host)); ok {
			return true
		}
	}
	return false
}

func clientAddr(r *http.Request) string {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		return r.RemoteAddr
	}
	return host
}

// ipLimiter rate-limits POST requests per client address.
type ipLimiter struct {
	rate, burst float64
	mu          sync.Mutex
	m           map[string]*bucket
}

func (l *ipLimiter) allow(addr string, now time.Time) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.m) > 10_000 {
		// Forget clients whose bucket has refilled: they lose nothing.
		for k, b := range l.m {
			if now.Sub(b.last).Seconds()*l.rate >= l.burst {
				delete(l.m, k)
			}
		}
	}
	b, ok := l.m[addr]
	if !ok {
		b = &bucket{rate: l.rate, burst: l.burst}
		l.m[addr] = b
	}
	return b.take(now)
}

// ---- identity

func validID(id string) bool {
	if len(id) == 0 || len(id) > 32 {
		return false
	}
	for _, r := range id {
		if !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return true
}

var idEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

func newID() string {
	b := make([]byte, 10)
	_, _ = rand.Read(b) // crypto/rand.Read never fails
	return idEncoding.EncodeToString(b)
}

func newSeed() uint64 {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return binary.LittleEndian.Uint64(b[:])
}

// newToken returns a 256-bit seat token and the hash that is stored.
func newToken() (token, hash string) {
	b := make([]byte, 32)
	_, _ = rand.Read(b)
	token = base64.RawURLEncoding.EncodeToString(b)
	return token, hashToken(token)
}

func hashToken(token string) string {
	sum := sha256.Sum256([]byte(token))
	return hex.EncodeToString(sum[:])
}

func tokenEqual(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// presentedToken is the hash of the seat token the request carries for the
// table, or "" if it carries none that could be one.
func presentedToken(r *http.Request, id string) string {
	c, err := r.Cookie(cookiePrefix + id)
	if err != nil {
		return ""
	}
	return tokenHash(c.Value)
}

// tokenHash is the hash of a seat cookie's value, or "" if it cannot be a
// seat token.
func tokenHash(value string) string {
	if len(value) != 43 {
		return ""
	}
	if _, err := base64.RawURLEncoding.DecodeString(value); err != nil {
		return ""
	}
	return hashToken(value)
}

func setSeatCookie(w http.ResponseWriter, r *http.Request, id, token string) {
	http.SetCookie(w, &http.Cookie{Name: cookiePrefix + id, Value: token, Path: "/", MaxAge: cookieMaxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}
