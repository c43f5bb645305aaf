package e2e

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
)

// cspWatch is run in every document before its scripts: it keeps every
// Content-Security-Policy violation the browser reports.
const cspWatch = `window.__csp = [];
document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(e.violatedDirective + ' ' + e.blockedURI));`

// TestContentSecurityPolicyHolds: under the server's policy the pages get
// everything they use (modules, a game's module by dynamic import and its
// stylesheet by <link>, the data: icon, fetch and the WebSocket) and the
// browser reports no violation.
func TestContentSecurityPolicyHolds(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	p := newPage(t, "csp")
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdppage.AddScriptToEvaluateOnNewDocumentResult, error) {
		return cdp.Call(ctx, tg, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: cspWatch})
	})
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	noViolations := func(where string) {
		t.Helper()
		if v := eval[[]string](p, `window.__csp || ['the watcher did not run']`); len(v) > 0 {
			p.fail("%s: Content-Security-Policy violations: %v", where, v)
		}
	}
	p.do(chromedp.Navigate(ts.URL + "/"))
	p.waitJS(10*time.Second, `document.querySelectorAll('form select, form input').length > 0`)
	noViolations("home page")
	for _, game := range []string{"dicestars", "bookworm", "diceflick"} {
		id := p.createTable(fmt.Sprintf(`{game: '%s', name: 'Ann', seats: [{kind: 'human'}, {kind: 'bot'}]}`, game))
		p.do(chromedp.Navigate(ts.URL + "/t/" + id))
		p.waitJS(10*time.Second, fmt.Sprintf(`document.body.dataset.seat === '0'
			&& [...document.styleSheets].some((s) => (s.href || '').endsWith('/static/%s.css'))
			&& document.querySelector('[data-testid=board]').children.length > 0
			&& document.querySelector('[data-testid=conn]').textContent === 'Connected.'`, game))
		noViolations(game + " table")
	}
}
