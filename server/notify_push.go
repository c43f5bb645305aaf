package server

import (
	"context"
	"errors"
	"net/http"

	"github.com/dicehall/dicehall/notify"
	"github.com/dicehall/dicehall/store"
)

// Notifications through package notify: the adapter from the tables' hook
// (Notifier) to notify.Service, and the account page's API
// (docs/protocol.md, Notifications).

// PushNotifier is the Notifier that sends the tables' notices through svc
// (Web Push, e-mail, as each account's settings say).
func PushNotifier(svc *notify.Service) Notifier { return pushNotifier{svc} }

type pushNotifier struct{ svc *notify.Service }

func (p pushNotifier) Notify(ctx context.Context, n TurnNotice) {
	p.svc.Notify(ctx, notify.Notice{Account: n.Account, Table: n.Table, Game: n.Game, GameTitle: n.GameTitle,
		Opponent: n.Opponent, Seat: n.Seat, Deadline: n.Deadline, URL: n.URL, Kind: n.Kind})
}

// maxSubscriptions bounds an account's browsers; a new one beyond it ends
// the oldest.
const maxSubscriptions = 10

// pushService answers 404 when the server has no notification service.
func (s *Server) pushService(w http.ResponseWriter) (*notify.Service, bool) {
	if s.cfg.Push == nil {
		writeError(w, http.StatusNotFound, "no-notifications", "this server sends no notifications")
		return nil, false
	}
	return s.cfg.Push, true
}

// notifyVAPID answers GET /api/notify/vapid: the key browsers subscribe
// with, and whether the operator configured e-mail.
func (s *Server) notifyVAPID(w http.ResponseWriter, r *http.Request) {
	svc, ok := s.pushService(w)
	if !ok {
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{"publicKey": svc.PublicKey(), "emailAvailable": svc.EmailAvailable()})
}

// notifySubscribe answers POST /api/notify/subscriptions (signed in): the
// browser's PushSubscription becomes the account's.
func (s *Server) notifySubscribe(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.pushService(w); !ok {
		return
	}
	var sub notify.Subscription
	if !s.readBody(w, r, &sub) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	if err := sub.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "bad-subscription", err.Error())
		return
	}
	ctx := r.Context()
	p := store.PushSubscription{Endpoint: sub.Endpoint, Account: a.ID, P256dh: sub.Keys.P256dh, Auth: sub.Keys.Auth,
		Created: s.clock.Now()}
	if err := s.store.AddPushSubscription(ctx, p); err != nil {
		s.notifyStoreError(w, "push subscription not stored", err)
		return
	}
	if subs, err := s.store.PushSubscriptions(ctx, a.ID); err == nil && len(subs) > maxSubscriptions {
		for _, old := range subs[:len(subs)-maxSubscriptions] {
			if _, err := s.store.DeletePushSubscription(ctx, old.Endpoint); err != nil {
				s.log.Warn("old push subscription not removed", "err", err)
			}
		}
	}
	w.WriteHeader(http.StatusNoContent)
}

type unsubscribeRequest struct {
	Endpoint string `json:"endpoint"`
}

// notifyUnsubscribe answers DELETE /api/notify/subscriptions
// {"endpoint": ...}: signed in or not (the endpoint is the browser's own
// secret address), the subscription ends; one unknown is no error.
func (s *Server) notifyUnsubscribe(w http.ResponseWriter, r *http.Request) {
	if _, ok := s.pushService(w); !ok {
		return
	}
	var req unsubscribeRequest
	if !s.readBody(w, r, &req) {
		return
	}
	if req.Endpoint == "" {
		writeError(w, http.StatusBadRequest, "bad-subscription", "the endpoint is missing")
		return
	}
	if _, err := s.store.DeletePushSubscription(r.Context(), req.Endpoint); err != nil {
		s.notifyStoreError(w, "push subscription not removed", err)
		return
	}
	w.WriteHeader(http.StatusNoContent)
}

// notifySettings answers GET /api/notify/settings (signed in).
func (s *Server) notifySettings(w http.ResponseWriter, r *http.Request) {
	svc, ok := s.pushService(w)
	if !ok {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	set, err := svc.Settings(r.Context(), a.ID)
	if err != nil {
		s.notifyStoreError(w, "notification settings not read", err)
		return
	}
	writeJSON(w, http.StatusOK, set)
}

// notifySetSettings answers PUT /api/notify/settings (signed in): the
// settings replace the account's and come back as stored. A body without
// "lang" keeps the stored language.
func (s *Server) notifySetSettings(w http.ResponseWriter, r *http.Request) {
	svc, ok := s.pushService(w)
	if !ok {
		return
	}
	var set notify.Settings
	if !s.readBody(w, r, &set) {
		return
	}
	a, ok := s.requireAccount(w, r)
	if !ok {
		return
	}
	if err := set.Check(); err != nil {
		writeError(w, http.StatusBadRequest, "bad-settings", err.Error())
		return
	}
	ctx := r.Context()
	if set.Lang == "" {
		old, err := svc.Settings(ctx, a.ID)
		if err != nil {
			s.notifyStoreError(w, "notification settings not read", err)
			return
		}
		set.Lang = old.Lang
	}
	if err := s.store.SetNotifySettings(ctx, set.ToStore(a.ID, s.clock.Now())); err != nil {
		s.notifyStoreError(w, "notification settings not stored", err)
		return
	}
	writeJSON(w, http.StatusOK, set)
}

func (s *Server) notifyStoreError(w http.ResponseWriter, what string, err error) {
	if errors.Is(err, store.ErrNotFound) { // the account went meanwhile
		writeError(w, http.StatusUnauthorized, "signed-out", "you are not signed in")
		return
	}
	s.log.Error(what, "err", err)
	writeError(w, http.StatusInternalServerError, "internal", "the notification settings could not be saved; try again")
}
