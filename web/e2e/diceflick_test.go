package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// dfState is what a Diceflick table page shows right now.
type dfState struct {
	Version  int    `json:"version"`
	Phase    string `json:"phase"`
	Mine     bool   `json:"mine"`     // the page's seat is on turn
	Armed    bool   `json:"armed"`    // the arena takes a flick
	Scoring  bool   `json:"scoring"`  // the arena takes the scoring choice
	AutoZero bool   `json:"autoZero"` // "nothing can score" is shown
	Total    int    `json:"total"`    // the chosen score's points
	Best     int    `json:"best"`     // the best on offer
	Scored   string `json:"scored"`   // the scored holes as "r,c:colour"
	Showing  string `json:"showing"`  // another player's move held on the board
	Over     bool   `json:"over"`
	Dragging bool   `json:"dragging"`
}

const dfStateJS = `(() => {
  const b = document.querySelector('.df-board');
  const c = document.querySelector('canvas.df-arena');
  const sp = document.querySelector('[data-testid=df-score-panel]');
  return {
    version: Number(document.body.dataset.version || -1),
    phase: b?.dataset.phase || '',
    mine: b?.dataset.mine === 'true',
    armed: c?.dataset.armed === 'true',
    scoring: c?.dataset.scoring === 'true',
    autoZero: !!document.querySelector('[data-testid=df-auto-zero]'),
    total: Number(sp?.dataset.total ?? -1),
    best: Number(sp?.dataset.best ?? -1),
    scored: c?.dataset.scored || '',
    showing: document.body.dataset.dfShowing || '',
    over: !!document.querySelector('[data-testid=winner]') && !document.querySelector('[data-testid=result]').hidden,
    dragging: c?.dataset.dragging === 'true',
  };
})()`

func (p *page) df() dfState { return eval[dfState](p, dfStateJS) }

// dfMedia emulates the colour scheme ("light" or "dark") and reduced motion.
func (p *page) dfMedia(scheme string, reduced bool) {
	p.t.Helper()
	motion := "no-preference"
	if reduced {
		motion = "reduce"
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Features: []*emulation.MediaFeature{
			{Name: "prefers-color-scheme", Value: scheme}, {Name: "prefers-reduced-motion", Value: motion}}})
	})
	if err != nil {
		p.fail("emulate media: %v", err)
	}
}

// The arena as diceflick.js draws it: physics.DefaultArena's box (250 mm),
// BaseInset 12 mm, shown over EXTENT mm (the canvas says it in data-extent).
func dfBasePoint(b int) (x, y float64) {
	d := 250.0/2 - 12
	n := [][2]float64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}[b]
	return -n[0] * d, -n[1] * d
}

// dfDir is the flick direction of angle (radians, positive counter-clockwise)
// from base b.
func dfDir(b int, angle float64) (x, y float64) {
	n := [][2]float64{{0, 1}, {1, 0}, {0, -1}, {-1, 0}}[b]
	c, s := math.Cos(angle), math.Sin(angle)
	return n[0]*c - n[1]*s, n[0]*s + n[1]*c
}

// dfReach is diceflick.js's reach: how far a die of power slides.
func dfReach(power float64) float64 {
	v := 300 + (2600-300)*power
	a, k := 3400.0, 1.5
	return v/k - (a/(k*k))*math.Log(1+k*v/a)
}

// dfPowerFor is the power whose reach is d mm.
func dfPowerFor(d float64) float64 {
	lo, hi := 0.0, 1.0
	for range 40 {
		m := (lo + hi) / 2
		if dfReach(m) < d {
			lo = m
		} else {
			hi = m
		}
	}
	return (lo + hi) / 2
}

type dfRect struct {
	Left, Top, Width, Extent float64
}

func (p *page) dfArenaRect() dfRect {
	return eval[dfRect](p, `(() => { const c = document.querySelector('canvas.df-arena');
	  const b = c.getBoundingClientRect(); return {left: b.left, top: b.top, width: b.width, extent: Number(c.dataset.extent)}; })()`)
}

