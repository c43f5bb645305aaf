package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

// runAccounts runs the tests of AccountStore, RatingStore, ChatStore and
// Filter.Account.
func (s *suite) runAccounts(t *testing.T) {
	t.Run("Accounts", s.accounts)
	t.Run("Sessions", s.sessions)
	t.Run("Credentials", s.credentials)
	t.Run("RateTable", s.rateTable)
	t.Run("RateTableRefused", s.rateTableRefused)
	t.Run("Leaderboard", s.leaderboard)
	t.Run("RatingHistory", s.ratingHistory)
	t.Run("RateRace", s.rateRace)
	t.Run("Chat", s.chat)
	t.Run("ListByAccount", s.byAccount)
	t.Run("DeleteAccount", s.deleteAccount)
	t.Run("AccountsCanceledContext", s.accountsCanceled)
	t.Run("AccountsNoAliasing", s.accountsNoAliasing)
	t.Run("AccountsPersistence", s.accountsPersistence)
}

func sampleAccount(id, name string) store.Account {
	return store.Account{
		ID: id, Name: name, NameKey: strings.ToLower(name),
		PasswordHash: "$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA",
		Created:      base,
	}
}

func mustAccount(t *testing.T, st store.Store, id, name string) store.Account {
	t.Helper()
	a := sampleAccount(id, name)
	if err := st.CreateAccount(ctx(t), a); err != nil {
		t.Fatalf("CreateAccount(%q): %v", id, err)
	}
	a.Created = ms(a.Created)
	return a
}

// seated is a table with a human seat per account ("" = a guest).
func seated(id string, updated time.Time, accounts ...string) store.Table {
	tb := sampleTable(id)
	tb.Seats = nil
	for i, a := range accounts {
		tb.Seats = append(tb.Seats, store.Seat{Name: fmt.Sprintf("p%d", i), Kind: "human", TokenHash: fmt.Sprintf("h%d", i), Account: a})
	}
	tb.Updated = updated
	return tb
}

// fixed is a RateFunc giving each account the rating in to.
func fixed(to map[string][2]float64) store.RateFunc {
	return func(prior []store.Rating) ([]store.Rating, error) {
		out := make([]store.Rating, len(prior))
		for i, p := range prior {
			v, ok := to[p.Account]
			if !ok {
				return nil, fmt.Errorf("no rating for %q", p.Account)
			}
			out[i] = store.Rating{Mu: v[0], Sigma: v[1]}
		}
		return out, nil
	}
}

// mustRate rates a new table (created here) with the given accounts.
func mustRate(t *testing.T, st store.Store, table, game string, at time.Time, rate store.RateFunc, accounts ...string) {
	t.Helper()
	tb := seated(table, at, accounts...)
	tb.Game = game
	mustCreate(t, st, tb)
	ok, err := st.RateTable(ctx(t), table, game, accounts, at, rate)
	if err != nil || !ok {
		t.Fatalf("RateTable(%q) = %v, %v; want true, nil", table, ok, err)
	}
}

func (s *suite) accounts(t *testing.T) {
	st := s.store(t)
	ann := mustAccount(t, st, "acc-ann", "Ann")
	got, err := st.GetAccount(ctx(t), "acc-ann")
	if err != nil || got != ann {
		t.Fatalf("GetAccount = %+v, %v; want %+v", got, err, ann)
	}
	if got, err := st.AccountByName(ctx(t), "ann"); err != nil || got != ann {
		t.Fatalf("AccountByName = %+v, %v; want %+v", got, err, ann)
	}
	// A taken ID, a taken name key: refused, nothing changed.
	other := sampleAccount("acc-ann", "Annie")
	if err := st.CreateAccount(ctx(t), other); !errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateAccount with a taken ID = %v, want ErrExists", err)
	}
	same := sampleAccount("acc-ann2", "ANN")
	if err := st.CreateAccount(ctx(t), same); !errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateAccount with a taken name key = %v, want ErrExists", err)
	}
	if _, err := st.GetAccount(ctx(t), "acc-ann2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("a refused account was stored: %v", err)
	}
	if got, _ := st.GetAccount(ctx(t), "acc-ann"); got != ann {
		t.Fatalf("a refused create changed the account: %+v", got)
	}
	for _, bad := range []store.Account{
		{Name: "x", NameKey: "x"}, {ID: "x", NameKey: "x"}, {ID: "x", Name: "x"},
	} {
		err := st.CreateAccount(ctx(t), bad)
		if err == nil || errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrNotFound) {
			t.Fatalf("CreateAccount(%+v) = %v, want a validation error", bad, err)
		}
	}
	if _, err := st.GetAccount(ctx(t), "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetAccount(absent) = %v, want ErrNotFound", err)
	}
	if _, err := st.AccountByName(ctx(t), "nobody"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AccountByName(absent) = %v, want ErrNotFound", err)
	}

	// Passkeys only: no password hash.
	bob := sampleAccount("acc-bob", "Bob")
	bob.PasswordHash = ""
	bob.Created = base.Add(time.Hour)
	if err := st.CreateAccount(ctx(t), bob); err != nil {
		t.Fatal(err)
	}
	bob.Created = ms(bob.Created)
	if got, _ := st.GetAccount(ctx(t), "acc-bob"); got != bob || got.Created.Location() != time.UTC {
		t.Fatalf("GetAccount = %+v, want %+v (in UTC)", got, bob)
	}

	if err := st.SetPassword(ctx(t), "acc-bob", "new-hash"); err != nil {
		t.Fatal(err)
	}
	bob.PasswordHash = "new-hash"
	if got, _ := st.GetAccount(ctx(t), "acc-bob"); got != bob {
		t.Fatalf("after SetPassword: %+v, want %+v", got, bob)
	}
	if err := st.SetPassword(ctx(t), "nobody", "h"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("SetPassword(absent) = %v, want ErrNotFound", err)
	}
	if err := st.DeleteAccount(ctx(t), "nobody", "Deleted"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteAccount(absent) = %v, want ErrNotFound", err)
	}
}

