package e2e

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"
)

// One Chromium serves the whole test binary; every player, spectator or
// page gets its own browser context (its own cookies and storage), which is
// as separate as two browsers for what the tests check, and much cheaper.
var (
	browserOnce sync.Once
	browserCtx  context.Context
	browserStop func()
	browserErr  error
)

// defaultParallel is how many tests run at once when -parallel is not
// given: every test calls t.Parallel (each has its own server and its own
// browser contexts) and most of their time is spent waiting on the pages'
// pacing, the bots and the games' clocks, not on the processor; more at
// once than this crowds a 2-core machine. `go test -parallel n` overrides.
const defaultParallel = 4

func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		flag.Set("test.parallel", strconv.Itoa(defaultParallel))
	}
	code := m.Run()
	if browserStop != nil {
		browserStop()
	}
	os.Exit(code)
}

func chromiumPath() string {
	if p := os.Getenv("DICEHALL_CHROMIUM"); p != "" {
		return p
	}
	for _, p := range []string{"/usr/bin/chromium", "/usr/bin/chromium-browser"} {
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	if p, err := exec.LookPath("chromium"); err == nil {
		return p
	}
	return ""
}

// browser starts Chromium once, or skips the test when it is missing and
// DICEHALL_E2E is not "require" (CI sets require, so a missing browser fails
// there instead of passing silently).
func browser(t *testing.T) context.Context {
	t.Helper()
	path := chromiumPath()
	if path == "" {
		if os.Getenv("DICEHALL_E2E") == "require" {
			t.Fatal("chromium not found and DICEHALL_E2E=require: install Debian's chromium (or set DICEHALL_CHROMIUM)")
		}
		t.Skip("chromium not found (/usr/bin/chromium): skipping browser tests; set DICEHALL_E2E=require to make this a failure")
	}
	browserOnce.Do(func() {
		dir, err := os.MkdirTemp("", "dicehall-chromium-")
		if err != nil {
			browserErr = err
			return
		}
		opts := []chromedp.ExecAllocatorOption{
			chromedp.ExecPath(path),
			chromedp.UserDataDir(dir),
			chromedp.NoFirstRun,
			chromedp.NoDefaultBrowserCheck,
			chromedp.Headless,
			chromedp.NoSandbox,
			chromedp.DisableGPU,
			chromedp.WindowSize(1280, 900),
			chromedp.Flag("disable-quic", true),
			chromedp.Flag("disable-background-networking", true),
			chromedp.Flag("disable-component-update", true),
			chromedp.Flag("disable-sync", true),
			chromedp.Flag("disable-dev-shm-usage", true),
			chromedp.Flag("disable-extensions", true),
			chromedp.Flag("disable-features", "Translate"),
			// Background tabs must keep running timers and sockets: several
			// players share one browser.
			chromedp.Flag("disable-background-timer-throttling", true),
			chromedp.Flag("disable-backgrounding-occluded-windows", true),
			chromedp.Flag("disable-renderer-backgrounding", true),
			chromedp.Flag("lang", "en-US"),
		}
		var (
			ctx                 context.Context
			cancel, cancelAlloc context.CancelFunc
		)
		// A loaded machine sometimes fails a start (zygote fork errors):
		// try a few times before calling it broken.
		for attempt := 1; ; attempt++ {
			var alloc context.Context
			alloc, cancelAlloc = chromedp.NewExecAllocator(context.Background(), opts...)
			ctx, cancel = chromedp.NewContext(alloc)
			// No timeout here: the context of the first call owns the browser.
			err := chromedp.Do(ctx)
			if err == nil {
				break
			}
			cancel()
			cancelAlloc()
			if attempt == 3 {
				os.RemoveAll(dir)
				browserErr = fmt.Errorf("start chromium: %w", err)
				return
			}
			time.Sleep(500 * time.Millisecond)
		}
		browserCtx = ctx
		browserStop = func() {
			cancel()
			cancelAlloc()
			os.RemoveAll(dir)
		}
	})
	if browserErr != nil {
		t.Fatal(browserErr)
	}
	return browserCtx
}

// page is one browser context with one tab: a person at the table.
type page struct {
	t    *testing.T
	name string
	ctx  context.Context
	logs *consoleLog
}

type consoleLog struct {
	mu         sync.Mutex
	lines      []string
	exceptions int
}

func (c *consoleLog) add(s string) {
	c.mu.Lock()
	c.lines = append(c.lines, s)
	c.mu.Unlock()
}

func (c *consoleLog) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, "\n")
}

