package e2e

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/internal/pig"
	"github.com/dicehall/dicehall/web"
)

// The review of a finished game and the coach's hint, in the browser, with
// the test-only Pig that judges its decisions (internal/pig's Coach: a roll
// is best below a turn total of 20) and a renderer of its own
// (testdata/pig.js, served beside the real pages): short games, a known
// best choice, and the generic pages that never name a game.

// reviewCoach is pig.Coach with win chances when two seats or more play
// (so its review has a balance to draw; a solo game's has only points
// lost), its renderer's data (the turn's total), and a gate: while it is
// open (nil) or once closed, reviews go on; hints never wait.
type reviewCoach struct {
	pig.Coach
	gate chan struct{}
}

// chances estimates every seat's chance of winning with extra points for
// seat cur: a softmax of the points, 4 points apart making e times the
// odds.
func chances(banked []int, cur int, extra float64) []float64 {
	w := make([]float64, len(banked))
	sum := 0.0
	for i, b := range banked {
		p := float64(b)
		if i == cur {
			p += extra
		}
		w[i] = math.Exp(p / 4)
		sum += w[i]
	}
	for i := range w {
		w[i] /= sum
	}
	return w
}

func (c reviewCoach) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	if d.Chosen != nil && c.gate != nil {
		<-c.gate
	}
	j, err := c.Coach.Judge(d, o)
	if err != nil {
		return j, err
	}
	v := d.View.(map[string]any)
	banked, cur := v["banked"].([]int), v["current"].(int)
	j.Data = map[string]int{"turn": v["turn"].(int)}
	if len(banked) < 2 {
		return j, nil
	}
	win := func(val *engine.Valued) { val.Win = chances(banked, cur, val.Points)[cur] }
	win(&j.Best)
	for i := range j.Others {
		win(&j.Others[i])
	}
	if d.Chosen != nil {
		win(&j.Chosen)
		j.Balance = chances(banked, cur, j.Chosen.Points)
	}
	return j, nil
}

// overlay serves a few more files beside the real pages.
type overlay struct {
	fs.FS
	more fstest.MapFS
}

func (o overlay) Open(name string) (fs.File, error) {
	if _, ok := o.more[name]; ok {
		return o.more.Open(name)
	}
	return o.FS.Open(name)
}

// coachServer runs a server whose only game is the reviewing Pig, with its
// renderer.
func coachServer(t *testing.T, gate chan struct{}) string {
	t.Helper()
	more := fstest.MapFS{}
	for _, f := range []string{"pig.js", "pig.css", "pig.messages.js"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		more[f] = &fstest.MapFile{Data: b, Mode: 0o644}
	}
	reg := &engine.Registry{}
	reg.Register(reviewCoach{gate: gate})
	return startServerWith(t, serverOptions{games: reg, static: overlay{web.Static(), more}}).URL
}

// pigTurn plays one of the page's moves, if it is its turn: a roll until
// the turn's total reaches hold (a hold below 20 costs points: the review
// has something to say), then a hold. It tells whether it moved.
func (p *page) pigTurn(hold int) bool {
	p.t.Helper()
	return eval[bool](p, fmt.Sprintf(`(() => {
	  const roll = document.querySelector('[data-testid=board] [data-action=roll]:not(:disabled)');
	  if (!roll || document.body.dataset.status !== 'live') return false;
	  const turn = Number(document.querySelector('[data-testid=board] [data-testid=pig-turn]').textContent.match(/\d+/)[0]);
	  const hold = document.querySelector('[data-testid=board] [data-action=hold]:not(:disabled)');
	  (hold && turn >= %d ? hold : roll).click();
	  return true;
	})()`, hold))
}

// playPig plays until the game is over.
func (p *page) playPig(hold int) {
	p.t.Helper()
	deadline := time.Now().Add(90 * time.Second)
	for eval[string](p, `document.body.dataset.status`) != "over" {
		if time.Now().After(deadline) {
			p.fail("the game did not end")
		}
		v := eval[string](p, `document.body.dataset.version`)
		if p.pigTurn(hold) {
			p.waitJS(10*time.Second, fmt.Sprintf(`document.body.dataset.version !== %q || document.body.dataset.status === 'over'`, v))
		} else {
			time.Sleep(40 * time.Millisecond)
		}
	}
}

const reviewStep = `Number(document.querySelector('[data-testid=replay-step]').textContent.match(/\d+/)[0])`

