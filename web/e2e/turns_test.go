package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestTurnBasedForm: the clock list offers turn-based clocks for the games
// that allow them, and then a time bank and what happens when time runs
// out (only the policies the game allows); a game whose rules time the
// players says it is played in real time only. A turn-based table shows
// its long clock in days and hours, with the bank left.
func TestTurnBasedForm(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	var desk *page
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		p := openLobby(t, ts.URL, fmt.Sprintf("turns-form-%d", size[0]), size[0], size[1])
		p.waitJS(5*time.Second, `!!document.querySelector('#f-game input:checked')`)
		if size[0] < 900 {
			p.do(chromedp.Click(chromedp.CSS("#cta-create")))
			p.waitJS(3*time.Second, `!document.querySelector('#create-form').hidden`)
		} else {
			desk = p
		}
		p.do(chromedp.Click(chromedp.CSS(`[data-game=dicestars] input`)))
		p.waitJS(3*time.Second, `!!document.querySelector('#f-clock optgroup') && !document.querySelector('#f-bank')`)
		eval[bool](p, `(() => { const s = document.querySelector('#f-clock'); s.value = 'turns:86400'; s.dispatchEvent(new Event('change')); return true; })()`)
		p.waitJS(3*time.Second, `!!document.querySelector('#f-bank') && !!document.querySelector('#f-expiry')`)
		if got := eval[string](p, `[...document.querySelectorAll('#f-expiry option')].map((o) => o.value).join(',')`); got != "bot,forfeit" {
			t.Errorf("Dice Stars' expiries: %q", got)
		}
		if got := eval[string](p, `document.querySelector('#f-clock').selectedOptions[0].textContent`); got != "1 day a move" {
			t.Errorf("the clock chosen reads %q", got)
		}
		p.do(chromedp.ScrollIntoView(chromedp.CSS("#f-expiry")))
		p.shot(fmt.Sprintf("turns-form-%d", size[0]))
		if over := eval[bool](p, `document.documentElement.scrollWidth > innerWidth`); over {
			t.Errorf("%d px: the form scrolls sideways", size[0])
		}
		// Bookworm's rules time the players: real time only, and the form says so.
		p.do(chromedp.Click(chromedp.CSS(`[data-game=bookworm] input`)))
		p.waitJS(3*time.Second, `!document.querySelector('#f-clock optgroup') && !document.querySelector('#f-bank')`)
		if hint := eval[string](p, `document.querySelector('#clock-hint').textContent`); !strings.Contains(hint, "real time only") {
			t.Errorf("bookworm's clock hint: %q", hint)
		}
		p.axeClean("turn-based form")
		p.noExceptions()
	}

	// A turn-based table: 1 day a move, a 3-day bank.
	p := desk
	p.do(chromedp.Click(chromedp.CSS(`[data-game=dicestars] input`)))
	eval[bool](p, `(() => { const s = document.querySelector('#f-clock'); s.value = 'turns:86400'; s.dispatchEvent(new Event('change')); return true; })()`)
	p.waitJS(3*time.Second, `!!document.querySelector('#f-bank')`)
	p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"), chromedp.Click(chromedp.CSS("#create")))
	p.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && /bank/.test(document.querySelector('[data-testid=clock]')?.textContent || '')`)
	if got := eval[string](p, `document.querySelector('[data-testid=clock]').textContent`); !strings.Contains(got, "4 days left · bank 3 days") {
		t.Errorf("the table's clock reads %q", got)
	}
	p.shot("turns-table-1440")
	p.do(chromedp.EmulateViewport(390, 844))
	p.waitJS(3*time.Second, `document.documentElement.scrollWidth <= innerWidth`)
	p.shot("turns-table-390")
	p.do(chromedp.EmulateViewport(1440, 900))
	// My games: "your turn, 4 days left".
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.waitJS(5*time.Second, `/left/.test(document.querySelector('.your-turn .badge')?.textContent || '')`)
	p.shot("turns-mine-1440")
	p.noExceptions()
}
