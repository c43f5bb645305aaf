package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/server"
)

var serveFlags struct {
	logFormat  string
	addr       string
	db         string
	botDelay   time.Duration
	openExpiry time.Duration
	abandon    time.Duration
	logMoves   int

	publicURL    string
	connsPerAddr int
	wsPerAddr    int
	spectators   int
	wsIdle       time.Duration
	bodyTimeout  time.Duration
	limitsOff    bool

	// Notifications (serve_notify.go).
	vapidSubject     string
	smtpAddr         string
	smtpFrom         string
	smtpUser         string
	smtpPasswordFile string
}

var serveCmd = &cobra.Command{
	Use:   "serve",
	Short: "Serve the games in the browser (tables, lobby, live play, replays)",
	Long: `Serve runs the web platform: open the printed address in a browser, pick a
name, create a table and share its link. Tables and every move are kept in an
embedded SQLite file (--db), or in a PostgreSQL database (--db
postgres://…); a restarted server resumes every table where it
was. Open tables nobody joins close after --open-expiry; a game nobody has
had open for --abandon-after leaves the lobby's lists (its players still find
it under their games). Stop it with Ctrl-C.

Connections are capped per client address (IPv6: per /64) and per table, but
a seated player always gets in; docs/protocol.md (Limits) lists every limit.
Behind a reverse proxy every client has the proxy's address: raise the caps
or set them to 0 (none) and let the proxy limit. With --public-url only that
host is served (and localhost when listening on loopback).`,
	Args: cobra.NoArgs,
	RunE: runServe,
}

func init() {
	f := serveCmd.Flags()
	f.StringVar(&serveFlags.addr, "addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (port 0 picks a free one)")
	f.StringVar(&serveFlags.logFormat, "log-format", "text", "how the logs on stderr are written: text (key=value lines) or json (one JSON object a line, for a log collector)")
	f.StringVar(&serveFlags.db, "db", "dicehall.db", "SQLite file keeping tables and moves (created if missing), or a postgres://user:password@host/db URL: a PostgreSQL database several nodes may share")
	f.DurationVar(&serveFlags.botDelay, "bot-delay", engine.DefaultBotDelayMs*time.Millisecond, "pause before each bot move, so people can follow it")
	f.DurationVar(&serveFlags.openExpiry, "open-expiry", 24*time.Hour, "how long an open table waits for players after its last join before it closes (0 = for ever)")
	f.DurationVar(&serveFlags.abandon, "abandon-after", server.DefaultAbandonAfter, "how long a game being played may go with no page open on it before the lobby's lists leave it out; its players still see it under their games (0 = never)")
	f.IntVar(&serveFlags.logMoves, "log-moves", server.DefaultLogMoves, "how many moves' narration each table keeps for the log a page shows when it arrives mid-game or reloads (at least 1; memory grows with it)")
	f.StringVar(&serveFlags.publicURL, "public-url", "", "the address people use, e.g. https://example.org: other Host names are refused (421) and pages must come from it (default: any host)")
	f.IntVar(&serveFlags.connsPerAddr, "max-conns-per-addr", server.DefaultConnsPerAddr, "HTTP connections one client address may hold open at once (0 = no limit)")
	f.IntVar(&serveFlags.wsPerAddr, "max-ws-per-addr", server.DefaultWSPerAddr, "spectators' WebSockets one client address may hold across the server; seated players always get in (0 = no limit)")
	f.IntVar(&serveFlags.spectators, "max-spectators", server.DefaultSpectators, "spectators' WebSockets per table; seated players always get in (0 = no limit)")
	f.DurationVar(&serveFlags.wsIdle, "ws-idle", server.DefaultWSIdle, "close a WebSocket that sends nothing this long, unless it holds a seat in a game not over (0 = never)")
	f.DurationVar(&serveFlags.bodyTimeout, "body-timeout", server.DefaultBodyTimeout, "time a request body may take to arrive once its headers are in (0 = no limit)")
	f.BoolVar(&serveFlags.limitsOff, "limits-off", false, "BENCHMARKS ONLY, never on a public server: no per-address, per-table or per-creator limit and no POST or message rate, so that `dicehall loadtest` can play thousands of tables from one address")
	notifyFlags(f)
	clusterFlags(f)
	metricsFlags(f)
	reviewServeFlags(f)
	rootCmd.AddCommand(serveCmd)
}

