package e2e

import (
	"bufio"
	"context"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/chromedp"
)

// netCutter sits in front of the server and plays a broken network for one
// browser, told apart by its seat cookie: cutting closes that browser's open
// WebSockets at the TCP level (no close frame, as when a network goes), and
// while it is cut its new connections are dropped before any answer. The
// server and the page are the real ones: only the wire is switched.
type netCutter struct {
	mu       sync.Mutex
	conns    map[net.Conn]string    // hijacked connections and the token they presented
	cut      map[string]bool        // tokens whose network is down
	attempts map[string][]time.Time // every WebSocket request per token
}

func newNetCutter() *netCutter {
	return &netCutter{conns: map[net.Conn]string{}, cut: map[string]bool{}, attempts: map[string][]time.Time{}}
}

func (n *netCutter) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id, ok := strings.CutPrefix(r.URL.Path, "/ws/")
		if !ok {
			next.ServeHTTP(w, r)
			return
		}
		tok := ""
		if c, err := r.Cookie("dh_" + id); err == nil {
			tok = c.Value
		}
		n.mu.Lock()
		down := tok != "" && n.cut[tok]
		if tok != "" {
			n.attempts[tok] = append(n.attempts[tok], time.Now())
		}
		n.mu.Unlock()
		if down {
			if c, _, err := http.NewResponseController(w).Hijack(); err == nil {
				c.Close()
			}
			return
		}
		next.ServeHTTP(&hijackRecorder{ResponseWriter: w, n: n, tok: tok}, r)
	})
}

// down cuts the network of the browser holding tok; up restores it.
func (n *netCutter) down(tok string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.cut[tok] = true
	for c, ct := range n.conns {
		if ct == tok {
			c.Close()
			delete(n.conns, c)
		}
	}
}

func (n *netCutter) up(tok string) {
	n.mu.Lock()
	n.cut[tok] = false
	n.mu.Unlock()
}

// since lists the WebSocket requests of tok after t.
func (n *netCutter) since(tok string, t time.Time) []time.Time {
	n.mu.Lock()
	defer n.mu.Unlock()
	var out []time.Time
	for _, at := range n.attempts[tok] {
		if at.After(t) {
			out = append(out, at)
		}
	}
	return out
}

// hijackRecorder hands the server the real connection and keeps it, so the
// cutter can close it later.
type hijackRecorder struct {
	http.ResponseWriter
	n   *netCutter
	tok string
}

func (h *hijackRecorder) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	c, brw, err := http.NewResponseController(h.ResponseWriter).Hijack()
	if err == nil {
		h.n.mu.Lock()
		h.n.conns[c] = h.tok
		h.n.mu.Unlock()
	}
	return c, brw, err
}

func (h *hijackRecorder) Unwrap() http.ResponseWriter { return h.ResponseWriter }

// ---- helpers

// newTab opens another tab in the same browser context as p: the same
// person, with the same cookies. Closing it (close) leaves p open.
func (p *page) newTab(name string) (*page, func()) {
	p.t.Helper()
	logs := &consoleLog{}
	ctx, cancel := chromedp.NewContext(p.ctx, chromedp.WithListener(consoleListener(logs)))
	p.t.Cleanup(cancel)
	tab := &page{t: p.t, name: name, ctx: ctx, logs: logs}
	if err := chromedp.Do(ctx); err != nil {
		p.t.Fatalf("%s: open a tab: %v", name, err)
	}
	tab.focused()
	return tab, cancel
}

// createTable creates a table through the page's own API module (so the
// seat cookie lands in the page's browser) and returns its id.
func (p *page) createTable(req string) string {
	p.t.Helper()
	return eval[string](p, fmt.Sprintf(`import('/static/api.js').then((m) => m.api.create(%s)).then((r) => r.id)`, req))
}

// joinAtTable takes seat (0-based) from the table page's join panel.
func (p *page) joinAtTable(name string, seat int) {
	p.t.Helper()
	p.do(chromedp.WaitVisible(chromedp.CSS("#join-name")))
	p.do(chromedp.SetValue(chromedp.CSS("#join-name"), name))
	p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`[data-join="%d"]`, seat))))
	p.waitJS(10*time.Second, fmt.Sprintf(`document.body.dataset.seat === '%d' && document.body.dataset.status === 'live'`, seat))
}

