package e2e

import (
	"encoding/json"
	"net/http"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// replayLines is the English of every step of a finished table's replay
// (the public one): the game's catalogue filled from each step's
// narration, as engine.Render writes it. Step 0 (the set-up) has none.
func replayLines(t *testing.T, base, game, id string) [][]string {
	t.Helper()
	res, err := http.Get(base + "/api/tables/" + id + "/replay")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var body struct {
		Steps []struct {
			Narration []engine.Message `json:"narration"`
		} `json:"steps"`
	}
	if err := json.NewDecoder(res.Body).Decode(&body); err != nil {
		t.Fatal(err)
	}
	g, ok := all.Registry.Lookup(game)
	if !ok {
		t.Fatalf("no game %q", game)
	}
	out := make([][]string, len(body.Steps))
	for i, s := range body.Steps {
		for _, m := range s.Narration {
			out[i] = append(out[i], engine.Render(g.Info().Messages, m))
		}
	}
	return out
}

// logLines is what a table page's log shows, oldest first.
func (p *page) logLines() []string {
	p.t.Helper()
	lines := eval[[]string](p, `[...document.querySelectorAll('[data-testid=log] li')].map((l) => l.textContent)`)
	slices.Reverse(lines)
	return lines
}

// checkLogIsNarration checks that a page's log is the tail of the game's
// narration, in the catalogue's English: the page writes nothing of its own
// about the moves.
func checkLogIsNarration(t *testing.T, p *page, steps [][]string) {
	t.Helper()
	var all []string
	for _, s := range steps {
		all = append(all, s...)
	}
	// Spaces collapse in the page (an indented line), as they do on screen.
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	got := p.logLines()
	if len(got) == 0 || len(got) > len(all) {
		t.Fatalf("%s: %d log lines for %d narrated", p.name, len(got), len(all))
	}
	tail := all[len(all)-len(got):]
	for i := range got {
		if norm(got[i]) != norm(tail[i]) {
			t.Fatalf("%s: log line %d is %q, the narration says %q", p.name, i, got[i], tail[i])
		}
	}
}

// literal is the longest run of plain words in a catalogue template (no
// placeholder), to look for a kind of line without spelling its wording in
// the test.
func literal(t *testing.T, game, key string) string {
	t.Helper()
	g, _ := all.Registry.Lookup(game)
	tmpl, ok := g.Info().Messages[key]
	if !ok {
		t.Fatalf("%s has no message %q", game, key)
	}
	best := ""
	for _, part := range regexp.MustCompile(`\{[^{}]*\}`).Split(tmpl, -1) {
		if part = strings.TrimSpace(part); len(part) > len(best) {
			best = part
		}
	}
	return best
}

// TestWatchBotsLog: two people watch a bots-only Dice Stars table, one on
// a desktop in English, one on a phone in French. Both logs are the game's
// narration: word for word the catalogue's English, and in French a
// sentence for every line (no key, no English template).
func TestWatchBotsLog(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	desk := newPage(t, "watch-desk")
	desk.do(chromedp.EmulateViewport(1440, 900))
	desk.do(chromedp.Navigate(ts.URL + "/"))
	phone := newPage(t, "watch-phone-fr")
	phone.do(chromedp.EmulateViewport(390, 844))
	phone.do(chromedp.Navigate(ts.URL + "/"))
	phone.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	// Bots that take their time, so that both pages see every move.
	id := eval[string](desk, `fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
	  game: 'dicestars', settings: {botDelayMs: 120}, seats: [{kind: 'bot', bot: 'greedy'}, {kind: 'bot', bot: 'random'}]})}).then(r => r.json()).then(j => j.id || JSON.stringify(j))`)
	if strings.Contains(id, "{") {
		t.Fatalf("create: %s", id)
	}
	for _, p := range []*page{desk, phone} {
		p.do(chromedp.Navigate(ts.URL + "/t/" + id))
	}
	for _, p := range []*page{desk, phone} {
		p.waitJS(60*time.Second, `document.body.dataset.status === 'over' && document.querySelectorAll('[data-testid=log] li').length > 10`)
	}
	desk.shot("log-dicestars-1440x900")
	phone.shot("log-dicestars-fr-390x844")
	phone.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=log]`)))
	phone.shot("log-dicestars-fr-390x844-log")

	steps := replayLines(t, ts.URL, "dicestars", id)
	checkLogIsNarration(t, desk, steps)
	english := map[string]bool{}
	for _, s := range steps {
		for _, l := range s {
			english[l] = true
		}
	}
	key := regexp.MustCompile(`^[a-z]+\.[a-z.-]+`)
	fr := phone.logLines()
	for _, l := range fr {
		if key.MatchString(l) || english[l] {
			t.Errorf("French log line %q is a key or the English", l)
		}
	}
	if len(fr) == 0 {
		t.Error("the French log is empty")
	}
	desk.noExceptions()
	phone.noExceptions()
}
