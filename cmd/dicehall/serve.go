package main

import (
	"context"
	"errors"
	"fmt"
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
	"github.com/dicehall/dicehall/store/sqlite"
)

var serveFlags struct {
	addr       string
	db         string
	botDelay   time.Duration
	openExpiry time.Duration
}

var serveCmd = &cobra.Command{
	Use:   "serve",
	Short: "Serve the games in the browser (tables, lobby, live play, replays)",
	Long: `Serve runs the web platform: open the printed address in a browser, pick a
name, create a table and share its link. Tables and every move are kept in an
embedded SQLite file (--db); a restarted server resumes every table where it
was. Open tables nobody joins close after --open-expiry. Stop it with Ctrl-C.`,
	Args: cobra.NoArgs,
	RunE: runServe,
}

func init() {
	f := serveCmd.Flags()
	f.StringVar(&serveFlags.addr, "addr", "127.0.0.1:8080", "address to listen on, HOST:PORT (port 0 picks a free one)")
	f.StringVar(&serveFlags.db, "db", "dicehall.db", "SQLite file keeping tables and moves (created if missing)")
	f.DurationVar(&serveFlags.botDelay, "bot-delay", engine.DefaultBotDelayMs*time.Millisecond, "pause before each bot move, so people can follow it")
	f.DurationVar(&serveFlags.openExpiry, "open-expiry", 24*time.Hour, "how long an open table waits for players after its last join before it closes (0 = for ever)")
	rootCmd.AddCommand(serveCmd)
}

func runServe(cmd *cobra.Command, _ []string) error {
	ctx, stop := signal.NotifyContext(cmd.Context(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	log := slog.Default()

	if serveFlags.openExpiry < 0 || serveFlags.botDelay < 0 {
		return errors.New("--open-expiry and --bot-delay cannot be negative")
	}
	st, err := sqlite.Open(serveFlags.db)
	if err != nil {
		return fmt.Errorf("open the database: %w", err)
	}
	defer func() {
		if err := st.Close(); err != nil {
			log.Error("closing the database", "err", err)
		}
	}()
	delay := serveFlags.botDelay
	if delay == 0 {
		delay = -1 // the server reads 0 as "default"; the flag's 0 means none
	}
	expiry := serveFlags.openExpiry
	if expiry == 0 {
		expiry = -1 // likewise: the flag's 0 means never
	}
	srv, err := server.New(server.Config{Store: st, Games: all.Registry, Logger: log, BotDelay: delay, OpenExpiry: expiry})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", serveFlags.addr)
	if err != nil {
		_ = srv.Close()
		return fmt.Errorf("listen: %w", err)
	}
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: 10 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	fmt.Fprintf(cmd.OutOrStdout(), "dicehall: serving on http://%s/\n", ln.Addr())
	log.Info("serving", "addr", ln.Addr().String(), "db", serveFlags.db)

	select {
	case <-ctx.Done():
		log.Info("shutting down")
	case err = <-served:
		log.Error("the HTTP server stopped", "err", err)
	}
	// Stop taking requests, then end the tables and their WebSockets (which
	// http.Server does not track); every move is already stored.
	sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if serr := hs.Shutdown(sctx); serr != nil {
		log.Warn("HTTP shutdown", "err", serr)
	}
	if cerr := srv.Close(); cerr != nil {
		log.Warn("server close", "err", cerr)
	}
	if err != nil && !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
