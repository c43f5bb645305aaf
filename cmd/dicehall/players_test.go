package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// playersServer runs the real server on a memstore holding finished rated
// dicestars tables between accounts (the server rates them as it starts),
// and returns its address.
func playersServer(t *testing.T) string {
	t.Helper()
	ctx := context.Background()
	st := memstore.New()
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	names := []string{"ann", "bob", "Zoë-with-a-rather-long-name", "dan"}
	for i, n := range names {
		if err := st.CreateAccount(ctx, store.Account{ID: fmt.Sprint("acc", i), Name: n, NameKey: strings.ToLower(n), Created: at}); err != nil {
			t.Fatal(err)
		}
	}
	k := 0
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			k++
			at = at.Add(time.Minute)
			seat := func(n int) store.Seat {
				return store.Seat{Name: names[n], Kind: "human", TokenHash: fmt.Sprint("h", n), Account: fmt.Sprint("acc", n)}
			}
			meta := store.Table{ID: fmt.Sprint("t", k), Game: "dicestars", Seed: 1, Status: store.StatusOver, Created: at, Updated: at,
				Seats: []store.Seat{seat(i), seat(j)}, Result: &engine.Result{Over: true, Scores: []int{20 + i, 10}, Winners: []engine.Seat{0}}}
			if err := st.CreateTable(ctx, meta); err != nil {
				t.Fatal(err)
			}
		}
	}
	s, err := server.New(server.Config{Store: st, Games: registry, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); s.Close() })
	return ts.URL
}

func TestLeaderboardAndProfileCommands(t *testing.T) {
	url := playersServer(t)
	fits := func(out string) {
		t.Helper()
		for _, l := range strings.Split(out, "\n") {
			if ansi.StringWidth(l) > 80 {
				t.Errorf("a line wider than 80 columns: %q", l)
			}
		}
	}
	out, code := runDicehall(t, "", "leaderboard", "dicestars", "--server", url)
	if code != 0 {
		t.Fatalf("leaderboard: exit %d\n%s", code, out)
	}
	fits(out)
	for _, want := range []string{"Dice Stars leaderboard", "rank", "   1  ann ", "Zoë-with-a-rather-long-name", "1–4 of 4 players"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	// Without a game: the busiest board, here the only one.
	if out2, _ := runDicehall(t, "", "leaderboard", "--server", url); out2 != out {
		t.Errorf("leaderboard without a game:\n%s\nwant\n%s", out2, out)
	}
	if out, _ := runDicehall(t, "", "leaderboard", "dicestars", "--page", "2", "--server", url); !strings.Contains(out, "past the end") {
		t.Errorf("page 2 of 1:\n%s", out)
	}

	out, code = runDicehall(t, "", "profile", "ANN", "--server", url)
	if code != 0 {
		t.Fatalf("profile: exit %d\n%s", code, out)
	}
	fits(out)
	for _, want := range []string{"ann, playing since 1 March 2026", "Dice Stars", "3 rated games", "Latest games (3 of 3)", "1/2 won, 20 pts", "vs dan", url + "/t/t3"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}

	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"leaderboard", "chess", "--server", url}, `unknown game "chess" (have `},
		{[]string{"profile", "nobody", "--server", url}, `no player called "nobody"`},
		{[]string{"leaderboard", "dicestars", "--page", "0", "--server", url}, "pages are numbered from 1"},
		{[]string{"profile", "ann", "--server", "ftp://x"}, "want an address such as"},
		{[]string{"profile", "ann", "--server", "http://127.0.0.1:1"}, "cannot reach the server at http://127.0.0.1:1"},
	} {
		cmd := newProfileCmd()
		if c.args[0] == "leaderboard" {
			cmd = newLeaderboardCmd()
		}
		cmd.SetArgs(c.args[1:])
		cmd.SetOut(io.Discard)
		cmd.SetErr(io.Discard)
		err := cmd.Execute()
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: %v, want %q", c.args, err, c.want)
		}
	}
}
