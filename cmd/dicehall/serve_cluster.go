package main

import (
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"time"

	"github.com/nats-io/nats.go"
	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/internal/natsrv"
	"github.com/dicehall/dicehall/server"
)

var clusterFlagValues struct {
	nats, natsListen, node string
	leaseTTL               time.Duration
}

func clusterFlags(f *pflag.FlagSet) {
	f.StringVar(&clusterFlagValues.nats, "nats", "", `run as one node of several sharing the database: the NATS server's URL (nats://host:4222), or "embedded" to run one inside this process on --nats-listen for the other nodes to use ("" = run alone)`)
	f.StringVar(&clusterFlagValues.natsListen, "nats-listen", "127.0.0.1:4222", "with --nats embedded: where its NATS server listens")
	f.StringVar(&clusterFlagValues.node, "node", "", "this node's name, unique among the running nodes (default: host-pid-random)")
	f.DurationVar(&clusterFlagValues.leaseTTL, "lease-ttl", 10*time.Second, "how long a node holds a table without renewing: a dead node's tables run again elsewhere within about this plus 2s")
}

// clusterConfig connects to NATS (or starts an embedded server) when
// --nats is set; nil without it. done closes what it opened.
func clusterConfig(log *slog.Logger) (c *server.Cluster, done func(), err error) {
	v := clusterFlagValues
	if v.nats == "" {
		return nil, func() {}, nil
	}
	if v.leaseTTL < 300*time.Millisecond {
		return nil, nil, fmt.Errorf("--lease-ttl %v: at least 300ms", v.leaseTTL)
	}
	url := v.nats
	var embedded *natsrv.Server
	if url == "embedded" {
		host, port, err := splitHostPort(v.natsListen)
		if err != nil {
			return nil, nil, fmt.Errorf("--nats-listen: %w", err)
		}
		if embedded, err = natsrv.Start(host, port); err != nil {
			return nil, nil, err
		}
		url = embedded.URL()
		log.Info("embedded NATS server", "url", url)
	}
	node := v.node
	nc, err := nats.Connect(url, nats.Name("dicehall "+node), nats.MaxReconnects(-1), nats.ReconnectWait(500*time.Millisecond),
		nats.DisconnectErrHandler(func(_ *nats.Conn, err error) { log.Warn("NATS disconnected", "err", err) }),
		nats.ReconnectHandler(func(nc *nats.Conn) { log.Info("NATS reconnected", "url", nc.ConnectedUrl()) }))
	if err != nil {
		if embedded != nil {
			embedded.Close()
		}
		return nil, nil, fmt.Errorf("connect to NATS at %s: %w", url, err)
	}
	done = func() {
		nc.Close()
		if embedded != nil {
			embedded.Close()
		}
	}
	return &server.Cluster{Node: node, LeaseTTL: v.leaseTTL, NATS: nc}, done, nil
}

func splitHostPort(hp string) (string, int, error) {
	host, p, err := net.SplitHostPort(hp)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < 0 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q", p)
	}
	return host, port, nil
}