// dfScreen turns arena millimetres into page coordinates.
func (r dfRect) screen(x, y float64) (float64, float64) {
	s := r.Width / r.Extent
	return r.Left + (x+r.Extent/2)*s, r.Top + (r.Extent/2-y)*s
}

// dragFlick flicks as a person would with a finger or a mouse: press on
// base b (atBase) or, with base b chosen by its button, anywhere on the
// arena; pull back (opposite to where the die should go) by power·110 mm in
// a few moves, release. It returns the version the page had before.
func (p *page) dragFlick(b int, angle, power float64, atBase bool, shot string) int {
	p.t.Helper()
	before := p.df()
	if !atBase {
		p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`#df-base-%d`, b))))
		p.waitJS(2*time.Second, fmt.Sprintf(`document.querySelector('#df-base-%d').getAttribute('aria-pressed') === 'true'`, b))
	}
	r := p.dfArenaRect()
	x0, y0 := dfBasePoint(b)
	if !atBase {
		// Somewhere on the felt, towards the base, so that the pull stays on the arena.
		x0, y0 = x0*0.15, y0*0.15
	}
	dx, dy := dfDir(b, angle)
	sx, sy := r.screen(x0, y0)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, sx, sy),
		chromedp.MouseEvent(chromedp.MousePressed, sx, sy, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 5; i++ {
		f := float64(i) / 5 * power * 110
		x, y := r.screen(x0-dx*f, y0-dy*f)
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft, func(pp *input.DispatchMouseEventParams) { pp.Buttons = 1 }))
	}
	ex, ey := r.screen(x0-dx*power*110, y0-dy*power*110)
	p.do(steps...)
	if !p.df().Dragging {
		p.fail("pressing on the arena did not start a drag")
	}
	if shot != "" {
		p.shot(shot) // the aim, mid-drag
	}
	p.do(chromedp.MouseEvent(chromedp.MouseReleased, ex, ey, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	return before.Version
}

// dfWait is waitJS that tells instead of failing.
func (p *page) dfWait(d time.Duration, js string) bool {
	end := time.Now().Add(d)
	for time.Now().Before(end) {
		if eval[bool](p, "!!("+js+")") {
			return true
		}
		time.Sleep(40 * time.Millisecond)
	}
	return false
}

// dfTap taps hole "r,c" on the arena.
func (p *page) dfTap(hole string) {
	p.t.Helper()
	var row, col int
	fmt.Sscanf(hole, "%d,%d", &row, &col)
	r := p.dfArenaRect()
	x, y := r.screen(float64(col-2)*38, float64(2-row)*38)
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, x, y),
		chromedp.MouseEvent(chromedp.MousePressed, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)),
		chromedp.MouseEvent(chromedp.MouseReleased, x, y, chromedp.ButtonLeft, chromedp.ClickCount(1)))
}

type dfRun struct {
	name     string
	w, h     int64
	lang     string
	scheme   string
	reduced  bool
	rounds   int
	needPick bool // the run must have met a scoring to choose differently
	// keyboardScore: the different choice is made with the keyboard.
	keyboardScore bool
}

// TestDiceflickVsBot plays Diceflick against a bot at both viewports, as a
// person would: flicks by dragging on the arena (the first one from the
// keyboard alone), a scoring chosen on the board other than the best, the
// zero score sent by itself when nothing can score. On every turn of ours
// the arena and the turn panel lie inside the viewport, and a flick moves
// neither the page nor the panel. The bot's scoring is held on the board
// long enough to be seen.
func TestDiceflickVsBot(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, run := range []dfRun{
		{name: "desktop", w: 1440, h: 900, lang: "en", scheme: "light", rounds: 10, needPick: true},
		{name: "phone", w: 390, h: 844, lang: "fr", scheme: "dark", reduced: true, rounds: 5, keyboardScore: true},
	} {
		t.Run(run.name, func(t *testing.T) {
			t.Parallel()
			playDiceflickVsBot(t, ts, run)
		})
	}
}