// seatToken reads the page's HttpOnly seat cookie for table id through the
// DevTools protocol (scripts in the page cannot see it).
func (p *page) seatToken(base, id string) string {
	p.t.Helper()
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	res, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (network.GetCookiesResult, error) {
		return cdp.Call(ctx, t, network.GetCookies, network.GetCookiesParams{URLs: []string{base + "/"}})
	})
	if err != nil {
		p.fail("read cookies: %v", err)
	}
	for _, c := range res.Cookies {
		if c.Name == "dh_"+id {
			return c.Value
		}
	}
	p.fail("no seat cookie for table %s", id)
	return ""
}

// clickLegal clicks the page's first legal choice, as a person would, and
// waits for the move to come back; false when it has none.
func (p *page) clickLegal() bool {
	p.t.Helper()
	st := p.state()
	if st.Legal == 0 || st.Over {
		return false
	}
	p.do(chromedp.Click(chromedp.CSS(`[data-testid=actions] button.choice.legal`)))
	// A move that waits for confirmation shows a Confirm button.
	if eval[bool](p, `!!document.querySelector('[data-testid=confirm]')`) {
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=confirm]`)))
	}
	p.waitVersion(st.Version + 1)
	return true
}

// playUntil has p play its legal choices until cond (JavaScript, on p) holds.
func (p *page) playUntil(d time.Duration, cond string) {
	p.t.Helper()
	end := time.Now().Add(d)
	for !eval[bool](p, "!!("+cond+")") {
		if time.Now().After(end) {
			p.fail("playing for %v did not bring %s", d, cond)
		}
		if !p.clickLegal() {
			time.Sleep(40 * time.Millisecond)
		}
	}
}

// waitFor polls a Go condition, up to d.
func waitFor(t *testing.T, d time.Duration, what string, cond func() bool) {
	t.Helper()
	end := time.Now().Add(d)
	for !cond() {
		if time.Now().After(end) {
			t.Fatalf("waiting %v for %s", d, what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func presenceJS(seat int) string {
	return fmt.Sprintf(`document.querySelector('[data-testid=presence] [data-seat="%d"]')`, seat)
}

// seatOnline is true when the page shows seat as connected (a lit dot).
func seatOnline(seat int) string {
	return fmt.Sprintf(`!!%s?.querySelector('.dot.on')`, presenceJS(seat))
}

func seatState(seat int) string {
	return fmt.Sprintf(`(%s?.querySelector('.seat-state')?.textContent || '')`, presenceJS(seat))
}

const (
	logJS  = `(document.querySelector('[data-testid=log]')?.textContent || '')`
	connJS = `(document.querySelector('[data-testid=conn]')?.textContent || '')`
)

// ---- the tests

// TestReconnectAfterLostConnection: Bob's network goes down mid-game. His
// page says it is reconnecting and retries with growing pauses; Ann sees him
// go and may hand his seat to a bot; a move happens meanwhile. When the
// network is back his page reconnects by itself to the same seat, catches up
// and he plays on; Ann sees him back.
func TestReconnectAfterLostConnection(t *testing.T) {
	t.Parallel()
	start := time.Now()
	cut := newNetCutter()
	ts := startServerWith(t, serverOptions{wrap: cut.wrap})

	ann := newPage(t, "ann-net")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	id := ann.createTable(`{game: 'dicestars', name: 'Ann', seats: [{kind: 'human'}, {kind: 'human'}]}`)
	ann.do(chromedp.Navigate(ts.URL + "/t/" + id))
	ann.waitJS(10*time.Second, `document.body.dataset.seat === '0'`)

	bob := newPage(t, "bob-net")
	bob.do(chromedp.Navigate(ts.URL + "/t/" + id))
	bob.joinAtTable("Bob", 1)
	ann.waitJS(5*time.Second, seatOnline(0)+" && "+seatOnline(1))
	bob.waitJS(5*time.Second, connJS+` === 'Connected.'`)
	tok := bob.seatToken(ts.URL, id)

	// The network goes.
	cutAt := time.Now()
	cut.down(tok)
	bob.waitJS(5*time.Second, connJS+`.startsWith('Connection lost. Reconnecting in') && document.querySelector('[data-testid=conn]').classList.contains('bad')`)
	// His page no longer claims he is connected.
	bob.waitJS(3*time.Second, `!(`+seatOnline(1)+`) && `+seatState(1)+`.includes('not connected')`)
	// A click meanwhile is not sent: the page says why.
	bob.do(chromedp.Click(chromedp.CSS(`[data-testid=leave]`)))
	bob.waitJS(3*time.Second, `!document.querySelector('[data-testid=alert]').hidden`)
	if got := bob.text("[data-testid=alert] .alert-text"); !strings.HasPrefix(got, "Not connected: that was not sent.") {
		t.Errorf("a click while disconnected says %q", got)
	}
	bob.shot("20-bob-connection-lost")

	// Ann sees Bob go, and is offered a bot for him.
	ann.waitJS(5*time.Second, `!(`+seatOnline(1)+`) && `+seatState(1)+`.includes('not connected') && !!document.querySelector('[data-takeover="1"]')`)
	ann.shot("21-ann-sees-bob-offline")

	// Ann moves while Bob is away: he misses the updates.
	if !ann.clickLegal() {
		ann.fail("Ann has no legal choice at the start")
	}
	v := ann.state().Version

	// Bob's page keeps trying, each time after a longer pause; then the
	// network comes back.
	waitFor(t, 6*time.Second, "two reconnection attempts", func() bool { return len(cut.since(tok, cutAt)) >= 2 })
	bob.waitJS(3*time.Second, connJS+`.startsWith('Connection lost. Reconnecting in')`)
	cut.up(tok)
	bob.waitJS(10*time.Second, fmt.Sprintf(`%s === 'Connected.' && document.body.dataset.seat === '1' && Number(document.body.dataset.version) === %d`, connJS, v))
	back := time.Now()
	at := cut.since(tok, cutAt)
	if len(at) < 3 {
		t.Fatalf("%d WebSocket requests after the cut, want at least 3 (2 failed, 1 back)", len(at))
	}
	gaps := []time.Duration{at[0].Sub(cutAt), at[1].Sub(at[0]), at[2].Sub(at[1])}
	t.Logf("reconnection attempts after the cut: %v, back %v after the cut", gaps, back.Sub(cutAt).Round(time.Millisecond))
	// The page waits 0.5 s, 1 s, 2 s ... (±20%) before each attempt: a
	// pause can run longer on a busy machine, never shorter.
	for i, g := range gaps {
		if least := 400 * time.Millisecond << i; g < least {
			t.Errorf("pause %d before reconnecting was %v, want at least %v (backoff): %v", i+1, g, least, gaps)
		}
	}
	if len(at) > 3 {
		t.Errorf("%d requests to come back, want 3", len(at))
	}

	// Back as he was: the same seat, the state with Ann's move, and no stale
	// warning about the connection.
	if hidden := eval[bool](bob, `document.querySelector('[data-testid=alert]').hidden`); !hidden {
		t.Errorf("after reconnecting Bob's page still warns: %q", bob.text("[data-testid=alert]"))
	}
	// The log has the moves he missed (the welcome's record of them); a
	// server without that record leaves a note that they happened.
	if s := bob.text(`[data-testid=log]`); eval[string](bob, `document.body.dataset.logFrom || ''`) == "welcome" {
		if !strings.Contains(s, "Ann draws") || strings.Contains(s, "Reconnected") {
			t.Errorf("Bob's log after reconnecting lacks Ann's draw: %q", s)
		}
	} else if !strings.Contains(s, "Reconnected: 2 moves made meanwhile") {
		t.Errorf("Bob's log after reconnecting (Ann drew, the dice rolled): %q", s)
	}
	if s := eval[string](bob, seatState(1)); s != "connected" {
		t.Errorf("Bob's page shows his seat as %q once back", s)
	}
	ann.waitJS(5*time.Second, seatOnline(1)+` && `+seatState(1)+`.includes('connected') && !`+seatState(1)+`.includes('not') && !document.querySelector('[data-takeover]')`)
	bob.shot("22-bob-reconnected")

	// And he plays on: Ann finishes her turn, then Bob takes his.
	ann.playUntil(15*time.Second, `document.querySelector('[data-testid=turn]').textContent === "Bob's turn."`)
	bob.waitJS(5*time.Second, `document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0`)
	if !bob.clickLegal() {
		bob.fail("Bob has no legal choice on his turn")
	}
	bob.waitJS(5*time.Second, logJS+`.includes('Bob draws')`)
	ann.waitJS(5*time.Second, logJS+`.includes('Bob draws')`)
	bob.shot("23-bob-plays-on")
	if s := getSummary(t, ts.URL, id); s.Seats[1].TakenOver || !s.Seats[1].Connected {
		t.Errorf("server: Bob's seat %+v", s.Seats[1])
	}
	ann.noExceptions()
	bob.noExceptions()
	t.Logf("test took %v", time.Since(start).Round(time.Millisecond))
}

// TestTurnClockHandsSeatToBot: a table with a short turn clock. Ann's page
// counts down; when her time is up a bot plays her seat (the page says so
// and the bot moves), she takes it back and plays on.
func TestTurnClockHandsSeatToBot(t *testing.T) {
	t.Parallel()
	start := time.Now()
	ts := startServer(t)
	ann := newPage(t, "ann-clock")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	// The home form offers clocks of 30 s and more; the API takes any
	// number of seconds, so the test asks for 5. The bots wait 250 ms a move
	// so the game lasts while the seat changes hands.
	id := ann.createTable(`{game: 'dicestars', name: 'Ann', settings: {turnSeconds: 5, botDelayMs: 250}, seats: [{kind: 'human'}, {kind: 'bot', bot: 'random'}]}`)
	ann.do(chromedp.Navigate(ts.URL + "/t/" + id))
	ann.waitJS(10*time.Second, `document.body.dataset.seat === '0' && document.body.dataset.status === 'live' && document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0`)

	// A live countdown.
	const clockSecs = `Number((document.querySelector('[data-testid=clock]').textContent.match(/(\d+) s left/) || [])[1] || -1)`
	ann.waitJS(3*time.Second, clockSecs+` > 0`)
	first := eval[int](ann, clockSecs)
	if first > 5 {
		t.Errorf("the clock shows %d s on a 5 s clock", first)
	}
	ann.shot("30-clock-running")
	ann.waitJS(3*time.Second, fmt.Sprintf(`%s > 0 && %s < %d`, clockSecs, clockSecs, first))

	// Time is up: a bot plays her seat, the page says so and offers the seat
	// back; no choices are hers to click meanwhile.
	ann.waitJS(8*time.Second, `!!document.querySelector('[data-testid=reclaim]')`)
	if s := eval[string](ann, seatState(0)); !strings.Contains(s, "a bot (greedy) is playing for you") {
		t.Errorf("presence of Ann's seat after the clock ran out: %q", s)
	}
	if n := eval[int](ann, `document.querySelectorAll('[data-testid=actions] button').length`); n != 0 {
		t.Errorf("%d action buttons while a bot holds the seat", n)
	}
	ann.shot("31-clock-out-bot-plays")
	// The bot moves for her (she never clicked, so any move of hers is the
	// bot's).
	ann.waitJS(5*time.Second, logJS+`.includes('Ann draws') && /Ann took/.test(`+logJS+`)`)
	if got := eval[string](ann, `document.querySelector('[data-testid=clock]').textContent`); got != "" {
		t.Logf("clock while the bot plays her seat: %q (the bot's seat has no clock)", got)
	}

	// She takes the seat back and plays on, with a fresh clock.
	// The banner is drawn afresh at each of the bot's moves (every 250 ms
	// here): a click by DevTools node id may find that node gone, so the
	// button is looked up and clicked in one evaluation.
	if !eval[bool](ann, `(() => { const b = document.querySelector('[data-testid=reclaim]'); b?.click(); return !!b; })()`) {
		ann.fail("no button to take the seat back")
	}
	ann.waitJS(5*time.Second, `!!document.querySelector('[data-testid=leave]')`)
	if s := eval[string](ann, seatState(0)); s != "connected" {
		t.Errorf("presence after reclaiming: %q", s)
	}
	ann.waitJS(10*time.Second, `document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0 && `+clockSecs+` > 0`)
	ann.shot("32-reclaimed-clock-again")
	drawsBefore := eval[int](ann, `(`+logJS+`.match(/Ann (draws|took|announced)/g) || []).length`)
	if !ann.clickLegal() {
		ann.fail("no legal choice after reclaiming")
	}
	ann.waitJS(3*time.Second, fmt.Sprintf(`(%s.match(/Ann (draws|took|announced)/g) || []).length > %d`, logJS, drawsBefore))
	if s := getSummary(t, ts.URL, id); s.Seats[0].TakenOver {
		t.Errorf("server: Ann's seat still taken over after her move: %+v", s.Seats[0])
	}
	ann.noExceptions()
	t.Logf("test took %v", time.Since(start).Round(time.Millisecond))
}

// TestTakeoverOfClosedPage: Bob closes his tab on his turn. Ann's page
// offers a bot for him; she asks, and the bot plays his turns. Bob opens the
// link again in his browser, takes his seat back and plays.
func TestTakeoverOfClosedPage(t *testing.T) {
	t.Parallel()
	start := time.Now()
	ts := startServer(t)
	ann := newPage(t, "ann-to")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	id := ann.createTable(`{game: 'dicestars', name: 'Ann', seats: [{kind: 'human'}, {kind: 'human'}]}`)
	ann.do(chromedp.Navigate(ts.URL + "/t/" + id))
	ann.waitJS(10*time.Second, `document.body.dataset.seat === '0'`)

	// Bob's browser: a home tab that stays, and the table in another tab.
	bob := newPage(t, "bob-home")
	bob.do(chromedp.Navigate(ts.URL + "/"))
	bobTab, closeTab := bob.newTab("bob-tab")
	bobTab.do(chromedp.Navigate(ts.URL + "/t/" + id))
	bobTab.joinAtTable("Bob", 1)
	ann.waitJS(5*time.Second, seatOnline(0)+" && "+seatOnline(1))
	if n := eval[int](ann, `document.querySelectorAll('[data-takeover]').length`); n != 0 {
		t.Errorf("a bot is offered for a connected player (%d buttons)", n)
	}

	// Ann plays her turn; on his, Bob closes the tab.
	ann.playUntil(15*time.Second, `document.querySelector('[data-testid=turn]').textContent === "Bob's turn."`)
	bobTab.waitJS(5*time.Second, `document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0`)
	closeTab()

	ann.waitJS(5*time.Second, `!(`+seatOnline(1)+`) && `+seatState(1)+`.includes('not connected')`)
	ann.waitJS(3*time.Second, `document.querySelector('[data-takeover="1"]')?.textContent === 'Let a bot play for Bob'`)
	ann.shot("40-ann-offered-a-bot-for-bob")
	ann.do(chromedp.Click(chromedp.CSS(`[data-takeover="1"]`)))
	ann.waitJS(5*time.Second, seatState(1)+`.includes('is playing for them') && !document.querySelector('[data-takeover]')`)
	// Bob never moved himself: his moves in the log are the bot's. It plays
	// his whole turn and Ann's comes back.
	ann.waitJS(10*time.Second, logJS+`.includes('Bob draws') && /Bob took/.test(`+logJS+`) && document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0`)
	ann.shot("41-bot-plays-for-bob")
	// Another round: Ann plays, the bot answers for Bob.
	botTakes := eval[int](ann, `(`+logJS+`.match(/Bob took/g) || []).length`)
	ann.playUntil(20*time.Second, fmt.Sprintf(`(%s.match(/Bob took/g) || []).length > %d`, logJS, botTakes))

	// Bob opens the link again: his seat, a bot on it, and a way back.
	back, _ := bob.newTab("bob-back")
	back.do(chromedp.Navigate(ts.URL + "/t/" + id))
	back.waitJS(10*time.Second, `document.body.dataset.seat === '1' && !!document.querySelector('[data-testid=reclaim]')`)
	if n := eval[int](back, `document.querySelectorAll('[data-testid=actions] button').length`); n != 0 {
		t.Errorf("Bob sees %d action buttons while the bot has his seat", n)
	}
	back.shot("42-bob-back-bot-on-his-seat")
	ann.waitJS(5*time.Second, seatOnline(1)+` && `+seatState(1)+`.includes('is playing for them')`)
	back.do(chromedp.Click(chromedp.CSS(`[data-testid=reclaim]`)))
	back.waitJS(5*time.Second, `!!document.querySelector('[data-testid=leave]')`)
	ann.waitJS(5*time.Second, seatOnline(1)+` && !`+seatState(1)+`.includes('is playing for them')`)

	// He plays his own turn again (the bot may have drawn for him before he
	// took the seat back: then his first move is a take).
	mine := eval[int](back, `(`+logJS+`.match(/Bob (draws|took|announced)/g) || []).length`)
	ann.playUntil(20*time.Second, `document.querySelector('[data-testid=turn]').textContent === "Bob's turn."`)
	back.waitJS(5*time.Second, `document.querySelectorAll('[data-testid=actions] button.choice.legal').length > 0`)
	if !back.clickLegal() {
		back.fail("Bob has no legal choice on his turn")
	}
	back.waitJS(3*time.Second, fmt.Sprintf(`(%s.match(/Bob (draws|took|announced)/g) || []).length > %d`, logJS, mine))
	back.shot("43-bob-reclaimed-and-plays")
	if s := getSummary(t, ts.URL, id); s.Seats[1].TakenOver || !s.Seats[1].Connected {
		t.Errorf("server: Bob's seat %+v", s.Seats[1])
	}
	ann.noExceptions()
	back.noExceptions()
	t.Logf("test took %v", time.Since(start).Round(time.Millisecond))
}
