package main

import (
	"context"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/natsrv"
	"github.com/dicehall/dicehall/internal/testpg"
)

// nodeFlags are the flags of a test cluster's node: leases that lapse
// fast, and no per-address limits (every client of the test is on
// loopback).
func nodeFlags(natsURL, node string, extra ...string) []string {
	return append([]string{"--nats", natsURL, "--node", node, "--lease-ttl", "2s", "--bot-delay", "30ms",
		"--max-ws-per-addr", "0", "--max-conns-per-addr", "0",
		"--tables-per-creator", "0", "--tables-per-hour", "0", "--creators-per-addr", "0"}, extra...)
}

// botTable and drivenTable are the tables of the cluster tests: bots
// only, or seats played by the test's clients (and maybe bots).
func botTable(game string) tableKind {
	return tableKind{game: game, bots: 2, botDelayMs: 150, createdOnNode: -1}
}

func drivenTable(game string, humans, bots int) tableKind {
	return tableKind{game: game, humans: humans, bots: bots, botDelayMs: 50, thinkMs: [2]int{100, 300}, createdOnNode: -1}
}

// TestClusterSurvivesKills runs three `serve` nodes on one PostgreSQL and
// one NATS server and kills a node with SIGKILL every few seconds for a
// minute (it comes back). Meanwhile bots play tables of their own, and the
// test's players play theirs over WebSocket, each through a node other
// than the table's owner where it can, reconnecting to any node when their
// connection drops; spectators watch every table through whichever node
// they reach. Tables are made all through the minute. Every game finishes;
// every move a client was told is in the stored log at its place, exactly
// once; every move of a player is the one it sent, at the version it sent
// it; every log replays.
func TestClusterSurvivesKills(t *testing.T) {
	if testing.Short() {
		t.Skip("the cluster test kills and restarts servers for a minute")
	}
	bin := buildDicehall(t)
	ns, err := natsrv.Start("127.0.0.1", 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(ns.Close)
	// One PostgreSQL, as a cluster has (testpg skips without its binaries
	// unless DICEHALL_CLUSTER=require).
	db := testpg.New(t, testpg.Options{}).CreateDB(t)
	c := newTestCluster(t, db, "n0", "n1", "n2")
	for i, name := range c.names {
		c.setNode(i, startServe(t, bin, db, nodeFlags(ns.URL(), name)...))
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	var tables []*watched
	start := func(k tableKind) {
		w, ok := c.makeTable(k)
		for !ok {
			w, ok = c.makeTable(k)
		}
		tables = append(tables, w)
		c.spectate(ctx, &wg, w)
		for s := range k.humans {
			c.play(ctx, &wg, w, engine.Seat(s))
		}
	}
	// A batch of tables at the start and one every 20 s, so that games
	// are being played all through the kills.
	batches := [][]tableKind{
		{botTable("dicestars"), botTable("dicestars"), drivenTable("dicestars", 2, 0), drivenTable("diceflick", 2, 1)},
		{botTable("dicestars"), botTable("diceflick"), drivenTable("dicestars", 3, 0)},
		{botTable("dicestars"), drivenTable("diceflick", 2, 0)},
	}
	for _, k := range batches[0] {
		start(k)
	}
	began := time.Now()
	kills := 0
	for next := 1; time.Since(began) < time.Minute; {
		if next < len(batches) && time.Since(began) > time.Duration(next)*20*time.Second {
			for _, k := range batches[next] {
				start(k)
			}
			next++
		}
		time.Sleep(3 * time.Second)
		i := c.intN(len(c.names))
		victim := c.node(i)
		_ = victim.cmd.Process.Signal(syscall.SIGKILL)
		victim.exited <- <-victim.exited // startServe's cleanup waits for it too
		kills++
		time.Sleep(500 * time.Millisecond)
		c.setNode(i, startServe(t, bin, db, nodeFlags(ns.URL(), c.names[i])...))
	}
	c.waitOver(tables, 90*time.Second)
	cancel()
	wg.Wait()
	checkTables(t, c.st, tables)
	t.Logf("%d nodes killed", kills)
}
