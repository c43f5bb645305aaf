package e2e

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store/memstore"
)

// call runs one DevTools command on the page's target.
func call[P, R any](p *page, cmd cdp.Command[P, R], params P) R {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	r, err := chromedp.Call(ctx, cmd, params)
	if err != nil {
		p.fail("%s: %v", cmd.Method, err)
	}
	return r
}

// callBrowser runs one DevTools command on the browser.
func callBrowser[P, R any](p *page, cmd cdp.Command[P, R], params P) R {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 10*time.Second)
	defer cancel()
	r, err := chromedp.CallBrowser(ctx, cmd, params)
	if err != nil {
		p.fail("%s: %v", cmd.Method, err)
	}
	return r
}

// goOffline cuts the page and its service worker off the network (the
// worker is a DevTools target of its own: the page's conditions do not
// reach its fetches); the func it returns lets them back on.
func (p *page) goOffline() (online func()) {
	p.t.Helper()
	conditions := func(tg *page, off bool) {
		var rules []*network.Conditions
		if off {
			rules = []*network.Conditions{{Offline: true, DownloadThroughput: -1, UploadThroughput: -1}}
		}
		call(tg, network.EmulateNetworkConditionsByRule, network.EmulateNetworkConditionsByRuleParams{MatchedNetworkConditions: rules})
	}
	conditions(p, true)
	call(p, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: true, DownloadThroughput: -1, UploadThroughput: -1})
	bc := chromedp.FromContext(p.ctx).BrowserContextID
	infos, err := chromedp.Targets(p.ctx)
	if err != nil {
		p.fail("targets: %v", err)
	}
	// The worker's conditions last as long as this DevTools session to
	// it: detaching lets it back on.
	var detach []context.CancelFunc
	for _, info := range infos {
		if info.Type == "service_worker" && info.BrowserContextID == bc {
			ctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithTargetID(info.TargetID), chromedp.WithDetachOnCancel())
			detach = append(detach, cancel)
			conditions(&page{t: p.t, name: p.name + " worker", ctx: ctx, logs: p.logs}, true)
		}
	}
	if len(detach) == 0 {
		p.fail("no service worker target to take offline")
	}
	return func() {
		for _, cancel := range detach {
			cancel()
		}
		conditions(p, false)
		call(p, network.OverrideNetworkState, network.OverrideNetworkStateParams{Offline: false, DownloadThroughput: -1, UploadThroughput: -1})
	}
}

