package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/dicehall/dicehall/internal/clock"
	"io"
	"log/slog"
	"net"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	cdpbrowser "github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/serviceworker"
	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/notify/notifytest"
	"github.com/dicehall/dicehall/server"
	"github.com/dicehall/dicehall/store/memstore"
)

// dayClock moves only when the test moves it (clock.Fake): a day goes by
// in seconds.
type dayClock = clock.Fake

// dayServer is the server of TestTurnBasedDay: the real server and its
// notification service on the test's clock and store, listening at addr
// ("" = a free loopback port), posting to the test's push service.
type dayServer struct {
	ts  *httptest.Server
	srv *server.Server
	svc *notify.Service
}

// dayBotDelay is a bot's pause before each move, in the clock's time.
const dayBotDelay = time.Minute

func startDayServer(t *testing.T, addr string, st *memstore.Store, clock *dayClock, push *notifytest.PushService) *dayServer {
	t.Helper()
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	svc, err := notify.New(context.Background(), notify.Config{Store: st, Clock: clock,
		HTTPClient: push.Client(), TurnEvery: -1, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	srv, err := server.New(server.Config{Store: st, Games: all.Registry, Clock: clock, Push: svc, Logger: quiet,
		BotDelay: dayBotDelay,
		// The clock jumps by hours: no idle timeout for the pages'
		// sockets; the request budget refills with the clock, so a
		// large one.
		Limits: server.Limits{WSIdle: -1}, PostBurst: 1000, MsgBurst: 1000})
	if err != nil {
		t.Fatal(err)
	}
	if addr == "" {
		addr = "127.0.0.1:0"
	}
	var ln net.Listener
	for end := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		if ln, err = net.Listen("tcp", addr); err == nil {
			break
		}
		if time.Now().After(end) {
			t.Fatalf("listen at %s again: %v", addr, err)
		}
	}
	ts := httptest.NewUnstartedServer(srv.Handler())
	ts.Listener.Close()
	ts.Listener = ln
	ts.Start()
	d := &dayServer{ts: ts, srv: srv, svc: svc}
	t.Cleanup(d.stop)
	return d
}

// stop stops the server as a restart would: the pages' sockets drop.
func (d *dayServer) stop() {
	d.ts.Close()
	d.srv.Close()
	d.svc.Close()
}

// registration is the id DevTools gives the page's service worker (its
// scope: the site).
func (p *page) registration(base string) serviceworker.RegistrationID {
	p.t.Helper()
	regs := make(chan serviceworker.RegistrationID, 8)
	ctx, cancel := context.WithCancel(p.ctx)
	defer cancel()
	events := chromedp.Events(ctx, serviceworker.WorkerRegistrationUpdated) // subscribed from here on
	go func() {
		for ev, err := range events {
			if err != nil {
				return
			}
			for _, r := range ev.Registrations {
				if r.ScopeURL == base+"/" && !r.IsDeleted {
					regs <- r.RegistrationID
				}
			}
		}
	}()
	call(p, serviceworker.Enable, cdp.Empty{})
	select {
	case reg := <-regs:
		return reg
	case <-time.After(10 * time.Second):
		p.fail("DevTools did not name the worker's registration")
	}
	return ""
}

// allowNotifications grants the site the notifications permission in the
// page's browser context, as a person answering the browser's prompt.
func (p *page) allowNotifications(base string) {
	p.t.Helper()
	callBrowser(p, cdpbrowser.SetPermission, cdpbrowser.SetPermissionParams{
		Permission: &cdpbrowser.PermissionDescriptor{Name: "notifications"}, Setting: cdpbrowser.PermissionSettingGranted,
		Origin: base, BrowserContextID: chromedp.FromContext(p.ctx).BrowserContextID})
}

// shownNotification is a notification the worker shows.
type shownNotification struct{ Title, Body, Tag, URL, Icon string }

// deliverPush hands a push payload to the page's service worker, as the
// browser's push service would, and waits for the notification it shows
// with that tag.
func (p *page) deliverPush(base string, reg serviceworker.RegistrationID, payload []byte, tag string) shownNotification {
	p.t.Helper()
	// A notification of the same tag would be replaced: close it first,
	// and see it gone (closing is not at once: one closed late would be
	// this payload's), so the one read back is this payload's.
	shown := `navigator.serviceWorker.ready.then((r) => r.getNotifications({tag: ` + jsString(tag) + `}))`
	eval[bool](p, shown+`.then((ns) => { ns.forEach((n) => n.close()); return true; })`)
	for end := time.Now().Add(minWait); eval[int](p, shown+`.then((ns) => ns.length)`) > 0; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(end) {
			p.fail("the notification of tag %s stays open", tag)
		}
	}
	// On a busy machine Chromium now and then drops a message DevTools
	// delivers (the worker starting or stopping meanwhile): a message not
	// shown in a while is delivered again, as a push service would retry.
	for attempt := 1; attempt <= 3; attempt++ {
		if attempt > 1 {
			p.t.Logf("%s: push of tag %s not shown: delivered again (%d)", p.name, tag, attempt)
		}
		call(p, serviceworker.DeliverPushMessage, serviceworker.DeliverPushMessageParams{Origin: base, RegistrationID: reg, Data: string(payload)})
		for end := time.Now().Add(6 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			got := eval[[]shownNotification](p, shown+`.then((ns) => ns.map((n) => ({title: n.title, body: n.body, tag: n.tag, url: n.data?.url, icon: n.icon})))`)
			if len(got) > 0 {
				return got[len(got)-1]
			}
		}
	}
	p.fail("no notification of tag %s shown after a push of %s", tag, payload)
	return shownNotification{}
}

