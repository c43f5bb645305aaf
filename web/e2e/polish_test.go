package e2e

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

type signedInPages struct {
	Current string `json:"current"`
	Account string `json:"account"`
	Former  int    `json:"former"`
	Raw     int    `json:"raw"`
	JoinAs  string `json:"joinAs"`
	Field   bool   `json:"field"`
}

// TestSignedInPages: for a signed-in player the leaderboard opens on her
// most played rated game (Dice Stars, not the first game), the
// leaderboard and profile headers carry her account link, a deleted
// account's seat is named in the page's language, and a table's join
// panel says under which name she joins instead of asking for one. Both
// sizes; axe on each page once.
func TestSignedInPages(t *testing.T) {
	t.Parallel()
	ts, token := ratedWorld(t)
	res, err := http.Post(ts.URL+"/api/tables", "application/json",
		strings.NewReader(`{"game":"dicestars","name":"Gus","seats":[{"kind":"human"},{"kind":"human"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	var made struct{ ID string }
	err = json.NewDecoder(res.Body).Decode(&made)
	res.Body.Close()
	if err != nil || made.ID == "" {
		t.Fatalf("open table: %v %+v", err, made)
	}

	p := newPage(t, "signed-in")
	p.do(chromedp.Navigate(ts.URL + "/"))
	eval[bool](p, `(localStorage.setItem('dh.lang','fr'), document.cookie = '`+sessionCookie+`=`+token+`; path=/', true)`)
	state := func() signedInPages {
		return eval[signedInPages](p, `(() => ({
  current: document.querySelector('.lb-tabs a[aria-current=page]')?.dataset.game || '',
  account: document.querySelector('.topbar .account-link.signed-in')?.textContent || '',
  former: [...document.querySelectorAll('[data-testid=games] .game-item')].filter((e) => e.textContent.includes('Ancien joueur')).length,
  raw: [...document.querySelectorAll('[data-testid=games] .game-item')].filter((e) => e.textContent.includes('Former player')).length,
  joinAs: document.querySelector('[data-testid=join-account]')?.textContent || '',
  field: !!document.querySelector('#join-name'),
}))()`)
	}
	for i, vp := range []struct {
		name string
		w, h int64
	}{{"1440x900", 1440, 900}, {"390x844", 390, 844}} {
		p.do(chromedp.EmulateViewport(vp.w, vp.h))
		first := i == 0

		p.do(chromedp.Navigate(ts.URL + "/leaderboard"))
		p.waitJS(10*time.Second, `document.querySelectorAll('.lb-table tbody tr').length > 0 && !!document.querySelector('.account-link.signed-in')`)
		if s := state(); s.Current != "dicestars" || s.Account != "Ann" {
			p.fail("leaderboard %s: %+v", vp.name, s)
		}
		p.inViewport("leaderboard "+vp.name, ".topbar .account-link", ".lb-tabs a[data-game=dicestars]")
		p.shot("signedin-leaderboard-" + vp.name)
		if first {
			p.axeClean("leaderboard")
		}

		p.do(chromedp.Navigate(ts.URL + "/u/Ann"))
		p.waitJS(10*time.Second, `!!document.querySelector('[data-testid=games] .game-item') && !!document.querySelector('.account-link.signed-in')`)
		if s := state(); s.Account != "Ann" || s.Former != 1 || s.Raw != 0 {
			p.fail("profile %s: %+v", vp.name, s)
		}
		p.inViewport("profile "+vp.name, ".topbar .account-link")
		p.shot("signedin-profile-" + vp.name)
		if first {
			p.axeClean("profile")
		}

		p.do(chromedp.Navigate(ts.URL + "/t/" + made.ID))
		p.waitJS(10*time.Second, `!!document.querySelector('[data-testid=join-account]')`)
		if s := state(); !strings.Contains(s.JoinAs, "Ann") || s.Field {
			p.fail("join panel %s: %+v", vp.name, s)
		}
		p.inViewport("table "+vp.name, "[data-testid=join-account]", "[data-join]")
		p.shot("signedin-table-join-" + vp.name)
		if first {
			p.axeClean("table join")
		}
	}
	// Joining takes the account's name.
	p.do(chromedp.Click(chromedp.CSS(`[data-join="1"]`)))
	p.waitJS(10*time.Second, `!document.querySelector('[data-testid=join-account]')`)
	var sum struct {
		Seats []struct{ Name, Profile string }
	}
	res, err = http.Get(ts.URL + "/api/tables/" + made.ID)
	if err == nil {
		err = json.NewDecoder(res.Body).Decode(&sum)
		res.Body.Close()
	}
	if err != nil || len(sum.Seats) != 2 || sum.Seats[1].Name != "Ann" || sum.Seats[1].Profile != "Ann" {
		t.Fatalf("after joining: %v %+v", err, sum)
	}
	p.noExceptions()
}
