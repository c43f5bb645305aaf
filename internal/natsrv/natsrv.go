// Package natsrv runs a NATS server inside the process: for one machine
// running several dicehall nodes without a NATS server of its own
// (`serve --nats embedded`), and for tests.
package natsrv

import (
	"fmt"
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// Server is a running embedded NATS server.
type Server struct{ ns *server.Server }

// Start runs a NATS server on host:port (port 0: a free one), with no
// persistence (core NATS only: dicehall needs no JetStream).
func Start(host string, port int) (*Server, error) {
	if port == 0 {
		port = server.RANDOM_PORT
	}
	ns, err := server.NewServer(&server.Options{Host: host, Port: port, NoLog: true, NoSigs: true,
		MaxPayload: 8 << 20})
	if err != nil {
		return nil, fmt.Errorf("nats: %w", err)
	}
	go ns.Start()
	if !ns.ReadyForConnections(10 * time.Second) {
		ns.Shutdown()
		return nil, fmt.Errorf("nats: the embedded server did not start within 10s")
	}
	return &Server{ns: ns}, nil
}

// URL is the address clients connect to.
func (s *Server) URL() string { return s.ns.ClientURL() }

// Close stops the server.
func (s *Server) Close() {
	s.ns.Shutdown()
	s.ns.WaitForShutdown()
}
