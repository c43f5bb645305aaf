package server

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

// accountReply is the answer of the account routes.
type accountReply struct {
	Account *AccountInfo `json:"account"`
	Error   apiError     `json:"error"`
}

// authServer is a server with a fake clock and room for many POSTs.
func authServer(t *testing.T, id Identity) (*testServer, *fakeClock) {
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, PostBurst: 10_000, Identity: id})
	return ts, clock
}

func (p *player) signup(name, password string) (int, accountReply) {
	p.t.Helper()
	var out accountReply
	st := p.do("POST", "/api/account/signup", map[string]any{"name": name, "password": password}, &out)
	return st, out
}

func (p *player) signin(name, password string) (int, accountReply) {
	p.t.Helper()
	var out accountReply
	st := p.do("POST", "/api/account/signin", map[string]any{"name": name, "password": password}, &out)
	return st, out
}

// me is the signed-in account's name, "" for a guest.
func (p *player) me() string {
	p.t.Helper()
	var out accountReply
	if st := p.do("GET", "/api/account", nil, &out); st != http.StatusOK {
		p.t.Fatalf("GET /api/account: %d", st)
	}
	if out.Account == nil {
		return ""
	}
	return out.Account.Name
}

const goodPassword = "correct horse battery"

func TestUsernameRules(t *testing.T) {
	ts, _ := authServer(t, Identity{SignupsPerAddr: -1})
	for _, c := range []struct {
		name string
		ok   bool
	}{
		{"ann", true},
		{"Zoé_2", true},
		{"a.b-c", true},
		{"  bob  ", true}, // trimmed
		{"ab", false},     // too short
		{"ann smith", false},
		{"ann!", false},
		{"_ann", false},
		{"an__n", false},
		{"ann-", false},
		{"a\u200bnn", false},
		{strings.Repeat("x", 25), false},
		{"Greedy bot", false},
		{"Seat2", false},
		{"", false},
	} {
		st, out := newPlayer(t, ts).signup(c.name, goodPassword)
		if c.ok != (st == http.StatusCreated) || !c.ok && out.Error.Code != "bad-username" {
			t.Errorf("username %q: %d %+v", c.name, st, out.Error)
		}
	}
	// Names are unique without regard to case and width.
	if st, out := newPlayer(t, ts).signup("ＡＮＮ", goodPassword); st != http.StatusConflict || out.Error.Code != "name-taken" {
		t.Errorf("a second ann: %d %+v", st, out.Error)
	}
}

func TestPasswordRules(t *testing.T) {
	ts, _ := authServer(t, Identity{SignupsPerAddr: -1})
	for _, c := range []struct {
		password string
		ok       bool
	}{
		{goodPassword, true},
		{"short", false},
		{"123456789", false},
		{"password123", false},
		{"xxxxxxxxxxxxxx", false},
		{"my name is carol99", false}, // holds the username
		{strings.Repeat("ab", 129), false},
	} {
		st, out := newPlayer(t, ts).signup("carol99", c.password)
		if c.ok != (st == http.StatusCreated) || !c.ok && out.Error.Code != "weak-password" {
			t.Errorf("password %q: %d %+v", c.password, st, out.Error)
		}
		if st == http.StatusCreated {
			break // the name is taken from now on
		}
	}
}

func TestPasswordHash(t *testing.T) {
	h := hashPassword("hunter2 hunter2")
	if !strings.HasPrefix(h, "$argon2id$v=19$m=19456,t=2,p=1$") {
		t.Fatalf("hash %q", h)
	}
	if h == hashPassword("hunter2 hunter2") {
		t.Fatal("two hashes of one password are equal: no salt")
	}
	if !checkPassword(h, "hunter2 hunter2") || checkPassword(h, "hunter2 hunter3") {
		t.Fatal("check")
	}
	for _, bad := range []string{"", "$argon2i$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$a2V5a2V5a2V5a2V5a2V5", strings.Replace(h, "m=19456", "m=9999999", 1),
		strings.Replace(h, "t=2", "t=99", 1)} {
		if checkPassword(bad, "hunter2 hunter2") {
			t.Fatalf("hash %q matched", bad)
		}
	}
}