func (s *suite) sessions(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	if err := st.CreateSession(ctx(t), store.Session{TokenHash: "x", Account: "nobody", Created: base, Expires: base}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("CreateSession of an absent account = %v, want ErrNotFound", err)
	}
	if err := st.CreateSession(ctx(t), store.Session{Account: "a"}); err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateSession without a hash = %v, want a validation error", err)
	}
	sess := []store.Session{
		{TokenHash: "a1", Account: "a", Created: base, Expires: base.Add(time.Hour)},
		{TokenHash: "a2", Account: "a", Created: base, Expires: base.Add(2 * time.Hour)},
		{TokenHash: "a3", Account: "a", Created: base, Expires: base.Add(3 * time.Hour)},
		{TokenHash: "b1", Account: "b", Created: base, Expires: base.Add(time.Hour)},
	}
	for _, se := range sess {
		if err := st.CreateSession(ctx(t), se); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CreateSession(ctx(t), store.Session{TokenHash: "a1", Account: "b", Created: base, Expires: base}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateSession with a taken hash = %v, want ErrExists", err)
	}
	got, err := st.GetSession(ctx(t), "a1")
	want := store.Session{TokenHash: "a1", Account: "a", Created: ms(base), Expires: ms(base.Add(time.Hour))}
	if err != nil || got != want {
		t.Fatalf("GetSession = %+v, %v; want %+v", got, err, want)
	}
	if _, err := st.GetSession(ctx(t), "zz"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetSession(absent) = %v, want ErrNotFound", err)
	}

	// Expired before now: a1 and b1. a2 expires exactly now: kept. An
	// expired session is still returned until it is deleted.
	now := base.Add(2 * time.Hour)
	if got, err := st.GetSession(ctx(t), "b1"); err != nil || !got.Expires.Before(now) {
		t.Fatalf("GetSession(expired) = %+v, %v", got, err)
	}
	if n, err := st.DeleteExpiredSessions(ctx(t), now); err != nil || n != 2 {
		t.Fatalf("DeleteExpiredSessions = %d, %v; want 2", n, err)
	}
	for h, want := range map[string]bool{"a1": false, "b1": false, "a2": true, "a3": true} {
		if _, err := st.GetSession(ctx(t), h); (err == nil) != want {
			t.Fatalf("after DeleteExpiredSessions, GetSession(%q) = %v, want found %v", h, err, want)
		}
	}
	if err := st.DeleteSession(ctx(t), "a2"); err != nil {
		t.Fatal(err)
	}
	if err := st.DeleteSession(ctx(t), "a2"); err != nil {
		t.Fatalf("DeleteSession(absent) = %v, want nil", err)
	}
	if _, err := st.GetSession(ctx(t), "a2"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after DeleteSession: %v", err)
	}

	// Signing out everywhere: only that account's sessions.
	for _, h := range []string{"a4", "a5"} {
		if err := st.CreateSession(ctx(t), store.Session{TokenHash: h, Account: "a", Created: base, Expires: now.Add(time.Hour)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.CreateSession(ctx(t), store.Session{TokenHash: "b2", Account: "b", Created: base, Expires: now.Add(time.Hour)}); err != nil {
		t.Fatal(err)
	}
	if n, err := st.DeleteSessions(ctx(t), "a"); err != nil || n != 3 {
		t.Fatalf("DeleteSessions = %d, %v; want 3", n, err)
	}
	if _, err := st.GetSession(ctx(t), "b2"); err != nil {
		t.Fatalf("DeleteSessions of a took another account's session: %v", err)
	}
	if n, err := st.DeleteSessions(ctx(t), "a"); err != nil || n != 0 {
		t.Fatalf("DeleteSessions again = %d, %v; want 0", n, err)
	}
}

func diffCred(got, want store.Credential) string {
	if !bytes.Equal(got.ID, want.ID) || got.Account != want.Account || !equalJSON(got.Data, want.Data) ||
		got.Name != want.Name || got.Created != ms(want.Created) || got.LastUsed != ms(want.LastUsed) {
		return fmt.Sprintf("got %+v (data %s), want %+v (data %s)", got, got.Data, want, want.Data)
	}
	return ""
}

func (s *suite) credentials(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	if got, err := st.Credentials(ctx(t), "a"); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Credentials of none = %#v, %v; want empty, not nil", got, err)
	}
	// IDs with every kind of byte; created out of order, two at once.
	c1 := store.Credential{ID: []byte{0xff, 0x00, 0x10}, Account: "a", Data: []byte(`{"publicKey":"pQEC","signCount":0}`), Name: "laptop", Created: base.Add(time.Hour)}
	c2 := store.Credential{ID: []byte{0x00, 0xfe}, Account: "a", Data: []byte(`{"publicKey":"AAAA"}`), Created: base}
	c3 := store.Credential{ID: []byte{0x7f, 0x01}, Account: "a", Data: []byte(`{}`), Name: "phone", Created: base.Add(time.Hour), LastUsed: base.Add(2 * time.Hour)}
	c4 := store.Credential{ID: []byte("bob's key"), Account: "b", Data: []byte(`{}`), Created: base}
	for _, c := range []store.Credential{c1, c2, c3, c4} {
		if err := st.AddCredential(ctx(t), c); err != nil {
			t.Fatalf("AddCredential(%x): %v", c.ID, err)
		}
	}
	got, err := st.Credentials(ctx(t), "a")
	if err != nil || len(got) != 3 {
		t.Fatalf("Credentials = %v, %v", got, err)
	}
	// Oldest first; the same instant: by ID.
	for i, want := range []store.Credential{c2, c3, c1} {
		if d := diffCred(got[i], want); d != "" {
			t.Fatalf("Credentials[%d]: %s", i, d)
		}
	}
	if got[0].Created.Location() != time.UTC || !got[0].LastUsed.IsZero() {
		t.Fatalf("Created %v (want UTC), LastUsed %v (want zero)", got[0].Created, got[0].LastUsed)
	}
	c, err := st.CredentialByID(ctx(t), c1.ID)
	if err != nil {
		t.Fatal(err)
	}
	if d := diffCred(c, c1); d != "" {
		t.Fatalf("CredentialByID: %s", d)
	}
	if _, err := st.CredentialByID(ctx(t), []byte{0xff, 0x00}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("CredentialByID(absent) = %v, want ErrNotFound", err)
	}

	// Refused: a taken ID (whoever has it), an absent account, bad data.
	if err := st.AddCredential(ctx(t), store.Credential{ID: c1.ID, Account: "b", Data: []byte(`{}`), Created: base}); !errors.Is(err, store.ErrExists) {
		t.Fatalf("AddCredential with a taken ID = %v, want ErrExists", err)
	}
	if err := st.AddCredential(ctx(t), store.Credential{ID: []byte{1}, Account: "nobody", Data: []byte(`{}`), Created: base}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AddCredential of an absent account = %v, want ErrNotFound", err)
	}
	for _, bad := range []store.Credential{
		{ID: []byte{2}, Account: "a", Data: []byte(`{not json`)},
		{Account: "a", Data: []byte(`{}`)},
		{ID: []byte{3}, Data: []byte(`{}`)},
	} {
		err := st.AddCredential(ctx(t), bad)
		if err == nil || errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrNotFound) {
			t.Fatalf("AddCredential(%+v) = %v, want a validation error", bad, err)
		}
	}
	if d := diffCred(mustCred(t, st, c1.ID), c1); d != "" {
		t.Fatalf("a refused add changed the passkey: %s", d)
	}

	// UpdateCredential: Data and LastUsed only.
	upd := store.Credential{ID: c1.ID, Account: "b", Data: []byte(`{"publicKey":"pQEC","signCount":7}`), Name: "renamed", Created: base.Add(9 * time.Hour), LastUsed: base.Add(3 * time.Hour)}
	if err := st.UpdateCredential(ctx(t), upd); err != nil {
		t.Fatal(err)
	}
	want := c1
	want.Data, want.LastUsed = upd.Data, upd.LastUsed
	if d := diffCred(mustCred(t, st, c1.ID), want); d != "" {
		t.Fatalf("after UpdateCredential: %s", d)
	}
	if err := st.UpdateCredential(ctx(t), store.Credential{ID: []byte{9}, Data: []byte(`{}`)}); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UpdateCredential(absent) = %v, want ErrNotFound", err)
	}
	if err := st.UpdateCredential(ctx(t), store.Credential{ID: c1.ID, Data: []byte(`nope`)}); err == nil || errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UpdateCredential with bad data = %v, want a validation error", err)
	}

	// DeleteCredential: not another account's.
	if err := st.DeleteCredential(ctx(t), "b", c1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteCredential of another account's passkey = %v, want ErrNotFound", err)
	}
	mustCred(t, st, c1.ID)
	if err := st.DeleteCredential(ctx(t), "a", c1.ID); err != nil {
		t.Fatal(err)
	}
	if _, err := st.CredentialByID(ctx(t), c1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("after DeleteCredential: %v", err)
	}
	if err := st.DeleteCredential(ctx(t), "a", c1.ID); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("DeleteCredential again = %v, want ErrNotFound", err)
	}
	if got, _ := st.Credentials(ctx(t), "a"); len(got) != 2 {
		t.Fatalf("Credentials after a delete: %d, want 2", len(got))
	}
	if got, _ := st.Credentials(ctx(t), "b"); len(got) != 1 || string(got[0].ID) != "bob's key" {
		t.Fatalf("Credentials of b = %v", got)
	}
}

