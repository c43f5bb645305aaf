package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/dicehall/dicehall/internal/pig"
)

// countGames counts the games sim finishes while the test runs.
func countGames(t *testing.T) *atomic.Int64 {
	var n atomic.Int64
	simAfterGame = func(context.Context, int) { n.Add(1) }
	t.Cleanup(func() { simAfterGame = nil })
	return &n
}

// A plot that cannot be saved is refused before any game is played.
func TestSimBadPlotFailsFirst(t *testing.T) {
	withGames(t, pig.Game{})
	games := countGames(t)
	dir := t.TempDir()
	for _, bad := range []string{filepath.Join(dir, "missing", "p.png"), filepath.Join(dir, "p.nope"), dir} {
		out, code := runDicehall(t, "", "sim", "pig", "--games", "1000000", "--plot", bad)
		if code != 2 || games.Load() != 0 {
			t.Fatalf("--plot %s: exit %d after %d games: %s", bad, code, games.Load(), out)
		}
	}
}

// Ctrl-C stops the run: the games finished so far are reported, and the
// exit status says it was interrupted.
func TestSimInterruptReportsWhatFinished(t *testing.T) {
	withGames(t, pig.Game{})
	simAfterGame = func(ctx context.Context, done int) {
		if done == 20 {
			// A real Ctrl-C, to this process: sim catches it while it runs.
			if err := syscall.Kill(syscall.Getpid(), syscall.SIGINT); err != nil {
				t.Error(err)
			}
			<-ctx.Done()
		}
	}
	t.Cleanup(func() { simAfterGame = nil })
	plot := filepath.Join(t.TempDir(), "partial.svg")
	out, code := runDicehall(t, "", "sim", "pig", "--games", "1000000", "--workers", "2", "--json", "--plot", plot)
	if code != exitInterrupted {
		t.Fatalf("exit %d after Ctrl-C, want %d: %s", code, exitInterrupted, out)
	}
	var rep SimReport
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("the partial report: %v\n%s", err, out)
	}
	if !rep.Interrupted || rep.Games < 20 || rep.Games >= 1000000 || len(rep.Bots) != 2 {
		t.Fatalf("partial report: %+v", rep)
	}
	if w := rep.Bots[0].Wins + rep.Bots[0].Ties + rep.Bots[0].Losses; w != rep.Games {
		t.Fatalf("%d games reported, %d counted", rep.Games, w)
	}
	if _, err := os.Stat(plot); err != nil {
		t.Fatalf("the plot of the finished games: %v", err)
	}
	// The text form says so too.
	simAfterGame = func(ctx context.Context, done int) {
		if done == 5 {
			_ = syscall.Kill(syscall.Getpid(), syscall.SIGINT)
			<-ctx.Done()
		}
	}
	out, code = runDicehall(t, "", "sim", "pig", "--games", "1000000")
	if code != exitInterrupted || !strings.Contains(out, "interrupted: only the") {
		t.Fatalf("text report after Ctrl-C: exit %d\n%s", code, out)
	}
}