// newPage opens a fresh browser context (no cookies, no storage shared with
// other pages) with one tab.
func newPage(t *testing.T, name string) *page {
	t.Helper()
	parent := browser(t)
	logs := &consoleLog{}
	ctx, cancel := chromedp.NewContext(parent, chromedp.WithNewBrowserContext(),
		chromedp.WithListener(consoleListener(logs)))
	t.Cleanup(cancel)
	p := &page{t: t, name: name, ctx: ctx, logs: logs}
	// The first call opens the tab and ties its life to the context it is
	// given: so no timeout on this one.
	if err := chromedp.Do(ctx); err != nil {
		t.Fatalf("%s: open a tab: %v", name, err)
	}
	p.focused()
	return p
}

// focused makes the page behave as the focused window whether or not it
// is: the tests run side by side in one browser, and only one window has
// the real focus, while keyboard focus, :focus-visible and the clipboard
// must work in every page as they do for a person looking at it.
func (p *page) focused() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, tg *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, tg, emulation.SetFocusEmulationEnabled, emulation.SetFocusEmulationEnabledParams{Enabled: true})
	})
	if err != nil {
		p.t.Fatalf("%s: emulate focus: %v", p.name, err)
	}
}

// do runs steps with a bound, so a page that never shows what we wait for
// fails the test instead of hanging it.
func (p *page) do(steps ...chromedp.Action[chromedp.Void]) {
	p.t.Helper()
	if err := p.doErr(15*time.Second, steps...); err != nil {
		p.fail("%v", err)
	}
}

func (p *page) doErr(d time.Duration, steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(p.ctx, d)
	defer cancel()
	for _, step := range steps {
		if err := chromedp.Do(ctx, retryStale(step)); err != nil {
			return err
		}
	}
	return nil
}

// retryStale runs a step again, from its query, when the node it found was
// replaced before it could act on it: the page re-renders on every frame
// from the server, and a click that lands between the lookup and the
// scroll sees DevTools answer "Could not find node with given id". Nothing
// reached the page then (the node's box is read before any input is sent),
// so running the step again is what a person would do: click the new one.
func retryStale(step chromedp.Action[chromedp.Void]) chromedp.Action[chromedp.Void] {
	return func(ctx context.Context, t *chromedp.Target) (chromedp.Void, error) {
		for try := 0; ; try++ {
			v, err := step(ctx, t)
			if err == nil || try == 4 || !strings.Contains(err.Error(), "Could not find node with given id") {
				return v, err
			}
			select {
			case <-ctx.Done():
				return v, err
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
}

// eval evaluates JavaScript and decodes the result.
func eval[T any](p *page, js string) T {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("eval %s: %v", js, err)
	}
	return v
}

// minWait is the least any waitJS waits before it fails: the tests run
// side by side on a machine of 2 cores that may be busy with more, and a
// deadline only bounds how long a failure takes to show (a condition met
// sooner returns at once), never how fast the page must be.
const minWait = 15 * time.Second

// waitJS waits until the expression is truthy, up to d (at least minWait).
// It polls from Go rather than in the page, so a navigation in between (a
// reload, a form that moves to the table page) only costs a retry.
func (p *page) waitJS(d time.Duration, js string) {
	p.t.Helper()
	d = max(d, minWait)
	end := time.Now().Add(d)
	var last error
	for {
		ctx, cancel := context.WithTimeout(p.ctx, 3*time.Second)
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool]("!!("+js+")"))
		cancel()
		if err == nil && ok {
			return
		}
		last = err
		if time.Now().After(end) {
			p.fail("waiting %v for %s (last error: %v)", d, js, last)
		}
		time.Sleep(40 * time.Millisecond)
	}
}