func mustCred(t *testing.T, st store.Store, id []byte) store.Credential {
	t.Helper()
	c, err := st.CredentialByID(ctx(t), id)
	if err != nil {
		t.Fatalf("CredentialByID(%x): %v", id, err)
	}
	return c
}

func mustRatings(t *testing.T, st store.Store, account string) []store.Rating {
	t.Helper()
	rs, err := st.Ratings(ctx(t), account)
	if err != nil {
		t.Fatalf("Ratings(%q): %v", account, err)
	}
	if rs == nil {
		t.Fatalf("Ratings(%q) = nil, want empty", account)
	}
	return rs
}

func (s *suite) rateTable(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	mustCreate(t, st, seated("t1", base, "b", "a"))
	at := base.Add(time.Minute)
	var calls int
	var seen []store.Rating
	rate := func(prior []store.Rating) ([]store.Rating, error) {
		calls++
		seen = append([]store.Rating(nil), prior...)
		out := make([]store.Rating, len(prior))
		for i, p := range prior {
			// Game and Games here are ignored: the store sets them.
			out[i] = store.Rating{Account: "junk", Game: "junk", Games: 99, Mu: p.Mu + float64(10*(i+1)), Sigma: 8 - float64(i)}
		}
		return out, nil
	}
	ok, err := st.RateTable(ctx(t), "t1", "dicestars", []string{"b", "a"}, at, rate)
	if err != nil || !ok || calls != 1 {
		t.Fatalf("RateTable = %v, %v (%d calls); want true, nil, 1 call", ok, err, calls)
	}
	// Never rated: Games 0, μ = σ = 0, in the order given.
	wantPrior := []store.Rating{{Account: "b", Game: "dicestars"}, {Account: "a", Game: "dicestars"}}
	if !reflect.DeepEqual(seen, wantPrior) {
		t.Fatalf("prior = %+v, want %+v", seen, wantPrior)
	}
	want := map[string]store.Rating{
		"a": {Account: "a", Game: "dicestars", Mu: 20, Sigma: 7, Games: 1, Updated: ms(at)},
		"b": {Account: "b", Game: "dicestars", Mu: 10, Sigma: 8, Games: 1, Updated: ms(at)},
	}
	for acc, w := range want {
		if rs := mustRatings(t, st, acc); len(rs) != 1 || rs[0] != w {
			t.Fatalf("Ratings(%q) = %+v, want [%+v]", acc, rs, w)
		}
	}
	if ok, err := st.Rated(ctx(t), "t1"); err != nil || !ok {
		t.Fatalf("Rated(t1) = %v, %v", ok, err)
	}

	// Exactly once: a second call changes nothing and does not call rate.
	ok, err = st.RateTable(ctx(t), "t1", "dicestars", []string{"b", "a"}, at.Add(time.Hour), rate)
	if err != nil || ok || calls != 1 {
		t.Fatalf("second RateTable = %v, %v (%d calls); want false, nil, no call", ok, err, calls)
	}
	if rs := mustRatings(t, st, "a"); rs[0] != want["a"] {
		t.Fatalf("a second RateTable changed a rating: %+v", rs)
	}

	// The next table starts from the stored ratings; another game apart.
	mustCreate(t, st, seated("t2", base, "a", "b"))
	ok, err = st.RateTable(ctx(t), "t2", "dicestars", []string{"a", "b"}, at.Add(time.Hour), rate)
	if err != nil || !ok {
		t.Fatalf("RateTable(t2) = %v, %v", ok, err)
	}
	wantPrior = []store.Rating{want["a"], want["b"]}
	if !reflect.DeepEqual(seen, wantPrior) {
		t.Fatalf("prior at t2 = %+v, want %+v", seen, wantPrior)
	}
	mustRate(t, st, "t3", "bookworm", at, fixed(map[string][2]float64{"a": {25, 8}, "b": {25, 8}}), "a", "b")
	rs := mustRatings(t, st, "a")
	if len(rs) != 2 || rs[0].Game != "bookworm" || rs[0].Games != 1 || rs[1].Game != "dicestars" || rs[1].Games != 2 || rs[1].Mu != 30 {
		t.Fatalf("Ratings(a) = %+v; want bookworm (1 game) then dicestars (2 games, μ 30)", rs)
	}
	if rs := mustRatings(t, st, "nobody"); len(rs) != 0 {
		t.Fatalf("Ratings(nobody) = %+v", rs)
	}
	if ok, err := st.Rated(ctx(t), "nope"); err != nil || ok {
		t.Fatalf("Rated(absent) = %v, %v; want false, nil", ok, err)
	}
}

