package e2e

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store/memstore"
)

// startServer runs the real server on a loopback port with an in-memory
// store and quick bots.
func startServer(t *testing.T) *httptest.Server {
	t.Helper()
	return startServerWith(t, serverOptions{})
}

// serverOptions change startServer's server for a test.
type serverOptions struct {
	// wrap wraps the server's handler (nil = as is): tests put a switch
	// in front of it to cut connections.
	wrap func(http.Handler) http.Handler
	// botDelay is the bots' pause before each move at tables that do not
	// set one (0 = 20 ms): longer for a test that acts while bots play
	// and must not see the game end first.
	botDelay time.Duration
	// games is the server's registry (nil = every real game), static its
	// pages (nil = the real ones).
	games  *engine.Registry
	static fs.FS
}

func startServerWith(t *testing.T, o serverOptions) *httptest.Server {
	t.Helper()
	if o.botDelay == 0 {
		o.botDelay = 20 * time.Millisecond
	}
	if o.games == nil {
		o.games = all.Registry
	}
	srv, err := server.New(server.Config{
		Store:    memstore.New(),
		Games:    o.games,
		Static:   o.static,
		BotDelay: o.botDelay,
		Logger:   slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	h := srv.Handler()
	if o.wrap != nil {
		h = o.wrap(h)
	}
	ts := httptest.NewServer(h)
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
	})
	return ts
}

type summary struct {
	ID     string `json:"id"`
	Status string `json:"status"`
	Seats  []struct {
		Name      string `json:"name"`
		Taken     bool   `json:"taken"`
		Connected bool   `json:"connected"`
		TakenOver bool   `json:"takenOver"`
	} `json:"seats"`
	Version int  `json:"version"`
	Rated   bool `json:"rated"`
	Result  struct {
		Over    bool  `json:"over"`
		Scores  []int `json:"scores"`
		Winners []int `json:"winners"`
	} `json:"result"`
}

func getSummary(t *testing.T, base, id string) summary {
	t.Helper()
	res, err := http.Get(base + "/api/tables/" + id)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var s summary
	if err := json.NewDecoder(res.Body).Decode(&s); err != nil {
		t.Fatal(err)
	}
	return s
}

// pageState is what a table page shows about the game right now.
type pageState struct {
	Version int    `json:"version"`
	Seat    int    `json:"seat"`
	Legal   int    `json:"legal"`
	Phase   string `json:"phase"`
	Over    bool   `json:"over"`
}

const stateJS = `(() => ({
  version: Number(document.body.dataset.version || -1),
  seat: Number(document.body.dataset.seat || -3),
  legal: document.querySelectorAll('[data-testid=actions] button.choice.legal').length,
  phase: document.querySelector('.ds-actions h2')?.textContent || '',
  over: !!document.querySelector('[data-testid=winner]') && !document.querySelector('[data-testid=result]').hidden,
}))()`

func (p *page) state() pageState { return eval[pageState](p, stateJS) }

// waitVersion waits until the page has seen at least version v.
func (p *page) waitVersion(v int) {
	p.t.Helper()
	p.waitJS(10*time.Second, fmt.Sprintf(`Number(document.body.dataset.version) >= %d`, v))
}

func (p *page) text(sel string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`(document.querySelector(%q)?.textContent || '').trim()`, sel))
}

