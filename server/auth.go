package server

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"time"

	"github.com/dicehall/dicehall/store"
)

// Identity: accounts with a username and a password (argon2id,
// auth_password.go) or passkeys (WebAuthn, auth_passkey.go), and the
// sessions that keep a browser signed in (docs/protocol.md, Identity).
//
// A session is a random 256-bit token in the dh-session cookie (HttpOnly,
// SameSite=Lax, Secure over TLS or behind an https public URL); the store
// keeps its SHA-256 only. A signed-in player holds their seats on every
// device: where a seat cookie proves a seat, the session's account does
// too (Seat.Account).

// Identity configures accounts. Zero takes the default; a negative value
// means no limit.
type Identity struct {
	// SessionTTL is how long a sign-in lasts. 0 = 30 days.
	SessionTTL time.Duration
	// HashSlots bounds the password hashes computed at once (each takes
	// 19 MiB). 0 = the number of cores, at least 2.
	HashSlots int
	// SigninsPerName: failed sign-ins to one username, refilled evenly
	// over SigninWindow. 0 = 5.
	SigninsPerName int
	// SigninsPerAddr: failed sign-ins from one client address, refilled
	// over SigninWindow. 0 = 20.
	SigninsPerAddr int
	// SigninWindow: 0 = 15 minutes.
	SigninWindow time.Duration
	// SignupsPerAddr: accounts one client address may make per hour.
	// 0 = 10.
	SignupsPerAddr int
	// Ceremonies bounds the passkey ceremonies under way (begun, not
	// finished, not expired) across the server. 0 = 10000.
	Ceremonies int
}

// Defaults of Identity.
const (
	DefaultSessionTTL     = 30 * 24 * time.Hour
	DefaultSigninsPerName = 5
	DefaultSigninsPerAddr = 20
	DefaultSigninWindow   = 15 * time.Minute
	DefaultSignupsPerAddr = 10
	DefaultCeremonies     = 10_000

	sessionCookie = "dh-session"
	// neutralName replaces a deleted account's name at its tables.
	neutralName = "Former player"
)

func (c *Identity) defaults() {
	zeroDefault(&c.SessionTTL, DefaultSessionTTL)
	zeroDefault(&c.HashSlots, max(2, runtime.GOMAXPROCS(0)))
	zeroDefault(&c.SigninsPerName, DefaultSigninsPerName)
	zeroDefault(&c.SigninsPerAddr, DefaultSigninsPerAddr)
	zeroDefault(&c.SigninWindow, DefaultSigninWindow)
	zeroDefault(&c.SignupsPerAddr, DefaultSignupsPerAddr)
	zeroDefault(&c.Ceremonies, DefaultCeremonies)
}

// authState is the server's side of identity.
type authState struct {
	hashSlots  chan struct{}
	perName    *attemptLimiter // failed sign-ins per username key
	perAddr    *attemptLimiter // failed sign-ins per client address
	signups    *attemptLimiter // accounts made per client address
	ceremonies *ceremonies
}

// newAuthState sets identity up; shared (nil for a node alone) keeps the
// attempt limits of a cluster's nodes together (shared_limits.go).
func newAuthState(c Identity, shared *sharedBuckets) authState {
	return authState{
		hashSlots:  make(chan struct{}, max(c.HashSlots, 1)),
		perName:    newAttemptLimiter("signin-name", c.SigninsPerName, c.SigninWindow, shared),
		perAddr:    newAttemptLimiter("signin-addr", c.SigninsPerAddr, c.SigninWindow, shared),
		signups:    newAttemptLimiter("signup-addr", c.SignupsPerAddr, time.Hour, shared),
		ceremonies: newCeremonies(c.Ceremonies),
	}
}

// ---- sessions

// account is the signed-in account of a request: its session cookie names
// a session that has not expired, of an account that exists.
func (s *Server) account(r *http.Request) (store.Account, bool) {
	a, _, ok := s.session(r)
	return a, ok
}