func runServe(cmd *cobra.Command, _ []string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log, err := serveLogger(cmd.ErrOrStderr(), serveFlags.logFormat)
	if err != nil {
		return err
	}
	slog.SetDefault(log)

	if serveFlags.openExpiry < 0 || serveFlags.abandon < 0 || serveFlags.botDelay < 0 || serveFlags.wsIdle < 0 || serveFlags.bodyTimeout < 0 {
		return errors.New("--open-expiry, --abandon-after, --bot-delay, --ws-idle and --body-timeout cannot be negative")
	}
	if serveFlags.logMoves < 1 {
		return fmt.Errorf("--log-moves %d: a table's log keeps at least 1 move", serveFlags.logMoves)
	}
	if serveFlags.connsPerAddr < 0 || serveFlags.wsPerAddr < 0 || serveFlags.spectators < 0 {
		return errors.New("--max-conns-per-addr, --max-ws-per-addr and --max-spectators cannot be negative (0 = no limit)")
	}
	budget, err := budgets()
	if err != nil {
		return err
	}
	reviews, err := reviewConfig()
	if err != nil {
		return err
	}
	st, err := openStore(ctx, serveFlags.db)
	if err != nil {
		return fmt.Errorf("open the database: %w", err)
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	cluster, leaveCluster, err := clusterConfig(log)
	if err != nil {
		return err
	}
	defer leaveCluster()
	push, err := notifyService(ctx, st, log)
	if err != nil {
		return err
	}
	defer push.Close()
	delay := serveFlags.botDelay
	if delay == 0 {
		delay = -1 // the server reads 0 as "default"; the flag's 0 means none
	}
	expiry := serveFlags.openExpiry
	if expiry == 0 {
		expiry = -1 // likewise: the flag's 0 means never
	}
	// The server reads 0 as "default"; the flags' 0 means none.
	none := func(n int) int {
		if n == 0 {
			return -1
		}
		return n
	}
	never := func(d time.Duration) time.Duration {
		if d == 0 {
			return -1
		}
		return d
	}
	srv, err := server.New(limitsOff(serveFlags.limitsOff, server.Config{Store: st, Games: all.Registry, Logger: log, BotDelay: delay, OpenExpiry: expiry,
		AbandonAfter: never(serveFlags.abandon), LogMoves: serveFlags.logMoves,
		MaxConnsPerTable: none(serveFlags.spectators), PublicURL: serveFlags.publicURL, Budgets: budget, Reviews: reviews, Push: push, Cluster: cluster,
		Limits: server.Limits{ConnsPerAddr: none(serveFlags.connsPerAddr), WSPerAddr: none(serveFlags.wsPerAddr),
			WSIdle: never(serveFlags.wsIdle), BodyTimeout: never(serveFlags.bodyTimeout)}}))
	if err != nil {
		return err
	}
	stopMetrics, err := serveMetrics(cmd.OutOrStdout(), log, srv)
	if err != nil {
		_ = srv.Close()
		return err
	}
	defer stopMetrics()
	ln, err := net.Listen("tcp", serveFlags.addr)
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("listen: %w", err)
	}
	hs := srv.HTTPServer() // timeouts and connection caps: server.Limits
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(cmd.OutOrStdout(), "dicehall: serving on http://%s/\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "db", dbForLog(serveFlags.db))

	select {
	case <-ctx.Done():
		log.Info("shutting down")
		srv.Drain()
	case err = <-served:
		log.Error("the HTTP server stopped", "err", err)
	}
	// Stop taking requests, then end the tables and their WebSockets (which
	// http.Server does not track); every move is already stored.
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if serr := hs.Shutdown(sctx); serr != nil {
		log.Warn("HTTP shutdown", "err", serr)
		_ = hs.Close()
	}
	if cerr := srv.Close(); cerr != nil {
		log.Warn("server close", "err", cerr)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// serveLogger is the log of `serve`: text lines by default, or JSON lines
// for a collector.
func serveLogger(w io.Writer, format string) (*slog.Logger, error) {
	opts := &slog.HandlerOptions{Level: slog.LevelInfo}
	switch format {
	case "text":
		return slog.New(slog.NewTextHandler(w, opts)), nil
	case "json":
		return slog.New(slog.NewJSONHandler(w, opts)), nil
	}
	return nil, fmt.Errorf("--log-format %q: text or json", format)
}

// limitsOff lifts, when off is set, every limit a load generator on one
// address would hit (--limits-off: benchmarks only). Timeouts stay.
func limitsOff(off bool, c server.Config) server.Config {
	if !off {
		return c
	}
	slog.Warn("--limits-off: no limit protects this server; for benchmarks only")
	const none, huge = -1, 1e9
	c.MaxConnsPerTable = none
	c.Limits.ConnsPerAddr, c.Limits.WSPerAddr = none, none
	c.Budgets.TablesPerCreator, c.Budgets.TablesPerHour, c.Budgets.CreatorsPerAddress, c.Budgets.OpenTables = none, none, none, none
	c.Budgets.GetRate, c.Budgets.GetBurst = none, none
	// The rates have no "none": a rate nobody reaches.
	c.PostRate, c.PostBurst = huge, int(huge)
	c.MsgRate, c.MsgBurst = huge, int(huge)
	return c
}
