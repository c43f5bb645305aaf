package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

func (s *suite) runNotify(t *testing.T) {
	t.Run("NotifySettings", s.notifySettings)
	t.Run("PushSubscriptions", s.pushSubscriptions)
	t.Run("ServerValues", s.serverValues)
	t.Run("NotifyDeleteAccount", s.notifyDeleteAccount)
	t.Run("NotifyPersistence", s.notifyPersistence)
}

func sampleSettings(account string) store.NotifySettings {
	return store.NotifySettings{Account: account, Push: true, Email: "ann@example.org", EmailOn: true,
		Turns: true, Results: false, QuietFrom: "22:30", QuietTo: "07:15", QuietTZ: "Europe/Paris",
		Lang: "fr", Updated: base}
}

func (s *suite) notifySettings(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	if _, err := st.NotifySettings(ctx(t), "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("settings never saved: err = %v, want ErrNotFound", err)
	}
	n := sampleSettings("a")
	if err := st.SetNotifySettings(ctx(t), n); err != nil {
		t.Fatal(err)
	}
	want := n
	want.Updated = ms(n.Updated)
	if got, err := st.NotifySettings(ctx(t), "a"); err != nil || got != want {
		t.Fatalf("NotifySettings = %+v, %v; want %+v", got, err, want)
	}
	// Replaced whole: every flag off, no quiet hours.
	n2 := store.NotifySettings{Account: "a", Lang: "en", Updated: base.Add(time.Hour)}
	if err := st.SetNotifySettings(ctx(t), n2); err != nil {
		t.Fatal(err)
	}
	n2.Updated = ms(n2.Updated)
	if got, err := st.NotifySettings(ctx(t), "a"); err != nil || got != n2 {
		t.Fatalf("NotifySettings after a second save = %+v, %v; want %+v", got, err, n2)
	}
	if err := st.SetNotifySettings(ctx(t), sampleSettings("nobody")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("settings of an absent account: err = %v, want ErrNotFound", err)
	}
	if err := st.SetNotifySettings(ctx(t), store.NotifySettings{}); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Fatalf("settings without an account: err = %v, want invalid", err)
	}
}

func (s *suite) pushSubscriptions(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	sub := func(endpoint, account string, at time.Time) store.PushSubscription {
		return store.PushSubscription{Endpoint: endpoint, Account: account, P256dh: "BPk-" + endpoint, Auth: "au-" + endpoint, Created: at}
	}
	list := func(account string) string {
		t.Helper()
		ps, err := st.PushSubscriptions(ctx(t), account)
		if err != nil || ps == nil {
			t.Fatalf("PushSubscriptions(%q) = %v, %v", account, ps, err)
		}
		out := ""
		for _, p := range ps {
			if p.Account != account || p.P256dh != "BPk-"+p.Endpoint || p.Auth != "au-"+p.Endpoint {
				t.Fatalf("subscription %+v", p)
			}
			out += fmt.Sprintf("%s@%d ", p.Endpoint, p.Created.Sub(ms(base))/time.Minute)
		}
		return out
	}
	if got := list("a"); got != "" {
		t.Fatalf("no subscriptions: %q", got)
	}
	for _, p := range []store.PushSubscription{
		sub("https://push.example/2", "a", base.Add(2*time.Minute)),
		sub("https://push.example/1", "a", base.Add(time.Minute)),
		sub("https://push.example/3", "b", base),
	} {
		if err := st.AddPushSubscription(ctx(t), p); err != nil {
			t.Fatal(err)
		}
	}
	if got, want := list("a"), "https://push.example/1@1 https://push.example/2@2 "; got != want {
		t.Fatalf("Ann's subscriptions = %q, want %q (oldest first)", got, want)
	}
	// The same endpoint again (the browser signed into Bob): it moves.
	if err := st.AddPushSubscription(ctx(t), sub("https://push.example/1", "b", base.Add(3*time.Minute))); err != nil {
		t.Fatal(err)
	}
	if got, want := list("a"), "https://push.example/2@2 "; got != want {
		t.Fatalf("Ann's after the move = %q, want %q", got, want)
	}
	if got, want := list("b"), "https://push.example/3@0 https://push.example/1@3 "; got != want {
		t.Fatalf("Bob's after the move = %q, want %q", got, want)
	}
	if ok, err := st.DeletePushSubscription(ctx(t), "https://push.example/2"); err != nil || !ok {
		t.Fatalf("DeletePushSubscription = %v, %v", ok, err)
	}
	if ok, err := st.DeletePushSubscription(ctx(t), "https://push.example/2"); err != nil || ok {
		t.Fatalf("DeletePushSubscription again = %v, %v; want false, nil", ok, err)
	}
	if got := list("a"); got != "" {
		t.Fatalf("Ann's after the delete = %q", got)
	}
	if err := st.AddPushSubscription(ctx(t), sub("https://push.example/9", "nobody", base)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("subscription of an absent account: err = %v, want ErrNotFound", err)
	}
	bad := sub("https://push.example/9", "a", base)
	bad.Auth = ""
	if err := st.AddPushSubscription(ctx(t), bad); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Fatalf("subscription without auth key: err = %v, want invalid", err)
	}
}

