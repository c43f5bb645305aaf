package e2e

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// Dice Stars played on the board: reserve dice and sheet cells are tapped,
// the preview shows the cells a take fills before it is confirmed, and the
// board fits the screen on your turn, at desktop and phone sizes.

type dsState struct {
	Version int      `json:"version"`
	Over    bool     `json:"over"`
	Draws   []string `json:"draws"` // data-action of the legal draw buttons
	Takes   []string `json:"takes"` // data-key of the take choices
	Dice    []string `json:"dice"`  // the reserve dice that take taps
}

const dsStateJS = `(() => ({
  version: Number(document.body.dataset.version || -1),
  over: document.body.dataset.status === 'over',
  draws: [...document.querySelectorAll('.ds-actions button.choice.draw.legal')].map((b) => b.dataset.action),
  takes: [...document.querySelectorAll('.ds-actions button.choice.take')].map((b) => b.dataset.key),
  dice: [...document.querySelectorAll('.ds-tray button.die')].map((b) => b.dataset.die),
}))()`

func (p *page) ds() dsState { return eval[dsState](p, dsStateJS) }

// dsPreview is what the sheet previews: "cell=ghost" for every highlighted
// cell of your sheet, the total it would reach and the solo cells it costs.
type dsPreview struct {
	Cells   []string `json:"cells"`
	Total   string   `json:"total"`
	Solo    int      `json:"solo"`
	Penalty string   `json:"penalty"`
	Text    string   `json:"text"`
}

const dsPreviewJS = `(() => ({
  cells: [...document.querySelectorAll('.board-slot .sheet.mine .cell.pv')].map((c) => (c.dataset.cell || c.dataset.mult) + '=' + c.dataset.ghost),
  total: document.querySelector('.board-slot .sheet.mine .sheet-foot .total')?.dataset.ghost || '',
  solo: document.querySelectorAll('.board-slot .sheet.mine .solo-cell.pv').length,
  penalty: document.querySelector('.board-slot .sheet.mine .penalty.pv')?.dataset.ghost || '',
  text: document.querySelector('[data-testid=preview]')?.textContent || '',
}))()`

func (p *page) dsPreview() dsPreview { return eval[dsPreview](p, dsPreviewJS) }

// dsSheet is your sheet as written: every cell's text, marked multipliers,
// the total and the marked solo cells.
type dsSheet struct {
	Cells map[string]string `json:"cells"`
	Mult  []string          `json:"mult"`
	Total string            `json:"total"`
	Solo  int               `json:"solo"`
}

const dsSheetJS = `(() => ({
  cells: Object.fromEntries([...document.querySelectorAll('.board-slot .sheet.mine [data-cell]')].map((c) => [c.dataset.cell, c.textContent])),
  mult: [...document.querySelectorAll('.board-slot .sheet.mine .cell.mult.on')].map((c) => c.dataset.mult),
  total: document.querySelector('.board-slot .sheet.mine [data-testid=total]').textContent,
  solo: document.querySelectorAll('.board-slot .sheet.mine .solo-cell.on').length,
}))()`

func (p *page) dsSheet() dsSheet { return eval[dsSheet](p, dsSheetJS) }