func (p *page) fail(format string, args ...any) {
	p.t.Helper()
	p.shot("failure-" + p.name)
	p.t.Fatalf("%s: %s\nbrowser console:\n%s", p.name, fmt.Sprintf(format, args...), p.logs)
}

// shot saves a screenshot of the viewport as NAME.png in the artifacts
// directory.
func (p *page) shot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	path := filepath.Join(artifacts(p.t), name+".png")
	if err := os.WriteFile(path, png, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	}
}

// fullShot saves a screenshot of the whole page, beyond the viewport.
func (p *page) fullShot(name string) {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	png, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
		return
	}
	if err := os.WriteFile(filepath.Join(artifacts(p.t), name+".png"), png, 0o644); err != nil {
		p.t.Logf("screenshot %s: %v", name, err)
	}
}

var (
	artifactsOnce sync.Once
	artifactsDir  string
)

// artifacts is where screenshots go: $DICEHALL_ARTIFACTS, else a temporary
// directory kept for the run (its path is logged so people can look).
func artifacts(t *testing.T) string {
	artifactsOnce.Do(func() {
		artifactsDir = os.Getenv("DICEHALL_ARTIFACTS")
		if artifactsDir == "" {
			d, err := os.MkdirTemp("", "dicehall-e2e-artifacts-")
			if err != nil {
				t.Fatal(err)
			}
			artifactsDir = d
		}
		if err := os.MkdirAll(artifactsDir, 0o755); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("screenshots in %s", artifactsDir)
	return artifactsDir
}

// consoleListener keeps what the page writes to the console, and its
// uncaught exceptions, to print when a test fails.
func consoleListener(c *consoleLog) func(ev any) {
	return func(ev any) {
		switch e := ev.(type) {
		case *runtime.EventConsoleAPICalled:
			parts := make([]string, 0, len(e.Args))
			for _, a := range e.Args {
				if len(a.Value) > 0 {
					parts = append(parts, string(a.Value))
				} else {
					parts = append(parts, a.Description)
				}
			}
			c.add(fmt.Sprintf("console.%s: %s", e.Type, strings.Join(parts, " ")))
		case *runtime.EventExceptionThrown:
			d := e.ExceptionDetails
			msg := d.Text
			if d.Exception != nil {
				msg += " " + d.Exception.Description
			}
			c.add(fmt.Sprintf("EXCEPTION %s:%d: %s", d.URL, d.LineNumber+1, msg))
			c.mu.Lock()
			c.exceptions++
			c.mu.Unlock()
		}
	}
}

// noExceptions fails the test if the page threw anything it did not catch.
func (p *page) noExceptions() {
	p.t.Helper()
	p.logs.mu.Lock()
	n := p.logs.exceptions
	p.logs.mu.Unlock()
	if n > 0 {
		p.t.Errorf("%s: %d uncaught exceptions in the page:\n%s", p.name, n, p.logs)
	}
}

// fastBots turns the bot-speed setting to fast in the page's browser, as
// the settings menu does (any page of the site must be open; a table page
// open now follows at once, the others when they load): for the tests about
// something other than pacing, which would spend most of their time
// watching others' moves, and for the rest of a game whose pacing has been
// watched.
func (p *page) fastBots() {
	p.t.Helper()
	eval[bool](p, `import('/static/prefs.js').then((m) => { m.setPref('botSpeed', 'fast'); return true; })`)
}

// reducedMotion makes the page prefer reduced motion: the games' dice then
// land without flying. For the tests about something other than the
// motion (the Dice Stars and Diceflick tests watch it), which would spend
// much of their time waiting for it before each click.
func (p *page) reducedMotion() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-reduced-motion", Value: "reduce"}}})
	})
	if err != nil {
		p.fail("emulate reduced motion: %v", err)
	}
}