func (s *suite) rateTableRefused(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	mustCreate(t, st, seated("t1", base, "a", "b"))
	called := false
	never := func(prior []store.Rating) ([]store.Rating, error) {
		called = true
		return prior, nil
	}
	if _, err := st.RateTable(ctx(t), "absent", "dicestars", []string{"a", "b"}, base, never); !errors.Is(err, store.ErrNotFound) || called {
		t.Fatalf("RateTable(absent table) = %v (rate called %v), want ErrNotFound", err, called)
	}
	if _, err := st.RateTable(ctx(t), "t1", "dicestars", []string{"a", "a"}, base, never); err == nil || called {
		t.Fatalf("RateTable with an account twice = %v (rate called %v), want an error", err, called)
	}
	if _, err := st.RateTable(ctx(t), "t1", "dicestars", []string{"a", "nobody"}, base, never); !errors.Is(err, store.ErrNotFound) || called {
		t.Fatalf("RateTable with an absent account = %v (rate called %v), want ErrNotFound", err, called)
	}

	// An error from rate, a wrong count, a NaN: nothing written, not rated.
	boom := errors.New("boom")
	bad := map[string]store.RateFunc{
		"error": func([]store.Rating) ([]store.Rating, error) { return nil, boom },
		"count": func(p []store.Rating) ([]store.Rating, error) { return p[:1], nil },
		"nan": func(p []store.Rating) ([]store.Rating, error) {
			return []store.Rating{{Mu: 1, Sigma: 1}, {Mu: 0 * zero(), Sigma: 0 / zero()}}, nil
		},
	}
	for name, rate := range bad {
		_, err := st.RateTable(ctx(t), "t1", "dicestars", []string{"a", "b"}, base, rate)
		if err == nil || (name == "error" && !errors.Is(err, boom)) {
			t.Fatalf("RateTable with a failing rate (%s) = %v", name, err)
		}
		if ok, _ := st.Rated(ctx(t), "t1"); ok {
			t.Fatalf("a failed RateTable (%s) marked the table rated", name)
		}
		for _, acc := range []string{"a", "b"} {
			if rs := mustRatings(t, st, acc); len(rs) != 0 {
				t.Fatalf("a failed RateTable (%s) wrote ratings: %+v", name, rs)
			}
			if h, _ := st.RatingHistory(ctx(t), acc, "dicestars", 0); len(h) != 0 {
				t.Fatalf("a failed RateTable (%s) wrote history: %+v", name, h)
			}
		}
	}
	// It can still be rated after.
	ok, err := st.RateTable(ctx(t), "t1", "dicestars", []string{"a", "b"}, base, fixed(map[string][2]float64{"a": {27, 8}, "b": {23, 8}}))
	if err != nil || !ok {
		t.Fatalf("RateTable after failures = %v, %v", ok, err)
	}
}

// zero is 0 at run time (0/0 as a constant does not compile).
func zero() float64 { return 0 }

