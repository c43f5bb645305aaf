package e2e

import (
	"fmt"
	"math"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/input"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// dfState is what a Diceflick table page shows right now.
type dfState struct {
	Version  int    `json:"version"`
	Phase    string `json:"phase"`
	Flick    bool   `json:"flick"` // the canvas is armed and the Flick button offered
	Score    bool   `json:"score"`
	Offer    string `json:"offer"`
	Over     bool   `json:"over"`
	Hand     int    `json:"hand"`
	Dragging bool   `json:"dragging"`
}

const dfStateJS = `(() => {
  const a = document.querySelector('[data-testid=actions]');
  const c = document.querySelector('canvas.df-arena');
  return {
    version: Number(document.body.dataset.version || -1),
    phase: document.querySelector('.df-board')?.dataset.phase || '',
    flick: !!c && c.dataset.armed === 'true' && !!a.querySelector('[data-testid=df-flick]'),
    score: !!a.querySelector('[data-testid=df-score]'),
    offer: document.querySelector('[data-testid=df-offer]')?.textContent || '',
    over: !!document.querySelector('[data-testid=winner]') && !document.querySelector('[data-testid=result]').hidden,
    hand: a.querySelectorAll('.df-die-btn').length,
    dragging: !!c && c.dataset.dragging === 'true',
  };
})()`

func (p *page) df() dfState { return eval[dfState](p, dfStateJS) }

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

// dragFlick flicks with the mouse as a person would: press on base b, drag
// back (opposite to where the die should go) by power·100 mm in a few moves,
// release. It returns the version the page had before.
func (p *page) dragFlick(b int, angle, power float64, shot string) int {
	p.t.Helper()
	before := p.df()
	type rect struct {
		Left, Top, Width, Extent float64
	}
	r := eval[rect](p, `(() => { const c = document.querySelector('canvas.df-arena'); c.scrollIntoView({block: 'center'});
	  const b = c.getBoundingClientRect(); return {left: b.left, top: b.top, width: b.width, extent: Number(c.dataset.extent)}; })()`)
	scale := r.Width / r.Extent
	toScreen := func(x, y float64) (float64, float64) {
		return r.Left + (x+r.Extent/2)*scale, r.Top + (r.Extent/2-y)*scale
	}
	bx, by := dfBasePoint(b)
	dx, dy := dfDir(b, angle)
	sx, sy := toScreen(bx, by)
	steps := []chromedp.Action[chromedp.Void]{
		chromedp.MouseEvent(chromedp.MouseMoved, sx, sy),
		chromedp.MouseEvent(chromedp.MousePressed, sx, sy, chromedp.ButtonLeft, chromedp.ClickCount(1)),
	}
	for i := 1; i <= 4; i++ {
		f := float64(i) / 4 * power * 100 // mm of drag, back against the flick
		x, y := toScreen(bx-dx*f, by-dy*f)
		steps = append(steps, chromedp.MouseEvent(chromedp.MouseMoved, x, y, chromedp.ButtonLeft, func(pp *input.DispatchMouseEventParams) { pp.Buttons = 1 }))
	}
	ex, ey := toScreen(bx-dx*power*100, by-dy*power*100)
	p.do(steps...)
	if !p.df().Dragging {
		p.fail("pressing on base %d did not start a drag", b)
	}
	if shot != "" {
		p.shot(shot) // the aim guide, mid-drag
	}
	p.do(chromedp.MouseEvent(chromedp.MouseReleased, ex, ey, chromedp.ButtonLeft, chromedp.ClickCount(1)))
	return before.Version
}

// TestDiceflickFullGame: two people in separate browsers create and join a
// Diceflick table and play the 10 rounds with mouse drag-flicks on the
// canvas (one flick from the keyboard controls), taking the best score each
// turn, to the final score. Bob plays on a phone-sized screen.
func TestDiceflickFullGame(t *testing.T) {
	ts := startServer(t)
	start := time.Now()

	ann := newPage(t, "df-ann")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	ann.do(chromedp.WaitVisible(chromedp.CSS("#name")), chromedp.WaitVisible(chromedp.CSS("#f-game")))
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"))
	ann.chooseGame("diceflick")
	ann.waitJS(3*time.Second, `!!document.querySelector('#f-opt-shiftBases')`)
	if got := eval[[]string](ann, `[...document.querySelectorAll('#f-players option')].map(o => o.value)`); !slices.Equal(got, []string{"1", "2", "3", "4"}) {
		t.Errorf("player counts offered for Diceflick: %v", got)
	}
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "human")
	ann.shot("df-01-home-form")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '0'`)
	id := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/")

	bob := newPage(t, "df-bob")
	bob.do(chromedp.EmulateViewport(390, 844))
	bob.do(chromedp.Navigate(ts.URL + "/t/" + id))
	bob.joinAtTable("Bob", 1)
	ann.waitJS(10*time.Second, `document.body.dataset.status === 'live' && !!document.querySelector('canvas.df-arena')`)
	ann.shot("df-02-start")

	people := []*page{ann, bob}
	flicks, scored, keyboardFlicks := 0, 0, 0
	shots := map[string]bool{}
	shotOnce := func(p *page, name string) {
		if !shots[name] {
			shots[name] = true
			p.shot(name)
		}
	}
	logRe := regexp.MustCompile(`angle ([+-]?\d+)°, power (\d+\.\d+)`)
	deadline := time.Now().Add(150 * time.Second)
	for !ann.df().Over {
		if time.Now().After(deadline) {
			ann.fail("the game did not end in time (%d flicks, %d scores)", flicks, scored)
		}
		acted := false
		for pi, p := range people {
			st := p.df()
			switch {
			case st.Over:
			case st.Flick:
				if pi == 1 && keyboardFlicks == 0 {
					// Bob's first flick from the keyboard controls: east base,
					// power by the slider, Enter on the Flick button.
					p.do(chromedp.Click(chromedp.CSS(`[data-testid=actions] [data-base="3"]`)))
					p.waitJS(2*time.Second, `document.querySelector('[data-base="3"]').getAttribute('aria-pressed') === 'true'`)
					eval[bool](p, `(() => { const s = document.querySelector('#df-power'); s.value = '30'; s.dispatchEvent(new Event('input', {bubbles: true})); return true; })()`)
					p.do(chromedp.Focus(chromedp.CSS(`[data-testid=df-flick]`)), chromedp.KeyEvent(kb.Enter))
					p.waitVersion(st.Version + 1)
					keyboardFlicks++
					flicks++
					acted = true
					continue
				}
				// Aim around the centre from a base that changes every flick,
				// with a little angle and power of our own.
				b := (flicks + pi) % 4
				angle := 0.25 * math.Sin(float64(flicks)*1.7)
				power := 0.27 + 0.08*math.Cos(float64(flicks)*1.3)
				shot := ""
				if flicks == 1 || flicks == 3 {
					shot = fmt.Sprintf("df-03-aim-%s-%d", p.name, flicks)
				}
				v := p.dragFlick(b, angle, power, shot)
				p.waitVersion(v + 1)
				if flicks == 0 {
					// The flick the server got is the one we dragged.
					p.waitJS(5*time.Second, `[...document.querySelectorAll('[data-testid=log] li')].some(l => /power \d+\.\d+/.test(l.textContent))`)
					line := eval[string](p, `[...document.querySelectorAll('[data-testid=log] li')].find(l => /power \d+\.\d+/.test(l.textContent)).textContent`)
					m := logRe.FindStringSubmatch(line)
					if m == nil {
						t.Fatalf("no flick in the log line %q", line)
					}
					ga, _ := strconv.Atoi(m[1])
					gp, _ := strconv.ParseFloat(m[2], 64)
					if math.Abs(float64(ga)-angle*180/math.Pi) > 3 || math.Abs(gp-power) > 0.03 {
						t.Errorf("dragged angle %.0f° power %.0f%%, the server got %q", angle*180/math.Pi, power*100, line)
					}
				}
				flicks++
				acted = true
			case st.Score:
				if strings.Contains(st.Offer, "Best") && !strings.HasSuffix(strings.TrimSpace(st.Offer), " 0") {
					shotOnce(p, fmt.Sprintf("df-04-offer-%s", p.name))
				}
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=df-score]`)))
				p.waitVersion(st.Version + 1)
				scored++
				acted = true
			}
		}
		if !acted {
			time.Sleep(40 * time.Millisecond)
		}
	}
	ann.waitJS(10*time.Second, `!document.querySelector('[data-testid=result]').hidden`)
	bob.waitJS(10*time.Second, `!document.querySelector('[data-testid=result]').hidden`)
	ann.fullShot("df-05-over-desktop")
	bob.fullShot("df-06-over-phone")

	if scored != 20 {
		t.Errorf("%d turns scored, want 20 (10 rounds × 2)", scored)
	}
	if flicks < 40 {
		t.Errorf("only %d flicks in 20 turns", flicks)
	}
	// The notepad: 10 rounds × 2 players, totals as the server has them.
	sum := getSummary(t, ts.URL, id)
	for _, p := range people {
		cells := eval[[]string](p, `[...document.querySelectorAll('[data-testid=board] [data-testid=df-notepad] tbody td')].map(td => td.textContent)`)
		if len(cells) != 20 || slices.Contains(cells, "") {
			t.Errorf("%s: notepad cells %v, want 20 filled", p.name, cells)
		}
		totals := eval[[]string](p, `[...document.querySelectorAll('[data-testid=board] [data-testid=df-total]')].map(td => td.textContent)`)
		want := []string{strconv.Itoa(sum.Result.Scores[0]), strconv.Itoa(sum.Result.Scores[1])}
		if !slices.Equal(totals, want) {
			t.Errorf("%s: notepad totals %v, server %v", p.name, totals, want)
		}
		if w := p.text("[data-testid=winner]"); w == "" {
			t.Errorf("%s: no winner line", p.name)
		}
		// Every landing was animated on both pages, the other player's too.
		if n := eval[int](p, `Number(document.body.dataset.dfAnimations || 0)`); n < flicks/2 {
			t.Errorf("%s: %d landings animated of %d flicks", p.name, n, flicks)
		}
		p.noExceptions()
	}
	if !sum.Result.Over {
		t.Errorf("the server does not have the game over: %+v", sum.Result)
	}
	t.Logf("%d flicks, %d scores in %v", flicks, scored, time.Since(start).Round(time.Millisecond))
}
