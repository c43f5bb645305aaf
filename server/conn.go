package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/coder/websocket"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

const (
	statusGoingAway     = websocket.StatusGoingAway
	statusInternalError = websocket.StatusInternalError
	statusTryAgainLater = websocket.StatusTryAgainLater

	// maxFrame is the largest client message handled (docs/protocol.md);
	// bigger ones up to hardFrameLimit are read, dropped and answered with
	// an error, and anything bigger closes the connection (status 1009).
	maxFrame       = 8 << 10
	hardFrameLimit = 64 << 10

	writeTimeout = 10 * time.Second
	pingInterval = 30 * time.Second
	// floodLimit: after this many rate-limited messages in a row the
	// connection is closed.
	floodLimit = 500
)

// conn is one WebSocket connection to a table. Its reader runs in the HTTP
// handler's goroutine, its writer in another; the table actor only ever
// enqueues, never writes, so a slow client cannot stall it.
type conn struct {
	s         *Server
	t         *table // set before the reader starts
	ws        *websocket.Conn
	log       *slog.Logger
	tokenHash string
	// The signed-in account ("" for a guest) holds its seats too; a
	// spectator chats under its name.
	account, accountName string
	seat                 engine.Seat // set by the actor when it attaches the connection
	send                 chan []byte
	ctx                  context.Context
	cancel               context.CancelFunc
	closeOnce            sync.Once
	// closeAfterQueue's close, read by the writer after its nil message.
	closeCode   websocket.StatusCode
	closeReason string

	// Limits (limits.go): the client's address key, the order of arrival,
	// whether the address count holds this connection, and when (in ns
	// since born) the client last sent a frame.
	addr     string
	serial   uint64
	counted  atomic.Bool
	born     time.Time
	lastRead atomic.Int64

	// Actor-owned: the seats as this connection was last told them.
	told []SeatSummary

	// remote: at a table's owner, a connection another node holds (its
	// messages go there over the bus); proxy: at that node, the local
	// connection whose table another node runs (bus.go). Both nil for a
	// connection to a table run here.
	remote *remoteLink
	proxy  *proxyLink

	// wsMu guards ws while it may still be nil: a relayed connection's
	// owner (or a silent one) may close it before serveProxied accepted
	// the WebSocket; early then closes it as soon as it is.
	wsMu  sync.Mutex
	early func(*websocket.Conn)

	// hinting: a hint is being worked out for this connection (hint.go).
	hinting atomic.Bool

	// Reader-owned.
	bucket  bucket
	dropped int
	flooded bool // closed for flooding: every further message is ignored
}

// enqueue queues a message for the writer. A full queue means the client
// does not keep up: it is disconnected (it will reconnect and be welcomed
// afresh) rather than ever blocking the caller.
func (c *conn) enqueue(b []byte) {
	if c.remote != nil {
		c.remote.send(b) // the edge queues it, and drops the slow
		return
	}
	select {
	case c.send <- b:
	case <-c.ctx.Done():
	default:
		c.log.Warn("client too slow: disconnected", "queue", cap(c.send))
		c.shut(websocket.StatusPolicyViolation, "", false)
	}
}

func (c *conn) sendError(id *int64, code, message string) {
	c.enqueue(mustJSON(errorMsg{Type: "error", ID: id, Code: code, Message: message}))
}

// closeGracefully sends a close frame with a reason, without blocking.
func (c *conn) closeGracefully(code websocket.StatusCode, reason string) {
	c.shut(code, reason, true)
}

// closeAfterQueue sends a close frame once everything already queued has
// been written (so a last error reaches the client before the close). A
// full queue closes at once.
func (c *conn) closeAfterQueue(code websocket.StatusCode, reason string) {
	if c.remote != nil {
		c.shut(code, reason, true) // the bus keeps the order
		return
	}
	c.closeOnce.Do(func() {
		c.closeCode, c.closeReason = code, reason
		select {
		case c.send <- nil: // the writer closes when it gets there
		default:
			c.s.goTracked(func() {
				c.closeWS(code, reason, true)
				c.cancel()
			})
		}
	})
}

func (c *conn) shut(code websocket.StatusCode, reason string, graceful bool) {
	if c.remote != nil {
		c.closeOnce.Do(func() {
			if code == 0 {
				code = websocket.StatusPolicyViolation
			}
			c.remote.close(code, reason)
			// Not on the caller's goroutine: it may be the actor's own.
			c.s.goTracked(func() { c.remote.gone(c.t, c) })
		})
		return
	}
	c.closeOnce.Do(func() {
		c.s.goTracked(func() {
			c.closeWS(code, reason, graceful)
			c.cancel()
		})
	})
}