func (s *suite) serverValues(t *testing.T) {
	st := s.store(t)
	if _, err := st.ServerValue(ctx(t), "vapid"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ServerValue never set: err = %v, want ErrNotFound", err)
	}
	// Many servers start at once: all of them get the same, first value.
	const n = 8
	got := make([]string, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			v, err := st.InitServerValue(ctx(t), "vapid", fmt.Sprintf("keys-%d", i))
			if err != nil {
				t.Error(err)
			}
			got[i] = v
		})
	}
	wg.Wait()
	for _, v := range got {
		if v != got[0] || v == "" {
			t.Fatalf("InitServerValue answers %q: not one value", got)
		}
	}
	if v, err := st.ServerValue(ctx(t), "vapid"); err != nil || v != got[0] {
		t.Fatalf("ServerValue = %q, %v; want %q", v, err, got[0])
	}
	if v, err := st.InitServerValue(ctx(t), "other", "x"); err != nil || v != "x" {
		t.Fatalf("another key = %q, %v", v, err)
	}
	if _, err := st.InitServerValue(ctx(t), "", "x"); err == nil {
		t.Fatal("InitServerValue with an empty key succeeded")
	}
}

func (s *suite) notifyDeleteAccount(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	for _, a := range []string{"a", "b"} {
		if err := st.SetNotifySettings(ctx(t), sampleSettings(a)); err != nil {
			t.Fatal(err)
		}
		if err := st.AddPushSubscription(ctx(t), store.PushSubscription{Endpoint: "https://push.example/" + a, Account: a, P256dh: "k", Auth: "x", Created: base}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.DeleteAccount(ctx(t), "a", "Former player"); err != nil {
		t.Fatal(err)
	}
	if _, err := st.NotifySettings(ctx(t), "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("settings of a deleted account: err = %v", err)
	}
	if ps, _ := st.PushSubscriptions(ctx(t), "a"); len(ps) != 0 {
		t.Fatalf("subscriptions of a deleted account: %+v", ps)
	}
	if ps, _ := st.PushSubscriptions(ctx(t), "b"); len(ps) != 1 {
		t.Fatalf("Bob's subscriptions after Ann's deletion: %+v", ps)
	}
	if _, err := st.NotifySettings(ctx(t), "b"); err != nil {
		t.Fatalf("Bob's settings after Ann's deletion: %v", err)
	}
}

func (s *suite) notifyPersistence(t *testing.T) {
	st, reopen := s.reopenable(t)
	mustAccount(t, st, "a", "Ann")
	n := sampleSettings("a")
	p := store.PushSubscription{Endpoint: "https://push.example/a", Account: "a", P256dh: "k", Auth: "x", Created: base}
	if err := st.SetNotifySettings(ctx(t), n); err != nil {
		t.Fatal(err)
	}
	if err := st.AddPushSubscription(ctx(t), p); err != nil {
		t.Fatal(err)
	}
	if _, err := st.InitServerValue(ctx(t), "vapid", "keys"); err != nil {
		t.Fatal(err)
	}
	st2 := reopen()
	n.Updated, p.Created = ms(n.Updated), ms(p.Created)
	if got, err := st2.NotifySettings(ctx(t), "a"); err != nil || got != n {
		t.Fatalf("settings after reopen = %+v, %v", got, err)
	}
	if ps, err := st2.PushSubscriptions(ctx(t), "a"); err != nil || len(ps) != 1 || ps[0] != p {
		t.Fatalf("subscriptions after reopen = %+v, %v", ps, err)
	}
	if v, err := st2.InitServerValue(ctx(t), "vapid", "new"); err != nil || v != "keys" {
		t.Fatalf("server value after reopen = %q, %v; want the first", v, err)
	}
}

// reopenable opens a store for a persistence test (skipping it for a store
// that is not persistent) and returns it with reopen, which closes it and
// opens it again over the same data; both close with the test.
func (s *suite) reopenable(t *testing.T) (store.Store, func() store.Store) {
	t.Helper()
	if s.cfg.reopen == nil {
		t.Skip("not a persistent store (no storetest.Reopen option)")
	}
	st := s.open(t)
	closed := false
	t.Cleanup(func() {
		if !closed {
			st.Close()
		}
	})
	return st, func() store.Store {
		t.Helper()
		if err := st.Close(); err != nil {
			t.Fatal(err)
		}
		closed = true
		st2 := s.cfg.reopen(t, st)
		t.Cleanup(func() { st2.Close() })
		return st2
	}
}