func playDiceflickVsBot(t *testing.T, ts *httptest.Server, run dfRun) {
	p := newPage(t, "df-"+run.name)
	shot := func(what string) { p.shot(fmt.Sprintf("df-%s-%s", run.name, what)) }
	p.do(chromedp.EmulateViewport(run.w, run.h))
	p.dfMedia(run.scheme, run.reduced)
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.waitJS(5*time.Second, `document.querySelectorAll('form select').length > 0`)
	eval[bool](p, fmt.Sprintf(`(() => { localStorage.setItem('dh.lang', %q); return true; })()`, run.lang))
	id := p.createTable(fmt.Sprintf(`{game: 'diceflick', name: 'Ann', seats: [{kind: 'human'}, {kind: 'bot', bot: 'medium'}], options: {rounds: %d}}`, run.rounds))
	p.do(chromedp.Navigate(ts.URL + "/t/" + id))
	p.waitJS(10*time.Second, `document.body.dataset.seat === '0' && document.body.dataset.status === 'live' && !!document.querySelector('canvas.df-arena')`)

	flicks, keyboard, picked, autoZero, showings := 0, 0, 0, 0, 0
	var shots = map[string]bool{}
	shotOnce := func(what string) {
		if !shots[what] {
			shots[what] = true
			shot(what)
		}
	}
	deadline := time.Now().Add(240 * time.Second)
	lastShowing := ""
	for {
		st := p.df()
		if st.Over {
			break
		}
		if time.Now().After(deadline) {
			p.fail("the game did not end in time (%d flicks)", flicks)
		}
		if st.Showing != lastShowing {
			if st.Showing == "score" {
				showings++
				if !shots["bot-scores"] {
					shotOnce("bot-scores")
					p.axeClean(run.name + " bot scoring")
				}
			}
			lastShowing = st.Showing
		}
		switch {
		case st.Armed:
			p.inViewport("our turn to flick", "canvas.df-arena", "[data-testid=df-turn]")
			if !shots["turn"] {
				shotOnce("turn")
				p.axeClean(run.name + " flick")
			}
			if flicks == 3 {
				// A page scrolled a little (to glance at the notepad) stays
				// where it is through a flick too.
				eval[bool](p, `(() => { window.scrollTo(0, 40); return true; })()`)
			}
			before := eval[[]float64](p, `[scrollY, document.querySelector('[data-testid=df-turn]').getBoundingClientRect().top, document.querySelector('canvas.df-arena').getBoundingClientRect().top]`)
			var v int
			if keyboard < 2 {
				// Round 1 from the keyboard alone: the angle 10° to the left,
				// the power down to nothing, Enter; then Enter again (the
				// focus stays on the slider). Both dice stop in the trench and
				// go back to the bag: nothing can score.
				v = st.Version
				// What the page sends, to check the keyboard's aim arrives
				// as chosen.
				eval[bool](p, `(() => { if (!window.__dfSent) { window.__dfSent = []; const send = WebSocket.prototype.send;
				  WebSocket.prototype.send = function (d) { window.__dfSent.push(String(d)); return send.call(this, d); }; }
				  window.__dfSent.length = 0; return true; })()`)
				if keyboard == 0 {
					p.do(chromedp.Focus(chromedp.CSS(`#df-angle`)))
					for range 10 {
						p.do(chromedp.KeyEvent(kb.ArrowLeft))
					}
					p.do(chromedp.Focus(chromedp.CSS(`#df-power`)))
					for range 35 {
						p.do(chromedp.KeyEvent(kb.ArrowDown))
					}
				} else if id := eval[string](p, `document.activeElement?.id || ''`); id != "df-power" {
					p.fail("after a flick from the keyboard the focus went to %q", id)
				}
				p.do(chromedp.KeyEvent(kb.Enter))
				keyboard++
				p.waitVersion(v + 1)
				p.waitJS(5*time.Second, `window.__dfSent.some((f) => f.includes('"flick"'))`)
				line := eval[string](p, `window.__dfSent.filter((f) => f.includes('"flick"')).pop()`)
				var frame struct {
					Action struct {
						Flick struct{ Angle, Power float64 }
					}
				}
				if err := json.Unmarshal([]byte(line), &frame); err != nil {
					t.Fatalf("the page sent %q: %v", line, err)
				}
				ga := int(math.Round(math.Abs(frame.Action.Flick.Angle) * 180 / math.Pi))
				gp := frame.Action.Flick.Power
				if ga != 10 || gp != 0 {
					t.Errorf("keyboard flick of 10° at 0 %%: the page sent %q", line)
				}
			} else {
				// Aim at the centre hole now and then (its die scores), else
				// somewhere with a little angle.
				b := flicks % 4
				angle := 0.3 * math.Sin(float64(flicks)*1.7)
				power := 0.22 + 0.06*math.Cos(float64(flicks)*1.3)
				if flicks >= 3 && flicks%3 != 1 {
					angle, power = 0, dfPowerFor(250.0/2-12)
				}
				aimShot := ""
				if !shots["aim"] {
					shots["aim"] = true
					aimShot = fmt.Sprintf("df-%s-aim", run.name)
				}
				v = p.dragFlick(b, angle, power, flicks%2 == 0, aimShot)
			}
			flicks++
			// The flick, then its landing: nothing moves meanwhile.
			p.waitVersion(v + 2)
			after := eval[[]float64](p, `[scrollY, document.querySelector('[data-testid=df-turn]').getBoundingClientRect().top, document.querySelector('canvas.df-arena').getBoundingClientRect().top]`)
			for i, what := range []string{"the page's scroll position", "the turn panel", "the arena"} {
				if math.Abs(after[i]-before[i]) > 1 {
					p.fail("a flick moved %s: %v before, %v after", what, before[i], after[i])
				}
			}
		case st.Scoring && st.AutoZero:
			// Nothing can score: the zero is sent without a click.
			shotOnce("auto-zero")
			p.waitVersion(st.Version + 1)
			autoZero++
		case st.Scoring:
			p.inViewport("our scoring", "canvas.df-arena", "[data-testid=df-turn]")
			if picked == 0 && st.Total > 0 {
				// Leave a die out (or switch a blast die's line): tap scored
				// holes until the points change.
				var holes, blasts []string
				for _, tok := range strings.Fields(st.Scored) {
					hole, kind, _ := strings.Cut(tok, ":")
					switch kind {
					case "white":
					case "pink":
						blasts = append(blasts, hole)
					default:
						holes = append(holes, hole)
					}
				}
				target := ""
				if run.keyboardScore {
					// From the keyboard: Enter on the first part in the score
					// (a group, the centre die or a blast line) leaves it out.
					p.do(chromedp.Focus(chromedp.CSS(`[data-testid=df-score-panel] [data-part][aria-pressed=true]`)), chromedp.KeyEvent(kb.Enter))
					if p.dfWait(1500*time.Millisecond, fmt.Sprintf(`Number(document.querySelector('[data-testid=df-score-panel]').dataset.total) < %d`, st.Total)) {
						target = "a part, from the keyboard"
					}
					holes, blasts = nil, nil
				}
				for _, hole := range append(append(holes, blasts...), blasts...) {
					p.dfTap(hole)
					if p.dfWait(1500*time.Millisecond, fmt.Sprintf(`Number(document.querySelector('[data-testid=df-score-panel]').dataset.total) < %d`, st.Total)) {
						target = hole
						break
					}
				}
				if target != "" {
					chosen := p.df()
					if chosen.Total >= chosen.Best || !eval[bool](p, `!!document.querySelector('[data-testid=df-best]')`) {
						p.fail("leaving %s out: %d points of best %d, and no way back to the best", target, chosen.Total, chosen.Best)
					}
					shot("score-choice")
					p.axeClean(run.name + " scoring")
					round := eval[int](p, `document.querySelectorAll('[data-testid=df-notepad] tbody tr.current ~ tr').length`)
					p.do(chromedp.Click(chromedp.CSS(`[data-testid=df-score]`)))
					p.waitVersion(chosen.Version + 1)
					// The notepad has what we chose, and the log says the best was more.
					cell := eval[string](p, fmt.Sprintf(`(() => { const rows = document.querySelectorAll('[data-testid=df-notepad] tbody tr'); return rows[rows.length - 1 - %d].children[1].textContent; })()`, round))
					if cell != strconv.Itoa(chosen.Total) {
						t.Errorf("chose %d points (best %d): the notepad says %q", chosen.Total, chosen.Best, cell)
					}
					p.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=log]').textContent.includes('Ann %s %d')`,
						map[string]string{"en": "scores", "fr": "marque"}[run.lang], chosen.Total))
					picked++
					continue
				}
			}
			p.do(chromedp.Click(chromedp.CSS(`[data-testid=df-score]`)))
			p.waitVersion(st.Version + 1)
		default:
			time.Sleep(30 * time.Millisecond)
		}
		if flicks == 6 && !shots["alt"] {
			// The other language and colour scheme, mid-game.
			shots["alt"] = true
			other := map[string]string{"en": "fr", "fr": "en"}[run.lang]
			scheme := map[string]string{"light": "dark", "dark": "light"}[run.scheme]
			p.dfMedia(scheme, run.reduced)
			p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`.lang-switch [data-lang=%s]`, other))))
			p.waitJS(5*time.Second, `!!document.querySelector('canvas.df-arena')`)
			time.Sleep(300 * time.Millisecond)
			shot(fmt.Sprintf("%s-%s", other, scheme))
			p.dfMedia(run.scheme, run.reduced)
			p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`.lang-switch [data-lang=%s]`, run.lang))))
		}
		if flicks == 4 {
			// The bot's turns have been followed at normal speed; faster now.
			p.fastBots()
		}
	}
	p.waitJS(10*time.Second, `!document.querySelector('[data-testid=result]').hidden`)
	p.fullShot(fmt.Sprintf("df-%s-over", run.name))
	p.axeClean(run.name + " over")

	if keyboard != 2 {
		t.Errorf("%d keyboard flicks, want 2", keyboard)
	}
	if flicks < 2*run.rounds {
		t.Errorf("only %d flicks in %d rounds", flicks, run.rounds)
	}
	if run.needPick && picked == 0 {
		t.Errorf("no scoring to choose from in %d rounds", run.rounds)
	}
	if autoZero == 0 {
		t.Errorf("the zero score of round 1 was not sent by itself")
	}
	if showings == 0 && !run.reduced {
		// (With reduced motion the table page may ask for no pauses at all.)
		t.Errorf("the bot's scorings were never held on the board")
	}
	cells := eval[[]string](p, `[...document.querySelectorAll('[data-testid=board] [data-testid=df-notepad] tbody td')].map(td => td.textContent)`)
	if len(cells) != 2*run.rounds || strings.Contains(strings.Join(cells, "|"), "||") {
		t.Errorf("notepad cells %v, want %d filled", cells, 2*run.rounds)
	}
	if !run.reduced {
		if n := eval[int](p, `Number(document.body.dataset.dfAnimations || 0)`); n < flicks {
			t.Errorf("%d landings animated of at least %d", n, flicks)
		}
		if n := eval[int](p, `Number(document.body.dataset.dfToBag || 0)`); n == 0 {
			t.Errorf("no scored dice went back to the bag on the board")
		}
	}
	t.Logf("%s: %d flicks, %d chosen scorings, %d zero scores sent by themselves, %d bot scorings shown", run.name, flicks, picked, autoZero, showings)
	p.noExceptions()
}