// closeWS closes the WebSocket (graceful: with a close frame), or, when it
// is not accepted yet, has setWS close it as soon as it is.
func (c *conn) closeWS(code websocket.StatusCode, reason string, graceful bool) {
	shutWS := func(ws *websocket.Conn) {
		if graceful {
			_ = ws.Close(code, reason)
		} else {
			_ = ws.CloseNow()
		}
	}
	c.wsMu.Lock()
	ws := c.ws
	if ws == nil {
		c.early = shutWS
	}
	c.wsMu.Unlock()
	if ws != nil {
		shutWS(ws)
	}
}

// setWS gives the connection its accepted WebSocket; false when it was
// closed before (the WebSocket is closed then, as it was asked).
func (c *conn) setWS(ws *websocket.Conn) bool {
	c.wsMu.Lock()
	c.ws = ws
	early := c.early
	c.wsMu.Unlock()
	if early != nil {
		early(ws)
		return false
	}
	return true
}

func (c *conn) writeLoop() {
	ping := time.NewTicker(pingInterval)
	defer ping.Stop()
	for {
		select {
		case b := <-c.send:
			if b == nil { // closeAfterQueue: everything before is written
				c.s.goTracked(func() {
					_ = c.ws.Close(c.closeCode, c.closeReason)
					c.cancel()
				})
				return
			}
			ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
			err := c.ws.Write(ctx, websocket.MessageText, b)
			cancel()
			if err != nil {
				c.shut(0, "", false)
				return
			}
		case <-ping.C:
			ctx, cancel := context.WithTimeout(c.ctx, writeTimeout)
			err := c.ws.Ping(ctx)
			cancel()
			if err != nil {
				c.log.Debug("ping unanswered: disconnected", "err", err)
				c.shut(0, "", false)
				return
			}
		case <-c.ctx.Done():
			return
		}
	}
}

// readLoop reads client messages until the connection ends.
func (c *conn) readLoop() {
	for {
		typ, r, err := c.ws.Reader(c.ctx)
		if err != nil {
			return
		}
		c.lastRead.Store(int64(c.sinceBorn()))
		data, err := io.ReadAll(io.LimitReader(r, maxFrame+1))
		if err != nil {
			return
		}
		tooBig := len(data) > maxFrame
		if tooBig {
			if _, err := io.Copy(io.Discard, r); err != nil {
				return // over the hard limit: the library closed with 1009
			}
		}
		if !c.allow() {
			continue
		}
		switch {
		case tooBig:
			c.sendError(nil, "too-large", fmt.Sprintf("messages are limited to %d bytes", maxFrame))
		case typ != websocket.MessageText:
			c.sendError(nil, "bad-frame", "messages must be JSON text frames")
		default:
			c.handle(data)
		}
	}
}

// allow applies the connection's rate limit; the first message over it is
// answered with an error, the rest of the burst silently dropped, and a
// client that never stops is disconnected.
//
// The disconnection is announced once: a last rate-limited error, written
// before the close frame (1008), one warning in the log, and from then on
// the frames still arriving are dropped unread.
func (c *conn) allow() bool {
	if c.flooded {
		return false
	}
	if c.bucket.take(c.s.clock.Now()) {
		c.dropped = 0
		return true
	}
	c.dropped++
	switch {
	case c.dropped == 1:
		c.sendError(nil, "rate-limited", fmt.Sprintf("too many messages: at most %g a second; some were ignored", c.bucket.rate))
	case c.dropped >= floodLimit:
		c.flooded = true
		c.log.Warn("flooding client disconnected", "ignored", c.dropped)
		c.sendError(nil, "rate-limited", fmt.Sprintf("too many messages: %d ignored in a row, the connection is closed", c.dropped))
		c.closeAfterQueue(websocket.StatusPolicyViolation, "too many messages")
	}
	return false
}