func TestSignin(t *testing.T) {
	ts, clock := authServer(t, Identity{})
	ann := newPlayer(t, ts)
	if st, _ := ann.signup("ann", goodPassword); st != http.StatusCreated {
		t.Fatalf("signup: %d", st)
	}
	if ann.me() != "ann" {
		t.Fatal("not signed in after sign-up")
	}
	other := newPlayer(t, ts)
	if st, out := other.signin("ann", "wrong password!"); st != http.StatusUnauthorized || out.Error.Code != "wrong-password" {
		t.Fatalf("wrong password: %d %+v", st, out.Error)
	}
	if st, out := other.signin("nobody", goodPassword); st != http.StatusUnauthorized || out.Error.Code != "wrong-password" {
		t.Fatalf("no such account: %d %+v", st, out.Error)
	}
	if other.me() != "" {
		t.Fatal("signed in after a wrong password")
	}
	// Case and width are folded.
	if st, _ := other.signin(" ANN ", goodPassword); st != http.StatusOK || other.me() != "ann" {
		t.Fatalf("sign-in: %d", st)
	}
	// A success costs no attempt: 5 failures in a row lock the name.
	clock.Advance(DefaultSigninWindow)
	for i := range DefaultSigninsPerName {
		if st, _ := newPlayer(t, ts).signin("ann", "wrong password!"); st != http.StatusUnauthorized {
			t.Fatalf("failure %d: %d", i, st)
		}
	}
	st, out := newPlayer(t, ts).signin("ann", goodPassword)
	if st != http.StatusTooManyRequests || out.Error.Code != "too-many-attempts" ||
		out.Error.Message != "too many attempts, try again in 3 minutes" {
		t.Fatalf("sixth attempt: %d %+v", st, out.Error)
	}
	clock.Advance(3 * time.Minute)
	if st, _ := newPlayer(t, ts).signin("ann", goodPassword); st != http.StatusOK {
		t.Fatalf("after the wait: %d", st)
	}
	// One address trying many names is stopped too.
	var last int
	for i := range DefaultSigninsPerAddr + 1 {
		last, out = newPlayer(t, ts).signin("name"+string(rune('a'+i)), "wrong password!")
	}
	if last != http.StatusTooManyRequests || !strings.HasPrefix(out.Error.Message, "too many attempts, try again in ") {
		t.Fatalf("attempt %d from one address: %d %+v", DefaultSigninsPerAddr+1, last, out.Error)
	}
}

