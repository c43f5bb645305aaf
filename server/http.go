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
	mux.Handle("GET /static/", s.static())
	mux.HandleFunc("GET /api/games", s.listGames)
	mux.HandleFunc("POST /api/tables", s.createTable)
	mux.HandleFunc("GET /api/tables", s.listTables)
	mux.HandleFunc("GET /api/tables/{id}", s.getTable)
	mux.HandleFunc("POST /api/tables/{id}/join", s.joinTable)
	mux.HandleFunc("GET /api/tables/{id}/replay", s.replay)
	mux.HandleFunc("GET /ws/{id}", s.serveWS)
	mux.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		writeError(w, http.StatusNotFound, "not-found", "no such API route")
	})
	return securityHeaders(mux)
}

func securityHeaders(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.Header().Set("X-Frame-Options", "DENY")
		w.Header().Set("Referrer-Policy", "same-origin")
		h.ServeHTTP(w, r)
	})
}

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

// readBody decodes a JSON request body, answering the error itself.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request, v any) bool {
	if !s.sameOrigin(r) {
		writeError(w, http.StatusForbidden, "cross-origin", "requests from other sites are not accepted")
		return false
	}
	if !s.posts.allow(clientAddr(r), s.clock.Now()) {
		writeError(w, http.StatusTooManyRequests, "rate-limited", "too many requests: wait a moment")
		return false
	}
	data, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
	if err == nil {
		err = engine.DecodeStrict(data, v)
	}
	var tooBig *http.MaxBytesError
	switch {
	case errors.As(err, &tooBig):
		writeError(w, http.StatusRequestEntityTooLarge, "too-large", fmt.Sprintf("the request is larger than %d bytes", s.cfg.MaxBody))
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
// (the seat cookie would otherwise ride along).
func (s *Server) sameOrigin(r *http.Request) bool {
	origin := r.Header.Get("Origin")
	if origin == "" {
		return true // not from a browser page
	}
	u, err := url.Parse(origin)
	if err != nil {
		return false
	}
	if strings.EqualFold(u.Host, r.Host) {
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
	if err != nil || len(c.Value) != 43 {
		return ""
	}
	if _, err := base64.RawURLEncoding.DecodeString(c.Value); err != nil {
		return ""
	}
	return hashToken(c.Value)
}

func setSeatCookie(w http.ResponseWriter, r *http.Request, id, token string) {
	http.SetCookie(w, &http.Cookie{Name: cookiePrefix + id, Value: token, Path: "/", MaxAge: cookieMaxAge,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: r.TLS != nil})
}
