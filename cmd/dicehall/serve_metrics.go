package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/server"
)

// metricsAddr is serve --metrics-addr: where Prometheus scrapes /metrics.
var metricsAddr string

func metricsFlags(f *pflag.FlagSet) {
	f.StringVar(&metricsAddr, "metrics-addr", "", "address of a second listener serving only Prometheus metrics at /metrics, HOST:PORT, e.g. 127.0.0.1:9090 (default: none); keep it off the public network")
}

// serveMetrics starts the metrics listener when --metrics-addr is set; it is
// apart from the game's listener so the metrics are not public with it. The
// returned stop ends it (a no-op when there is none).
func serveMetrics(out io.Writer, log *slog.Logger, srv *server.Server) (stop func(), err error) {
	if metricsAddr == "" {
		return func() {}, nil
	}
	ln, err := net.Listen("tcp", metricsAddr)
	if err != nil {
		return nil, fmt.Errorf("--metrics-addr: listen: %w", err)
	}
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", srv.MetricsHandler())
	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, WriteTimeout: time.Minute,
		ErrorLog: slog.NewLogLogger(log.Handler(), slog.LevelWarn)}
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the metrics listener stopped", "err", err)
		}
	}()
	fmt.Fprintf(out, "dicehall: metrics on http://%s/metrics\n", ln.Addr())
	log.Info("serving metrics", "addr", ln.Addr().String())
	return func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := hs.Shutdown(ctx); err != nil {
			_ = hs.Close()
		}
	}, nil
}