func (s *suite) leaderboard(t *testing.T) {
	st := s.store(t)
	for _, id := range []string{"a", "b", "c", "d", "e"} {
		mustAccount(t, st, id, "Name "+id)
	}
	// Display μ − 3σ: a, b, c 15 (b, c 2 games, a 1), d 25, e −5 (3 games).
	final := map[string][2]float64{"a": {30, 5}, "b": {27, 4}, "c": {21, 2}, "d": {40, 5}, "e": {10, 5}}
	mustRate(t, st, "t1", "dicestars", base, fixed(final), "e", "b")
	mustRate(t, st, "t2", "dicestars", base, fixed(final), "e", "c")
	mustRate(t, st, "t3", "dicestars", base, fixed(final), "a", "b", "c", "d", "e")
	mustRate(t, st, "t4", "bookworm", base, fixed(map[string][2]float64{"a": {50, 1}, "b": {50, 1}}), "a", "b")

	order := func(rs []store.Rating) string {
		var ids []string
		for _, r := range rs {
			ids = append(ids, r.Account)
		}
		return strings.Join(ids, ",")
	}
	check := func(minGames, offset, limit int, want string, wantTotal int) {
		t.Helper()
		rs, total, err := st.Leaderboard(ctx(t), "dicestars", minGames, offset, limit)
		if err != nil || rs == nil || order(rs) != want || total != wantTotal {
			t.Fatalf("Leaderboard(%d, %d, %d) = [%s] (%d), %v; want [%s] (%d)", minGames, offset, limit, order(rs), total, err, want, wantTotal)
		}
	}
	check(0, 0, 0, "d,b,c,a,e", 5)
	check(1, 0, 10, "d,b,c,a,e", 5)
	check(2, 0, 0, "b,c,e", 3)
	check(3, 0, 0, "e", 1)
	check(4, 0, 0, "", 0)
	check(0, 1, 2, "b,c", 5)
	check(0, 4, 2, "e", 5)
	check(0, 5, 2, "", 5)
	check(0, -1, 1, "d", 5)

	rs, _, _ := st.Leaderboard(ctx(t), "dicestars", 0, 0, 1)
	want := store.Rating{Account: "d", Game: "dicestars", Mu: 40, Sigma: 5, Games: 1, Updated: ms(base), Name: "Name d"}
	if len(rs) != 1 || rs[0] != want {
		t.Fatalf("Leaderboard's first = %+v, want %+v", rs, want)
	}
	if rs, total, err := st.Leaderboard(ctx(t), "nogame", 0, 0, 0); err != nil || rs == nil || len(rs) != 0 || total != 0 {
		t.Fatalf("Leaderboard of a game nobody played = %v, %d, %v", rs, total, err)
	}
}

func (s *suite) ratingHistory(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	var want []store.RatingPoint
	for i := range 5 {
		id := fmt.Sprintf("t%d", i)
		at := base.Add(time.Duration(i) * time.Hour)
		mu := 20 + float64(i)
		mustRate(t, st, id, "dicestars", at, fixed(map[string][2]float64{"a": {mu, 8 - float64(i)/10}, "b": {1, 1}}), "a", "b")
		want = append(want, store.RatingPoint{Table: id, Mu: mu, Sigma: 8 - float64(i)/10, At: ms(at)})
	}
	mustRate(t, st, "other", "bookworm", base, fixed(map[string][2]float64{"a": {3, 3}}), "a")
	for _, c := range []struct {
		limit int
		want  []store.RatingPoint
	}{{0, want}, {10, want}, {5, want}, {2, want[3:]}, {1, want[4:]}} {
		got, err := st.RatingHistory(ctx(t), "a", "dicestars", c.limit)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Fatalf("RatingHistory(limit %d) = %+v, %v; want %+v", c.limit, got, err, c.want)
		}
	}
	if got, err := st.RatingHistory(ctx(t), "a", "nogame", 0); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("RatingHistory of an unplayed game = %#v, %v; want empty", got, err)
	}
	if got, _ := st.RatingHistory(ctx(t), "a", "bookworm", 0); len(got) != 1 || got[0].Table != "other" {
		t.Fatalf("RatingHistory(bookworm) = %+v", got)
	}
}

// rateRace: tables sharing accounts rated at once lose no update, and a
// table rated by several callers at once is rated once.
func (s *suite) rateRace(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	mustAccount(t, st, "c", "Cid")
	const tables, callers = 12, 3
	for i := range tables {
		mustCreate(t, st, seated(fmt.Sprintf("t%d", i), base, "a", "b", "c"))
	}
	plusOne := func(prior []store.Rating) ([]store.Rating, error) {
		out := make([]store.Rating, len(prior))
		for i, p := range prior {
			out[i] = store.Rating{Mu: p.Mu + 1, Sigma: 1}
		}
		return out, nil
	}
	var (
		wg    sync.WaitGroup
		wins  atomic.Int64
		errCh = make(chan error, tables*callers)
	)
	for i := range tables {
		accounts := []string{"a", "b", "c"}
		if i%2 == 1 {
			accounts = []string{"c", "a", "b"}
		}
		for range callers {
			wg.Add(1)
			go func() {
				defer wg.Done()
				ok, err := st.RateTable(ctx(t), fmt.Sprintf("t%d", i), "dicestars", accounts, base, plusOne)
				if err != nil {
					errCh <- err
				}
				if ok {
					wins.Add(1)
				}
			}()
		}
	}
	wg.Wait()
	close(errCh)
	for err := range errCh {
		t.Fatalf("concurrent RateTable: %v", err)
	}
	if wins.Load() != tables {
		t.Fatalf("%d RateTable calls returned true, want %d (one per table)", wins.Load(), tables)
	}
	for _, acc := range []string{"a", "b", "c"} {
		rs := mustRatings(t, st, acc)
		if len(rs) != 1 || rs[0].Games != tables || rs[0].Mu != tables {
			t.Fatalf("Ratings(%q) = %+v; want %d games, μ %d (no lost update)", acc, rs, tables, tables)
		}
		h, err := st.RatingHistory(ctx(t), acc, "dicestars", 0)
		if err != nil || len(h) != tables {
			t.Fatalf("RatingHistory(%q): %d points, %v; want %d", acc, len(h), err, tables)
		}
		seen := map[string]bool{}
		for i, p := range h {
			if seen[p.Table] || p.Mu != float64(i+1) {
				t.Fatalf("RatingHistory(%q)[%d] = %+v: a table twice or out of order", acc, i, p)
			}
			seen[p.Table] = true
		}
	}
}