// TestReviewAndHint: a practice game gives hints (the coach's legal best
// choice, in words, marked on the board); once it is over, its review
// shows (progress first), per seat and as the game's balance, and a click
// or the keys take the replay to a decision, which is shown against the
// best; a solo game, without win chances, shows the points lost instead.
func TestReviewAndHint(t *testing.T) {
	t.Parallel()
	gate := make(chan struct{})
	base := coachServer(t, gate)
	ann := newPage(t, "ann-review")
	ann.do(chromedp.EmulateViewport(1440, 900))
	ann.do(chromedp.Navigate(base + "/"))
	ann.fastBots()
	id := ann.createTable(`{game: 'pig', name: 'Ann', options: {target: 25}, settings: {botDelayMs: 0},
	  seats: [{kind: 'human'}, {kind: 'bot', bot: 'cautious'}]}`)
	ann.do(chromedp.Navigate(base + "/t/" + id))
	ann.waitJS(10*time.Second, `document.body.dataset.status === 'live' && !!document.querySelector('[data-testid=board] [data-action=roll]:not(:disabled)')`)

	// A hint on Ann's turn: thinking, then the coach's choice and why.
	ann.waitJS(5*time.Second, `!document.querySelector('[data-testid=hint]').hidden`)
	// The button comes and goes with the turn; the status line keeps its
	// height meanwhile, so the board under it never jumps.
	for _, vp := range viewports {
		ann.do(chromedp.EmulateViewport(vp.w, vp.h))
		ann.settle()
		h := eval[[]float64](ann, `(() => {
		  const b = document.querySelector('[data-testid=hint]'), bar = document.querySelector('.statusbar');
		  const shown = bar.getBoundingClientRect().height;
		  b.hidden = true;
		  const gone = bar.getBoundingClientRect().height;
		  b.hidden = false;
		  return [shown, gone];
		})()`)
		if h[0] != h[1] {
			t.Errorf("%s: the status line is %.1f px high with the hint button, %.1f without", vp.name, h[0], h[1])
		}
	}
	ann.do(chromedp.EmulateViewport(1440, 900))
	// Rolls until the turn has points to hold (a 1 passes the turn: the
	// bot plays, then Ann rolls again).
	for deadline := time.Now().Add(60 * time.Second); !eval[bool](ann, `!!document.querySelector('[data-testid=board] [data-action=hold]:not(:disabled)')`); {
		if time.Now().After(deadline) {
			ann.fail("Ann never had points to hold")
		}
		v := eval[string](ann, `document.body.dataset.version`)
		if ann.pigTurn(99) {
			ann.waitJS(10*time.Second, fmt.Sprintf(`document.body.dataset.version !== %q`, v))
		} else {
			time.Sleep(40 * time.Millisecond)
		}
	}
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=hint]`)))
	ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=hint-best]')`)
	if s := ann.text(`[data-testid=hint-best]`); !strings.Contains(s, "The coach would roll again") {
		t.Errorf("the hint says %q", s)
	}
	if s := ann.text(`[data-testid=hint-notes]`); !strings.Contains(s, "below 20") {
		t.Errorf("the hint's reasons: %q", s)
	}
	// The coach's choice is marked on the board, and it is a legal one.
	if !eval[bool](ann, `!!document.querySelector('[data-testid=board] .hinted[data-action=roll]:not(:disabled)')`) {
		t.Error("the coach's choice (roll) is not marked as a legal move on the board")
	}
	for _, vp := range viewports {
		ann.do(chromedp.EmulateViewport(vp.w, vp.h))
		ann.settle()
		ann.shot("review-hint-" + vp.name)
	}
	ann.colorScheme("dark")
	ann.settle()
	ann.shot("review-hint-390x844-dark")
	ann.colorScheme("light")
	ann.do(chromedp.EmulateViewport(1440, 900))
	ann.axeClean("a hint")
	// A move makes it stale: Ann holds against the coach's advice (a
	// costly decision the review will find, whatever the dice do next).
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=board] [data-action=hold]`)))
	ann.waitJS(10*time.Second, `document.querySelector('[data-testid=coach]').hidden && !document.querySelector('.hinted')`)

	// To the end, holding early (costly holds for the review).
	ann.playPig(3)
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review]`)))
	ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=review-pending]')`)
	ann.shot("review-pending-1440x900")
	close(gate)

	// The review: a card per seat, the balance above the replay.
	ann.waitJS(20*time.Second, `document.querySelectorAll('[data-testid=review-seats] > li').length === 2 && !!document.querySelector('[data-testid=review-graph] svg')`)
	if n := eval[int](ann, `document.querySelectorAll('[data-testid=review-graph] polyline').length`); n != 2 {
		t.Errorf("the balance has %d lines, want one per seat (2)", n)
	}
	if !eval[bool](ann, `document.querySelectorAll('[data-testid=review-graph] .rv-mark').length > 4`) {
		t.Error("the graph marks too few decisions")
	}
	acc := ann.text(`[data-testid=review-seats] > li[data-seat="0"] [data-testid=review-accuracy]`)
	if !strings.HasSuffix(acc, "%") || acc == "100%" {
		t.Errorf("Ann, who held early, has an accuracy of %q", acc)
	}

	// Her costliest decision, clicked: the replay shows its position, the
	// decision its choice against the best, and the renderer its data.
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=review-seats] > li[data-seat="0"] .rv-worst button`)))
	k := eval[int](ann, `Number(document.querySelector('[data-testid=review-seats] > li[data-seat="0"] .rv-worst button').dataset.decision)`)
	ann.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=review-detail]').dataset.decision === '%d'`, k))
	move := eval[int](ann, fmt.Sprintf(`fetch('/api/tables/%s/review').then((r) => r.json()).then((b) => b.review.decisions[%d].move)`, id, k))
	if step := eval[int](ann, reviewStep); step != move {
		t.Errorf("the replay shows step %d, the decision was made at %d", step, move)
	}
	if s := ann.text(`[data-testid=review-played]`); !strings.Contains(s, "bank") {
		t.Errorf("her costliest choice was a hold; the review says %q", s)
	}
	if s := ann.text(`[data-testid=review-best]`); !strings.Contains(s, "roll again") {
		t.Errorf("the best choice was a roll; the review says %q", s)
	}
	if !eval[bool](ann, `!!document.querySelector('.replay-board [data-reviewed]')`) {
		t.Error("the renderer's renderReview did not draw the decision's data on the replay's board")
	}
	for _, vp := range viewports {
		ann.do(chromedp.EmulateViewport(vp.w, vp.h))
		ann.settle()
		ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review]`)))
		ann.shot("review-summary-" + vp.name)
		ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review-strip]`)))
		ann.shot("review-graph-" + vp.name)
	}
	ann.colorScheme("dark")
	ann.settle()
	ann.shot("review-graph-390x844-dark")
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review]`)))
	ann.shot("review-summary-390x844-dark")
	ann.axeClean("the review, dark")
	ann.colorScheme("light")
	ann.do(chromedp.EmulateViewport(1440, 900))

	// The keys: the graph goes through the decisions, the replay follows.
	ann.do(chromedp.Focus(chromedp.CSS(`[data-testid=review-graph]`)))
	ann.do(chromedp.KeyEvent(kb.ArrowRight))
	ann.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=review-graph]').dataset.selected === '%d'`, k+1))
	next := eval[int](ann, fmt.Sprintf(`fetch('/api/tables/%s/review').then((r) => r.json()).then((b) => b.review.decisions[%d].move)`, id, k+1))
	ann.waitJS(5*time.Second, fmt.Sprintf(`%s === %d`, reviewStep, next))
	if s := eval[string](ann, `document.querySelector('[data-testid=review-graph]').getAttribute('aria-valuetext')`); !strings.HasPrefix(s, fmt.Sprintf("Decision %d of", k+2)) {
		t.Errorf("the graph says %q to a screen reader", s)
	}
	// A click on the graph picks the nearest decision.
	eval[bool](ann, `(() => { const g = document.querySelector('[data-testid=review-graph] svg'); const m = g.querySelector('.rv-mark[data-decision="0"]').getBoundingClientRect();
	  g.parentNode.dispatchEvent(new MouseEvent('click', {bubbles: true, clientX: m.left + m.width / 2, clientY: m.top})); return true; })()`)
	ann.waitJS(5*time.Second, `document.querySelector('[data-testid=review-graph]').dataset.selected === '0'`)
	ann.axeClean("the review")

	// French: the game's words too.
	ann.do(chromedp.Click(chromedp.CSS(`.lang-switch [data-lang=fr]`)))
	ann.waitJS(5*time.Second, `document.querySelector('#review-h').textContent === 'Analyse'`)
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review-strip]`)))
	ann.shot("review-graph-1440x900-fr")
	ann.do(chromedp.Click(chromedp.CSS(`.lang-switch [data-lang=en]`)))
	ann.noExceptions()

	// A solo game: no win chances, so the points lost at each decision.
	id = ann.createTable(`{game: 'pig', name: 'Ann', options: {target: 10}, seats: [{kind: 'human'}]}`)
	ann.do(chromedp.Navigate(base + "/t/" + id))
	ann.do(chromedp.EmulateViewport(390, 844))
	ann.waitJS(10*time.Second, `document.body.dataset.status === 'live'`)
	ann.playPig(2)
	ann.waitJS(20*time.Second, `!!document.querySelector('[data-testid=review-graph] svg')`)
	if !eval[bool](ann, `document.querySelectorAll('[data-testid=review-graph] .rv-bar').length > 0 && !document.querySelector('[data-testid=review-graph] polyline')`) {
		t.Error("a review without win chances does not show the points lost as bars")
	}
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=review-seats] .rv-worst button`)))
	ann.waitJS(5*time.Second, `document.querySelector('[data-testid=review-detail]').dataset.decision !== ''`)
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=review-strip]`)))
	ann.shot("review-points-390x844")
	ann.noExceptions()
}

// TestBookwormHint: a real game's coach (Bookworm judges its decisions) at
// a practice table: on Ann's turn the hint names a choice and its reasons
// in words, and marks it on the board, on something she can press.
func TestBookwormHint(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	res, err := http.Get(ts.URL + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	type game struct {
		ID      string `json:"id"`
		Reviews bool   `json:"reviews"`
	}
	var games []game
	err = json.NewDecoder(res.Body).Decode(&games)
	res.Body.Close()
	if err != nil || !slices.Contains(games, game{"bookworm", true}) {
		t.Fatalf("Bookworm does not judge its decisions (%v)", err)
	}
	ann := bwPage(t, ts.URL, "ann-bw-hint", 1440, 900, "en", false)
	bwTable(t, ann, ts.URL, `[{"kind":"human"},{"kind":"bot","bot":"hard"}]`,
		`{language: 'en', thinkSeconds: 120, countdownSeconds: 5, target: 3}`)
	ann.waitJS(60*time.Second, `!document.querySelector('[data-testid=hint]').hidden`)
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=hint]`)))
	ann.waitJS(30*time.Second, `!!document.querySelector('[data-testid=hint-best], [data-testid=hint-refused]')`)
	if s := ann.text(`[data-testid=coach]`); !strings.HasPrefix(s, "✦The coach would ") {
		t.Fatalf("the coach says %q", s)
	}
	if !eval[bool](ann, `!!document.querySelector('[data-testid=board] button.hinted:not(:disabled)')`) {
		t.Errorf("the coach's choice is not marked on a button of the board: %s", ann.text(`[data-testid=coach]`))
	}
	ann.shot("review-hint-bookworm-1440x900")
	ann.noExceptions()
}