// checkPreviewCameTrue compares the preview shown before a take with the
// sheet after it: exactly the highlighted cells were written, with the
// previewed text, the total is the previewed one, and the solo grid took
// the previewed marks.
func checkPreviewCameTrue(t *testing.T, what string, pv dsPreview, before, after dsSheet) {
	t.Helper()
	want := map[string]string{}
	wantMult := 0
	for _, c := range pv.Cells {
		k, v, _ := strings.Cut(c, "=")
		if v == "★" {
			wantMult++
			if !strings.Contains(","+strings.Join(after.Mult, ",")+",", ","+k+",") {
				t.Errorf("%s: multiplier %s previewed, not marked after", what, k)
			}
			continue
		}
		want[k] = v
	}
	if len(want) == 0 && wantMult == 0 && pv.Penalty == "" {
		t.Errorf("%s: the preview highlighted nothing (%+v)", what, pv)
	}
	for k, v := range after.Cells {
		if before.Cells[k] == v {
			if _, ok := want[k]; ok {
				t.Errorf("%s: cell %s previewed as %q, still %q after", what, k, want[k], v)
			}
			continue
		}
		if w, ok := want[k]; !ok {
			t.Errorf("%s: cell %s written (%q) but not previewed (preview %v)", what, k, v, pv.Cells)
		} else if w != v {
			t.Errorf("%s: cell %s previewed %q, written %q", what, k, w, v)
		}
	}
	if got := len(after.Mult) - len(before.Mult); got != wantMult {
		t.Errorf("%s: %d multipliers marked, %d previewed", what, got, wantMult)
	}
	if pv.Total != after.Total {
		t.Errorf("%s: total previewed %s, now %s", what, pv.Total, after.Total)
	}
	if got := after.Solo - before.Solo; got != pv.Solo {
		t.Errorf("%s: solo grid +%d, previewed +%d", what, got, pv.Solo)
	}
}

// dsMyTurn waits until the page offers a choice (or the game is over).
func (p *page) dsMyTurn() dsState {
	p.t.Helper()
	p.waitJS(30*time.Second, `document.body.dataset.status === 'over' || !!document.querySelector('.ds-actions .choice.legal')`)
	return p.ds()
}

// dsFits checks that your sheet, the reserve and the controls are on screen
// without scrolling.
func (p *page) dsFits(where string) {
	p.t.Helper()
	eval[bool](p, `(() => { window.scrollTo(0, 0); return true; })()`)
	// The sheet's own box must not scroll either (the French sheet did).
	if w := eval[string](p, `[...document.querySelectorAll('.board-slot .table-scroll')].filter((e) => e.scrollWidth > e.clientWidth + 1).map((e) => e.closest('.sheet').getAttribute('aria-label')).join(', ')`); w != "" {
		p.fail("%s: sheets wider than their box: %s", where, w)
	}
	p.inViewport(where, ".board-slot .sheet.mine", "[data-testid=reserve]", ".ds-actions")
}

// dsDraw draws (the last legal draw: as many dice as allowed) by a click.
func (p *page) dsDraw(st dsState) {
	p.t.Helper()
	sel := fmt.Sprintf(`.ds-actions button.choice.draw[data-action=%q]`, st.Draws[len(st.Draws)-1])
	p.do(chromedp.Click(chromedp.CSS(sel)))
	p.waitVersion(st.Version + 1)
}

// dsDieToTap picks a reserve die whose first tap shows a legal take.
const dsDieToTapJS = `(() => {
  const keys = new Set([...document.querySelectorAll('.ds-actions button.choice.take')].map((b) => b.dataset.key));
  return [...document.querySelectorAll('.ds-tray button.die')].findIndex((b) => {
    const [c, f] = b.dataset.die.split(':');
    return f === 'star' ? keys.has('stars') || keys.has('c' + c) : keys.has('c' + c) || keys.has('v' + f);
  });
})()`