func (s *suite) chat(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("t1"))
	mustCreate(t, st, sampleTable("t2"))
	msg := func(table string, i int) store.ChatMessage {
		m := store.ChatMessage{Table: table, At: base.Add(time.Duration(i) * time.Second), Seat: i % 3, Role: store.ChatPlayer, Name: fmt.Sprintf("n%d", i), Text: fmt.Sprintf("hello %d <b>é</b>", i), Index: 42}
		if i%3 == 2 {
			m.Seat, m.Role, m.Account = -1, store.ChatSpectator, "acc"
		}
		return m
	}
	var want []store.ChatMessage
	for i := range 5 {
		got, err := st.AppendChat(ctx(t), msg("t1", i))
		w := msg("t1", i)
		w.Index, w.At = i, ms(w.At)
		if err != nil || got != w {
			t.Fatalf("AppendChat #%d = %+v, %v; want %+v", i, got, err, w)
		}
		want = append(want, w)
	}
	// Each table has its own indexes.
	if got, err := st.AppendChat(ctx(t), msg("t2", 0)); err != nil || got.Index != 0 {
		t.Fatalf("first AppendChat of t2 = %+v, %v; want index 0", got, err)
	}
	if _, err := st.AppendChat(ctx(t), msg("nope", 0)); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AppendChat to an absent table = %v, want ErrNotFound", err)
	}
	for _, bad := range []store.ChatMessage{
		{Table: "t1", Role: store.ChatPlayer, Text: "x"},
		{Table: "t1", Name: "x", Role: "admin", Text: "x"},
		{Name: "x", Role: store.ChatPlayer, Text: "x"},
	} {
		if _, err := st.AppendChat(ctx(t), bad); err == nil || errors.Is(err, store.ErrNotFound) {
			t.Fatalf("AppendChat(%+v) = %v, want a validation error", bad, err)
		}
	}
	for _, c := range []struct {
		from, limit int
		want        []store.ChatMessage
	}{{0, 0, want}, {0, 100, want}, {2, 2, want[2:4]}, {3, 0, want[3:]}, {-1, 1, want[:1]}, {5, 0, nil}, {9, 3, nil}} {
		got, err := st.Chat(ctx(t), "t1", c.from, c.limit)
		if err != nil || got == nil || len(got) != len(c.want) || (len(got) > 0 && !reflect.DeepEqual(got, c.want)) {
			t.Fatalf("Chat(from %d, limit %d) = %+v, %v; want %+v", c.from, c.limit, got, err, c.want)
		}
	}
	for _, c := range []struct {
		limit int
		want  []store.ChatMessage
	}{{0, want}, {9, want}, {2, want[3:]}, {1, want[4:]}} {
		got, err := st.ChatLatest(ctx(t), "t1", c.limit)
		if err != nil || !reflect.DeepEqual(got, c.want) {
			t.Fatalf("ChatLatest(%d) = %+v, %v; want %+v", c.limit, got, err, c.want)
		}
	}
	if _, err := st.Chat(ctx(t), "nope", 0, 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Chat of an absent table = %v, want ErrNotFound", err)
	}
	if _, err := st.ChatLatest(ctx(t), "nope", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("ChatLatest of an absent table = %v, want ErrNotFound", err)
	}
	mustCreate(t, st, sampleTable("t3"))
	if got, err := st.Chat(ctx(t), "t3", 0, 0); err != nil || got == nil || len(got) != 0 {
		t.Fatalf("Chat of a silent table = %#v, %v; want empty", got, err)
	}
}

func ids(tbs []store.Table) string {
	var out []string
	for _, tb := range tbs {
		out = append(out, tb.ID)
	}
	return strings.Join(out, ",")
}

func (s *suite) byAccount(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, seated("t1", base.Add(1*time.Minute), "a", ""))
	mustCreate(t, st, seated("t2", base.Add(2*time.Minute), "b", "a", "a"))
	mustCreate(t, st, seated("t3", base.Add(3*time.Minute), "", ""))
	mustCreate(t, st, seated("t4", base.Add(4*time.Minute), "b"))
	// want: List's IDs; count: Count's (which ignores Limit and PerCreator).
	check := func(f store.Filter, want string, count int) {
		t.Helper()
		got, err := st.List(ctx(t), f)
		if err != nil || ids(got) != want {
			t.Fatalf("List(%+v) = [%s], %v; want [%s]", f, ids(got), err, want)
		}
		if n, err := st.Count(ctx(t), f); err != nil || n != count {
			t.Fatalf("Count(%+v) = %d, %v; want %d", f, n, err, count)
		}
	}
	check(store.Filter{Account: "a"}, "t2,t1", 2)
	check(store.Filter{Account: "b"}, "t4,t2", 2)
	check(store.Filter{Account: "c"}, "", 0)
	check(store.Filter{Account: "a", Limit: 1}, "t2", 2)
	check(store.Filter{}, "t4,t3,t2,t1", 4)

	// UpdateTable moves the seats: a leaves t1, sits at t3.
	t1 := seated("t1", base.Add(5*time.Minute), "", "")
	if err := st.UpdateTable(ctx(t), t1, store.NoFence); err != nil {
		t.Fatal(err)
	}
	t3 := seated("t3", base.Add(6*time.Minute), "", "a")
	t3.Status = store.StatusOver
	if err := st.UpdateTable(ctx(t), t3, store.NoFence); err != nil {
		t.Fatal(err)
	}
	check(store.Filter{Account: "a"}, "t3,t2", 2)
	check(store.Filter{Account: "a", Status: []string{store.StatusOver}}, "t3", 1)
	check(store.Filter{Account: "a", Status: []string{store.StatusOpen}}, "t2", 1)
	check(store.Filter{Account: "b", Game: "bookworm"}, "", 0)
	check(store.Filter{Account: "b", PerCreator: 1}, "t4", 2)
	if got := mustGet(t, st, "t3").Seats[1].Account; got != "a" {
		t.Fatalf("Seat.Account after UpdateTable = %q, want a", got)
	}
}