// dsTurn plays one Dice Stars turn by clicks: a draw, then a take.
func (p *page) dsTurn() {
	p.t.Helper()
	for range 2 {
		if p.dsMyTurn().Over || !p.clickLegal() {
			p.fail("no legal choice on my turn")
		}
	}
}

// TestTurnBasedDay is issue 13's day: two people with accounts play a
// turn-based Dice Stars table (8 hours a move, no bank, forfeit) through
// the pages over a simulated day of the server's clock. Each turn that
// passes to the other gives that player exactly one Web Push, sent
// through the real library to a push service started here, decrypted
// with the subscription's keys; its payload, delivered to the player's
// service worker, shows as a notification. In the middle the server
// stops and a new one starts on the same store and clock at the same
// address: the deadline is the one from before, the pages reconnect by
// themselves and play goes on. At the end Ann stops playing: her clock
// runs out exactly at its deadline, a bot plays her seat (a forfeit), and
// Bob, playing on, hears the game is over.
func TestTurnBasedDay(t *testing.T) {
	t.Parallel()
	began := time.Now()
	start := time.Date(2026, 3, 2, 8, 0, 0, 0, time.UTC)
	clock := clock.NewFake(start)
	st := memstore.New()
	push := notifytest.NewPushService(t)
	day := startDayServer(t, "", st, clock, push)
	addr := day.ts.Listener.Addr().String()
	base := strings.Replace(day.ts.URL, "127.0.0.1", "localhost", 1)

	type player struct {
		*page
		name, endpoint string
		reg            serviceworker.RegistrationID
	}
	ann := &player{page: newPage(t, "day-ann"), name: "Ann_day", endpoint: "/push/ann"}
	bob := &player{page: newPage(t, "day-bob"), name: "Bob_day", endpoint: "/push/bob"}
	ann.do(chromedp.EmulateViewport(1440, 900))
	bob.do(chromedp.EmulateViewport(390, 844))
	for _, p := range []*player{ann, bob} {
		p.reducedMotion()
		p.signUp(base, p.name, "a day of dice stars")
		p.fastBots()
		// The account page installs the service worker.
		p.do(chromedp.Navigate(base + "/account"))
		if !eval[bool](p.page, `navigator.serviceWorker.ready.then((r) => !!r.active)`) {
			p.fail("no active service worker")
		}
		p.allowNotifications(base)
		p.reg = p.registration(base)
		// Headless Chromium cannot subscribe to a real push service (it
		// has none, and refuses subscriptions in its off-the-record
		// contexts): the page posts the subscription a browser would
		// make, with keys the test's push service decrypts with.
		_, sub := push.Subscribe(t, p.endpoint)
		body, _ := json.Marshal(sub)
		if got := eval[int](p.page, `fetch('/api/notify/subscriptions', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: `+
			jsString(string(body))+`}).then((r) => r.status)`); got != 204 {
			p.fail("POST /api/notify/subscriptions: %d", got)
		}
	}

	// Ann makes a turn-based table for two in the lobby; Bob joins.
	ann.do(chromedp.Navigate(base + "/"))
	ann.chooseGame("dicestars")
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "human")
	ann.setSelect("#f-clock", "turns:28800")
	ann.waitJS(5*time.Second, `!!document.querySelector('#f-bank') && !!document.querySelector('#f-expiry')`)
	ann.setSelect("#f-bank", "0")
	ann.setSelect("#f-expiry", "forfeit")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '0'`)
	id := eval[string](ann.page, `location.pathname.split('/').pop()`)
	bob.do(chromedp.Navigate(base + "/"))
	join := fmt.Sprintf(`[data-join="%s:1"]`, id)
	bob.waitJS(10*time.Second, fmt.Sprintf(`!!document.querySelector('%s')`, join))
	bob.do(chromedp.Click(chromedp.CSS(join)))
	bob.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.seat === '1' && document.body.dataset.status === 'live'`)

	const perMove = 8 * time.Hour
	pushes := map[*player]int{}
	// heard checks that p got exactly one more push, for this table, a
	// "your turn" naming the opponent and the time left (opponent "" =
	// the game over), and shows it on p's screen through its worker.
	// Against the bot at the end (left = botTurn: the clock moving for
	// the bot's pauses may have taken a minute off) the pushes are only
	// read, to keep the test short.
	const botTurn = "*"
	heard := func(p *player, opponent string, left string) notify.Message {
		t.Helper()
		pushes[p]++
		got := push.WaitFor(t, p.endpoint, pushes[p])
		last := got[len(got)-1]
		m := last.Message
		want := notify.Message{Title: "Your turn: Dice Stars", URL: "/t/" + id, Tag: "turn-" + id,
			Body: fmt.Sprintf("%s has played. It is your move. Time left: %s.", opponent, left)}
		if opponent == "" {
			want.Title, want.Body = "Game over: Dice Stars", "The game has ended: see how it went."
		}
		if left == botTurn && strings.HasPrefix(m.Body, strings.TrimSuffix(want.Body, botTurn+".")) {
			want.Body = m.Body
		}
		if m != want {
			t.Fatalf("push %d to %s: %+v, want %+v", pushes[p], p.name, m, want)
		}
		if left == botTurn {
			return m
		}
		shown := p.deliverPush(base, p.reg, last.Payload, m.Tag)
		if w := (shownNotification{m.Title, m.Body, m.Tag, base + m.URL, base + "/static/icons/icon-192.png"}); shown != w {
			p.fail("notification shown %+v, want %+v", shown, w)
		}
		return m
	}
	// mine is the deadline GET /api/tables/mine gives p at the table.
	mine := func(p *player) time.Time {
		t.Helper()
		s := eval[string](p.page, `fetch('/api/tables/mine').then((r) => r.json()).then((ts) => ts.find((x) => x.id === `+jsString(id)+`)?.deadline || '')`)
		at, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			p.fail("my tables' deadline %q: %v", s, err)
		}
		return at
	}
	clockText := func(left time.Duration) string {
		h, m := int(left/time.Hour), int(left%time.Hour/time.Minute)
		if m == 0 {
			return fmt.Sprintf("◷ %d h left", h)
		}
		return fmt.Sprintf("◷ %d h %d min left", h, m)
	}

	// Bob's join starts the game: Ann's turn, 8 hours.
	heard(ann, bob.name, "8 h")
	if got, want := mine(ann), clock.Now().Add(perMove); !got.Equal(want) {
		t.Fatalf("Ann's deadline %v, want %v", got, want)
	}
	// The day: a move every few hours, each heard by the other.
	turn := func(p, other *player, wait time.Duration) {
		t.Helper()
		clock.Advance(wait)
		p.dsTurn()
		heard(other, p.name, "8 h")
	}
	turn(ann, bob, 3*time.Hour) // 11:00
	turn(bob, ann, 2*time.Hour) // 13:00
	ann.shot("day-ann-1440")
	turn(ann, bob, 4*time.Hour) // 17:00
	deadline := mine(bob)
	if want := clock.Now().Add(perMove); !deadline.Equal(want) {
		t.Fatalf("Bob's deadline %v, want %v", deadline, want)
	}
	for _, p := range []*player{ann, bob} {
		p.waitJS(5*time.Second, fmt.Sprintf(`document.querySelector('[data-testid=clock]').textContent === %q`, clockText(perMove)))
	}

	// The server stops; ten minutes later a new one starts on the same
	// store and clock at the same address. The pages reconnect by
	// themselves, and the clock runs on from the stored times.
	t.Logf("%v: the server stops", time.Since(began).Round(time.Millisecond))
	day.stop()
	for _, p := range []*player{ann, bob} {
		p.waitJS(10*time.Second, `!document.querySelector('[data-testid=conn]').classList.contains('ok')`)
	}
	clock.Advance(10 * time.Minute)
	day = startDayServer(t, addr, st, clock, push)
	for _, p := range []*player{ann, bob} {
		p.waitJS(30*time.Second, seatOnline(0)+` && `+seatOnline(1)+
			fmt.Sprintf(` && document.querySelector('[data-testid=clock]').textContent === %q`, clockText(perMove-10*time.Minute)))
	}
	t.Logf("%v: the pages are back", time.Since(began).Round(time.Millisecond))
	bob.shot("day-bob-restarted-390")
	if got := mine(bob); !got.Equal(deadline) {
		t.Fatalf("Bob's deadline after the restart %v, want %v as before", got, deadline)
	}
	if n := len(push.Received()); n != pushes[ann]+pushes[bob] {
		t.Fatalf("the restart sent pushes: %d in all, want %d", n, pushes[ann]+pushes[bob])
	}

	turn(bob, ann, 3*time.Hour) // 20:10
	turn(ann, bob, 5*time.Hour) // 01:10, the next day
	turn(bob, ann, 4*time.Hour) // 05:10
	deadline = mine(ann)

	// Ann plays no more. Her clock runs out at 13:10, not a second sooner:
	// then a bot plays her seat for good.
	clock.Advance(deadline.Sub(clock.Now()) - time.Second)
	time.Sleep(300 * time.Millisecond)
	if s := getSummary(t, base, id); s.Seats[0].TakenOver {
		t.Fatalf("Ann's seat taken a second before her deadline: %+v", s.Seats[0])
	}
	clock.Advance(time.Second)
	var forfeit bool
	waitFor(t, 10*time.Second, "Ann's seat taken over at her deadline", func() bool {
		res, err := day.ts.Client().Get(base + "/api/tables/" + id)
		if err != nil {
			return false
		}
		defer res.Body.Close()
		var s struct {
			Seats []struct {
				TakenOver, Forfeit bool
			}
		}
		_ = json.NewDecoder(res.Body).Decode(&s)
		forfeit = len(s.Seats) == 2 && s.Seats[0].Forfeit
		return len(s.Seats) == 2 && s.Seats[0].TakenOver
	})
	if !forfeit {
		t.Fatal("Ann's seat was taken over without a forfeit")
	}

	// Bob plays on against the bot to the end; the clock moves for the
	// bot's pauses. Each of his turns is heard (pushed, not shown); then
	// the game's end, shown.
	t.Logf("%v: Ann forfeits", time.Since(began).Round(time.Millisecond))
	annPushes := pushes[ann]
	for end := time.Now().Add(60 * time.Second); ; {
		if time.Now().After(end) {
			bob.fail("the game did not end")
		}
		st := bob.state()
		if st.Over {
			break
		}
		if st.Legal == 0 {
			clock.Advance(dayBotDelay)
			time.Sleep(20 * time.Millisecond)
			continue
		}
		heard(bob, ann.name, botTurn)
		bob.dsTurn()
	}
	t.Logf("%v: the game is over", time.Since(began).Round(time.Millisecond))
	heard(bob, "", "")
	// The end screen says Ann forfeited and ranks her last, as the
	// ratings do, whatever her score.
	bob.waitJS(10*time.Second, `!!document.querySelector('[data-testid=forfeit]') && !!document.querySelector('[data-testid=ranking] li')`)
	if first := bob.text(`[data-testid=ranking] li:first-child .pname`); !strings.Contains(first, "Bob") {
		t.Errorf("the final ranking starts with %q, want Bob (Ann forfeited)", first)
	}
	if w := bob.text(`[data-testid=winner]`); !strings.HasPrefix(w, "Bob_day won") {
		t.Errorf("the winner line reads %q, want Bob's (Ann forfeited)", w)
	}
	bob.shot("day-bob-over-390")
	if got := push.For(ann.endpoint); len(got) > annPushes+1 || (len(got) == annPushes+1 && got[annPushes].Message.Title != "Game over: Dice Stars") {
		t.Fatalf("Ann's pushes after her forfeit: %+v", got[annPushes:])
	}
	// A forfeit ranks last in the ratings, whatever the bot scored.
	var rows []boardRow
	waitFor(t, 10*time.Second, "both players rated", func() bool {
		rows = leaderboard(t, base, "dicestars")
		return len(rows) == 2
	})
	if rows[0].Name != bob.name || rows[0].Rank != 1 || rows[1].Rank != 2 {
		t.Errorf("leaderboard after Ann's forfeit: %+v, want Bob first", rows)
	}
	t.Logf("a day and more went by (%v on the clock): %d pushes to Ann, %d to Bob", clock.Now().Sub(start), len(push.For(ann.endpoint)), pushes[bob])
	for _, p := range []*player{ann, bob} {
		p.noExceptions()
	}
}
