package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/store"
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
	t, release, err := s.actor(r.Context(), id)
	if errors.Is(err, store.ErrNotFound) {
		writeError(w, http.StatusNotFound, "not-found", "there is no such table")
		return
	}
	if err != nil {
		s.log.Error("ws: table not loaded", "table", id, "err", err)
		writeError(w, http.StatusServiceUnavailable, "unavailable", "the table cannot be reached now")
		return
	}
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{OriginPatterns: s.cfg.OriginPatterns})
	if err != nil {
		release()
		return // Accept has answered the request
	}
	ws.SetReadLimit(hardFrameLimit)
	ctx, cancel := context.WithCancel(s.ctx)
	defer cancel()
	c := &conn{s: s, ws: ws, tokenHash: presentedToken(r, id), send: make(chan []byte, s.cfg.SendQueue),
		ctx: ctx, cancel: cancel, log: s.log.With("table", id, "remote", clientAddr(r)),
		bucket: bucket{rate: s.cfg.MsgRate, burst: float64(s.cfg.MsgBurst)}}
	writerDone := make(chan struct{})
	go func() {
		defer close(writerDone)
		c.writeLoop()
	}()
	defer func() {
		cancel()
		<-writerDone
		_ = ws.CloseNow()
	}()
	// The hold keeps the actor from stopping for idleness before the
	// connection is attached (from then on the connection keeps it).
	for attempt := 0; ; attempt++ {
		var aerr error
		aerr, err = call(ctx, t, func() error { return t.attach(c) })
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			if t, release, err = s.actor(ctx, id); err == nil {
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
	c.readLoop()
	// The table must hear that the connection went, even when its inbox is
	// full for a moment.
	dctx, dcancel := context.WithTimeout(s.ctx, 5*time.Second)
	_ = t.postWait(dctx, func() { t.detach(c) })
	dcancel()
}
