package e2e

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/games/all"
)

// TestAccessibilityScan: the lobby and a table of every game (your turn
// against a bot) have no serious or critical axe-core violation, at both
// viewports, in both languages.
func TestAccessibilityScan(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, vp := range []struct {
		name string
		w, h int64
	}{{"1440x900", 1440, 900}, {"390x844", 390, 844}} {
		p := newPage(t, "a11y-"+vp.name)
		p.do(chromedp.EmulateViewport(vp.w, vp.h))
		p.do(chromedp.Navigate(ts.URL + "/"))
		p.do(chromedp.WaitVisible(chromedp.CSS("#name")))
		p.axeClean("lobby " + vp.name)
		for _, id := range all.Registry.IDs() {
			g, _ := all.Registry.Lookup(id)
			info := g.Info()
			table := p.createTable(fmt.Sprintf(`{game: %q, name: 'Ann', seats: [{kind: 'human'}, {kind: 'bot', bot: %q}]}`, id, info.DefaultBot))
			p.do(chromedp.Navigate(ts.URL + "/t/" + table))
			p.waitJS(10*time.Second, `document.body.dataset.status === 'live' && document.body.dataset.seat === '0'`)
			p.waitJS(10*time.Second, `document.querySelector('[data-testid=board]')?.children.length > 0 && document.querySelector('[data-testid=turn]')?.textContent !== ''`)
			p.axeClean(id + " table " + vp.name)
			eval[bool](p, `import('/static/i18n.js').then((m) => { m.setLang('fr'); return true; })`)
			p.axeClean(id + " table (fr) " + vp.name)
			eval[bool](p, `import('/static/i18n.js').then((m) => { m.setLang('en'); return true; })`)
		}
	}
}
