package server

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/go-webauthn/webauthn/protocol"
	"github.com/go-webauthn/webauthn/webauthn"

	"github.com/dicehall/dicehall/store"
)

// Passkeys (WebAuthn) with github.com/go-webauthn/webauthn. The relying
// party is the site the pages come from: the public URL's host, else the
// request's (localhost while developing: browsers allow WebAuthn on
// http://localhost, not on a bare IP address). Every passkey is made
// discoverable, so a sign-in needs no username; user verification is
// preferred. A ceremony's state (its challenge) stays on the server,
// named by a random ID the page sends back, for ceremonyTTL at most.

const (
	ceremonyTTL     = 5 * time.Minute
	maxPasskeys     = 20 // per account
	ceremonyKindReg = "register"
	ceremonyKindIn  = "signin"
	ceremonyKindUp  = "signup"
)

// ceremony is a passkey registration or sign-in under way.
type ceremony struct {
	kind    string
	account string // register: the signed-in account
	name    string // signup: the username asked for, and its key
	key     string
	userID  string // signup: the new account's ID
	origin  string
	data    webauthn.SessionData
	expires time.Time
}

// ceremonies keeps the ceremonies under way, at most max (expired ones
// make room).
type ceremonies struct {
	max int
	mu  sync.Mutex
	m   map[string]*ceremony
}

func newCeremonies(n int) *ceremonies {
	return &ceremonies{max: n, m: map[string]*ceremony{}}
}

// put keeps c and returns its ID; false when too many are under way.
func (cs *ceremonies) put(c *ceremony, now time.Time) (string, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	if cs.max > 0 && len(cs.m) >= cs.max {
		for id, o := range cs.m {
			if now.After(o.expires) {
				delete(cs.m, id)
			}
		}
		if len(cs.m) >= cs.max {
			return "", false
		}
	}
	id, _ := newToken()
	cs.m[id] = c
	return id, true
}

// take removes and returns ceremony id of kind, if it has not expired.
func (cs *ceremonies) take(id, kind string, now time.Time) (*ceremony, bool) {
	cs.mu.Lock()
	defer cs.mu.Unlock()
	c, ok := cs.m[id]
	if !ok {
		return nil, false
	}
	delete(cs.m, id)
	return c, c.kind == kind && !now.After(c.expires)
}

// pageOrigin is the origin the pages of this request come from: the
// public URL's, or the request's own (a loopback name on a loopback
// listener too).
func (s *Server) pageOrigin(r *http.Request) string {
	if s.public != nil && !(loopbackName(r.Host) && onLoopback(r)) {
		return s.public.Scheme + "://" + s.public.Host
	}
	scheme := "http"
	if r.TLS != nil {
		scheme = "https"
	}
	return scheme + "://" + strings.ToLower(r.Host)
}

// relyingParty is the WebAuthn configuration for an origin.
func relyingParty(origin string) (*webauthn.WebAuthn, error) {
	u, err := url.Parse(origin)
	if err != nil {
		return nil, err
	}
	return webauthn.New(&webauthn.Config{
		RPID:          u.Hostname(),
		RPDisplayName: "Dicehall",
		RPOrigins:     []string{origin},
		AuthenticatorSelection: protocol.AuthenticatorSelection{
			ResidentKey:      protocol.ResidentKeyRequirementRequired,
			UserVerification: protocol.VerificationPreferred,
		},
		Timeouts: webauthn.TimeoutsConfig{
			Login:        webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
			Registration: webauthn.TimeoutConfig{Timeout: ceremonyTTL, TimeoutUVD: ceremonyTTL},
		},
	})
}

// passkeyUser is an account as the WebAuthn library sees it: its user
// handle is the account's ID (opaque, no personal data).
type passkeyUser struct {
	id, name string
	creds    []webauthn.Credential
}