func (c *conn) handle(data []byte) {
	var m clientMsg
	if err := engine.DecodeStrict(data, &m); err != nil {
		c.sendError(lenientID(data), "malformed", "the message is not a valid JSON object of the protocol: "+err.Error())
		return
	}
	if c.proxy != nil {
		// The table runs elsewhere: its owner answers.
		if err := c.proxy.publish(c, "frame", data); err != nil {
			c.sendError(lenientID(data), "unavailable", "the table cannot be reached now")
		}
		return
	}
	t := c.t
	switch m.Type {
	case "ping":
		c.enqueue(mustJSON(pongMsg{Type: "pong", ID: m.ID}))
	case "act":
		if len(m.Action) == 0 || string(m.Action) == "null" {
			c.sendError(m.ID, "malformed", "an act message needs an action")
			return
		}
		a, err := t.game.DecodeAction(m.Action)
		if err != nil {
			c.s.metrics.refused(engine.ErrBadAction.Rule)
			c.enqueue(mustJSON(refusedMsg{Type: "refused", ID: m.ID, Rule: engine.ErrBadAction.Rule,
				Message: "that action is not understood: " + err.Error()}))
			return
		}
		c.post(m.ID, func() { t.act(c, m, a) })
	case "leave":
		c.post(m.ID, func() { t.leave(c, m) })
	case "reclaim":
		c.post(m.ID, func() { t.reclaim(c, m) })
	case "takeover":
		c.post(m.ID, func() { t.takeover(c, m) })
	case "chat":
		c.post(m.ID, func() { t.chat(c, m) })
	case "hint":
		c.askHint(m)
	case "":
		c.sendError(m.ID, "malformed", "the message has no type")
	default:
		c.sendError(m.ID, "unknown-type", fmt.Sprintf("unknown message type %q", clip(m.Type, 32)))
	}
}

// post hands f to the table's actor; false (answered) when it could not.
func (c *conn) post(id *int64, f func()) bool {
	switch err := c.t.post(f); {
	case errors.Is(err, errBusy):
		c.sendError(id, "busy", "the table is busy: try again in a moment")
	case errors.Is(err, errGone):
		c.closeGracefully(websocket.StatusTryAgainLater, "the table restarted: reconnect")
	default:
		return true
	}
	return false
}

// lenientID is the id of a message that strict decoding refused, when its
// first JSON value is an object with a whole-number id: the error answering
// it can then say which request it answers.
func lenientID(data []byte) *int64 {
	var head struct {
		ID json.RawMessage `json:"id"`
	}
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&head); err != nil && len(head.ID) == 0 {
		return nil
	}
	var id int64
	if json.Unmarshal(head.ID, &id) != nil {
		return nil
	}
	return &id
}

// watchIdle closes the connection once the client has sent nothing for
// limit, unless it holds a seat at a table whose game is not over (a
// player thinking is never cut off). The page pings every 25 seconds. It
// reads the server's Clock, as every other timer does.
func (c *conn) watchIdle(limit time.Duration) {
	wake := make(chan struct{}, 1)
	arm := func(d time.Duration) Timer {
		return c.s.clock.AfterFunc(d, func() {
			select {
			case wake <- struct{}{}:
			default:
			}
		})
	}
	timer := arm(limit)
	defer func() { timer.Stop() }()
	for {
		select {
		case <-c.ctx.Done():
			return
		case <-wake:
		}
		idle := c.sinceBorn() - time.Duration(c.lastRead.Load())
		if idle < limit {
			timer = arm(limit - idle)
			continue
		}
		if c.seat >= 0 {
			if sum := c.t.summary.Load(); sum == nil || sum.Status != store.StatusOver {
				timer = arm(limit)
				continue
			}
		}
		c.log.Debug("idle connection closed", "seat", int(c.seat), "idle", idle)
		shut := func() {
			c.closeAfterQueue(websocket.StatusNormalClosure, fmt.Sprintf("idle: nothing received for %v", limit))
		}
		// The actor publishes a game's end before it queues the last
		// updates: closing from the actor puts the close after them.
		if c.t.postWait(c.ctx, shut) != nil {
			shut()
		}
		return
	}
}

// sinceBorn is the time since the connection was accepted, by the Clock.
func (c *conn) sinceBorn() time.Duration { return c.s.clock.Now().Sub(c.born) }

// clip shortens user text quoted back in messages.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// bucket is a token bucket: rate tokens a second, up to burst.
type bucket struct {
	rate, burst float64
	tokens      float64
	last        time.Time
}

func (b *bucket) take(now time.Time) bool {
	if b.last.IsZero() {
		b.tokens = b.burst
	} else if d := now.Sub(b.last).Seconds(); d > 0 {
		b.tokens = min(b.burst, b.tokens+d*b.rate)
	}
	b.last = now
	if b.tokens >= 1 {
		b.tokens--
		return true
	}
	return false
}
