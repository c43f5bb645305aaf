package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// signUp creates an account with a password on the sign-in page and waits
// for the lobby, signed in.
func (p *page) signUp(base, name, password string) {
	p.t.Helper()
	p.do(chromedp.Navigate(base + "/signin"))
	p.waitJS(10*time.Second, `!!document.querySelector('#up-name')`)
	p.do(chromedp.SendKeys(chromedp.CSS("#up-name"), name),
		chromedp.SendKeys(chromedp.CSS("#up-password"), password),
		chromedp.Click(chromedp.CSS("#signup")))
	p.waitJS(10*time.Second, fmt.Sprintf(`location.pathname === '/' && document.querySelector('.account-link.signed-in')?.textContent === %q`, name))
}

// playOut clicks the first legal choice of whichever page may act until
// every page shows the game over.
func playOut(t *testing.T, pages ...*page) {
	t.Helper()
	deadline := time.Now().Add(150 * time.Second)
	for {
		if time.Now().After(deadline) {
			pages[0].fail("the game did not finish in time")
		}
		over, acted := true, false
		for _, p := range pages {
			st := p.state()
			over = over && st.Over
			if !acted && st.Legal > 0 && !st.Over {
				acted = p.clickLegal()
			}
		}
		if over {
			return
		}
		if !acted {
			time.Sleep(30 * time.Millisecond)
		}
	}
}

// tableCount is how many tables the lobby lists, whatever their status.
func tableCount(t *testing.T, base string) int {
	t.Helper()
	res, err := http.Get(base + "/api/tables?status=open,live,over")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out []json.RawMessage
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return len(out)
}

type boardRow struct {
	Rank  int    `json:"rank"`
	Name  string `json:"name"`
	Games int    `json:"games"`
}

func leaderboard(t *testing.T, base, game string) []boardRow {
	t.Helper()
	res, err := http.Get(base + "/api/leaderboard/" + game)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var out struct {
		Rows []boardRow `json:"rows"`
	}
	if err := json.NewDecoder(res.Body).Decode(&out); err != nil {
		t.Fatal(err)
	}
	return out.Rows
}

