package server

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/notify/notifytest"
	"github.com/dicehall/dicehall/store/memstore"
)

// notifyServer is a server with the notification service over its store,
// on a fake clock; the service posts to push services with client.
func notifyServer(t *testing.T, client *http.Client) (*testServer, *notify.Service, *fakeClock) {
	t.Helper()
	clock := newFakeClock()
	st := memstore.New()
	svc, err := notify.New(context.Background(), notify.Config{Store: st, Clock: clock, HTTPClient: client,
		Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(svc.Close)
	ts := startServer(t, Config{Store: st, Clock: clock, PostBurst: 10_000, Push: svc})
	return ts, svc, clock
}

// subscriptionJSON is a browser's PushSubscription.toJSON() for endpoint,
// with fresh keys.
func subscriptionJSON(t *testing.T, endpoint string) map[string]any {
	sub := notifytest.NewSubscriber(t).Subscription(endpoint)
	return map[string]any{"endpoint": endpoint, "expirationTime": nil, "keys": map[string]string{
		"p256dh": sub.Keys.P256dh, "auth": sub.Keys.Auth}}
}

func (ts *testServer) endpoints(t *testing.T, account string) string {
	t.Helper()
	subs, err := ts.store.PushSubscriptions(context.Background(), account)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, s := range subs {
		out = append(out, strings.TrimPrefix(s.Endpoint, "https://push.example/"))
	}
	return strings.Join(out, " ")
}

func TestNotifyAPI(t *testing.T) {
	ts, svc, clock := notifyServer(t, nil)
	ann := newPlayer(t, ts)
	guest := newPlayer(t, ts)

	var key struct {
		PublicKey      string `json:"publicKey"`
		EmailAvailable *bool  `json:"emailAvailable"`
	}
	if st := guest.do("GET", "/api/notify/vapid", nil, &key); st != 200 || key.PublicKey != svc.PublicKey() || key.EmailAvailable == nil || *key.EmailAvailable {
		t.Fatalf("GET vapid: %d %+v", st, key)
	}
	sub := subscriptionJSON(t, "https://push.example/1")
	for _, c := range []struct{ method, path string }{{"GET", "/api/notify/settings"}, {"PUT", "/api/notify/settings"}, {"POST", "/api/notify/subscriptions"}} {
		var body any
		if c.method != "GET" {
			body = sub
			if c.path == "/api/notify/settings" {
				body = notify.DefaultSettings()
			}
		}
		if st := guest.do(c.method, c.path, body, nil); st != http.StatusUnauthorized {
			t.Errorf("%s %s signed out: %d, want 401", c.method, c.path, st)
		}
	}
	ann.signup("ann", goodPassword)
	annID := ann.accountID()

	var got notify.Settings
	if st := ann.do("GET", "/api/notify/settings", nil, &got); st != 200 || fmt.Sprint(got) != fmt.Sprint(notify.DefaultSettings()) {
		t.Fatalf("GET settings at first: %d %+v, want the defaults", st, got)
	}
	for _, c := range []struct {
		name, body string
		status     int
		want       string // the settings after, as GET gives them
	}{
		{"all", `{"push":true,"email":"ann@example.org","emailOn":true,"turns":true,"results":false,"quiet":{"from":"22:00","to":"08:00","tz":"Europe/Paris"},"lang":"fr"}`,
			200, `{"push":true,"email":"ann@example.org","emailOn":true,"turns":true,"results":false,"quiet":{"from":"22:00","to":"08:00","tz":"Europe/Paris"},"lang":"fr"}`},
		{"no lang keeps it", `{"push":false,"email":"","emailOn":false,"turns":true,"results":true,"quiet":null}`,
			200, `{"push":false,"email":"","emailOn":false,"turns":true,"results":true,"quiet":null,"lang":"fr"}`},
		{"english", `{"push":true,"email":"","emailOn":false,"turns":true,"results":true,"quiet":null,"lang":"en"}`,
			200, `{"push":true,"email":"","emailOn":false,"turns":true,"results":true,"quiet":null,"lang":"en"}`},
		{"bad zone", `{"push":true,"turns":true,"results":true,"quiet":{"from":"22:00","to":"08:00","tz":"Nowhere/Else"}}`, 400, ""},
		{"bad time", `{"push":true,"turns":true,"results":true,"quiet":{"from":"10pm","to":"08:00","tz":"UTC"}}`, 400, ""},
		{"bad address", `{"push":true,"email":"Ann <ann@example.org>","emailOn":true}`, 400, ""},
		{"e-mail on, none", `{"emailOn":true}`, 400, ""},
		{"unknown field", `{"push":true,"sms":true}`, 400, ""},
		{"language", `{"push":true,"lang":"xx"}`, 400, ""},
		{"not JSON", `push=1`, 400, ""},
	} {
		before := ann.rawGet("/api/notify/settings")
		var echo notify.Settings
		st := ann.do("PUT", "/api/notify/settings", c.body, &echo)
		after := ann.rawGet("/api/notify/settings")
		if st != c.status {
			t.Errorf("%s: PUT %d, want %d", c.name, st, c.status)
			continue
		}
		if c.status != 200 {
			if after != before {
				t.Errorf("%s: refused but the settings changed to %s", c.name, after)
			}
			continue
		}
		if after != c.want {
			t.Errorf("%s: GET after PUT = %s, want %s", c.name, after, c.want)
		}
	}

	// Subscriptions: a bad one is refused; at most 10, the oldest go.
	bad := subscriptionJSON(t, "http://push.example/plain")
	if st := ann.do("POST", "/api/notify/subscriptions", bad, nil); st != 400 {
		t.Fatalf("http endpoint: %d, want 400", st)
	}
	for i := 1; i <= 12; i++ {
		if st := ann.do("POST", "/api/notify/subscriptions", subscriptionJSON(t, fmt.Sprintf("https://push.example/%d", i)), nil); st != http.StatusNoContent {
			t.Fatalf("subscription %d: %d", i, st)
		}
		clock.Advance(time.Second)
	}
	if got, want := ts.endpoints(t, annID), "3 4 5 6 7 8 9 10 11 12"; got != want {
		t.Fatalf("endpoints %q, want %q", got, want)
	}
	// Ending one needs no session: the page may have signed out first.
	if st := guest.do("DELETE", "/api/notify/subscriptions", map[string]string{"endpoint": "https://push.example/5"}, nil); st != http.StatusNoContent {
		t.Fatalf("DELETE: %d", st)
	}
	if st := guest.do("DELETE", "/api/notify/subscriptions", map[string]string{"endpoint": "https://push.example/5"}, nil); st != http.StatusNoContent {
		t.Fatalf("DELETE again: %d", st)
	}
	if got, want := ts.endpoints(t, annID), "3 4 6 7 8 9 10 11 12"; got != want {
		t.Fatalf("endpoints after DELETE %q, want %q", got, want)
	}

	// Another site's page can change nothing.
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/notify/subscriptions", `{"endpoint":"https://push.example/evil","keys":{"p256dh":"x","auth":"y"}}`},
		{"DELETE", "/api/notify/subscriptions", `{"endpoint":"https://push.example/3"}`},
		{"PUT", "/api/notify/settings", `{"push":false,"email":"eve@example.org","emailOn":true,"turns":true,"results":true,"quiet":null}`},
	} {
		refusesCrossSite(t, ann, c.method, c.path, c.body)
	}
	if got, want := ts.endpoints(t, annID), "3 4 6 7 8 9 10 11 12"; got != want {
		t.Fatalf("endpoints after cross-site requests %q, want %q", got, want)
	}
	if got := ann.rawGet("/api/notify/settings"); strings.Contains(got, "eve@") {
		t.Fatalf("a cross-site PUT changed the settings: %s", got)
	}
	// The site's own page passes.
	req, _ := http.NewRequest("DELETE", ts.http.URL+"/api/notify/subscriptions", strings.NewReader(`{"endpoint":"https://push.example/3"}`))
	req.Header.Set("Origin", ts.http.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	if resp, err := ann.client.Do(req); err != nil || resp.StatusCode != http.StatusNoContent {
		t.Fatalf("same-origin DELETE: %v %v", resp, err)
	}

	// Deleting the account ends its subscriptions and settings.
	if st := ann.do("DELETE", "/api/account", map[string]string{"confirm": "ann"}, nil); st != 200 {
		t.Fatalf("DELETE account: %d", st)
	}
	if got := ts.endpoints(t, annID); got != "" {
		t.Fatalf("endpoints of a deleted account: %q", got)
	}
}

// TestNotifyAPIWithoutService: no notification service, no API.
func TestNotifyAPIWithoutService(t *testing.T) {
	ts := startServer(t, Config{})
	p := newPlayer(t, ts)
	var out struct{ Error apiError }
	if st := p.do("GET", "/api/notify/vapid", nil, &out); st != 404 || out.Error.Code != "no-notifications" {
		t.Fatalf("GET vapid: %d %+v", st, out)
	}
}

// TestPushNotifierAdapter: a TurnNotice handed to PushNotifier reaches the
// account's browser, which decrypts it (the payload is checked in full in
// package notify).
func TestPushNotifierAdapter(t *testing.T) {
	push := notifytest.NewPushService(t)
	ts, svc, _ := notifyServer(t, push.Client())
	ann := newPlayer(t, ts)
	ann.signup("ann", goodPassword)
	_, sub := push.Subscribe(t, "/ann")
	if st := ann.do("POST", "/api/notify/subscriptions", sub, nil); st != http.StatusNoContent {
		t.Fatalf("subscribe: %d", st)
	}
	PushNotifier(svc).Notify(context.Background(), TurnNotice{Account: ann.accountID(), Table: "tb1", Game: "dicestars",
		GameTitle: "Dice Stars", Opponent: "Bob", URL: "/t/tb1", Kind: "your-turn"})
	got := push.WaitFor(t, "/ann", 1)
	if m := got[0].Message; m.Title != "Your turn: Dice Stars" || m.Body != "Bob has played. It is your move." || m.URL != "/t/tb1" {
		t.Fatalf("push %+v", m)
	}
}

// rawGet is a GET's JSON body, trimmed.
func (p *player) rawGet(path string) string {
	p.t.Helper()
	var raw json.RawMessage
	p.do("GET", path, nil, &raw)
	return strings.TrimSpace(string(raw))
}

// accountID is the signed-in account's ID.
func (p *player) accountID() string {
	p.t.Helper()
	var out struct {
		Account *struct {
			ID string `json:"id"`
		} `json:"account"`
	}
	p.do("GET", "/api/account", nil, &out)
	if out.Account == nil || out.Account.ID == "" {
		p.t.Fatal("not signed in (or /api/account gives no id)")
	}
	return out.Account.ID
}