// dsTake plays one take on the board. how: "die" taps a die and taps it
// again; "cell" taps a cell of your sheet then Confirm; "stars" taps a
// star die, moves the star by tapping a yellow cell and taps it again.
// It checks the preview against the sheet afterwards.
func (p *page) dsTake(st dsState, how string, shot string) {
	p.t.Helper()
	before := p.dsSheet()
	var second string
	switch how {
	case "stars":
		i := eval[int](p, `[...document.querySelectorAll('.ds-tray button.die')].findIndex((b) => b.dataset.die.endsWith(':star'))`)
		p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#ds-die-%d", i))))
		p.waitJS(3*time.Second, `!!document.querySelector('[data-testid=preview]') && document.querySelector('.ds-actions [data-key=stars]').getAttribute('aria-pressed') === 'true'`)
		// Move a star: tap a free yellow cell of another row.
		moved := eval[string](p, `(() => {
  const pv = new Set([...document.querySelectorAll('.board-slot .sheet.mine .cell.mult.pv')].map((c) => c.dataset.mult.split(':')[1]));
  const c = [...document.querySelectorAll('.board-slot .sheet.mine .cell.mult:not(.on):not(.pv)')].find((c) => !pv.has(c.dataset.mult.split(':')[1]));
  return c ? c.dataset.mult : '';
})()`)
		if moved != "" {
			p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`.board-slot .sheet.mine [data-mult="%s"]`, moved))))
			row := strings.Split(moved, ":")[1]
			p.waitJS(3*time.Second, fmt.Sprintf(`!!document.querySelector('.board-slot .sheet.mine .cell.mult.pv[data-mult^="%s:%s:"]')`, strings.Split(moved, ":")[0], row))
		}
		second = `.board-slot .sheet.mine .cell.mult.pv`
	case "cell":
		key := eval[string](p, `[...document.querySelectorAll('.ds-actions button.choice.take')].map((b) => b.dataset.key).find((k) => k !== 'stars') || ''`)
		var cell string
		if strings.HasPrefix(key, "c") {
			cell = fmt.Sprintf(`.board-slot .sheet.mine td.white.col-%s:not(.filled)`, key[1:])
		} else {
			cell = fmt.Sprintf(`.board-slot .sheet.mine [data-rowhead="%s"]`, key[1:])
		}
		p.do(chromedp.Click(chromedp.CSS(cell)))
		p.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('.ds-actions [data-key=%s]')?.getAttribute('aria-pressed') === 'true'`, key))
		second = `[data-testid=confirm]`
	default:
		i := eval[int](p, dsDieToTapJS)
		if i < 0 {
			p.fail("no die to tap in %v (choices %v)", st.Dice, st.Takes)
		}
		p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#ds-die-%d", i))))
		p.waitJS(3*time.Second, fmt.Sprintf(`document.querySelector('#ds-die-%d')?.getAttribute('aria-pressed') === 'true'`, i))
		second = fmt.Sprintf("#ds-die-%d", i)
	}
	pv := p.dsPreview()
	if v := p.ds().Version; v != st.Version {
		p.fail("the first tap played (version %d → %d): there must be a confirm step", st.Version, v)
	}
	if shot != "" {
		p.dsFits(shot)
		p.shot(shot)
	}
	p.do(chromedp.Click(chromedp.CSS(second)))
	p.waitVersion(st.Version + 1)
	checkPreviewCameTrue(p.t, how+" take", pv, before, p.dsSheet())
}

// dsKeyboardTurn plays a whole turn from the keyboard alone: Tab to the
// choices, Enter draws; then an arrow to another take, Enter shows it,
// Enter again plays it.
func (p *page) dsKeyboardTurn(first bool) {
	p.t.Helper()
	st := p.dsMyTurn()
	if st.Over {
		return
	}
	onChoice := `document.activeElement?.matches('.ds-actions .choice.legal')`
	if first {
		for i := 0; i < 60 && !eval[bool](p, "!!("+onChoice+")"); i++ {
			p.do(chromedp.KeyEvent(kb.Tab))
		}
	}
	p.waitJS(5*time.Second, onChoice)
	if len(st.Draws) > 0 {
		p.do(chromedp.KeyEvent(kb.Enter))
		p.waitVersion(st.Version + 1)
		st = p.dsMyTurn()
		if st.Over {
			return
		}
	}
	p.waitJS(5*time.Second, `document.activeElement?.matches('.ds-actions .choice.take')`)
	if len(st.Takes) > 1 {
		p.do(chromedp.KeyEvent(kb.ArrowRight))
	}
	key := eval[string](p, `document.activeElement.dataset.key`)
	before := p.dsSheet()
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(3*time.Second, `!!document.querySelector('[data-testid=preview]') && `+onChoice)
	if eval[string](p, `document.activeElement.dataset.key`) != key {
		p.fail("the focus left the choice %s after Enter", key)
	}
	pv := p.dsPreview()
	// Escape cancels, Enter shows it again, Enter plays.
	p.do(chromedp.KeyEvent(kb.Escape))
	p.waitJS(3*time.Second, `!document.querySelector('[data-testid=preview]')`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitJS(3*time.Second, `!!document.querySelector('[data-testid=preview]')`)
	p.do(chromedp.KeyEvent(kb.Enter))
	p.waitVersion(st.Version + 1)
	checkPreviewCameTrue(p.t, "keyboard take "+key, pv, before, p.dsSheet())
}

func (p *page) dsScheme(dark bool) {
	p.t.Helper()
	v := "light"
	if dark {
		v = "dark"
	}
	p.do(chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
		return err
	}))
}

func (p *page) dsLang(l string) {
	p.t.Helper()
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`.lang-switch [data-lang=%s]`, l))))
	p.waitJS(3*time.Second, fmt.Sprintf(`document.documentElement.lang === %q`, l))
}

var dsViewports = []struct {
	name string
	w, h int64
}{{"1440x900", 1440, 900}, {"390x844", 390, 844}}

// TestDiceStarsSoloOnTheBoard: a solo game played to its end by tapping
// dice and cells, the first turns from the keyboard alone; then one tap
// plays when confirmations are off.
func TestDiceStarsSoloOnTheBoard(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, vp := range dsViewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			p := newPage(t, "ds-solo-"+vp.name)
			p.do(chromedp.EmulateViewport(vp.w, vp.h))
			p.do(chromedp.Navigate(ts.URL + "/"))
			eval[bool](p, `(() => { localStorage.setItem('dh.lang', 'en'); return true; })()`)
			id := p.createTable(`{game: 'dicestars', name: 'Ann', seats: [{kind: 'human'}]}`)
			p.do(chromedp.Navigate(ts.URL + "/t/" + id))
			p.waitJS(10*time.Second, `document.body.dataset.seat === '0' && document.body.dataset.status === 'live'`)

			for i := 0; i < 3; i++ {
				p.dsKeyboardTurn(i == 0)
			}
			turns, shots := 0, 0
			for {
				st := p.dsMyTurn()
				if st.Over {
					break
				}
				if turns > 60 {
					p.fail("the solo game did not end")
				}
				if len(st.Draws) > 0 {
					if turns == 0 {
						p.dsFits("solo draw " + vp.name)
						p.dsHint("ds-hint-draw-" + vp.name)
					}
					p.dsDraw(st)
					continue
				}
				shot := ""
				if shots < 2 {
					if shots == 0 {
						p.dsHint("ds-hint-take-" + vp.name)
					}
					shot = fmt.Sprintf("ds-solo-%s-preview-%d", vp.name, shots)
					shots++
				}
				how := []string{"die", "cell"}[turns%2]
				if hasStarDie(st) && contains(st.Takes, "stars") {
					how = "stars"
				}
				p.dsTake(st, how, shot)
				turns++
			}
			p.waitJS(5*time.Second, `!document.querySelector('[data-testid=result]').hidden`)
			p.shot("ds-solo-" + vp.name + "-end")
			p.fullShot("ds-solo-" + vp.name + "-end-full")
			if vp.name == "1440x900" {
				p.dsReview()
			}
			p.noExceptions()
		})
	}
}

// dsHint asks the coach on your turn: its choice is marked on a choice
// you can press (a take's dice and cells too), light and dark; then the
// hint is closed and the marks go.
func (p *page) dsHint(shot string) {
	p.t.Helper()
	// The server's coach takes a few hints at once (both phone and desktop
	// ask on one server): a busy coach is asked again.
	for try := 0; ; try++ {
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=hint]`)))
		p.waitJS(30*time.Second, `!!document.querySelector('[data-testid=hint-best], [data-testid=hint-refused]')`)
		if try == 10 || !eval[bool](p, `!!document.querySelector('[data-testid=hint-refused]')`) {
			break
		}
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=hint-close]`)))
		time.Sleep(300 * time.Millisecond)
	}
	if !eval[bool](p, `!!document.querySelector('.ds-actions .choice.legal.hinted')`) {
		p.t.Errorf("%s: the coach's choice is not marked on a choice: %s", shot, p.text(`[data-testid=coach]`))
	}
	if eval[bool](p, `!!document.querySelector('.ds-actions .choice.take.hinted')`) &&
		!eval[bool](p, `!!document.querySelector('.ds-tray button.die.hinted') && !!document.querySelector('.board-slot .sheet.mine .hinted')`) {
		p.t.Errorf("%s: the coach's take is not marked on its dice and cells", shot)
	}
	p.shot(shot)
	p.dsScheme(true)
	p.shot(shot + "-dark")
	p.dsScheme(false)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid=hint-close]`)))
	p.waitJS(5*time.Second, `!document.querySelector('.hinted')`)
}