// session is account with the session's token hash.
func (s *Server) session(r *http.Request) (store.Account, string, bool) {
	c, err := r.Cookie(sessionCookie)
	if err != nil {
		return store.Account{}, "", false
	}
	hash := tokenHash(c.Value)
	if hash == "" {
		return store.Account{}, "", false
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
	defer cancel()
	sess, err := s.store.GetSession(ctx, hash)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Error("session not read", "err", err)
		}
		return store.Account{}, "", false
	}
	if !s.clock.Now().Before(sess.Expires) {
		return store.Account{}, "", false
	}
	a, err := s.store.GetAccount(ctx, sess.Account)
	if err != nil {
		if !errors.Is(err, store.ErrNotFound) {
			s.log.Error("session's account not read", "err", err)
		}
		return store.Account{}, "", false
	}
	return a, hash, true
}

// accountID is the signed-in account's ID, "" for a guest.
func (s *Server) accountID(r *http.Request) string {
	a, _ := s.account(r)
	return a.ID
}

// startSession signs a browser in: a new session in the store and its
// cookie. The guest's seats in that browser become the account's.
func (s *Server) startSession(w http.ResponseWriter, r *http.Request, a store.Account) bool {
	token, hash := newToken()
	now := s.clock.Now().UTC().Truncate(time.Millisecond)
	sess := store.Session{TokenHash: hash, Account: a.ID, Created: now, Expires: now.Add(s.cfg.Identity.SessionTTL)}
	if err := s.store.CreateSession(r.Context(), sess); err != nil {
		s.log.Error("session not stored", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the sign-in could not be saved; try again")
		return false
	}
	// Expired sessions go now and then: at each sign-in is often enough.
	if n, err := s.store.DeleteExpiredSessions(r.Context(), now); err != nil {
		s.log.Warn("expired sessions not removed", "err", err)
	} else if n > 0 {
		s.log.Debug("expired sessions removed", "n", n)
	}
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: token, Path: "/", MaxAge: int(s.cfg.Identity.SessionTTL.Seconds()),
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(r)})
	s.claimSeats(r, a)
	return true
}

func (s *Server) endSessionCookie(w http.ResponseWriter, r *http.Request) {
	http.SetCookie(w, &http.Cookie{Name: sessionCookie, Value: "", Path: "/", MaxAge: -1,
		HttpOnly: true, SameSite: http.SameSiteLaxMode, Secure: s.secureCookies(r)})
}

// secureCookies: cookies are Secure when the request came over TLS or the
// server's public URL is https (TLS ended by a proxy in front).
func (s *Server) secureCookies(r *http.Request) bool {
	return r.TLS != nil || s.public != nil && s.public.Scheme == "https"
}

// ---- seats held by accounts

// seatOfAccount is the seat account holds at a table, or -1.
func seatOfAccount(meta store.Table, account string) int {
	if account == "" {
		return -1
	}
	for i, st := range meta.Seats {
		if st.Account == account {
			return i
		}
	}
	return -1
}

// seatHolder is who a request is at a table: the hash of its seat cookie
// for the table ("" for none) and its signed-in account ("" for a guest).
type seatHolder struct{ token, account string }

// seatOf is the seat a request holds at a table: its seat token's, else
// its account's; -1 for none.
func seatOf(meta store.Table, presented, account string) int {
	if i := seatOfToken(meta, presented); i >= 0 {
		return i
	}
	return seatOfAccount(meta, account)
}

// claimSeats gives a guest who signs up or in the seats their browser's
// seat cookies hold (the first mineCookies): each seat with no account
// becomes a, unless a holds another seat at that table already. Names
// stay as they were played under. A table another node runs is claimed
// there, over the bus.
func (s *Server) claimSeats(r *http.Request, a store.Account) {
	for _, ck := range seatCookies(r) {
		err := s.claimSeat(r.Context(), ck, a.ID, true)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			s.log.Info("seat not claimed", "table", ck.id, "err", err)
		}
	}
}

// claimMsg is a claim on the bus, to the node that runs the table.
type claimMsg struct {
	TokenHash string `json:"tokenHash"`
	Account   string `json:"account"`
}

// errMoved: the table's owner has let it go to another node since the
// claim was sent there.
const errMoved = "moved"

