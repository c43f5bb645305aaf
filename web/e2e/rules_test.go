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

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// rulesState is what the rules page shows.
type rulesState struct {
	Title    string `json:"title"`
	Sections int    `json:"sections"`
	Toc      int    `json:"toc"`
	Examples int    `json:"examples"`
	Drawn    int    `json:"drawn"`
	Empty    int    `json:"empty"`
	Overflow bool   `json:"overflow"`
	Lang     string `json:"lang"`
}

const rulesStateJS = `(() => {
  const ex = [...document.querySelectorAll('[data-testid=rules-example]')];
  return {
    title: document.querySelector('[data-testid=rules-title]')?.textContent || '',
    sections: [...document.querySelectorAll('.rules-text h2')].filter((h) => !h.closest('.rules-board')).length, // not the boards' own
    toc: document.querySelectorAll('[data-testid=rules-toc] li a').length,
    examples: ex.length,
    drawn: ex.filter((f) => f.querySelector('.rules-board[data-drawn=true]')).length,
    // A drawn board that is blank: no size, or nothing inside.
    empty: ex.filter((f) => { const b = f.querySelector('.rules-board > *'); const r = b?.getBoundingClientRect();
      return !b || !r || r.width < 100 || r.height < 80 || b.querySelectorAll('*').length < 10; }).length,
    overflow: document.documentElement.scrollWidth > window.innerWidth + 1,
    lang: document.documentElement.lang,
  };
})()`

// TestRulesPages opens every game's rules page at both viewports, in
// English and French and in dark mode: the text and its table of contents
// are there, every example is a board drawn by the game's own renderer,
// nothing overflows sideways, axe-core finds nothing serious, and the
// console stays clean.
func TestRulesPages(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		if _, ok := g.(engine.Rulebook); !ok {
			continue
		}
		for _, vp := range []struct {
			name string
			w, h int64
		}{{"desk", 1440, 900}, {"phone", 390, 844}} {
			t.Run(id+"-"+vp.name, func(t *testing.T) {
				t.Parallel()
				p := newPage(t, id+"-"+vp.name)
				p.do(chromedp.EmulateViewport(vp.w, vp.h))
				check := func(lang string) rulesState {
					p.waitJS(20*time.Second, `document.querySelector('[data-testid=rules-text]')?.getAttribute('aria-busy') === 'false' && document.documentElement.lang === '`+lang+`'`)
					st := eval[rulesState](p, rulesStateJS)
					if !strings.Contains(st.Title, g.Info().Title) || st.Sections < 4 || st.Toc != st.Sections ||
						st.Examples == 0 || st.Drawn != st.Examples || st.Empty != 0 || st.Overflow {
						p.fail("%s: %+v", lang, st)
					}
					return st
				}
				p.do(chromedp.Navigate(ts.URL + "/"))
				eval[bool](p, `(localStorage.setItem('dh.lang','en'), true)`)
				p.do(chromedp.Navigate(ts.URL + "/rules/" + id))
				en := check("en")
				p.axeClean("rules " + id + " " + vp.name + " en")
				p.shot(fmt.Sprintf("rules-%s-%s-en", id, vp.name))
				// The first example in view.
				eval[bool](p, `(document.querySelector('[data-testid=rules-example]').scrollIntoView({block: 'center'}), true)`)
				p.shot(fmt.Sprintf("rules-%s-%s-en-example", id, vp.name))
				p.fullShot(fmt.Sprintf("rules-%s-%s-en-full", id, vp.name))
				p.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
				fr := check("fr")
				p.axeClean("rules " + id + " " + vp.name + " fr")
				if fr.Sections != en.Sections || fr.Examples != en.Examples || fr.Title == en.Title {
					p.fail("French %+v, English %+v", fr, en)
				}
				eval[bool](p, `(window.scrollTo(0, 0), true)`)
				p.shot(fmt.Sprintf("rules-%s-%s-fr", id, vp.name))
				p.do(chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
					_, err := cdp.Call(ctx, tg, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
						Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: "dark"}}})
					return err
				}))
				eval[bool](p, `(document.querySelector('[data-testid=rules-example]').scrollIntoView({block: 'center'}), true)`)
				p.shot(fmt.Sprintf("rules-%s-%s-fr-dark", id, vp.name))
				p.noExceptions()
				if logs := p.logs.String(); strings.Contains(logs, "console.error") || strings.Contains(logs, "rules example") {
					t.Errorf("console:\n%s", logs)
				}
			})
		}
	}
	t.Run("unknown", func(t *testing.T) {
		t.Parallel()
		p := newPage(t, "rules-unknown")
		p.do(chromedp.Navigate(ts.URL + "/rules/nosuchgame"))
		if got := eval[string](p, `document.body.textContent`); !strings.Contains(got, "404") && !strings.Contains(strings.ToLower(got), "not found") {
			p.fail("an unknown game's rules page: %q", got)
		}
	})
}