// dsReview: the finished game's review; a decision picked where the move
// played was not the best (a take, when there is one) shows both on the
// replay's board, with their key.
func (p *page) dsReview() {
	p.t.Helper()
	p.waitJS(90*time.Second, `!!document.querySelector('[data-testid=review-graph] svg')`)
	move := eval[int](p, `fetch(location.pathname.replace('/t/', '/api/tables/') + '/review').then((r) => r.json()).then((b) => {
	  const ds = b.review.decisions;
	  const off = (d) => d.data && d.data.played && JSON.stringify(d.data.played) !== JSON.stringify(d.data.best);
	  let k = ds.findIndex((d) => off(d) && d.data.played.take && d.data.best.take);
	  if (k < 0) k = Math.max(0, ds.findIndex(off));
	  document.querySelector('[data-testid=review-all] button[data-decision="' + k + '"]').click();
	  return ds[k].move; })`)
	p.waitJS(5*time.Second, fmt.Sprintf(`%s === %d && !!document.querySelector('.replay-board [data-testid=ds-review-key]')`, reviewStep, move))
	if !eval[bool](p, `!!document.querySelector('.replay-board .ds-rv-best')`) {
		p.t.Error("the best move is not marked on the replay's board")
	}
	if k := p.text(`.replay-board [data-testid=ds-review-key]`); !strings.Contains(k, "Best") && !strings.Contains(k, "best move") {
		p.t.Errorf("the review's key says %q", k)
	}
	for _, vp := range dsViewports {
		p.do(chromedp.EmulateViewport(vp.w, vp.h))
		p.settle()
		p.do(chromedp.ScrollIntoView(chromedp.CSS(`.replay-board`)))
		p.shot("ds-review-" + vp.name)
		p.dsScheme(true)
		p.shot("ds-review-" + vp.name + "-dark")
		p.dsScheme(false)
	}
	p.axeClean("a Dice Stars review")
	// A draw: the bag is marked, the key names the draws.
	move = eval[int](p, `fetch(location.pathname.replace('/t/', '/api/tables/') + '/review').then((r) => r.json()).then((b) => {
	  const k = b.review.decisions.findIndex((d) => d.data && d.data.best.draw !== undefined);
	  if (k < 0) return -1;
	  document.querySelector('[data-testid=review-all] button[data-decision="' + k + '"]').click();
	  return b.review.decisions[k].move; })`)
	if move >= 0 {
		p.waitJS(5*time.Second, fmt.Sprintf(`%s === %d && !!document.querySelector('.replay-board [data-testid=ds-review-key]')`, reviewStep, move))
		if k := p.text(`.replay-board [data-testid=ds-review-key]`); !strings.Contains(k, "raw") || !eval[bool](p, `!!document.querySelector('.replay-board .count-box.ds-rv-best')`) {
			p.t.Errorf("a reviewed draw: the bag is not marked, or the key says %q", k)
		}
		p.do(chromedp.ScrollIntoView(chromedp.CSS(`.replay-board`)))
		p.shot("ds-review-draw-390x844")
	}
}

