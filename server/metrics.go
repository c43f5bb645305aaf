package server

import (
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/dicehall/dicehall/engine"
)

// Prometheus metrics (docs/protocol.md, Operations). Each Server has its own
// registry, not the process-wide default: tests run many servers in one
// process, and two servers must not count into each other's series.
//
// The hooks are called where the events happen (commit.go, ws.go,
// requests.go, conn.go, http.go); on the paths taken per move they only
// increment counters made in advance: no lookup by label, no allocation.

// Label values that stand for everything else, so a label's values stay a
// small fixed set whatever comes in.
const (
	otherLabel = "other"
	noRoute    = "unmatched" // a request no route pattern took
)

// maxRefusalCodes bounds the rule label's values. The games' rule codes are
// a fixed set of a few dozen, but they are strings built by game code: a
// code past this many distinct ones, or not shaped like one, counts as
// "other" rather than making a new series.
const maxRefusalCodes = 128

// commitBuckets spans a store commit from a fast in-memory one (0.1 ms) to
// one stuck behind a slow disk or a busy database (1 s and more).
var commitBuckets = []float64{.0001, .00025, .0005, .001, .0025, .005, .01, .025, .05, .1, .25, .5, 1}

type metrics struct {
	reg *prometheus.Registry

	wsOpen     prometheus.Gauge
	wsAccepted prometheus.Counter
	takeovers  prometheus.Counter
	commitSecs prometheus.Histogram
	httpReqs   *prometheus.CounterVec

	// moves holds each game's counters, made at New for every game of the
	// registry; the map is only read afterwards.
	moves      map[string]gameMoves
	otherMoves gameMoves

	storeErrs *prometheus.CounterVec

	refusalVec *prometheus.CounterVec
	refusalMu  sync.Mutex
	refusals   map[string]prometheus.Counter
}

// gameMoves are one game's move counters: moves seats played (people and
// bots) and chance moves the server drew.
type gameMoves struct{ action, chance prometheus.Counter }

// newMetrics registers every metric of s, and the Go runtime and process
// collectors, in a registry of s's own.
func newMetrics(s *Server) *metrics {
	reg := prometheus.NewRegistry()
	f := func(c prometheus.Collector) { reg.MustRegister(c) }
	f(collectors.NewGoCollector())
	f(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := &metrics{reg: reg, refusals: map[string]prometheus.Counter{}}

	m.wsOpen = prometheus.NewGauge(prometheus.GaugeOpts{Name: "dicehall_websockets_open",
		Help: "WebSocket connections open now."})
	m.wsAccepted = prometheus.NewCounter(prometheus.CounterOpts{Name: "dicehall_websockets_accepted_total",
		Help: "WebSocket connections accepted since the server started."})
	f(m.wsOpen)
	f(m.wsAccepted)

	// Today a node owns every table whose actor it runs; with leases it
	// runs only the tables it holds the lease of, so the name holds then.
	f(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dicehall_tables_owned",
		Help: "Tables whose actor runs on this node: the tables it owns and plays now."},
		func() float64 {
			s.mu.Lock()
			defer s.mu.Unlock()
			return float64(len(s.tables))
		}))

	movesVec := prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dicehall_moves_committed_total",
		Help: "Moves stored, by game and kind: action (a seat's, a person's or a bot's) or chance (drawn by the server)."},
		[]string{"game", "kind"})
	f(movesVec)
	curry := func(game string) gameMoves {
		return gameMoves{action: movesVec.WithLabelValues(game, "action"), chance: movesVec.WithLabelValues(game, "chance")}
	}
	m.moves = map[string]gameMoves{}
	for _, id := range s.games.IDs() {
		m.moves[id] = curry(id)
	}
	m.otherMoves = curry(otherLabel)

	m.commitSecs = prometheus.NewHistogram(prometheus.HistogramOpts{Name: "dicehall_commit_seconds",
		Help:    "Time the store took to commit one batch of moves (an action and the chance moves after it), failed commits included.",
		Buckets: commitBuckets})
	f(m.commitSecs)

	m.takeovers = prometheus.NewCounter(prometheus.CounterOpts{Name: "dicehall_lease_takeovers_total",
		Help: "Tables this node took over from another node whose lease had lapsed."})
	f(m.takeovers)

	m.refusalVec = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dicehall_refused_total",
		Help: "Actions and requests refused over WebSockets, by rule code (the refused message's rule)."},
		[]string{"rule"})
	f(m.refusalVec)
	for _, e := range []*engine.RuleError{engine.ErrNotYourTurn, engine.ErrGameOver, engine.ErrWrongAction, engine.ErrBadAction} {
		m.refusals[e.Rule] = m.refusalVec.WithLabelValues(e.Rule) // every game's: present at 0
	}

	m.storeErrs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dicehall_store_errors_total",
		Help: "Table writes the store failed, by operation: append_moves (a move not stored) or update_table (the table's row)."},
		[]string{"op"})
	f(m.storeErrs)
	for _, op := range []string{"append_moves", "update_table"} {
		m.storeErrs.WithLabelValues(op) // present at 0 from the start
	}

	m.httpReqs = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dicehall_http_requests_total",
		Help: "HTTP requests answered, by route pattern and status class (2xx...); a WebSocket counts when it closes."},
		[]string{"route", "status"})
	f(m.httpReqs)
	return m
}