// TestDiceflickReview: a real game's review (Diceflick judges its flicks):
// a game of bots, one round, reviewed; a flick picked in the list takes the
// replay to its position, and the game's renderer draws its aim and landing
// on the arena. Then a practice table's hint puts the coach's flick in the
// aim.
func TestDiceflickReview(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	p := newPage(t, "df-review")
	p.do(chromedp.EmulateViewport(1440, 900))
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.fastBots()
	p.reducedMotion()
	id := p.createTable(`{game: 'diceflick', options: {rounds: 1}, settings: {botDelayMs: 0}, seats: [{kind: 'bot', bot: 'easy'}, {kind: 'bot', bot: 'hard'}]}`)
	p.do(chromedp.Navigate(ts.URL + "/t/" + id))
	p.waitJS(60*time.Second, `document.body.dataset.status === 'over'`)
	p.waitJS(60*time.Second, `!!document.querySelector('[data-testid=review-graph] svg polyline')`)
	move := eval[int](p, `fetch(location.pathname.replace('/t/', '/api/tables/') + '/review').then((r) => r.json()).then((b) => {
	  const k = b.review.decisions.findIndex((d) => d.kind === 'flick');
	  document.querySelector('[data-testid=review-all] button[data-decision="' + k + '"]').click();
	  return b.review.decisions[k].move; })`)
	p.waitJS(5*time.Second, fmt.Sprintf(`%s === %d && !!document.querySelector('.replay-board [data-testid=df-review]')`, reviewStep, move))
	if s := p.text(`[data-testid=review-played]`); !strings.Contains(s, "flick the") {
		t.Errorf("the flick is said %q", s)
	}
	p.do(chromedp.ScrollIntoView(chromedp.CSS(`.replay-board`)))
	p.shot("review-diceflick-board-1440x900")

	id = p.createTable(`{game: 'diceflick', name: 'Ann', options: {rounds: 1}, seats: [{kind: 'human'}, {kind: 'bot', bot: 'easy'}]}`)
	p.do(chromedp.Navigate(ts.URL + "/t/" + id))
	p.waitJS(30*time.Second, `!document.querySelector('[data-testid=hint]').hidden && document.querySelector('canvas.df-arena')?.dataset.armed === 'true'`)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid=hint]`)))
	p.waitJS(30*time.Second, `!!document.querySelector('[data-testid=hint-best], [data-testid=hint-refused]')`)
	if s := p.text(`[data-testid=coach]`); !strings.Contains(s, "The coach would flick the") {
		t.Fatalf("the coach says %q", s)
	}
	if !eval[bool](p, `!!document.querySelector('[data-testid=board] .df-die-btn.hinted[aria-pressed=true]')`) {
		t.Error("the coach's flick is not in the aim")
	}
	p.noExceptions()
}