func hasStarDie(st dsState) bool {
	for _, d := range st.Dice {
		if strings.HasSuffix(d, ":star") {
			return true
		}
	}
	return false
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// TestDiceStarsVersusBot: a game against a bot played by tapping, with the
// screens looked at in English and French, light and dark; the bot's takes
// are shown before they land; with confirmations off one tap plays.
func TestDiceStarsVersusBot(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, vp := range dsViewports {
		t.Run(vp.name, func(t *testing.T) {
			t.Parallel()
			p := newPage(t, "ds-bot-"+vp.name)
			p.do(chromedp.EmulateViewport(vp.w, vp.h))
			p.do(chromedp.Navigate(ts.URL + "/"))
			eval[bool](p, `(() => { localStorage.setItem('dh.lang', 'en'); return true; })()`)
			id := p.createTable(`{game: 'dicestars', name: 'Ann', seats: [{kind: 'human'}, {kind: 'bot', bot: 'greedy'}]}`)
			p.do(chromedp.Navigate(ts.URL + "/t/" + id))
			p.waitJS(10*time.Second, `document.body.dataset.seat === '0' && document.body.dataset.status === 'live'`)

			sawBot := false
			for turn := 0; turn < 8; turn++ {
				st := p.dsMyTurn()
				if st.Over {
					break
				}
				if len(st.Draws) > 0 {
					p.dsDraw(st)
					st = p.dsMyTurn()
				}
				shot := ""
				if turn == 1 {
					shot = "ds-bot-" + vp.name + "-en-light-preview"
				}
				how := []string{"die", "cell"}[turn%2]
				if hasStarDie(st) && contains(st.Takes, "stars") {
					how = "stars"
				}
				p.dsTake(st, how, shot)
				// The bot's take shows on the old board before it lands.
				if !sawBot {
					ok := p.doErr(20*time.Second, chromedp.WaitVisible(chromedp.CSS(`.sheet[data-seat="1"] .cell.pv.theirs, .sheet[data-seat="1"] .penalty.pv.theirs`))) == nil
					if ok {
						sawBot = true
						p.shot("ds-bot-" + vp.name + "-bot-take")
						// Seen at normal speed: the bot's other takes go by fast.
						p.fastBots()
					}
				}
			}
			if !sawBot {
				t.Error("the bot's take was never shown before it landed")
			}

			// The same decision in every look: a preview, in EN/FR, light/dark.
			st := p.dsMyTurn()
			if !st.Over {
				if len(st.Draws) > 0 {
					p.dsDraw(st)
					st = p.dsMyTurn()
				}
				i := eval[int](p, dsDieToTapJS)
				p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#ds-die-%d", i))))
				p.waitJS(3*time.Second, `!!document.querySelector('[data-testid=preview]')`)
				p.axeClean("dice stars preview " + vp.name)
				for _, lang := range []string{"en", "fr"} {
					p.dsLang(lang)
					p.waitJS(3*time.Second, `!!document.querySelector('[data-testid=preview]')`)
					for _, dark := range []bool{false, true} {
						p.dsScheme(dark)
						name := fmt.Sprintf("ds-bot-%s-%s-%s", vp.name, lang, map[bool]string{false: "light", true: "dark"}[dark])
						p.dsFits(name)
						p.shot(name)
					}
				}
				p.dsScheme(false)
				p.dsLang("en")
				p.do(chromedp.KeyEvent(kb.Escape))
				p.waitJS(3*time.Second, `!document.querySelector('[data-testid=preview]')`)

				// Confirmations off: one tap plays.
				eval[bool](p, `import('/static/prefs.js').then((m) => { m.setPref('confirm', false); return true; })`)
				i = eval[int](p, dsDieToTapJS)
				p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf("#ds-die-%d", i))))
				p.waitVersion(st.Version + 1)
			}
			p.noExceptions()
		})
	}
}