func TestSessions(t *testing.T) {
	ts, clock := authServer(t, Identity{})
	laptop, phone, tablet := newPlayer(t, ts), newPlayer(t, ts), newPlayer(t, ts)
	laptop.signup("ann", goodPassword)
	phone.signin("ann", goodPassword)
	tablet.signin("ann", goodPassword)
	// The cookie is HttpOnly and SameSite=Lax, and only a hash is stored.
	resp, err := http.Post(ts.http.URL+"/api/account/signin", "application/json", strings.NewReader(`{"name":"ann","password":"`+goodPassword+`"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == sessionCookie {
			cookie = c
		}
	}
	if cookie == nil || !cookie.HttpOnly || cookie.SameSite != http.SameSiteLaxMode || cookie.Secure || cookie.MaxAge != 30*24*3600 {
		t.Fatalf("session cookie %+v", cookie)
	}
	if _, err := ts.store.GetSession(context.Background(), cookie.Value); err == nil {
		t.Fatal("the session's token is stored as it is")
	}
	// Signing out ends this browser's session only.
	if st := tablet.do("POST", "/api/account/signout", nil, nil); st != http.StatusOK || tablet.me() != "" || laptop.me() != "ann" {
		t.Fatalf("sign-out: %d", st)
	}
	// Signing out everywhere ends them all.
	var out struct{ Sessions int }
	if st := laptop.do("POST", "/api/account/signout-all", nil, &out); st != http.StatusOK || out.Sessions != 3 {
		t.Fatalf("sign-out everywhere: %d %+v", st, out)
	}
	if laptop.me() != "" || phone.me() != "" {
		t.Fatal("a session outlived signing out everywhere")
	}
	if st := laptop.do("POST", "/api/account/signout-all", nil, nil); st != http.StatusUnauthorized {
		t.Fatalf("sign-out everywhere, signed out: %d", st)
	}
	// A session lasts 30 days.
	phone.signin("ann", goodPassword)
	clock.Advance(30*24*time.Hour - time.Minute)
	if phone.me() != "ann" {
		t.Fatal("the session ended early")
	}
	clock.Advance(time.Minute)
	if phone.me() != "" {
		t.Fatal("the session outlived its 30 days")
	}
}

// seatAccount is the account of a table's seat in the store.
func seatAccount(t *testing.T, ts *testServer, id string, seat int) store.Seat {
	t.Helper()
	meta, err := ts.store.GetTable(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return meta.Seats[seat]
}

func TestSeatsOfAccounts(t *testing.T) {
	ts, _ := authServer(t, Identity{})
	laptop := newPlayer(t, ts)
	_, me := laptop.signup("ann", goodPassword)
	// A signed-in player's seat is the account's, under its name.
	id := laptop.create(map[string]any{"game": "dicestars", "name": "whatever", "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
	if st := seatAccount(t, ts, id, 0); st.Account != me.Account.ID || st.Name != "ann" {
		t.Fatalf("the creator's seat: %+v", st)
	}
	// On another device, with no seat cookie, the session holds the seat.
	phone := newPlayer(t, ts)
	phone.signin("ann", goodPassword)
	if m := phone.connect(id).next(); m.Type != "welcome" || m.Seat != 0 {
		t.Fatalf("the phone's welcome: %s", m.raw)
	}
	var e errorBody
	if st := phone.do("POST", "/api/tables/"+id+"/join", map[string]any{"seat": 1, "name": "ann"}, &e); st != http.StatusConflict || e.Error.Code != "already-seated" {
		t.Fatalf("a second seat for the account: %d %+v", st, e)
	}
	var mine []MyTable
	if st := phone.do("GET", "/api/tables/mine", nil, &mine); st != http.StatusOK || len(mine) != 1 || mine[0].ID != id || mine[0].Seat != 0 {
		t.Fatalf("the phone's tables: %d %+v", st, mine)
	}
	// A signed-in player joining takes the seat under the account's name.
	bob := newPlayer(t, ts)
	_, bobAcct := bob.signup("bob", goodPassword)
	if st := bob.join(id, 1, "not bob"); st != http.StatusOK {
		t.Fatalf("bob's join: %d", st)
	}
	if st := seatAccount(t, ts, id, 1); st.Account != bobAcct.Account.ID || st.Name != "bob" {
		t.Fatalf("bob's seat: %+v", st)
	}
	// A stranger is a spectator.
	if m := newPlayer(t, ts).connect(id).next(); m.Seat >= 0 {
		t.Fatalf("a stranger's welcome: %s", m.raw)
	}
}

func TestGuestClaimsSeats(t *testing.T) {
	ts, _ := authServer(t, Identity{})
	guest := newPlayer(t, ts)
	solo := guest.create(duel("random"))
	other := newPlayer(t, ts)
	shared := other.create(twoHumans())
	guest.join(shared, 1, "gus")
	// Someone else's seat stays theirs.
	if st := seatAccount(t, ts, shared, 0); st.Account != "" {
		t.Fatal(st)
	}
	_, me := guest.signup("gus", goodPassword)
	if st := seatAccount(t, ts, solo, 0); st.Account != me.Account.ID || st.Name != "ann" {
		t.Fatalf("the guest's own table: %+v", st)
	}
	if st := seatAccount(t, ts, shared, 1); st.Account != me.Account.ID {
		t.Fatalf("the guest's seat at another's table: %+v", st)
	}
	if st := seatAccount(t, ts, shared, 0); st.Account != "" {
		t.Fatalf("the other player's seat was claimed: %+v", st)
	}
	// Now the account has them on any device.
	phone := newPlayer(t, ts)
	phone.signin("gus", goodPassword)
	var mine []MyTable
	phone.do("GET", "/api/tables/mine", nil, &mine)
	if len(mine) != 2 {
		t.Fatalf("the account's tables: %+v", mine)
	}
	// A guest signing in claims too.
	guest2 := newPlayer(t, ts)
	third := guest2.create(duel("random"))
	guest2.signin("gus", goodPassword)
	if st := seatAccount(t, ts, third, 0); st.Account != me.Account.ID {
		t.Fatalf("claimed at sign-in: %+v", st)
	}
}

func TestDeleteAccount(t *testing.T) {
	ts, _ := authServer(t, Identity{})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	_, me := ann.signup("ann", goodPassword)
	id := ann.create(twoHumans())
	bob.join(id, 1, "bob")
	phone := newPlayer(t, ts)
	phone.signin("ann", goodPassword)
	var e errorBody
	if st := ann.do("DELETE", "/api/account", map[string]any{"confirm": "bob"}, &e); st != http.StatusBadRequest || e.Error.Code != "not-confirmed" {
		t.Fatalf("delete without confirming: %d %+v", st, e)
	}
	if st := ann.do("DELETE", "/api/account", map[string]any{"confirm": "Ann"}, nil); st != http.StatusOK {
		t.Fatalf("delete: %d", st)
	}
	if ann.me() != "" || phone.me() != "" {
		t.Fatal("a session outlived its account")
	}
	if _, err := ts.store.GetAccount(context.Background(), me.Account.ID); err == nil {
		t.Fatal("the account is still stored")
	}
	// The table (running) and the store both say "Former player".
	// The seat is marked former (the pages name it in their language);
	// a guest who types the neutral name is not.
	if st := seatAccount(t, ts, id, 0); st.Account != "" || st.Name != neutralName || !st.Former {
		t.Fatalf("the deleted account's seat: %+v", st)
	}
	if s := bob.summary(id); s.Seats[0].Name != neutralName || !s.Seats[0].Former || s.Seats[1].Name != "bob" || s.Seats[1].Former {
		t.Fatalf("summary after deletion: %+v", s.Seats)
	}
	other := newPlayer(t, ts).create(twoHumans())
	newPlayer(t, ts).join(other, 1, neutralName)
	if s := bob.summary(other); s.Seats[1].Name != neutralName || s.Seats[1].Former {
		t.Fatalf("a guest named like a deleted account: %+v", s.Seats)
	}
	if st, _ := newPlayer(t, ts).signin("ann", goodPassword); st != http.StatusUnauthorized {
		t.Fatalf("sign-in to a deleted account: %d", st)
	}
	if st, _ := newPlayer(t, ts).signup("ann", goodPassword); st != http.StatusCreated {
		t.Fatalf("the name of a deleted account: %d", st)
	}
}

// TestCrossSiteAccountRequests: every state-changing request refuses
// another site's page, by its Origin or, without one, by Sec-Fetch-Site.
func TestCrossSiteAccountRequests(t *testing.T) {
	ts, _ := authServer(t, Identity{})
	p := newPlayer(t, ts)
	p.signup("ann", goodPassword)
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/api/account/signup", `{"name":"eve","password":"` + goodPassword + `"}`},
		{"POST", "/api/account/signin", `{"name":"ann","password":"` + goodPassword + `"}`},
		{"POST", "/api/account/signout", ``},
		{"POST", "/api/account/signout-all", ``},
		{"DELETE", "/api/account", `{"confirm":"ann"}`},
		{"POST", "/api/tables", `{"game":"dicestars","name":"x","seats":[{"kind":"human"}]}`},
		{"POST", "/api/account/passkeys/begin", ``},
		{"POST", "/api/account/passkey-signin/begin", ``},
		{"POST", "/api/account/passkey-signup/begin", `{"name":"eve"}`},
		{"DELETE", "/api/account/passkeys/AAAA", ``},
	} {
		refusesCrossSite(t, p, c.method, c.path, c.body)
	}
	if p.me() != "ann" {
		t.Fatal("a cross-site request signed ann out")
	}
	// The site's own pages pass.
	req, _ := http.NewRequest("POST", ts.http.URL+"/api/account/signout", nil)
	req.Header.Set("Origin", ts.http.URL)
	req.Header.Set("Sec-Fetch-Site", "same-origin")
	resp, err := p.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || p.me() != "" {
		t.Fatalf("same-origin sign-out: %d", resp.StatusCode)
	}
}

func TestPasskeyCeremonies(t *testing.T) {
	ts, clock := authServer(t, Identity{})
	p := newPlayer(t, ts)
	var begun struct {
		Ceremony string         `json:"ceremony"`
		Options  map[string]any `json:"options"`
	}
	if st := p.do("POST", "/api/account/passkey-signin/begin", nil, &begun); st != http.StatusOK || begun.Ceremony == "" {
		t.Fatalf("begin: %d %+v", st, begun)
	}
	pk := begun.Options["publicKey"].(map[string]any)
	if pk["rpId"] != "127.0.0.1" || pk["challenge"] == "" {
		t.Fatalf("options %+v", pk)
	}
	var e errorBody
	if st := p.do("POST", "/api/account/passkey-signin/finish", map[string]any{"ceremony": "nope", "credential": map[string]any{}}, &e); st != http.StatusBadRequest || e.Error.Code != "ceremony-expired" {
		t.Fatalf("unknown ceremony: %d %+v", st, e)
	}
	clock.Advance(ceremonyTTL + time.Second)
	if st := p.do("POST", "/api/account/passkey-signin/finish", map[string]any{"ceremony": begun.Ceremony, "credential": map[string]any{}}, &e); st != http.StatusBadRequest || e.Error.Code != "ceremony-expired" {
		t.Fatalf("expired ceremony: %d %+v", st, e)
	}
	// Registering needs an account.
	if st := p.do("POST", "/api/account/passkeys/begin", nil, &e); st != http.StatusUnauthorized {
		t.Fatalf("register signed out: %d", st)
	}
	p.signup("ann", goodPassword)
	if st := p.do("POST", "/api/account/passkeys/begin", nil, &begun); st != http.StatusOK {
		t.Fatalf("register: %d", st)
	}
	if st := p.do("POST", "/api/account/passkey-signup/begin", map[string]any{"name": "ann"}, &e); st != http.StatusConflict || e.Error.Code != "name-taken" {
		t.Fatalf("passkey sign-up of a taken name: %d %+v", st, e)
	}
	// The ceremonies under way are bounded.
	small, _ := authServer(t, Identity{Ceremonies: 2})
	q := newPlayer(t, small)
	for i, want := range []int{200, 200, 503} {
		if st := q.do("POST", "/api/account/passkey-signin/begin", nil, nil); st != want {
			t.Fatalf("ceremony %d: %d, want %d", i, st, want)
		}
	}
}
