package e2e

import (
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestLeaveReclaimAndFrench: a player hands her seat to a bot and takes it
// back, with the page in French; an unknown table says so.
func TestLeaveReclaimAndFrench(t *testing.T) {
	t.Parallel()
	// Bots that take half a second a move (the form offers no such
	// setting), so that the bot holding Ann's seat does not finish the game
	// before she takes it back, however busy the machine.
	ts := startServerWith(t, serverOptions{botDelay: 500 * time.Millisecond})
	ann := newPage(t, "ann-fr")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	ann.do(chromedp.WaitVisible(chromedp.CSS("#name")))

	// The switch turns the page French, and the choice is remembered.
	ann.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	ann.waitJS(3*time.Second, `document.documentElement.lang === 'fr' && document.querySelector('#create').textContent === 'Créer la table'`)
	ann.shot("10-home-fr")

	// Against a random bot, slow (above), so the game lasts while the seat
	// changes hands.
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Anne"))
	ann.chooseGame("dicestars")
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "bot:random")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '0' && document.body.dataset.status === 'live'`)
	if got := ann.text("[data-testid=turn]"); got != "À vous de jouer." {
		t.Errorf("turn line %q, want the French sentence", got)
	}

	// Leave: a bot plays the seat, everyone sees it, and a reclaim button
	// appears.
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=leave]`)))
	ann.waitJS(5*time.Second, `!!document.querySelector('[data-testid=reclaim]')`)
	if s := ann.text(`[data-testid=presence] [data-seat="0"] .seat-state`); !strings.Contains(s, "robot") {
		t.Errorf("presence after leaving says %q", s)
	}
	if n := eval[int](ann, `document.querySelectorAll('[data-testid=actions] button').length`); n != 0 {
		t.Errorf("%d action buttons while a bot holds the seat", n)
	}
	ann.shot("11-left-fr")
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=reclaim]`)))
	ann.waitJS(5*time.Second, `!!document.querySelector('[data-testid=leave]')`)

	// The seat is hers again: the game reaches her turn and her choices show
	// (unless the bot finished the game in the meantime).
	ann.waitJS(20*time.Second, `!!document.querySelector('[data-testid=actions] button.choice.legal') || document.body.dataset.status === 'over'`)
	ann.shot("12-reclaimed-fr")

	// A table that does not exist says so, in the chosen language.
	ann.do(chromedp.Navigate(ts.URL + "/t/nosuchtable0"))
	ann.waitJS(5*time.Second, `document.querySelector('.table-title')?.textContent === 'Cette table n’existe pas.'`)
	ann.noExceptions()
}

// TestJoinNameSurvivesRedraw: a name half typed into the join panel stays
// (with the caret) when the page redraws under it, here on a language
// switch; a late answer from the server redraws the same way.
func TestJoinNameSurvivesRedraw(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	host := newPage(t, "host")
	host.do(chromedp.Navigate(ts.URL + "/"))
	host.do(chromedp.WaitVisible(chromedp.CSS("#name")))
	id := host.createTable(`{"game":"dicestars","name":"Ann","seats":[{"kind":"human"},{"kind":"human"}]}`)

	bob := newPage(t, "bob-join")
	bob.do(chromedp.Navigate(ts.URL + "/t/" + id))
	bob.do(chromedp.WaitVisible(chromedp.CSS("#join-name")))
	eval[string](bob, `document.querySelector('#join-name').value = ''`)
	bob.do(chromedp.SendKeys(chromedp.CSS("#join-name"), "Bo"))
	bob.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	bob.waitJS(3*time.Second, `document.documentElement.lang === 'fr'`)
	if got := eval[string](bob, `document.querySelector('#join-name').value`); got != "Bo" {
		t.Fatalf("the typed name became %q after a redraw", got)
	}
	bob.noExceptions()
}
