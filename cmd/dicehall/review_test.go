package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/pig"
	"github.com/dicehall/dicehall/script"
)

// pigRecord writes the record of a game of Pig to 10 that ann plays with
// known dice: roll (5), hold at 5 (a blunder: rolling is worth 7.5), roll
// (6), roll (4), hold at 10 (a mistake: rolling is worth 11.7) and wins.
func pigRecord(t *testing.T, dir string) string {
	t.Helper()
	r, err := engine.NewRunner(pig.Game{}, []string{"ann"}, []byte(`{"target":10}`), 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := int64(0)
	play := func(a pig.Action, face int) {
		at += 2000
		if _, err := r.Play(engine.Move{Seat: 0, At: at, Action: a}); err != nil {
			t.Fatal(err)
		}
		if face > 0 {
			if _, err := r.ResolveChance(at, pig.Action{Face: face}); err != nil {
				t.Fatal(err)
			}
		}
	}
	play(pig.Action{Roll: true}, 5)
	play(pig.Action{Hold: true}, 0)
	play(pig.Action{Roll: true}, 6)
	play(pig.Action{Roll: true}, 4)
	play(pig.Action{Hold: true}, 0)
	if !r.State.Turn().Over {
		t.Fatal("the game is not over")
	}
	data, err := json.Marshal(r.Record)
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "pig.rec")
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// The review of a record judges every decision from the player's view,
// and the text shows it: the same as renderReview makes of the review
// --json prints, from standard input as from a file.
func TestReviewCommand(t *testing.T) {
	withGames(t, pig.Coach{})
	rec := pigRecord(t, t.TempDir())
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	js, code := runDicehall(t, string(data), "review", "--json", "--workers", "2", "-")
	if code != 0 {
		t.Fatalf("review --json: exit %d\n%s", code, js)
	}
	var rv engine.Review
	if err := json.Unmarshal([]byte(js), &rv); err != nil {
		t.Fatalf("--json output: %v\n%s", err, js)
	}
	if rv.Game != "pig" || rv.Moves != 8 || len(rv.Decisions) != 3 || len(rv.Seats) != 1 {
		t.Fatalf("review %+v", rv)
	}
	for k, want := range []struct {
		move    int
		verdict string
	}{{2, engine.VerdictBlunder}, {5, engine.VerdictBest}, {7, engine.VerdictMistake}} {
		if d := rv.Decisions[k]; d.Move != want.move || d.Verdict != want.verdict {
			t.Errorf("decision %d: move %d %s, want move %d %s", k, d.Move, d.Verdict, want.move, want.verdict)
		}
	}
	if s := rv.Seats[0]; len(s.Worst) != 2 || rv.Decisions[s.Worst[0]].Move != 2 || rv.Decisions[s.Worst[1]].Move != 7 {
		t.Errorf("worst %v", s.Worst)
	}

	out, code := runDicehall(t, "", "review", rec)
	if code != 0 {
		t.Fatalf("review: exit %d\n%s", code, out)
	}
	r, err := script.ParseRecord(data)
	if err != nil {
		t.Fatal(err)
	}
	var want bytes.Buffer
	if err := renderReview(&want, pig.Coach{}, r, &rv); err != nil {
		t.Fatal(err)
	}
	if out != want.String() || !strings.Contains(out, "ann") {
		t.Fatalf("review's text:\n%s\nwant:\n%s", out, want.String())
	}
}

// plainPig is Pig under another name, without an analyst.
type plainPig struct{ pig.Game }

func (g plainPig) Info() engine.Info {
	i := g.Game.Info()
	i.ID = "plainpig"
	return i
}

func TestReviewCommandExitCodes(t *testing.T) {
	withGames(t, pig.Coach{}, plainPig{})
	dir := t.TempDir()
	rec := pigRecord(t, dir)
	data, err := os.ReadFile(rec)
	if err != nil {
		t.Fatal(err)
	}
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s := string(data)
	plain := write("plain.rec", strings.Replace(s, `"game":"pig"`, `"game":"plainpig"`, 1))
	unknown := write("unknown.rec", strings.Replace(s, `"game":"pig"`, `"game":"nope"`, 1))
	// A hold before any roll: the rules refuse it.
	illegal := write("illegal.rec", strings.Replace(s, `{"roll":true}`, `{"hold":true}`, 1))
	for _, c := range []struct {
		args []string
		code int
	}{
		{[]string{"review", plain}, 2},                            // no analyst: no review
		{[]string{"review", unknown}, 2},                          // no such game
		{[]string{"review", write("bad.rec", "{")}, 2},            // not a record
		{[]string{"review", illegal}, 3},                          // a move the rules refuse
		{[]string{"review", filepath.Join(dir, "absent.rec")}, 1}, // no file
		{[]string{"review", "--budget", "-1", rec}, 2},
		{[]string{"review", "--workers", "0", rec}, 2},
	} {
		if out, code := runDicehall(t, "", c.args...); code != c.code {
			t.Errorf("%v: exit %d, want %d\n%s", c.args, code, c.code, out)
		}
	}
}

// A long review tells its progress: a line every few seconds when standard
// error is no terminal.
func TestReviewProgress(t *testing.T) {
	var b bytes.Buffer
	p := newReviewProgress(&b)
	p.start = time.Now().Add(-time.Minute) // long under way
	p.update(1, 40)
	p.update(2, 40) // too soon after the last line
	p.finish()
	if got := b.String(); !strings.HasPrefix(got, "reviewing: 1 of 40 decisions judged (") || strings.Count(got, "\n") != 1 {
		t.Fatalf("progress %q", got)
	}
}

// serve --review-workers 0 makes no reviews; negative values are refused.
func TestReviewServeFlags(t *testing.T) {
	defer func(old struct{ workers, budget int }) { reviewFlags = old }(reviewFlags)
	reviewFlags.workers, reviewFlags.budget = 0, 300
	if r, err := reviewConfig(); err != nil || r.Workers != -1 || r.Budget != 300 {
		t.Fatalf("--review-workers 0: %+v, %v", r, err)
	}
	reviewFlags.workers = -2
	if _, err := reviewConfig(); err == nil {
		t.Fatal("negative workers accepted")
	}
}