// MetricsHandler serves the server's metrics in the Prometheus exposition
// formats. It is not among Handler's routes: serve --metrics-addr gives it
// a listener of its own, so the game's public port does not show them.
func (s *Server) MetricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.reg, promhttp.HandlerOpts{
		ErrorLog: slog.NewLogLogger(s.log.Handler(), slog.LevelError),
		Registry: s.metrics.reg, // counts its own errors too
	})
}

// wsOpened counts a WebSocket accepted; wsClosed when it has gone.
func (m *metrics) wsOpened() {
	m.wsAccepted.Inc()
	m.wsOpen.Inc()
}

func (m *metrics) wsClosed() { m.wsOpen.Dec() }

// appended records one AppendMoves call of n moves begun at start: its
// latency, and either the moves stored (a seat's action first when action,
// then chance moves) or the failure.
func (m *metrics) appended(game string, action bool, n int, start time.Time, err error) {
	m.commitSecs.Observe(time.Since(start).Seconds())
	if err != nil {
		m.storeError("append_moves")
		return
	}
	c, ok := m.moves[game]
	if !ok {
		c = m.otherMoves
	}
	if action {
		c.action.Inc()
		n--
	}
	if n > 0 {
		c.chance.Add(float64(n))
	}
}

// storeError counts a failed store write; op is one of the values
// newMetrics lists.
func (m *metrics) storeError(op string) { m.storeErrs.WithLabelValues(op).Inc() }

// leaseTakeover counts a table this node took over after another node's
// lease on it lapsed. The cluster code calls it once per table adopted
// (not for a table whose lease this node already held, nor for a new one).
func (m *metrics) leaseTakeover() { m.takeovers.Inc() }

// refused counts a refused message by its rule code.
func (m *metrics) refused(rule string) {
	m.refusalMu.Lock()
	c, ok := m.refusals[rule]
	if !ok {
		label := rule
		if !ruleShaped(rule) || len(m.refusals) >= maxRefusalCodes {
			label = otherLabel
		}
		c = m.refusalVec.WithLabelValues(label)
		if label == rule {
			m.refusals[rule] = c
		}
	}
	m.refusalMu.Unlock()
	c.Inc()
}

// ruleShaped reports whether s looks like a rule code: short, lower-case
// letters, digits and hyphens.
func ruleShaped(s string) bool {
	if s == "" || len(s) > 40 {
		return false
	}
	for _, r := range s {
		if (r < 'a' || r > 'z') && (r < '0' || r > '9') && r != '-' {
			return false
		}
	}
	return true
}

// countRequests wraps the route mux: it counts each request by the pattern
// the mux matched (a fixed set, so the label stays small) and the class of
// its status.
func (m *metrics) countRequests(mux http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sw := &statusWriter{ResponseWriter: w}
		mux.ServeHTTP(sw, r)
		route := r.Pattern // set by the mux on this very request
		if route == "" {
			route = noRoute
		}
		m.httpReqs.WithLabelValues(route, statusClass(sw.status)).Inc()
	})
}

func statusClass(status int) string {
	switch {
	case status == 0:
		return "2xx" // nothing written: net/http answers 200
	case status < 200:
		return "1xx"
	case status < 300:
		return "2xx"
	case status < 400:
		return "3xx"
	case status < 500:
		return "4xx"
	}
	return "5xx"
}

// statusWriter notes the status of an answer. Unwrap lets the WebSocket
// library hijack the connection and http.ResponseController reach the
// connection beneath.
type statusWriter struct {
	http.ResponseWriter
	status int
}

func (w *statusWriter) WriteHeader(status int) {
	if w.status == 0 || w.status < 200 && w.status != http.StatusSwitchingProtocols { // past 103 Early Hints
		w.status = status
	}
	w.ResponseWriter.WriteHeader(status)
}

func (w *statusWriter) Write(p []byte) (int, error) {
	if w.status == 0 {
		w.status = http.StatusOK
	}
	return w.ResponseWriter.Write(p)
}

func (w *statusWriter) Unwrap() http.ResponseWriter { return w.ResponseWriter }
