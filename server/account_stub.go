package server

// TEMPORARY, until branch ident is merged: ident's server/auth.go provides
// the real account(r). Delete this file when merging ident (the two
// definitions would clash). It reads the session cookie "dh-session" (a
// 43-character token whose SHA-256 the store keeps) as ident is expected to.

import (
	"context"
	"net/http"

	"github.com/dicehall/dicehall/store"
)

func (s *Server) account(r *http.Request) (store.Account, bool) {
	ck, err := r.Cookie("dh-session")
	if err != nil {
		return store.Account{}, false
	}
	hash := tokenHash(ck.Value)
	if hash == "" {
		return store.Account{}, false
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
	defer cancel()
	sess, err := s.store.GetSession(ctx, hash)
	if err != nil || !s.clock.Now().Before(sess.Expires) {
		return store.Account{}, false
	}
	a, err := s.store.GetAccount(ctx, sess.Account)
	return a, err == nil
}