func (s *suite) deleteAccount(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	for _, se := range []store.Session{
		{TokenHash: "sa", Account: "a", Created: base, Expires: base.Add(time.Hour)},
		{TokenHash: "sb", Account: "b", Created: base, Expires: base.Add(time.Hour)},
	} {
		if err := st.CreateSession(ctx(t), se); err != nil {
			t.Fatal(err)
		}
	}
	for _, c := range []store.Credential{
		{ID: []byte("ka"), Account: "a", Data: []byte(`{}`), Created: base},
		{ID: []byte("kb"), Account: "b", Data: []byte(`{}`), Created: base},
	} {
		if err := st.AddCredential(ctx(t), c); err != nil {
			t.Fatal(err)
		}
	}
	rate := fixed(map[string][2]float64{"a": {30, 5}, "b": {20, 5}})
	mustRate(t, st, "t1", "dicestars", base, rate, "a", "b")
	t1 := mustGet(t, st, "t1")
	t2 := seated("t2", base, "b", "", "a")
	mustCreate(t, st, t2)
	for _, m := range []store.ChatMessage{
		{Table: "t1", At: base, Seat: 0, Role: store.ChatPlayer, Account: "a", Name: "Ann", Text: "gg"},
		{Table: "t1", At: base, Seat: 1, Role: store.ChatPlayer, Account: "b", Name: "Bob", Text: "gg ann"},
		{Table: "t2", At: base, Seat: -1, Role: store.ChatSpectator, Account: "a", Name: "Ann", Text: "hi"},
	} {
		if _, err := st.AppendChat(ctx(t), m); err != nil {
			t.Fatal(err)
		}
	}

	if err := st.DeleteAccount(ctx(t), "a", "Deleted player"); err != nil {
		t.Fatalf("DeleteAccount: %v", err)
	}
	if _, err := st.GetAccount(ctx(t), "a"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetAccount after delete = %v", err)
	}
	if _, err := st.AccountByName(ctx(t), "ann"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AccountByName after delete = %v", err)
	}
	if _, err := st.GetSession(ctx(t), "sa"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the account's session survived: %v", err)
	}
	if _, err := st.CredentialByID(ctx(t), []byte("ka")); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("the account's passkey survived: %v", err)
	}
	if rs := mustRatings(t, st, "a"); len(rs) != 0 {
		t.Fatalf("the account's ratings survived: %+v", rs)
	}
	if h, _ := st.RatingHistory(ctx(t), "a", "dicestars", 0); len(h) != 0 {
		t.Fatalf("the account's rating history survived: %+v", h)
	}
	if rs, total, _ := st.Leaderboard(ctx(t), "dicestars", 0, 0, 0); total != 1 || len(rs) != 1 || rs[0].Account != "b" {
		t.Fatalf("Leaderboard after delete = %+v (%d)", rs, total)
	}
	// The other account keeps everything.
	if _, err := st.GetSession(ctx(t), "sb"); err != nil {
		t.Fatalf("another account's session: %v", err)
	}
	if _, err := st.CredentialByID(ctx(t), []byte("kb")); err != nil {
		t.Fatalf("another account's passkey: %v", err)
	}
	if rs := mustRatings(t, st, "b"); len(rs) != 1 || rs[0].Mu != 20 {
		t.Fatalf("another account's ratings: %+v", rs)
	}
	if ok, _ := st.Rated(ctx(t), "t1"); !ok {
		t.Fatal("the table is no longer rated")
	}

	// Seats: the neutral name, no account, marked former; nothing else
	// changed.
	t1.Seats[0].Name, t1.Seats[0].Account, t1.Seats[0].Former = "Deleted player", "", true
	if d := diffTable(mustGet(t, st, "t1"), t1); d != "" {
		t.Fatalf("t1 after DeleteAccount: %s", d)
	}
	t2.Seats[2].Name, t2.Seats[2].Account, t2.Seats[2].Former = "Deleted player", "", true
	if d := diffTable(mustGet(t, st, "t2"), t2); d != "" {
		t.Fatalf("t2 after DeleteAccount: %s", d)
	}
	if got, _ := st.List(ctx(t), store.Filter{Account: "a"}); len(got) != 0 {
		t.Fatalf("List by the deleted account = [%s]", ids(got))
	}
	if n, _ := st.Count(ctx(t), store.Filter{Account: "a"}); n != 0 {
		t.Fatalf("Count by the deleted account = %d", n)
	}
	if got, _ := st.List(ctx(t), store.Filter{Account: "b"}); len(got) != 2 {
		t.Fatalf("List by another account = [%s]", ids(got))
	}
	// Chat lines: renamed, no account; the others untouched.
	c1, _ := st.Chat(ctx(t), "t1", 0, 0)
	c2, _ := st.Chat(ctx(t), "t2", 0, 0)
	if len(c1) != 2 || c1[0].Name != "Deleted player" || c1[0].Account != "" || c1[0].Text != "gg" ||
		c1[1].Name != "Bob" || c1[1].Account != "b" || len(c2) != 1 || c2[0].Name != "Deleted player" || c2[0].Account != "" {
		t.Fatalf("chat after DeleteAccount: %+v %+v", c1, c2)
	}
	// The name is free again.
	if err := st.CreateAccount(ctx(t), sampleAccount("a2", "Ann")); err != nil {
		t.Fatalf("CreateAccount with a deleted account's name: %v", err)
	}
	if got, _ := st.List(ctx(t), store.Filter{Account: "a2"}); len(got) != 0 {
		t.Fatalf("a new account has old tables: [%s]", ids(got))
	}
}

