package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// The accessibility scan runs axe-core (pinned in axe/package.json and
// installed from the npm registry by `npm ci --prefix web/e2e/axe`, which
// scripts/test.sh does) inside the page under test.

var (
	axeOnce sync.Once
	axeSrc  string
	axeErr  error
)

// axePath is $DICEHALL_AXE, else the copy npm ci installs next to the tests.
func axePath() string {
	if p := os.Getenv("DICEHALL_AXE"); p != "" {
		return p
	}
	return filepath.Join("axe", "node_modules", "axe-core", "axe.min.js")
}

func axeSource(t *testing.T) string {
	t.Helper()
	axeOnce.Do(func() {
		var b []byte
		b, axeErr = os.ReadFile(axePath())
		axeSrc = string(b)
	})
	if axeErr != nil {
		if os.Getenv("DICEHALL_E2E") == "require" {
			t.Fatalf("axe-core is missing (%v): run `npm ci --prefix web/e2e/axe` (scripts/test.sh does)", axeErr)
		}
		t.Skipf("axe-core is missing (%v): run `npm ci --prefix web/e2e/axe`", axeErr)
	}
	return axeSrc
}

// axeViolation is the part of an axe-core result a failure message needs.
type axeViolation struct {
	ID     string   `json:"id"`
	Impact string   `json:"impact"`
	Help   string   `json:"help"`
	Nodes  []string `json:"nodes"`
}

// axeRun is evaluated in the page: WCAG 2.1 A/AA rules and best practices,
// violations reduced to what a message needs.
const axeRun = `(async () => {
  const r = await axe.run(document, {runOnly: {type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice']}});
  return JSON.stringify(r.violations.map((v) => ({id: v.id, impact: v.impact || '', help: v.help,
    nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' ') + (n.failureSummary ? ' — ' + n.failureSummary.split('\n').slice(1, 2).join('') : ''))})));
})()`

// axeClean scans the page as it is now and fails the test on any serious or
// critical violation, and on headings that skip a level (heading-order);
// the other minor and moderate ones are logged.
func (p *page) axeClean(where string) {
	p.t.Helper()
	src := axeSource(p.t)
	if !eval[bool](p, `typeof axe !== 'undefined'`) {
		// Evaluated through DevTools, so the page's Content-Security-Policy
		// (script-src 'self') does not stop it.
		eval[bool](p, src+";\ntrue")
	}
	p.settle()
	ctx, cancel := context.WithTimeout(p.ctx, 30*time.Second)
	defer cancel()
	out, err := chromedp.Run(ctx, chromedp.Evaluate[string](axeRun, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("%s: axe-core: %v", where, err)
	}
	var vs []axeViolation
	if err := json.Unmarshal([]byte(out), &vs); err != nil {
		p.fail("%s: axe-core result: %v", where, err)
	}
	var bad []string
	for _, v := range vs {
		line := v.Impact + " " + v.ID + ": " + v.Help + "\n      " + strings.Join(v.Nodes, "\n      ")
		if v.Impact == "serious" || v.Impact == "critical" || v.ID == "heading-order" {
			bad = append(bad, line)
		} else {
			p.t.Logf("%s: axe (%s) %s", where, v.Impact, line)
		}
	}
	// DICEHALL_AXE_LIST=1 logs them instead, to list every page's at once.
	if len(bad) > 0 && os.Getenv("DICEHALL_AXE_LIST") != "" {
		p.t.Logf("%s: %s", where, strings.Join(bad, "\n  "))
		return
	}
	if len(bad) > 0 {
		p.shot("axe-" + p.name)
		p.fail("%s: axe-core finds %d serious, critical or heading-order violations:\n  %s", where, len(bad), strings.Join(bad, "\n  "))
	}
}

// inViewport fails unless every element matching each selector lies wholly
// inside the viewport as the page first shows it, that is without
// scrolling (and without horizontal overflow). Hidden elements (no box)
// are ignored; a selector matching no visible element fails.
func (p *page) inViewport(where string, selectors ...string) {
	p.t.Helper()
	sels, _ := json.Marshal(selectors)
	out := eval[string](p, `(() => {
  const W = document.documentElement.clientWidth, H = window.innerHeight;
  const sx = window.scrollX, sy = window.scrollY;
  const problems = [];
  if (document.documentElement.scrollWidth > W + 1) problems.push('the page scrolls sideways (' + document.documentElement.scrollWidth + ' > ' + W + ' px)');
  for (const sel of `+string(sels)+`) {
    const els = [...document.querySelectorAll(sel)].filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; });
    if (!els.length) { problems.push(sel + ': nothing visible'); continue; }
    for (const e of els) {
      const r = e.getBoundingClientRect();
      const top = r.top + sy, left = r.left + sx, bottom = r.bottom + sy, right = r.right + sx;
      if (top < -1 || left < -1 || bottom > H + 1 || right > W + 1) {
        problems.push(sel + ' at x ' + Math.round(left) + '..' + Math.round(right) + ', y ' + Math.round(top) + '..' + Math.round(bottom) + ' (viewport ' + W + '×' + H + ')');
        break;
      }
    }
  }
  return problems.join('\n');
})()`)
	if out != "" {
		p.fail("%s: not inside the viewport without scrolling:\n%s", where, out)
	}
}

// settle ends the page's running transitions and animations, so colours are
// measured as they will stay, not halfway through a change.
func (p *page) settle() {
	p.t.Helper()
	eval[bool](p, `(document.getAnimations().forEach((a) => { try { a.finish(); } catch { a.cancel(); } }), true)`)
}