// chooseGame picks a game's card in the lobby's form once the games are
// loaded (the form offers them in the server's order).
func (p *page) chooseGame(id string) {
	p.t.Helper()
	p.waitJS(5*time.Second, fmt.Sprintf(`!!document.querySelector('#f-game input[value=%s]')`, id))
	eval[bool](p, fmt.Sprintf(`document.querySelector('#f-game input[value=%s]').click() || true`, id))
	p.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('#f-game input[value=%s]')?.checked`, id))
}

// setSelect picks an option the way a person would: value, then change.
func (p *page) setSelect(sel, value string) {
	p.t.Helper()
	eval[bool](p, fmt.Sprintf(`(() => { const s = document.querySelector(%q); s.value = %q; s.dispatchEvent(new Event('change', {bubbles: true})); return true; })()`, sel, value))
}

func TestTwoPlayersPlayAWholeGame(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	start := time.Now()

	// Ann opens the home page, names herself and creates a two-person table.
	ann := newPage(t, "ann")
	// The players' dice land without flying and the other's moves go by
	// fast: the subject is the game through the pages, not its pacing.
	ann.reducedMotion()
	ann.do(chromedp.Navigate(ts.URL + "/"))
	ann.fastBots()
	ann.do(chromedp.WaitVisible(chromedp.CSS("#name")), chromedp.WaitVisible(chromedp.CSS("#f-players")))
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"))
	ann.chooseGame("dicestars")
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "human")
	ann.shot("01-home-ann")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '0'`)
	id := eval[string](ann, `location.pathname.split('/').pop()`)
	ann.waitJS(5*time.Second, `document.querySelector('[data-testid=turn]').textContent.length > 0`)
	if got := ann.text("[data-testid=turn]"); !strings.Contains(got, "Waiting") {
		t.Errorf("ann before bob joins: turn line %q, want the waiting sentence", got)
	}
	ann.shot("02-table-waiting")

	// Bob finds the open table on the home page and takes the free seat.
	bob := newPage(t, "bob")
	bob.reducedMotion()
	bob.do(chromedp.Navigate(ts.URL + "/"))
	bob.fastBots()
	bob.do(chromedp.WaitVisible(chromedp.CSS("#name")))
	bob.do(chromedp.SendKeys(chromedp.CSS("#name"), "Bob"))
	joinSel := fmt.Sprintf(`[data-join="%s:1"]`, id)
	bob.waitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector('%s')`, joinSel))
	bob.shot("03-home-bob-open-table")
	bob.do(chromedp.Click(chromedp.CSS(joinSel)))
	bob.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '1'`)

	// A spectator, on a phone-sized screen, watches from the link.
	spec := newPage(t, "spectator")
	spec.do(chromedp.EmulateViewport(390, 844))
	spec.do(chromedp.Navigate(ts.URL + "/t/" + id))
	spec.waitJS(10*time.Second, `document.body.dataset.seat === '-3' && document.body.dataset.status === 'live'`)
	if n := eval[int](spec, `document.querySelectorAll('[data-testid=actions] button').length`); n != 0 {
		t.Errorf("the spectator sees %d action buttons", n)
	}

	// Everyone sees both players connected.
	ann.waitJS(5*time.Second, `document.querySelectorAll('[data-testid=presence] .dot.on').length === 2`)

	// An illegal click: the first draw must be of three; Ann tries one.
	ann.waitJS(5*time.Second, `!!document.querySelector('button.choice.legal')`)
	ann.do(chromedp.Click(chromedp.CSS(`button[data-action='{"draw":1}']`)))
	ann.waitJS(5*time.Second, `!document.querySelector('[data-testid=alert]').hidden`)
	alert := ann.text("[data-testid=alert] .alert-text")
	if !strings.Contains(alert, "must draw 3") {
		t.Errorf("refusal shown as %q, want the server's reason (must draw 3)", alert)
	}
	// In French the page words it itself, from the game's own dictionary.
	fr := eval[string](ann, `import('/static/i18n.js').then((m) => { const was = m.currentLang(); m.setLang('fr'); const s = m.refusal('must-draw-three', 'x', 'dicestars'); m.setLang(was); return s; })`)
	if !strings.Contains(fr, "tirer 3 dés") {
		t.Errorf("the French refusal reads %q", fr)
	}
	if role := eval[string](ann, `document.querySelector('[data-testid=alert]').getAttribute('role')`); role != "alert" {
		t.Errorf("the refusal area has role %q", role)
	}
	ann.shot("04-illegal-draw-refused")
	if v := ann.state().Version; v != 0 {
		t.Errorf("a refused move changed the version to %d", v)
	}

	players := []*page{ann, bob}
	moves := 0
	reloaded := false
	sawStars := false
	deadline := time.Now().Add(100 * time.Second)
	for {
		if time.Now().After(deadline) {
			ann.fail("the game did not finish in time (after %d clicks)", moves)
		}
		st := [2]pageState{ann.state(), bob.state()}
		if st[0].Over && st[1].Over {
			break
		}
		acted := false
		for i, p := range players {
			if st[i].Legal == 0 || st[i].Over {
				continue
			}
			// A real click on the first legal choice; a take shows its
			// preview first and is played by Confirm (stars with the
			// preset rows).
			if eval[bool](p, `document.querySelector('[data-testid=actions] button.choice.legal')?.dataset.key === 'stars'`) {
				sawStars = true
			}
			p.clickLegal()
			moves++
			acted = true

			// Mid-game, Bob reloads his page and carries on from the same seat.
			if !reloaded && moves >= 12 && i == 1 {
				v := bob.state().Version
				bob.do(chromedp.Reload())
				bob.waitJS(10*time.Second, fmt.Sprintf(`document.body.dataset.seat === '1' && Number(document.body.dataset.version) >= %d`, v))
				bob.shot("05-bob-after-reload")
				reloaded = true
			}
			break
		}
		if !acted {
			time.Sleep(30 * time.Millisecond)
		}
	}
	if !reloaded {
		t.Error("the game ended before Bob could reload")
	}
	t.Logf("game played through the pages with %d clicks in %v (stars taken: %v)", moves, time.Since(start).Round(time.Millisecond), sawStars)

	// The final scores on every page are the server's.
	sum := getSummary(t, ts.URL, id)
	if !sum.Result.Over || sum.Status != "over" {
		t.Fatalf("server says status %q over=%v", sum.Status, sum.Result.Over)
	}
	for _, p := range []*page{ann, bob, spec} {
		p.waitVersion(sum.Version)
		p.waitJS(5*time.Second, `!document.querySelector('[data-testid=result]').hidden`)
		totals := eval[[]string](p, `[0, 1].map(s => document.querySelector('.board-slot [data-seat="' + s + '"] [data-testid=total]').textContent)`)
		for s, want := range sum.Result.Scores {
			if totals[s] != fmt.Sprint(want) {
				t.Errorf("%s shows seat %d total %s, server %d", p.name, s, totals[s], want)
			}
		}
		if w := p.text("[data-testid=winner]"); !strings.Contains(w, "won") && !strings.Contains(w, "share") {
			t.Errorf("%s: winner line %q", p.name, w)
		}
	}
	ann.fullShot("06-final-ann")
	spec.fullShot("07-final-spectator-phone")

	// The spectator saw the moves as they happened: the log has lines for
	// both players' takes.
	// The log is the game's narration, word for word.
	steps := replayLines(t, ts.URL, "dicestars", id)
	checkLogIsNarration(t, spec, steps)
	log := strings.Join(spec.logLines(), "\n")
	if !strings.Contains(log, "\nAnn ") || !strings.Contains(log, "\nBob ") {
		t.Errorf("the spectator's log misses moves:\n%s", log)
	}

	// Replay: step forward and back through the finished game.
	ann.waitJS(10*time.Second, `/Step 0 of \d+/.test(document.querySelector('[data-testid=replay-step]')?.textContent || '')`)
	n := eval[int](ann, `Number(document.querySelector('[data-testid=replay-step]').textContent.match(/of (\d+)/)[1])`)
	if n != sum.Version {
		t.Errorf("replay has %d steps, the game %d moves", n, sum.Version)
	}
	for i := 0; i < 3; i++ {
		ann.do(chromedp.Click(chromedp.CSS(`[data-testid=replay-forward]`)))
	}
	ann.waitJS(3*time.Second, `/Step 3 of/.test(document.querySelector('[data-testid=replay-step]').textContent)`)
	if what := eval[[]string](ann, `[...document.querySelectorAll('[data-testid=replay-what] li')].map((l) => l.textContent)`); !slices.Equal(what, steps[3]) {
		t.Errorf("step 3 says %q, its narration %q", what, steps[3])
	}
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=replay-back]`)))
	ann.waitJS(3*time.Second, `/Step 2 of/.test(document.querySelector('[data-testid=replay-step]').textContent)`)
	// Keys: End jumps to the last step, the left arrow steps back.
	ann.do(chromedp.Focus(chromedp.CSS(`[data-testid=replay-start]`)))
	ann.do(chromedp.KeyEvent(kb.End))
	ann.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent.includes('Step %d of')`, n))
	ann.do(chromedp.KeyEvent(kb.ArrowLeft))
	ann.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent.includes('Step %d of')`, n-1))
	ann.do(chromedp.KeyEvent(kb.End))
	ann.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent.includes('Step %d of')`, n))
	last := eval[[]string](ann, `[0, 1].map(s => document.querySelector('.replay-board [data-seat="' + s + '"] [data-testid=total]').textContent)`)
	for s, want := range sum.Result.Scores {
		if last[s] != fmt.Sprint(want) {
			t.Errorf("replay's last step shows seat %d total %s, server %d", s, last[s], want)
		}
	}
	// The public view of the same step.
	ann.setSelect("#replay-seat", "-1")
	ann.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=replay-step]').textContent.includes('Step %d of') && !document.querySelector('.replay-board .sheet.mine')`, n))
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=replay]`)))
	ann.shot("08-replay-public-end")

	for _, p := range []*page{ann, bob, spec} {
		p.noExceptions()
	}
	t.Logf("whole test took %v", time.Since(start).Round(time.Millisecond))
}
