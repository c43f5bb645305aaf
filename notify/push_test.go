package notify_test

import (
	"context"
	"log/slog"
	"net/http"
	"net/url"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/notify/notifytest"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/memstore"
)

// TestPushEndToEnd sends a "your turn" through webpush-go to a push
// service started here, which decrypts it with the browser's keys and
// checks the VAPID signature; a subscription the service answers 410 for
// is removed, the other kept.
func TestPushEndToEnd(t *testing.T) {
	f := newFixture(t, notify.Config{})
	f.settings(t, notify.Settings{Push: true, Turns: true, Results: true, Lang: "fr"})
	subscribe(t, f.push, f.st, "acc-ann", "/sub/phone")
	subscribe(t, f.push, f.st, "acc-ann", "/sub/old-laptop")
	f.push.SetStatus("/sub/old-laptop", http.StatusGone)

	n := turn("tb1")
	n.Deadline = f.clock.Now().Add(26*time.Hour + 30*time.Minute)
	f.svc.Notify(context.Background(), n)
	got := f.push.WaitFor(t, "", 2)

	want := notify.Message{Title: "À vous de jouer\u00a0: Dice Stars", Body: "Bob a joué. C'est à vous. Temps restant\u00a0: 1 j 2 h.",
		URL: "/t/tb1", Tag: "turn-tb1"}
	u, _ := url.Parse(f.push.URL)
	for _, p := range got {
		if p.Message != want {
			t.Errorf("%s: payload %+v, want %+v", p.Path, p.Message, want)
		}
		notifytest.CheckVAPID(t, p.Header, f.svc.PublicKey(), "https://"+u.Host, "mailto:ops@example.org")
		if h := p.Header; h.Get("Content-Encoding") != "aes128gcm" || h.Get("TTL") != "95400" || h.Get("Urgency") != "normal" || len(h.Get("Topic")) != 32 {
			t.Errorf("%s: headers Content-Encoding %q, TTL %q, Urgency %q, Topic %q; want aes128gcm, 95400 (until the deadline), normal, 32 characters",
				p.Path, h.Get("Content-Encoding"), h.Get("TTL"), h.Get("Urgency"), h.Get("Topic"))
		}
	}
	subs, err := f.st.PushSubscriptions(context.Background(), "acc-ann")
	if err != nil || len(subs) != 1 || subs[0].Endpoint != f.push.URL+"/sub/phone" {
		t.Fatalf("subscriptions after a 410 = %+v, %v; want the phone's only", subs, err)
	}

	// Game over, in English now: low urgency, a day to live, the same tag.
	f.settings(t, notify.Settings{Push: true, Turns: true, Results: true, Lang: "en"})
	over := turn("tb1")
	over.Kind = notify.KindOver
	f.svc.Notify(context.Background(), over)
	got = f.push.WaitFor(t, "", 3)
	last := got[2]
	if want := (notify.Message{Title: "Game over: Dice Stars", Body: "The game has ended: see how it went.", URL: "/t/tb1", Tag: "turn-tb1"}); last.Message != want {
		t.Fatalf("game over payload %+v, want %+v", last.Message, want)
	}
	if last.Header.Get("Urgency") != "low" || last.Header.Get("TTL") != "86400" {
		t.Fatalf("game over Urgency %q TTL %q", last.Header.Get("Urgency"), last.Header.Get("TTL"))
	}
}

// TestVAPIDKeysMadeOnce: the keys are made the first time and the same
// ever after (browsers subscribed with the public one).
func TestVAPIDKeysMadeOnce(t *testing.T) {
	st := memstore.New()
	k1, err := notify.LoadVAPID(context.Background(), st)
	if err != nil {
		t.Fatal(err)
	}
	k2, err := notify.LoadVAPID(context.Background(), st)
	if err != nil || k2 != k1 || len(k1.Public) != 87 {
		t.Fatalf("second load %+v, %v; first %+v (public key: 65 bytes, 87 base64url characters)", k2, err, k1)
	}
	st2 := memstore.New()
	if _, err := st2.InitServerValue(context.Background(), "vapid", `{"public":"x","private":"y"}`); err != nil {
		t.Fatal(err)
	}
	if _, err := notify.LoadVAPID(context.Background(), st2); err == nil {
		t.Fatal("broken stored keys were accepted")
	}
}

func TestSubscriptionCheck(t *testing.T) {
	good := notifytest.NewSubscriber(t).Subscription("https://fcm.googleapis.com/fcm/send/abc")
	if err := good.Check(); err != nil {
		t.Fatal(err)
	}
	for name, edit := range map[string]func(*notify.Subscription){
		"http":        func(s *notify.Subscription) { s.Endpoint = "http://push.example/x" },
		"no host":     func(s *notify.Subscription) { s.Endpoint = "https:///x" },
		"user info":   func(s *notify.Subscription) { s.Endpoint = "https://u:p@push.example/x" },
		"not a point": func(s *notify.Subscription) { s.Keys.P256dh = "BAAA" },
		"short auth":  func(s *notify.Subscription) { s.Keys.Auth = "AAAA" },
		"no keys":     func(s *notify.Subscription) { s.Keys.P256dh, s.Keys.Auth = "", "" },
	} {
		s := good
		edit(&s)
		if err := s.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// TestPublicClientRefusesLoopback: the default client never posts to this
// machine or a private network, whatever endpoint a browser gave.
func TestPublicClientRefusesLoopback(t *testing.T) {
	st := memstore.New()
	ctx := context.Background()
	if err := st.CreateAccount(ctx, store.Account{ID: "a", Name: "A", NameKey: "a"}); err != nil {
		t.Fatal(err)
	}
	hit := make(chan struct{}, 1)
	srv := notifytest.NewPushService(t)
	srv.Server.Config.Handler = http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hit <- struct{}{} })
	b := notifytest.NewSubscriber(t).Subscription(srv.URL + "/x")
	if err := st.AddPushSubscription(ctx, store.PushSubscription{Endpoint: b.Endpoint, Account: "a", P256dh: b.Keys.P256dh, Auth: b.Keys.Auth}); err != nil {
		t.Fatal(err)
	}
	svc, err := notify.New(ctx, notify.Config{Store: st, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	svc.Notify(ctx, notify.Notice{Account: "a", Table: "t", Kind: notify.KindTurn})
	select {
	case <-hit:
		t.Fatal("the default client posted to a loopback address")
	default:
	}
}
