package server

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/coder/websocket"
)

func (s *Server) serveWS(w http.ResponseWriter, r *http.Request) {
	if !s.track() {
		writeError(w, http.StatusServiceUnavailable, "closing", "the server is shutting down")
		return
	}
	defer s.wg.Done()
	id := r.PathValue("id")
	if !validID(id) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	// Everything that can be refused without the table is refused before
	// it is loaded: a plain GET, a handshake from another site, or a
	// spectator over its address's cap must not start a table's actor.
	if status, code, msg := s.checkHandshake(r); status != 0 {
		if status == http.StatusUpgradeRequired {
			w.Header().Set("Connection", "Upgrade")
			w.Header().Set("Upgrade", "websocket")
		}
		writeError(w, status, code, msg)
		return
	}
	addr := addrKey(r.RemoteAddr)
	token := presentedToken(r, id)
	acct, _ := s.account(r)
	account := acct.ID
	if lim := s.cfg.Limits.WSPerAddr; token == "" && account == "" && !under(s.wsConns.count(addr), lim) {
		// Without a seat cookie or a session this can only be a
		// spectator (attach counts again, exactly, for those with one).
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusTooManyRequests, "too-many-connections",
			fmt.Sprintf("%s (%s): at most %d spectators' connections at once", errAddrFull, addr, lim))
		return
	}
	newConn := func() *conn {
		ctx, cancel := context.WithCancel(s.ctx)
		return &conn{s: s, tokenHash: token, account: account, accountName: acct.Name, send: make(chan []byte, s.cfg.SendQueue),
			ctx: ctx, cancel: cancel, log: s.log.With("table", id, "remote", clientAddr(r)),
			bucket: bucket{rate: s.cfg.MsgRate, burst: float64(s.cfg.MsgBurst)},
			addr:   addr, serial: s.connSeq.Add(1), born: s.clock.Now()}
	}
	c := newConn()
	defer func() { c.cancel() }()
	t, release, err := s.actor(r.Context(), id)
	for attempt := 0; s.bus != nil; attempt++ {
		var remote *errRemote
		if !errors.As(err, &remote) {
			break
		}
		// Another node runs the table: relay to it (bus.go).
		oerr := s.openProxied(r.Context(), id, remote.lease.Node, c)
		if oerr == nil {
			s.serveProxied(w, r, c)
			return
		}
		if !noOwner(oerr) || attempt == ownerWaits || ownerPause(r.Context(), attempt) != nil {
			c.log.Info("table owner not reached", "owner", remote.lease.Node, "err", oerr)
			break
		}
		// Nobody listens for it yet, or any more: it may be free to take.
		// A connection of its own then: the relayed one may still be
		// reached from the bus (its link, late messages in its queue).
		c.cancel()
		c = newConn()
		t, release, err = s.actor(r.Context(), id)
	}
	if !s.answerActorErr(w, id, "ws", err) {
		return
	}
	// The origin was checked by checkHandshake (s.sameOrigin, which knows
	// the public URL); the library's own check would only repeat it.
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		release()
		return // Accept has answered the request
	}
	s.metrics.wsOpened()
	defer s.metrics.wsClosed()
	ws.SetReadLimit(hardFrameLimit)
	c.setWS(ws)
	defer func() {
		if c.counted.Load() {
			s.wsConns.release(addr)
		}
	}()
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()
	defer func() {
		c.cancel()
		<-writerDone
		_ = ws.CloseNow()
	}()
	// The hold keeps the actor from stopping for idleness before the
	// connection is attached (from then on the connection keeps it).
	for attempt := 0; ; attempt++ {
		var aerr error
		aerr, err = call(c.ctx, t, func() error { return t.attach(c) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			if t, release, err = s.actor(c.ctx, id); err == nil {
				continue
			}
		}
		if err == nil {
			err = aerr
		}
		break
	}
	if err != nil {
		_ = ws.Close(websocket.StatusTryAgainLater, clip(err.Error(), 100))
		return
	}
	c.t = t
	if d := s.cfg.Limits.WSIdle; d > 0 {
		go c.watchIdle(d)
	}
	c.readLoop()
	// The table must hear that the connection went, even when its inbox is
	// full for a moment.
	dctx, dcancel := context.WithTimeout(s.ctx, 5*time.Second)
	_ = t.postWait(dctx, func() { t.detach(c) })
	dcancel()
}

// checkHandshake refuses, with an HTTP status, code and message, a request
// that is no WebSocket handshake the server would accept: the checks of
// websocket.Accept and the same-origin rule. 0: it may go on.
func (s *Server) checkHandshake(r *http.Request) (int, string, string) {
	if !r.ProtoAtLeast(1, 1) || !headerHasToken(r.Header, "Connection", "upgrade") || !headerHasToken(r.Header, "Upgrade", "websocket") {
		return http.StatusUpgradeRequired, "not-websocket", "this address takes WebSocket connections only"
	}
	if r.Header.Get("Sec-WebSocket-Version") != "13" {
		return http.StatusBadRequest, "not-websocket", "only WebSocket version 13 is spoken here"
	}
	keys := r.Header.Values("Sec-WebSocket-Key")
	if len(keys) != 1 {
		return http.StatusBadRequest, "not-websocket", "the handshake needs one Sec-WebSocket-Key"
	}
	if k, err := base64.StdEncoding.DecodeString(strings.TrimSpace(keys[0])); err != nil || len(k) != 16 {
		return http.StatusBadRequest, "not-websocket", "the handshake's Sec-WebSocket-Key is not 16 bytes in base64"
	}
	if !s.sameOrigin(r) {
		return http.StatusForbidden, "cross-origin", "connections from other sites are not accepted"
	}
	return 0, "", ""
}

// headerHasToken reports whether a comma-separated header holds token.
func headerHasToken(h http.Header, name, token string) bool {
	for _, v := range h.Values(name) {
		for _, t := range strings.Split(v, ",") {
			if strings.EqualFold(strings.TrimSpace(t), token) {
				return true
			}
		}
	}
	return false
}