func (u passkeyUser) WebAuthnID() []byte                         { return []byte(u.id) }
func (u passkeyUser) WebAuthnName() string                       { return u.name }
func (u passkeyUser) WebAuthnDisplayName() string                { return u.name }
func (u passkeyUser) WebAuthnCredentials() []webauthn.Credential { return u.creds }

// passkeyUserOf loads an account's passkeys for the library.
func (s *Server) passkeyUserOf(r *http.Request, a store.Account) (passkeyUser, []store.Credential, error) {
	stored, err := s.store.Credentials(r.Context(), a.ID)
	if err != nil {
		return passkeyUser{}, nil, err
	}
	u := passkeyUser{id: a.ID, name: a.Name}
	for _, c := range stored {
		var wc webauthn.Credential
		if err := json.Unmarshal(c.Data, &wc); err != nil {
			s.log.Warn("passkey not readable: skipped", "account", a.ID, "err", err)
			continue
		}
		u.creds = append(u.creds, wc)
	}
	return u, stored, nil
}

// beginCeremony keeps c and answers {"ceremony": id, "options": options}.
func (s *Server) beginCeremony(w http.ResponseWriter, c *ceremony, options any) {
	now := s.clock.Now()
	c.expires = now.Add(ceremonyTTL)
	id, ok := s.auth.ceremonies.put(c, now)
	if !ok {
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "busy", "too many passkey requests are under way: try again in a moment")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"ceremony": id, "options": options})
}

type finishRequest struct {
	Ceremony   string          `json:"ceremony"`
	Credential json.RawMessage `json:"credential"`
}

// finishCeremony reads a finish request and takes its ceremony, answering
// the refusal itself.
func (s *Server) finishCeremony(w http.ResponseWriter, r *http.Request, kind string) (*ceremony, *webauthn.WebAuthn, []byte, bool) {
	var req finishRequest
	if !s.readBody(w, r, &req) {
		return nil, nil, nil, false
	}
	c, ok := s.auth.ceremonies.take(req.Ceremony, kind, s.clock.Now())
	if !ok {
		writeError(w, http.StatusBadRequest, "ceremony-expired", "the passkey request has expired or is unknown: start again")
		return nil, nil, nil, false
	}
	if c.origin != s.pageOrigin(r) {
		writeError(w, http.StatusBadRequest, "ceremony-expired", "the passkey request was started on another site: start again")
		return nil, nil, nil, false
	}
	wa, err := relyingParty(c.origin)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "passkeys cannot be used on this address")
		return nil, nil, nil, false
	}
	return c, wa, req.Credential, true
}

func passkeyRefused(w http.ResponseWriter, err error) {
	msg := err.Error()
	var pe *protocol.Error
	if errors.As(err, &pe) && pe.Details != "" {
		msg = pe.Details
	}
	writeError(w, http.StatusBadRequest, "passkey-refused", "the passkey was not accepted: "+msg)
}

// newPasskey stores a credential the library made for account.
func (s *Server) newPasskey(r *http.Request, account string, wc *webauthn.Credential) error {
	data, err := json.Marshal(wc)
	if err != nil {
		return err
	}
	return s.store.AddCredential(r.Context(), store.Credential{ID: wc.ID, Account: account, Data: data,
		Created: s.clock.Now().UTC().Truncate(time.Millisecond)})
}

// ---- registering a passkey on a signed-in account