// claimSeat claims ck's seat for account at the table's actor, here, or
// (relay) at the node that runs it.
func (s *Server) claimSeat(ctx context.Context, ck seatCookie, account string, relay bool) error {
	for attempt := 0; ; attempt++ {
		t, release, err := s.actor(ctx, ck.id)
		var remote *errRemote
		if errors.As(err, &remote) && relay && s.bus != nil {
			m := ownerMsg(s.bus, ck.id, "claim")
			m.Data = mustJSON(claimMsg{TokenHash: ck.hash, Account: account})
			err = s.bus.ask(ctx, m)
			if (noOwner(err) || err != nil && err.Error() == errMoved) && attempt < ownerWaits && ownerPause(ctx, attempt) == nil {
				continue // the owner is starting or letting the table go
			}
			return err
		}
		if err != nil {
			return err
		}
		_, err = call(ctx, t, func() bool { return t.claim(ck.hash, account) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			continue
		}
		return err
	}
}

// claimForEdge answers another node's claim for table id: "ok" once done
// (or when there was nothing to claim), errMoved, or what went wrong.
func (s *Server) claimForEdge(id string, data []byte) string {
	var cm claimMsg
	if err := json.Unmarshal(data, &cm); err != nil || cm.Account == "" {
		return "bad claim"
	}
	ctx, cancel := context.WithTimeout(s.ctx, busOpenWait)
	defer cancel()
	err := s.claimSeat(ctx, seatCookie{id: id, hash: cm.TokenHash}, cm.Account, false)
	var remote *errRemote
	switch {
	case err == nil:
		return "ok"
	case errors.As(err, &remote):
		return errMoved
	}
	return clip(err.Error(), 200)
}

// claim gives account the seat whose token hashes to hash, if it has no
// account and account holds no other seat here. Actor goroutine.
func (t *table) claim(hash, account string) bool {
	i := seatOfToken(t.meta, hash)
	if i < 0 || t.meta.Seats[i].Account != "" || seatOfAccount(t.meta, account) >= 0 {
		return false
	}
	t.meta.Seats[i].Account = account
	if err := t.saveMeta(false); err != nil {
		t.meta.Seats[i].Account = ""
		t.log.Error("seat not claimed", "seat", i, "err", err)
		return false
	}
	t.log.Info("seat claimed by an account", "seat", i)
	return true
}

type seatCookie struct{ id, hash string }

// seatCookies are the request's seat cookies that could hold a seat (the
// first mineCookies tables).
func seatCookies(r *http.Request) []seatCookie {
	var out []seatCookie
	seen := map[string]bool{}
	for _, ck := range r.Cookies() {
		if len(seen) == mineCookies {
			break
		}
		id, ok := strings.CutPrefix(ck.Name, cookiePrefix)
		if !ok || !validID(id) || seen[id] {
			continue
		}
		seen[id] = true
		if hash := tokenHash(ck.Value); hash != "" {
			out = append(out, seatCookie{id, hash})
		}
	}
	return out
}

// forgetAccount tells the running tables an account is gone: the store
// has renamed its seats already, the actors' copies follow (and store
// again, in case one wrote its old copy in between).
func (s *Server) forgetAccount(id string) {
	s.mu.Lock()
	tables := make([]*table, 0, len(s.tables))
	for _, t := range s.tables {
		tables = append(tables, t)
	}
	s.mu.Unlock()
	for _, t := range tables {
		_ = t.post(func() {
			i := seatOfAccount(t.meta, id)
			if i < 0 {
				return
			}
			t.meta.Seats[i].Account, t.meta.Seats[i].Name, t.meta.Seats[i].Former = "", neutralName, true
			if err := t.saveMeta(false); err != nil {
				t.log.Error("deleted account's seat not renamed", "err", err)
			}
			for c := range t.conns {
				t.welcomes[c] = true
			}
		})
	}
}

// ---- HTTP

// AccountInfo is GET /api/account's answer about the signed-in account.
type AccountInfo struct {
	ID          string        `json:"id"`
	Name        string        `json:"name"`
	Created     time.Time     `json:"created"`
	HasPassword bool          `json:"hasPassword"`
	Passkeys    []PasskeyInfo `json:"passkeys"`
}

// PasskeyInfo describes one passkey (its ID in unpadded base64url).
type PasskeyInfo struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	Created  time.Time `json:"created"`
	LastUsed time.Time `json:"lastUsed,omitzero"`
}

func (s *Server) accountInfo(ctx context.Context, a store.Account) (AccountInfo, error) {
	creds, err := s.store.Credentials(ctx, a.ID)
	if err != nil {
		return AccountInfo{}, err
	}
	info := AccountInfo{ID: a.ID, Name: a.Name, Created: a.Created, HasPassword: a.PasswordHash != "", Passkeys: []PasskeyInfo{}}
	for _, c := range creds {
		info.Passkeys = append(info.Passkeys, PasskeyInfo{ID: base64.RawURLEncoding.EncodeToString(c.ID), Name: c.Name,
			Created: c.Created, LastUsed: c.LastUsed})
	}
	return info, nil
}