// TestAccountsPlayRated is a whole evening on the site for two people with
// accounts: they sign up, play a rated game while a guest watches and
// chats, see the ratings and the leaderboard move and the game in their
// profiles, and start a rematch. A page of another site cannot act for
// them. (Passkeys: TestIdentity.)
func TestAccountsPlayRated(t *testing.T) {
	t.Parallel()
	base := strings.Replace(startServer(t).URL, "127.0.0.1", "localhost", 1)
	// Another site: a plain page of its own, no dicehall policy on it.
	evil := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, "<!doctype html><title>Prizes</title><p>You won!</p>")
	}))
	t.Cleanup(evil.Close)

	ann := newPage(t, "acc-ann")
	ann.do(chromedp.EmulateViewport(1440, 900))
	bob := newPage(t, "acc-bob")
	bob.do(chromedp.EmulateViewport(390, 844))
	ann.signUp(base, "Ann_e2e", "dice under the lamp")
	bob.signUp(base, "Bob_e2e", "two pairs of sixes")
	// Their game goes by fast, its dice landing without flying.
	for _, p := range []*page{ann, bob} {
		p.fastBots()
		p.reducedMotion()
	}
	if rows := leaderboard(t, base, "dicestars"); len(rows) != 0 {
		t.Fatalf("leaderboard before any game: %+v", rows)
	}

	// Ann makes a table for two; Bob takes the other seat from the lobby.
	ann.chooseGame("dicestars")
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "human")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '0'`)
	id := eval[string](ann, `location.pathname.split('/').pop()`)
	bob.do(chromedp.Reload())
	joinSel := fmt.Sprintf(`[data-join="%s:1"]`, id)
	bob.waitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector('%s')`, joinSel))
	bob.do(chromedp.Click(chromedp.CSS(joinSel)))
	bob.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '1'`)

	// A guest watches and says hello; the players read it.
	carol := newPage(t, "acc-carol")
	carol.do(chromedp.EmulateViewport(1440, 900), chromedp.Navigate(base+"/t/"+id))
	carol.waitJS(10*time.Second, `document.body.dataset.seat === '-3' && !!document.querySelector('[data-testid=chat-name]')`)
	carol.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-name]`), "Carol"))
	carol.chatSay("have fun, both")
	ann.waitChat(1, "have fun, both")
	ann.chatSay("thanks Carol")
	carol.waitChat(2, "thanks Carol")

	// A page of another site posts a table creation to dicehall in Ann's
	// browser (a form: no script of ours, no CORS): refused, nothing made.
	before := tableCount(t, base)
	probe := newPage(t, "acc-probe")
	probe.do(chromedp.Navigate(evil.URL + "/"))
	eval[bool](probe, fmt.Sprintf(`(() => { const f = document.createElement('form'); f.method = 'POST'; f.enctype = 'text/plain';
	  f.action = %q; const i = document.createElement('input'); i.name = '{"game":"dicestars","name":"Mallory","seats":[{"kind":"human"}],"x":"'; i.value = '"}';
	  f.append(i); document.body.append(f); f.submit(); return true; })()`, base+"/api/tables"))
	probe.waitJS(10*time.Second, `location.href.includes('/api/tables') && document.body.textContent.includes('"error"')`)
	if body := probe.text("body"); !strings.Contains(body, "403") && !strings.Contains(strings.ToLower(body), "origin") && !strings.Contains(body, "cross") {
		t.Errorf("the cross-site post was answered %q", body)
	}
	if after := tableCount(t, base); after != before {
		t.Errorf("the cross-site post made a table: %d tables, then %d", before, after)
	}

	playOut(t, ann, bob)

	// Both are rated now: the leaderboard lists them, one game each.
	var rows []boardRow
	for end := time.Now().Add(10 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if rows = leaderboard(t, base, "dicestars"); len(rows) == 2 {
			break
		}
	}
	if len(rows) != 2 || rows[0].Games != 1 || rows[1].Games != 1 {
		t.Fatalf("leaderboard after the game: %+v", rows)
	}
	bob.do(chromedp.Navigate(base + "/leaderboard?game=dicestars"))
	bob.waitJS(10*time.Second, `document.querySelectorAll('tbody tr').length === 2 && document.body.textContent.includes('Ann_e2e')`)
	if mine := bob.text(`tbody tr.me`); !strings.Contains(mine, "Bob_e2e") {
		t.Errorf("Bob's own row on the leaderboard: %q", mine)
	}
	bob.shot("leaderboard-after-390")

	// The game is in Ann's profile, with its replay.
	bob.do(chromedp.Navigate(base + "/u/Ann_e2e"))
	bob.waitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector('a[href*=%q]')`, id))
	bob.shot("profile-ann-390")

	// Ann asks for a rematch; Bob, back at the old table, is invited and
	// takes his seat again: the new table is for the same two accounts.
	bob.do(chromedp.Navigate(base + "/t/" + id))
	bob.waitJS(10*time.Second, `document.body.dataset.status === 'over'`)
	ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=rematch]')`)
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=rematch]`)))
	ann.waitJS(10*time.Second, fmt.Sprintf(`location.pathname.startsWith('/t/') && !location.pathname.endsWith(%q) && document.body.dataset.seat === '0'`, id))
	bob.waitJS(10*time.Second, `!!document.querySelector('[data-testid=rematch-join]')`)
	bob.do(chromedp.Click(chromedp.CSS(`[data-testid=rematch-join]`)))
	bob.waitJS(10*time.Second, fmt.Sprintf(`!location.pathname.endsWith(%q) && document.body.dataset.seat === '1' && document.body.dataset.status === 'live'`, id))
	next := eval[string](bob, `location.pathname.split('/').pop()`)
	if s := getSummary(t, base, next); len(s.Seats) != 2 || s.Seats[0].Name != "Ann_e2e" || s.Seats[1].Name != "Bob_e2e" || !s.Rated {
		t.Errorf("the rematch: %+v", s)
	}
	for _, p := range []*page{ann, bob, carol} {
		p.noExceptions()
	}
}