// passkeyBegin answers POST /api/account/passkeys/begin.
func (s *Server) passkeyBegin(w http.ResponseWriter, r *http.Request) {
	if !s.allowPost(w, r) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	u, stored, err := s.passkeyUserOf(r, a)
	if err != nil {
		s.log.Error("passkeys not read", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "your passkeys could not be read")
		return
	}
	if len(stored) >= maxPasskeys {
		writeError(w, http.StatusConflict, "too-many-passkeys", fmt.Sprintf("an account has at most %d passkeys: remove one first", maxPasskeys))
		return
	}
	origin := s.pageOrigin(r)
	wa, err := relyingParty(origin)
	if err != nil {
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	creation, data, err := wa.BeginRegistration(u, webauthn.WithExclusions(webauthn.Credentials(u.creds).CredentialDescriptors()))
	if err != nil {
		s.log.Error("passkey registration not begun", "err", err)
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	s.beginCeremony(w, &ceremony{kind: ceremonyKindReg, account: a.ID, origin: origin, data: *data}, creation)
}

// passkeyFinish answers POST /api/account/passkeys/finish
// {"ceremony","credential"}: 201 {"account": AccountInfo}.
func (s *Server) passkeyFinish(w http.ResponseWriter, r *http.Request) {
	c, wa, raw, ok := s.finishCeremony(w, r, ceremonyKindReg)
	if !ok {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	if a.ID != c.account {
		writeError(w, http.StatusBadRequest, "ceremony-expired", "the passkey request was started by another account: start again")
		return
	}
	u, _, err := s.passkeyUserOf(r, a)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "your passkeys could not be read")
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(raw)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	wc, err := wa.CreateCredential(u, c.data, parsed)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	if err := s.newPasskey(r, a.ID, wc); err != nil {
		if errors.Is(err, store.ErrExists) {
			writeError(w, http.StatusConflict, "passkey-exists", "this passkey is already registered")
			return
		}
		s.log.Error("passkey not stored", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the passkey could not be saved; try again")
		return
	}
	s.writeAccount(w, r, http.StatusCreated, a)
}

// passkeyDelete answers DELETE /api/account/passkeys/{id}: the account's
// passkey goes, unless it is its last way to sign in.
func (s *Server) passkeyDelete(w http.ResponseWriter, r *http.Request) {
	if !s.allowPost(w, r) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	id, err := base64.RawURLEncoding.DecodeString(r.PathValue("id"))
	if err != nil || len(id) == 0 {
		writeError(w, http.StatusNotFound, "not-found", "you have no such passkey")
		return
	}
	creds, err := s.store.Credentials(r.Context(), a.ID)
	if err != nil {
		writeError(w, http.StatusInternalServerError, "internal", "your passkeys could not be read")
		return
	}
	if a.PasswordHash == "" && len(creds) == 1 && bytes.Equal(creds[0].ID, id) {
		writeError(w, http.StatusConflict, "last-passkey", "this passkey is your only way to sign in: add another one first")
		return
	}
	err = s.store.DeleteCredential(r.Context(), a.ID, id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not-found", "you have no such passkey")
		return
	}
	if err != nil {
		s.log.Error("passkey not removed", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the passkey could not be removed; try again")
		return
	}
	s.writeAccount(w, r, http.StatusOK, a)
}

// ---- signing in with a passkey

// passkeySigninBegin answers POST /api/account/passkey-signin/begin: a
// discoverable sign-in (the authenticator says whose passkey it is).
func (s *Server) passkeySigninBegin(w http.ResponseWriter, r *http.Request) {
	if !s.allowPost(w, r) {
		return
	}
	origin := s.pageOrigin(r)
	wa, err := relyingParty(origin)
	if err != nil {
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	assertion, data, err := wa.BeginDiscoverableLogin()
	if err != nil {
		s.log.Error("passkey sign-in not begun", "err", err)
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	s.beginCeremony(w, &ceremony{kind: ceremonyKindIn, origin: origin, data: *data}, assertion)
}

// passkeySigninFinish answers POST /api/account/passkey-signin/finish
// {"ceremony","credential"}: signed in, 200 {"account": AccountInfo}.
func (s *Server) passkeySigninFinish(w http.ResponseWriter, r *http.Request) {
	c, wa, raw, ok := s.finishCeremony(w, r, ceremonyKindIn)
	if !ok {
		return
	}
	parsed, err := protocol.ParseCredentialRequestResponseBytes(raw)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	var account store.Account
	var stored store.Credential
	handler := func(rawID, userHandle []byte) (webauthn.User, error) {
		cred, err := s.store.CredentialByID(r.Context(), rawID)
		if err != nil {
			return nil, errors.New("this passkey is not registered here (it may have been removed)")
		}
		if cred.Account != string(userHandle) {
			return nil, errors.New("this passkey belongs to another account")
		}
		a, err := s.store.GetAccount(r.Context(), cred.Account)
		if err != nil {
			return nil, errors.New("this passkey's account no longer exists")
		}
		u, _, err := s.passkeyUserOf(r, a)
		if err != nil {
			return nil, err
		}
		account, stored = a, cred
		return u, nil
	}
	_, wc, err := wa.ValidatePasskeyLogin(handler, c.data, parsed)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	if wc.Authenticator.CloneWarning {
		s.log.Warn("passkey sign count went back: refused", "account", account.ID)
		writeError(w, http.StatusBadRequest, "passkey-refused", "the passkey was not accepted: its counter went back, as a copied key's would")
		return
	}
	if data, err := json.Marshal(wc); err == nil {
		stored.Data, stored.LastUsed = data, s.clock.Now().UTC().Truncate(time.Millisecond)
		if err := s.store.UpdateCredential(r.Context(), stored); err != nil {
			s.log.Warn("passkey use not stored", "err", err)
		}
	}
	if s.startSession(w, r, account) {
		s.writeAccount(w, r, http.StatusOK, account)
	}
}

// ---- signing up with a passkey (no password)

type passkeySignupRequest struct {
	Name string `json:"name"`
}

// passkeySignupBegin answers POST /api/account/passkey-signup/begin
// {"name"}: a registration for an account not made yet.
func (s *Server) passkeySignupBegin(w http.ResponseWriter, r *http.Request) {
	var req passkeySignupRequest
	if !s.readBody(w, r, &req) {
		return
	}
	name, key, err := s.cleanUsername(req.Name)
	if err != nil {
		writeError(w, http.StatusBadRequest, "bad-username", err.Error())
		return
	}
	if _, err := s.store.AccountByName(r.Context(), key); err == nil {
		writeError(w, http.StatusConflict, "name-taken", fmt.Sprintf("the username %q is taken: pick another", name))
		return
	}
	origin := s.pageOrigin(r)
	wa, err := relyingParty(origin)
	if err != nil {
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	u := passkeyUser{id: newID(), name: name}
	creation, data, err := wa.BeginRegistration(u)
	if err != nil {
		s.log.Error("passkey sign-up not begun", "err", err)
		writeError(w, http.StatusBadRequest, "no-passkeys", "passkeys cannot be used on this address")
		return
	}
	s.beginCeremony(w, &ceremony{kind: ceremonyKindUp, name: name, key: key, userID: u.id, origin: origin, data: *data}, creation)
}

// passkeySignupFinish answers POST /api/account/passkey-signup/finish
// {"ceremony","credential"}: the account with its passkey, signed in (201).
func (s *Server) passkeySignupFinish(w http.ResponseWriter, r *http.Request) {
	c, wa, raw, ok := s.finishCeremony(w, r, ceremonyKindUp)
	if !ok {
		return
	}
	parsed, err := protocol.ParseCredentialCreationResponseBytes(raw)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	wc, err := wa.CreateCredential(passkeyUser{id: c.userID, name: c.name}, c.data, parsed)
	if err != nil {
		passkeyRefused(w, err)
		return
	}
	if !s.allowSignup(w, r) {
		return
	}
	a, ok := s.createAccount(w, r, store.Account{ID: c.userID, Name: c.name, NameKey: c.key})
	if !ok {
		return
	}
	if err := s.newPasskey(r, a.ID, wc); err != nil {
		// An account nobody can sign in to is no account.
		_ = s.store.DeleteAccount(r.Context(), a.ID, neutralName)
		s.log.Error("passkey not stored", "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the passkey could not be saved; try again")
		return
	}
	s.log.Info("account created", "account", a.ID, "with", "passkey")
	if s.startSession(w, r, a) {
		s.writeAccount(w, r, http.StatusCreated, a)
	}
}