// writeAccount answers with {"account": AccountInfo}.
func (s *Server) writeAccount(w http.ResponseWriter, r *http.Request, status int, a store.Account) {
	info, err := s.accountInfo(r.Context(), a)
	if err != nil {
		s.log.Error("account not read", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the account could not be read")
		return
	}
	writeJSON(w, status, map[string]any{"account": info})
}

// getAccount answers GET /api/account: {"account": AccountInfo}, or
// {"account": null} for a guest (not an error: every page asks).
func (s *Server) getAccount(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	a, ok := s.account(r)
	if !ok {
		writeJSON(w, http.StatusOK, map[string]any{"account": nil})
		return
	}
	s.writeAccount(w, r, http.StatusOK, a)
}

type credentialsRequest struct {
	Name     string `json:"name"`
	Password string `json:"password"`
}

// signup answers POST /api/account/signup {"name","password"}: a new
// account, signed in (201).
func (s *Server) signup(w http.ResponseWriter, r *http.Request) {
	var req credentialsRequest
	if !s.readBody(w, r, &req) {
		return
	}
	name, key, err := s.cleanUsername(req.Name)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad-username", err.Error())
		return
	}
	if err := checkNewPassword(req.Password, name); err != nil {
		writeError(w, http.StatusBadRequest, "weak-password", err.Error())
		return
	}
	if !s.allowSignup(w, r) {
		return
	}
	var hash string
	if err := s.withHashSlot(r.Context(), func() { hash = hashPassword(req.Password) }); err != nil {
		writeError(w, http.StatusServiceUnavailable, "busy", err.Error())
		return
	}
	a, ok := s.createAccount(w, r, store.Account{ID: newID(), Name: name, NameKey: key, PasswordHash: hash})
	if !ok {
		return
	}
	if s.startSession(w, r, a) {
		s.writeAccount(w, r, http.StatusCreated, a)
	}
}

// allowSignup applies the accounts-per-address limit.
func (s *Server) allowSignup(w http.ResponseWriter, r *http.Request) bool {
	l := s.auth.signups
	if l == nil {
		return true
	}
	ok, wait, err := l.take(r.Context(), addrKey(r.RemoteAddr), s.clock.Now())
	if err != nil {
		s.limitUnchecked(w, "sign-up", err)
		return false
	}
	if ok {
		return true
	}
	w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
	writeError(w, http.StatusTooManyRequests, "too-many-accounts",
		fmt.Sprintf("too many accounts made from your address: try again in %s", minutesText(wait)))
	return false
}

// limitUnchecked answers a request whose rate limit could not be checked
// (the shared store did not answer): refused, to be tried again.
func (s *Server) limitUnchecked(w http.ResponseWriter, what string, err error) {
	s.log.Error(what+": limit not checked", "err", err)
	w.Header().Set("Retry-After", "2")
	writeError(w, http.StatusServiceUnavailable, "unavailable", "the server cannot check this now: try again in a moment")
}

