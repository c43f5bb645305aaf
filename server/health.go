package server

import (
	"github.com/nats-io/nats.go"

	"context"
	"net/http"
	"time"

	"github.com/dicehall/dicehall/store"
)

// readyTimeout bounds the database check of GET /readyz: a probe that
// hangs is as bad as a failing one.
const readyTimeout = 2 * time.Second

// health answers GET /healthz: the process is up and serving HTTP. It
// checks nothing else, so an orchestrator restarts the process only when
// the process itself is stuck.
func (s *Server) health(w http.ResponseWriter, _ *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// Readiness is the answer of GET /readyz.
type Readiness struct {
	// Status is "ready", or "unready" with the failing checks in Checks.
	Status string `json:"status"`
	// Checks names each check and says "ok" or what is wrong: database
	// (the store answers a query; its migrations ran when it opened),
	// serving (not draining or closed).
	Checks map[string]string `json:"checks"`
}

// ready answers GET /readyz: 200 when this server should get new players
// (its store answers and it is not draining), else 503 with the reasons, so
// a load balancer sends people elsewhere.
func (s *Server) ready(w http.ResponseWriter, r *http.Request) {
	out := Readiness{Status: "ready", Checks: map[string]string{"database": "ok", "serving": "ok"}}
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	if _, err := s.store.Count(ctx, store.Filter{Status: []string{store.StatusOpen}}); err != nil {
		out.Checks["database"] = "the store does not answer: " + err.Error()
		out.Status = "unready"
	}
	if s.bus != nil {
		out.Checks["nats"] = "ok"
		if st := s.bus.nc.Status(); st != nats.CONNECTED {
			out.Checks["nats"] = "not connected to the other nodes: " + st.String()
			out.Status = "unready"
		}
	}
	s.mu.Lock()
	draining, closed := s.draining, s.closed
	s.mu.Unlock()
	switch {
	case closed:
		out.Checks["serving"] = "closed"
		out.Status = "unready"
	case draining:
		out.Checks["serving"] = "draining: shutting down"
		out.Status = "unready"
	}
	status := http.StatusOK
	if out.Status != "ready" {
		status = http.StatusServiceUnavailable
	}
	writeJSON(w, status, out)
}

// Drain marks the server as leaving: /readyz answers 503 from now on while
// every table and connection goes on until Close.
func (s *Server) Drain() {
	s.mu.Lock()
	s.draining = true
	s.mu.Unlock()
	s.log.Info("draining: /readyz now answers 503")
}
