package notify_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/notify/notifytest"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// fakeClock is a clock moved by the test; due timers run in their own
// goroutines, like time.AfterFunc's.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

type fakeTimer struct {
	c    *fakeClock
	at   time.Time
	f    func()
	done bool
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) AfterFunc(d time.Duration, f func()) notify.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.done
	t.done = true
	return was
}

// advance moves the clock and starts the timers now due.
func (c *fakeClock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	var due []func()
	for _, t := range c.timers {
		if !t.done && !t.at.After(c.now) {
			t.done = true
			due = append(due, t.f)
		}
	}
	c.mu.Unlock()
	for _, f := range due {
		go f()
	}
}

// subscribe makes a subscriber with the endpoint path on the push service
// and stores its subscription for an account.
func subscribe(t *testing.T, push *notifytest.PushService, st store.Store, account, path string) {
	t.Helper()
	_, sub := push.Subscribe(t, path)
	if err := st.AddPushSubscription(context.Background(), store.PushSubscription{Endpoint: sub.Endpoint, Account: account,
		P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth, Created: time.Now()}); err != nil {
		t.Fatal(err)
	}
}

// fixture is a Service over a memstore with one account.
type fixture struct {
	st    *memstore.Store
	svc   *notify.Service
	clock *fakeClock
	push  *notifytest.PushService
}

func newFixture(t *testing.T, cfg notify.Config) *fixture {
	t.Helper()
	f := &fixture{st: memstore.New(), push: notifytest.NewPushService(t)}
	f.clock = &fakeClock{now: time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC)}
	if err := f.st.CreateAccount(context.Background(), store.Account{ID: "acc-ann", Name: "Ann", NameKey: "ann", Created: f.clock.now}); err != nil {
		t.Fatal(err)
	}
	cfg.Store = f.st
	cfg.Clock = f.clock
	cfg.HTTPClient = f.push.Client()
	if cfg.Subject == "" {
		cfg.Subject = "mailto:ops@example.org"
	}
	svc, err := notify.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	f.svc = svc
	return f
}

func (f *fixture) settings(t *testing.T, s notify.Settings) {
	t.Helper()
	if err := s.Check(); err != nil {
		t.Fatal(err)
	}
	if err := f.st.SetNotifySettings(context.Background(), s.ToStore("acc-ann", f.clock.Now())); err != nil {
		t.Fatal(err)
	}
}

func turn(table string) notify.Notice {
	return notify.Notice{Account: "acc-ann", Table: table, Game: "dicestars", GameTitle: "Dice Stars",
		Opponent: "Bob", Seat: 0, URL: "/t/" + table, Kind: notify.KindTurn}
}