// createAccount stores a new account (ID, Name, NameKey and
// PasswordHash set), answering the refusal itself.
func (s *Server) createAccount(w http.ResponseWriter, r *http.Request, a store.Account) (store.Account, bool) {
	a.Created = s.clock.Now().UTC().Truncate(time.Millisecond)
	err := s.store.CreateAccount(r.Context(), a)
	if errors.Is(err, store.ErrExists) {
		writeError(w, http.StatusConflict, "name-taken", fmt.Sprintf("the username %q is taken: pick another", a.Name))
		return a, false
	}
	if err != nil {
		s.log.Error("account not stored", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the account could not be saved; try again")
		return a, false
	}
	s.log.Info("account created", "account", a.ID)
	return a, true
}

// signin answers POST /api/account/signin {"name","password"}. Failed
// attempts are limited per username and per client address; a success
// costs nothing.
func (s *Server) signin(w http.ResponseWriter, r *http.Request) {
	var req credentialsRequest
	if !s.readBody(w, r, &req) {
		return
	}
	if len(req.Password) > maxPasswordBytes || len(req.Name) > 4*maxNameRunes {
		writeError(w, http.StatusUnauthorized, "wrong-password", "that username and password do not match")
		return
	}
	key := nameKey(strings.TrimSpace(req.Name))
	addr := addrKey(r.RemoteAddr)
	now := s.clock.Now()
	limits := []struct {
		l   *attemptLimiter
		key string
	}{{s.auth.perName, "n:" + key}, {s.auth.perAddr, addr}}
	refund := func(done int) {
		for _, lim := range limits[:done] {
			if lim.l != nil {
				lim.l.refund(r.Context(), lim.key)
			}
		}
	}
	for i, lim := range limits {
		if lim.l == nil {
			continue
		}
		ok, wait, err := lim.l.take(r.Context(), lim.key, now)
		if err != nil {
			refund(i)
			s.limitUnchecked(w, "sign-in", err)
			return
		}
		if ok {
			continue
		}
		refund(i)
		w.Header().Set("Retry-After", fmt.Sprint(int(wait.Seconds())+1))
		writeError(w, http.StatusTooManyRequests, "too-many-attempts",
			fmt.Sprintf("too many attempts, try again in %s", minutesText(wait)))
		return
	}
	a, err := s.store.AccountByName(r.Context(), key)
	if err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("account not read", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the account could not be read")
		return
	}
	hash := a.PasswordHash
	if hash == "" {
		hash = dummyHash // the same work: the answer's time tells nothing
	}
	var match bool
	if err := s.withHashSlot(r.Context(), func() { match = checkPassword(hash, req.Password) }); err != nil {
		refund(len(limits))
		writeError(w, http.StatusServiceUnavailable, "busy", err.Error())
		return
	}
	if !match || a.PasswordHash == "" {
		writeError(w, http.StatusUnauthorized, "wrong-password", "that username and password do not match")
		return
	}
	refund(len(limits))
	if s.startSession(w, r, a) {
		s.writeAccount(w, r, http.StatusOK, a)
	}
}

// signout answers POST /api/account/signout: this browser's session ends.
func (s *Server) signout(w http.ResponseWriter, r *http.Request) {
	if !s.allowPost(w, r) {
		return
	}
	if _, hash, ok := s.session(r); ok {
		if err := s.store.DeleteSession(r.Context(), hash); err != nil {
			s.log.Error("session not removed", "err", err)
			writeError(w, http.StatusInternalServerError, "internal", "the session could not be ended; try again")
			return
		}
	}
	s.endSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]any{"account": nil})
}

// signoutAll answers POST /api/account/signout-all: every session of the
// account ends, this one too.
func (s *Server) signoutAll(w http.ResponseWriter, r *http.Request) {
	if !s.allowPost(w, r) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	n, err := s.store.DeleteSessions(r.Context(), a.ID)
	if err != nil {
		s.log.Error("sessions not removed", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the sessions could not be ended; try again")
		return
	}
	s.endSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]any{"account": nil, "sessions": n})
}

// requireAccount is the signed-in account, or answers 401.
func (s *Server) requireAccount(w http.ResponseWriter, r *http.Request) (store.Account, bool) {
	a, ok := s.account(r)
	if !ok {
		writeError(w, http.StatusUnauthorized, "signed-out", "you are not signed in")
	}
	return a, ok
}

type deleteRequest struct {
	// Confirm must be the account's name, as typed on the account page.
	Confirm string `json:"confirm"`
}

// deleteAccount answers DELETE /api/account {"confirm": "<username>"}:
// the account goes with its sessions, passkeys and ratings; its seats at
// every table, finished ones too, are renamed "Former player", so replays
// stay whole.
func (s *Server) deleteAccount(w http.ResponseWriter, r *http.Request) {
	var req deleteRequest
	if !s.readBody(w, r, &req) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	if nameKey(strings.TrimSpace(req.Confirm)) != a.NameKey {
		writeError(w, http.StatusBadRequest, "not-confirmed", "type your username to confirm the deletion")
		return
	}
	if err := s.store.DeleteAccount(r.Context(), a.ID, neutralName); err != nil && !errors.Is(err, store.ErrNotFound) {
		s.log.Error("account not deleted", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the account could not be deleted; try again")
		return
	}
	s.forgetAccount(a.ID)
	s.log.Info("account deleted", "account", a.ID)
	s.endSessionCookie(w, r)
	writeJSON(w, http.StatusOK, map[string]any{"account": nil})
}
