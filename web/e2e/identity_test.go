package e2e

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/webauthn"
	"github.com/chromedp/chromedp"
)

// virtualAuthenticator gives the page's tab a platform authenticator that
// keeps discoverable credentials and verifies its user at once, as a
// phone's screen lock would.
func (p *page) virtualAuthenticator() {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		if _, err := cdp.Call(ctx, t, webauthn.Enable, webauthn.EnableParams{}); err != nil {
			return cdp.Empty{}, err
		}
		_, err := cdp.Call(ctx, t, webauthn.AddVirtualAuthenticator, webauthn.AddVirtualAuthenticatorParams{
			Options: &webauthn.VirtualAuthenticatorOptions{Protocol: webauthn.AuthenticatorProtocolCtap2,
				Transport: webauthn.AuthenticatorTransportInternal, HasResidentKey: true, HasUserVerification: true,
				IsUserVerified: true, AutomaticPresenceSimulation: true}})
		return cdp.Empty{}, err
	})
	if err != nil {
		p.fail("virtual authenticator: %v", err)
	}
}

// TestIdentity signs up with a password, adds a passkey on the account
// page, signs out and signs in again with the passkey alone.
func TestIdentity(t *testing.T) {
	t.Parallel()
	// WebAuthn wants a domain: localhost, not 127.0.0.1.
	base := strings.Replace(startServer(t).URL, "127.0.0.1", "localhost", 1)
	p := newPage(t, "ident")
	p.virtualAuthenticator()
	p.do(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(base+"/signin"))
	p.waitJS(10*time.Second, `document.querySelector('#signup-passkey')`)
	p.shot("signin-1440")
	p.axeClean("sign-in page")

	// Sign up with a password: back to the lobby, signed in, and its name
	// field is the account's.
	p.do(chromedp.SendKeys(chromedp.CSS("#up-name"), "Tess_42"),
		chromedp.SendKeys(chromedp.CSS("#up-password"), "a quiet game of dice"),
		chromedp.Click(chromedp.CSS("#signup")))
	p.waitJS(10*time.Second, `location.pathname === '/' && document.querySelector('.account-link.signed-in')?.textContent === 'Tess_42'`)
	p.waitJS(5*time.Second, `document.querySelector('#name').value === 'Tess_42' && document.querySelector('#name').readOnly`)
	p.shot("lobby-1440")

	// Add a passkey.
	p.do(chromedp.Click(chromedp.CSS(".account-link")))
	p.waitJS(10*time.Second, `document.querySelector('#add-passkey')`)
	p.do(chromedp.Click(chromedp.CSS("#add-passkey")))
	p.waitJS(10*time.Second, `document.querySelectorAll('[data-testid=passkeys] li').length === 1`)
	p.shot("account-1440")
	p.axeClean("account page")

	// Sign out, then in with the passkey: no username, no password.
	p.do(chromedp.Click(chromedp.CSS("#signout")))
	p.waitJS(10*time.Second, `location.pathname === '/' && document.querySelector('.account-link:not(.signed-in)')`)
	p.do(chromedp.Navigate(base + "/signin?next=/account"))
	p.waitJS(10*time.Second, `document.querySelector('#signin-passkey')`)
	p.do(chromedp.Click(chromedp.CSS("#signin-passkey")))
	p.waitJS(10*time.Second, `location.pathname === '/account' && document.querySelector('[data-testid=account-name]')?.textContent === 'Tess_42'`)
	if used := eval[string](p, `document.querySelector('[data-testid=passkeys] li .muted').textContent`); !strings.HasPrefix(used, "Last used") {
		p.fail("the passkey's last use: %q", used)
	}

	// A phone, in French.
	p.do(chromedp.EmulateViewport(390, 844), chromedp.Click(chromedp.CSS(".lang-switch button[data-lang=fr]")))
	p.waitJS(5*time.Second, `document.documentElement.lang === 'fr'`)
	p.shot("account-390-fr")
	p.do(chromedp.Click(chromedp.CSS("#signout")))
	p.waitJS(10*time.Second, `location.pathname === '/' && document.querySelector('.account-link:not(.signed-in)')`)
	p.shot("lobby-390-fr")
	p.do(chromedp.Navigate(base + "/signin"))
	p.waitJS(10*time.Second, `document.querySelector('#signup-passkey')`)
	p.shot("signin-390-fr")
	p.noExceptions()
}