func (s *suite) accountsNoAliasing(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	c := store.Credential{ID: []byte{1, 2, 3}, Account: "a", Data: []byte(`{"n":1}`), Created: base}
	if err := st.AddCredential(ctx(t), c); err != nil {
		t.Fatal(err)
	}
	c.ID[2], c.Data[5] = 9, '7' // the caller's buffers
	got := mustCred(t, st, []byte{1, 2, 3})
	if string(got.Data) != `{"n":1}` {
		t.Fatalf("stored data aliases the caller's: %s", got.Data)
	}
	got.ID[0], got.Data[5] = 9, '8'
	list, _ := st.Credentials(ctx(t), "a")
	list[0].ID[1] = 9
	again := mustCred(t, st, []byte{1, 2, 3})
	if !bytes.Equal(again.ID, []byte{1, 2, 3}) || string(again.Data) != `{"n":1}` {
		t.Fatalf("a returned passkey aliases the stored one: %x %s", again.ID, again.Data)
	}
	upd := store.Credential{ID: []byte{1, 2, 3}, Data: []byte(`{"n":2}`)}
	if err := st.UpdateCredential(ctx(t), upd); err != nil {
		t.Fatal(err)
	}
	upd.Data[5] = '5'
	if got := mustCred(t, st, []byte{1, 2, 3}); string(got.Data) != `{"n":2}` {
		t.Fatalf("updated data aliases the caller's: %s", got.Data)
	}

	// A RateFunc keeping and changing what it was given changes nothing
	// stored.
	mustCreate(t, st, seated("t1", base, "a"))
	var kept []store.Rating
	if _, err := st.RateTable(ctx(t), "t1", "g", []string{"a"}, base, func(p []store.Rating) ([]store.Rating, error) {
		kept = p
		out := []store.Rating{{Mu: 5, Sigma: 1}}
		return out, nil
	}); err != nil {
		t.Fatal(err)
	}
	kept[0].Mu = 99
	if rs := mustRatings(t, st, "a"); rs[0].Mu != 5 {
		t.Fatalf("rating changed through the RateFunc's slice: %+v", rs)
	}
	// Seats handed to CreateTable and from GetTable.
	tb := seated("t2", base, "a")
	mustCreate(t, st, tb)
	tb.Seats[0].Account = "zz"
	got2 := mustGet(t, st, "t2")
	got2.Seats[0].Account = "yy"
	if list, _ := st.List(ctx(t), store.Filter{Account: "a"}); ids(list) != "t1,t2" && ids(list) != "t2,t1" {
		t.Fatalf("List by account after changing handed seats = [%s]", ids(list))
	}
	if mustGet(t, st, "t2").Seats[0].Account != "a" {
		t.Fatal("Seat.Account aliases the caller's")
	}
}

func (s *suite) accountsPersistence(t *testing.T) {
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
	ann := mustAccount(t, st, "a", "Ann")
	mustAccount(t, st, "b", "Bob")
	se := store.Session{TokenHash: "s", Account: "a", Created: base, Expires: base.Add(time.Hour)}
	if err := st.CreateSession(ctx(t), se); err != nil {
		t.Fatal(err)
	}
	cred := store.Credential{ID: []byte{0, 1, 254}, Account: "a", Data: []byte(`{"k":"v"}`), Name: "key", Created: base, LastUsed: base.Add(time.Minute)}
	if err := st.AddCredential(ctx(t), cred); err != nil {
		t.Fatal(err)
	}
	mustRate(t, st, "t1", "dicestars", base, fixed(map[string][2]float64{"a": {27.63523138347365, 8.065506316323548}, "b": {22.36476861652635, 8.065506316323548}}), "a", "b")
	m, err := st.AppendChat(ctx(t), store.ChatMessage{Table: "t1", At: base, Role: store.ChatPlayer, Account: "a", Name: "Ann", Text: "hi"})
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Close(); err != nil {
		t.Fatal(err)
	}
	closed = true

	st2 := s.cfg.reopen(t, st)
	t.Cleanup(func() { st2.Close() })
	if got, err := st2.AccountByName(ctx(t), "ann"); err != nil || got != ann {
		t.Fatalf("account after reopen = %+v, %v", got, err)
	}
	se.Created, se.Expires = ms(se.Created), ms(se.Expires)
	if got, err := st2.GetSession(ctx(t), "s"); err != nil || got != se {
		t.Fatalf("session after reopen = %+v, %v", got, err)
	}
	if d := diffCred(mustCred(t, st2, cred.ID), cred); d != "" {
		t.Fatalf("passkey after reopen: %s", d)
	}
	rs := mustRatings(t, st2, "a")
	if len(rs) != 1 || rs[0].Mu != 27.63523138347365 || rs[0].Sigma != 8.065506316323548 || rs[0].Games != 1 {
		t.Fatalf("rating after reopen = %+v (floats must round-trip exactly)", rs)
	}
	if ok, err := st2.RateTable(ctx(t), "t1", "dicestars", []string{"a", "b"}, base, fixed(nil)); err != nil || ok {
		t.Fatalf("RateTable of a rated table after reopen = %v, %v; want false", ok, err)
	}
	if h, _ := st2.RatingHistory(ctx(t), "b", "dicestars", 0); len(h) != 1 || h[0].Table != "t1" {
		t.Fatalf("history after reopen = %+v", h)
	}
	if c, _ := st2.ChatLatest(ctx(t), "t1", 0); len(c) != 1 || c[0] != m {
		t.Fatalf("chat after reopen = %+v, want [%+v]", c, m)
	}
	if m2, err := st2.AppendChat(ctx(t), m); err != nil || m2.Index != 1 {
		t.Fatalf("AppendChat after reopen = %+v, %v; want index 1", m2, err)
	}
	if list, _ := st2.List(ctx(t), store.Filter{Account: "b"}); ids(list) != "t1" {
		t.Fatalf("List by account after reopen = [%s]", ids(list))
	}
}

func (s *suite) accountsCanceled(t *testing.T) {
	st := s.store(t)
	mustAccount(t, st, "a", "Ann")
	mustCreate(t, st, seated("t1", base, "a"))
	c, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.CreateAccount(c, sampleAccount("b", "Bob")); err == nil {
		t.Fatal("CreateAccount with a canceled context succeeded")
	}
	if _, err := st.GetAccount(ctx(t), "b"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("canceled CreateAccount wrote: %v", err)
	}
	called := false
	if _, err := st.RateTable(c, "t1", "g", []string{"a"}, base, func(p []store.Rating) ([]store.Rating, error) {
		called = true
		return p, nil
	}); err == nil || called {
		t.Fatalf("RateTable with a canceled context = %v (rate called %v)", err, called)
	}
	if ok, _ := st.Rated(ctx(t), "t1"); ok {
		t.Fatal("canceled RateTable marked the table rated")
	}
	if _, err := st.AppendChat(c, store.ChatMessage{Table: "t1", Role: store.ChatPlayer, Name: "Ann", Text: "x"}); err == nil {
		t.Fatal("AppendChat with a canceled context succeeded")
	}
	if err := st.DeleteAccount(c, "a", "Deleted"); err == nil {
		t.Fatal("DeleteAccount with a canceled context succeeded")
	}
	if _, err := st.GetAccount(ctx(t), "a"); err != nil {
		t.Fatalf("canceled DeleteAccount deleted: %v", err)
	}
}
