package notify_test

import (
	"context"
	"github.com/dicehall/dicehall/internal/clock"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/notify/notifytest"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// fakeClock is the fake clock (clock.Fake) the notify tests move by hand.
type fakeClock = clock.Fake

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
	f.clock = clock.NewFake(time.Date(2026, 5, 4, 12, 0, 0, 0, time.UTC))
	if err := f.st.CreateAccount(context.Background(), store.Account{ID: "acc-ann", Name: "Ann", NameKey: "ann", Created: f.clock.Now()}); err != nil {
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