// TestInstallableApp: the manifest parses in Chromium with its icons (PNGs
// of the sizes it says), the service worker registers and controls the
// page, a page that cannot load offline shows the offline page (and the
// rules read before still open), a push message becomes a notification,
// and the account page's notifications card and the offline page pass
// axe at both viewports.
func TestInstallableApp(t *testing.T) {
	t.Parallel()
	base := strings.Replace(pushServer(t).URL, "127.0.0.1", "localhost", 1)
	p := newPage(t, "pwa")
	p.do(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(base+"/"))

	// The manifest, as Chromium reads it.
	m := call(p, cdppage.GetAppManifest, cdppage.GetAppManifestParams{})
	if len(m.Errors) > 0 || m.Manifest == nil {
		p.fail("manifest %s: errors %+v", m.URL, m.Errors)
	}
	// Chromium reports what it parsed (display as "kStandalone", colours
	// as rgba), but not every field: short_name is read from the file.
	mf := m.Manifest
	var raw struct {
		ShortName string `json:"short_name"`
	}
	if err := json.Unmarshal([]byte(m.Data), &raw); err != nil || raw.ShortName == "" {
		p.fail("manifest short_name: %v %q", err, raw.ShortName)
	}
	if mf.Name != "dicehall" || !strings.HasSuffix(strings.ToLower(mf.Display), "standalone") ||
		mf.StartURL != base+"/" || mf.Scope != base+"/" || mf.ThemeColor != "rgba(255,253,248,1)" || mf.BackgroundColor != "rgba(244,241,234,1)" {
		p.fail("manifest as read: %+v", mf)
	}
	sizes := map[string]bool{}
	for _, icon := range mf.Icons {
		sizes[icon.Sizes] = true
		got := eval[string](p, `(async () => {
			const res = await fetch(`+jsString(icon.URL)+`);
			const img = await createImageBitmap(await res.blob());
			return res.headers.get('Content-Type') + ' ' + img.width + 'x' + img.height;
		})()`)
		if got != "image/png "+icon.Sizes {
			p.fail("icon %s (%s): %s", icon.URL, icon.Sizes, got)
		}
	}
	if !sizes["192x192"] || !sizes["512x512"] {
		p.fail("manifest icons %v", sizes)
	}

	// The worker registers; after a reload it controls the page.
	scope := eval[string](p, `navigator.serviceWorker.ready.then((r) => r.scope)`)
	if scope != base+"/" {
		p.fail("worker scope %q", scope)
	}
	p.do(chromedp.Reload())
	p.waitJS(10*time.Second, `navigator.serviceWorker.controller?.scriptURL === location.origin + '/sw.js'`)

	// A rules page read online stays readable offline.
	p.do(chromedp.Navigate(base + "/rules/dicestars"))
	p.waitJS(10*time.Second, `document.querySelector('[data-testid=rules-title]')?.textContent.length > 0`)
	online := p.goOffline()
	p.do(chromedp.Navigate(base + "/leaderboard"))
	p.waitJS(10*time.Second, `!!document.querySelector('[data-testid=offline-rules] a[href="/rules/dicestars"]')`)
	if got := eval[string](p, `location.pathname + ' ' + document.querySelector('h1').textContent`); got != "/leaderboard You are offline" {
		p.fail("offline page shows %q", got)
	}
	p.shot("pwa-offline-1440")
	p.axeClean("offline page 1440x900")
	p.do(chromedp.EmulateViewport(390, 844))
	eval[bool](p, `import('/static/i18n.js').then((m) => { m.setLang('fr'); return true; })`)
	p.waitJS(5*time.Second, `document.querySelector('h1').textContent === 'Vous êtes hors ligne'`)
	p.shot("pwa-offline-390-fr")
	p.axeClean("offline page 390x844 (fr)")
	eval[bool](p, `import('/static/i18n.js').then((m) => { m.setLang('en'); return true; })`)
	p.waitJS(5*time.Second, `document.querySelector('h1').textContent === 'You are offline' && !!document.querySelector('[data-testid=offline][data-rules=en] [data-testid=offline-rules]')`)
	p.do(chromedp.Click(chromedp.CSS(`[data-testid=offline-rules] a`)))
	p.waitJS(10*time.Second, `location.pathname === '/rules/dicestars' && document.querySelector('[data-testid=rules-title]')?.textContent.length > 0`)
	// Back online, the offline page reloads into the page it stood for.
	p.do(chromedp.Navigate(base + "/leaderboard"))
	p.waitJS(10*time.Second, `!!document.querySelector('[data-testid=offline]')`)
	online()
	p.waitJS(10*time.Second, `!document.querySelector('[data-testid=offline]') && location.pathname === '/leaderboard'`)

	// A push message becomes a notification of the worker.
	p.allowNotifications(base)
	payload, _ := json.Marshal(map[string]string{"title": "Your turn", "body": "Bob played: your move at Dice Stars.", "url": "/t/abc", "tag": "turn-abc"})
	got := p.deliverPush(base, p.registration(base), payload, "turn-abc")
	if want := (shownNotification{"Your turn", "Bob played: your move at Dice Stars.", "turn-abc", base + "/t/abc", base + "/static/icons/icon-192.png"}); got != want {
		p.fail("notification %+v, want %+v", got, want)
	}

	// The account page's notifications card.
	p.do(chromedp.EmulateViewport(1440, 900))
	p.signUp(base, "pwa-ann", "a long enough password")
	p.do(chromedp.Navigate(base + "/account"))
	p.waitJS(10*time.Second, `document.querySelector('[data-testid=notify] h2') && document.querySelector('[data-testid=notify]').children.length > 3`)
	p.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=notify]`)))
	p.shot("pwa-account-1440")
	p.axeClean("account page 1440x900")
	p.do(chromedp.EmulateViewport(390, 844))
	p.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=notify]`)))
	p.shot("pwa-account-390")
	p.axeClean("account page 390x844")
	p.noExceptions()

	t.Run("settings", func(t *testing.T) {
		// It saves quiet hours (the browser's time zone and the page's
		// language go with them) and turns push on for the device.
		// Headless Chromium refuses push subscriptions in its
		// off-the-record browser contexts ("Registration failed -
		// permission denied") and has no push service, so turning on must
		// either work or say why; the worker's display of a push is checked
		// above with DevTools' deliverPushMessage instead.
		bc := chromedp.FromContext(p.ctx).BrowserContextID
		p := &page{t: t, name: p.name, ctx: p.ctx, logs: p.logs}
		p.do(chromedp.EmulateViewport(1440, 900), chromedp.Reload())
		p.waitJS(10*time.Second, `!!document.querySelector('#notify-form')`)
		p.do(chromedp.Click(chromedp.CSS(`#notify-quiet`)), chromedp.Click(chromedp.CSS(`#notify-save`)))
		p.waitJS(10*time.Second, `document.querySelector('[data-testid=notify] .status').textContent === 'Settings saved.'`)
		type quiet struct{ From, To, TZ string }
		var saved struct {
			Quiet *quiet
			Lang  string
		}
		if err := json.Unmarshal([]byte(eval[string](p, `fetch('/api/notify/settings').then((r) => r.text())`)), &saved); err != nil {
			p.fail("settings: %v", err)
		}
		tz := eval[string](p, `Intl.DateTimeFormat().resolvedOptions().timeZone`)
		if saved.Quiet == nil || *saved.Quiet != (quiet{"22:00", "08:00", tz}) || saved.Lang != "en" {
			p.fail("settings saved as %+v", saved)
		}
		for _, name := range []string{"notifications", "push"} {
			callBrowser(p, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
				Permission: &cdpbrowser.PermissionDescriptor{Name: name, UserVisibleOnly: true}, Setting: cdpbrowser.PermissionSettingGranted,
				Origin: base, BrowserContextID: bc})
		}
		p.do(chromedp.Click(chromedp.CSS(`#notify-device`)))
		p.waitJS(20*time.Second, `document.querySelector('[data-testid=notify-device]').textContent === 'This device receives notifications.'
			|| !!document.querySelector('[data-testid=notify] [role=alert]')`)
		if eval[bool](p, `!!document.querySelector('[data-testid=notify] [role=alert]')`) {
			t.Logf("turning push on: %s", eval[string](p, `document.querySelector('[data-testid=notify] [role=alert]').textContent`))
			return
		}
		p.do(chromedp.Click(chromedp.CSS(`#notify-device`)))
		p.waitJS(10*time.Second, `document.querySelector('[data-testid=notify-device]').textContent === 'This device does not receive notifications.'`)
	})
}

// pushServer is startServer's server with a notification service (Web
// Push, no e-mail) over its store.
func pushServer(t *testing.T) *httptest.Server {
	t.Helper()
	st := memstore.New()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := notify.New(context.Background(), notify.Config{Store: st, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: all.Registry, BotDelay: 20 * time.Millisecond, Logger: quiet, Push: svc})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv.Handler())
	t.Cleanup(func() {
		ts.Close()
		srv.Close()
		svc.Close()
	})
	return ts
}

func jsString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
