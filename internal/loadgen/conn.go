package loadgen

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/coder/websocket"
)

// httpError is an HTTP answer other than the one hoped for.
type httpError struct {
	status int
	code   string // the body's error code, when it has one
}

func (e *httpError) Error() string { return fmt.Sprintf("HTTP %d %s", e.status, e.code) }

// post sends a JSON body and decodes the answer into out (nil: drop it),
// and returns the seat token the answer set for table id ("": the table
// the answer names). A 429 or 503 is waited out (Retry-After) a few times.
func (r *runner) post(ctx context.Context, base, path string, body any, out any, id string) (string, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return "", fmt.Errorf("encode %s: %w", path, err)
	}
	for try := 0; ; try++ {
		rctx, cancel := context.WithTimeout(ctx, 15*time.Second)
		req, err := http.NewRequestWithContext(rctx, http.MethodPost, base+path, bytes.NewReader(data))
		if err != nil {
			cancel()
			return "", fmt.Errorf("POST %s: %w", path, err)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := r.cfg.Client.Do(req)
		if err != nil {
			cancel()
			return "", fmt.Errorf("POST %s: %w", path, err)
		}
		answer, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
		resp.Body.Close()
		cancel()
		if err != nil {
			return "", fmt.Errorf("POST %s: read the answer: %w", path, err)
		}
		if resp.StatusCode/100 == 2 {
			if out != nil {
				if err := json.Unmarshal(answer, out); err != nil {
					return "", fmt.Errorf("POST %s: decode the answer: %w", path, err)
				}
			}
			if id == "" {
				var named struct {
					ID string `json:"id"`
				}
				_ = json.Unmarshal(answer, &named)
				id = named.ID
			}
			for _, ck := range resp.Cookies() {
				if ck.Name == "dh_"+id {
					return ck.Value, nil
				}
			}
			return "", fmt.Errorf("POST %s: no seat cookie in the answer", path)
		}
		var eb struct {
			Error struct {
				Code string `json:"code"`
			} `json:"error"`
		}
		_ = json.Unmarshal(answer, &eb)
		herr := &httpError{status: resp.StatusCode, code: eb.Error.Code}
		busy := resp.StatusCode == http.StatusTooManyRequests || resp.StatusCode == http.StatusServiceUnavailable
		if !busy || try >= 5 {
			return "", fmt.Errorf("POST %s: %w", path, herr)
		}
		// Told to wait: count it, wait as told, try again.
		r.fail("POST waited", herr)
		wait := time.Second
		if s, err := strconv.Atoi(resp.Header.Get("Retry-After")); err == nil && s > 0 {
			wait = time.Duration(s) * time.Second
		}
		if !sleep(ctx, wait) {
			return "", ctx.Err()
		}
	}
}

// inMsg is the part of a server message every screen reads.
type inMsg struct {
	Type    string `json:"type"`
	Seat    int    `json:"seat"` // welcome
	Version int    `json:"version"`
	Move    struct {
		Seat int `json:"seat"`
	} `json:"move"`
	Turn struct {
		Actors []int `json:"actors"`
		Chance bool  `json:"chance"`
		Over   bool  `json:"over"`
	} `json:"turn"`
	Code string `json:"code"` // error
	Rule string `json:"rule"` // refused
	ID   int64  `json:"id"`   // refused, error: the request's
}

// legalView is what a driver reads of its seat's view.
type legalView struct {
	View struct {
		Legal []json.RawMessage `json:"legal"`
	} `json:"view"`
}

// conn is one screen of a table: a seat (driven) or a spectator.
type conn struct {
	tb    *table
	url   string
	seat  int    // -3: a spectator
	token string // the seat's cookie value
	rng   *rand.Rand

	ws      *websocket.Conn
	frames  chan frame    // what ws's reader got
	done    chan struct{} // closed when ws is replaced or closed
	opened  bool          // counted in runner.open
	version int
	// A driver's last turn message (to act again after a refusal), the
	// version its pending action makes (0: none), when it last acted, and
	// how many refusals in a row.
	last    []byte
	pending int
	lastAct time.Time
	refused int
	msgID   int64
}

// connect opens the WebSocket and reads its welcome. A server may say
// "not now" (503 before the upgrade, close 1013 after it: a table changing
// nodes); the page tries again, and so does connect, up to tryAgain times.
func (c *conn) connect(ctx context.Context) error {
	const tryAgain = 10
	r := c.tb.r
	for try := 1; ; try++ {
		kind, err := c.connectOnce(ctx)
		if err == nil {
			return nil
		}
		var he *httpError
		later := websocket.CloseStatus(err) == websocket.StatusTryAgainLater ||
			(errors.As(err, &he) && he.status == http.StatusServiceUnavailable)
		if !later || try == tryAgain {
			r.fail(kind, err)
			return err
		}
		r.fail("ws told to try again", err)
		if !sleep(ctx, time.Duration(try)*100*time.Millisecond) {
			return ctx.Err()
		}
	}
}

// connectOnce opens the WebSocket and reads its welcome; a failure says
// which step failed.
func (c *conn) connectOnce(ctx context.Context) (string, error) {
	r := c.tb.r
	dctx, cancel := context.WithTimeout(ctx, 15*time.Second)
	defer cancel()
	u := "ws" + strings.TrimPrefix(c.url, "http") + "/ws/" + c.tb.id
	opts := &websocket.DialOptions{HTTPClient: r.cfg.Client}
	if c.token != "" {
		opts.HTTPHeader = http.Header{"Cookie": {"dh_" + c.tb.id + "=" + c.token}}
	}
	ws, resp, err := websocket.Dial(dctx, u, opts)
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			err = fmt.Errorf("%w: %w", err, &httpError{status: resp.StatusCode})
		}
		return "ws dial", fmt.Errorf("dial %s: %w", u, err)
	}
	ws.SetReadLimit(4 << 20) // a welcome carries the log and the chat
	_, data, err := ws.Read(dctx)
	var m inMsg
	if err == nil {
		err = json.Unmarshal(data, &m)
	}
	if err == nil && m.Type != "welcome" {
		err = fmt.Errorf("first message %q, not a welcome", m.Type)
	}
	if err == nil && c.seat >= 0 && m.Seat != c.seat {
		err = fmt.Errorf("welcomed as seat %d, not %d", m.Seat, c.seat)
	}
	if err != nil {
		ws.CloseNow()
		return "ws welcome", fmt.Errorf("welcome at %s: %w", u, err)
	}
	c.ws, c.opened, c.version = ws, true, m.Version
	r.open.Add(1)
	c.frames, c.done = make(chan frame, 64), make(chan struct{})
	go read(ctx, ws, c.frames, c.done)
	go keepAlive(ctx, ws)
	c.pending = 0
	if c.seat >= 0 {
		c.last = data
	}
	return "", nil
}

// close ends the connection, if open.
func (c *conn) close() {
	if c.ws == nil {
		return
	}
	c.ws.CloseNow()
	close(c.done)
	c.ws = nil
	if c.opened {
		c.opened = false
		c.tb.r.open.Add(-1)
	}
}

// reconnect replaces a broken connection (the page would reload), a few
// times at most.
func (c *conn) reconnect(ctx context.Context) bool {
	r := c.tb.r
	c.close()
	for try := 0; try < 3; try++ {
		r.count(&r.reconnects, 1)
		if c.connect(ctx) == nil {
			return true
		}
		if !sleep(ctx, time.Second) {
			return false
		}
	}
	return false
}

// run reads the table's messages, and acts for a seat, until the game is
// over (true) or the connection fails for good or ctx ends (false).
func (c *conn) run(ctx context.Context) bool {
	r := c.tb.r
	gate := r.gate // closed: the tables may play
	for {
		var f frame
		select {
		case f = <-c.frames:
		case <-gate:
			gate = nil
			if c.last != nil && !c.act(ctx, c.last) {
				return false
			}
			continue
		case <-ctx.Done():
			return false
		}
		if f.err != nil {
			if ctx.Err() != nil {
				return false
			}
			r.fail("ws read", f.err)
			if !c.reconnect(ctx) {
				return false
			}
			if c.last != nil && !c.act(ctx, c.last) {
				return false
			}
			continue
		}
		var m inMsg
		if err := json.Unmarshal(f.data, &m); err != nil {
			r.fail("decode", err)
			continue
		}
		switch m.Type {
		case "update":
			c.tb.received(m.Version, m.Move.Seat, f.at)
			if m.Version == c.pending {
				c.pending, c.refused = 0, 0
			}
			if m.Version != c.version+1 {
				// A gap: as the page does, come back for a fresh welcome.
				r.count(&r.gaps, 1)
				if !c.reconnect(ctx) {
					return false
				}
				if c.last != nil && !c.act(ctx, c.last) {
					return false
				}
				continue
			}
			c.version = m.Version
			if m.Turn.Over {
				return true
			}
			if c.seat >= 0 {
				c.last = f.data
				if !c.act(ctx, f.data) {
					return false
				}
			}
		case "refused":
			r.count(&r.refusals, 1)
			if c.pending != 0 {
				c.tb.dropped(c.pending)
				c.pending = 0
			}
			c.refused++
			if c.refused > 10 {
				r.fail("refused ten times in a row", errors.New(m.Rule))
				return false
			}
			// Try again from the latest view, a moment later.
			if !sleep(ctx, 20*time.Millisecond) || (c.last != nil && !c.act(ctx, c.last)) {
				return false
			}
		case "welcome":
			// The server starts this screen afresh (a move it could not
			// store, a seat handed back): take its version and view.
			c.version = m.Version
			if c.pending != 0 {
				c.tb.dropped(c.pending)
				c.pending = 0
			}
			if c.seat >= 0 {
				c.last = f.data
				if !c.act(ctx, f.data) {
					return false
				}
			}
		case "error":
			r.fail("ws error message", &httpError{code: m.Code})
			if c.pending != 0 && m.ID == c.msgID {
				// The action failed (not stored in time, say): it made
				// nothing; play again from the latest view, a moment later.
				c.tb.dropped(c.pending)
				c.pending = 0
				if !sleep(ctx, 100*time.Millisecond) || (c.last != nil && !c.act(ctx, c.last)) {
					return false
				}
			}
		}
	}
}

// frame is a message read, when it arrived, or the read's error.
type frame struct {
	data []byte
	at   time.Time
	err  error
}

// read reads ws for run, stamping each message as it arrives, so that a
// screen busy thinking or waiting still answers the server's pings and
// its latencies stay true. It ends after the first error, or when done
// (the connection was replaced) or ctx ends.
func read(ctx context.Context, ws *websocket.Conn, out chan<- frame, done <-chan struct{}) {
	for {
		_, data, err := ws.Read(ctx)
		select {
		case out <- frame{data: data, at: time.Now(), err: err}:
		case <-done:
			return
		case <-ctx.Done():
			return
		}
		if err != nil {
			return
		}
	}
}

// act plays a random legal action when data (a welcome or update) says it
// is the seat's turn. It reports false when the connection failed.
func (c *conn) act(ctx context.Context, data []byte) bool {
	select {
	case <-c.tb.r.gate:
	default:
		return true // not yet: run acts when the gate opens
	}
	var m inMsg
	if c.seat < 0 || c.pending != 0 || json.Unmarshal(data, &m) != nil {
		return true
	}
	if m.Turn.Over || m.Turn.Chance || !has(m.Turn.Actors, c.seat) {
		return true
	}
	var lv legalView
	if err := json.Unmarshal(data, &lv); err != nil || len(lv.View.Legal) == 0 {
		c.tb.r.fail("no legal actions in the seat's view", err)
		return true
	}
	cfg := c.tb.r.cfg
	// Uneven thinking, as people's: tables that all started together
	// drift apart instead of acting in step.
	wait := time.Duration(float64(cfg.Think) * (0.5 + c.rng.Float64()))
	if cfg.ActRate > 0 {
		wait = max(wait, time.Until(c.lastAct.Add(time.Duration(float64(time.Second)/cfg.ActRate))))
	}
	if !sleep(ctx, wait) {
		return false
	}
	c.msgID++
	msg, err := json.Marshal(map[string]any{"type": "act", "id": c.msgID, "version": c.version,
		"action": lv.View.Legal[c.rng.IntN(len(lv.View.Legal))]})
	if err != nil {
		c.tb.r.fail("encode", err)
		return true
	}
	c.pending = c.version + 1
	c.lastAct = time.Now()
	c.tb.sent(c.pending, c.seat, c.lastAct)
	if err := c.ws.Write(ctx, websocket.MessageText, msg); err != nil {
		if ctx.Err() != nil {
			return false
		}
		// The read that follows fails too, and reconnects.
		c.tb.r.fail("ws write", err)
	}
	return true
}

// keepAlive pings as the page does (the server closes a silent
// spectator), until the connection or ctx ends.
func keepAlive(ctx context.Context, ws *websocket.Conn) {
	t := time.NewTicker(25 * time.Second)
	defer t.Stop()
	for {
		select {
		case <-t.C:
			if ws.Write(ctx, websocket.MessageText, []byte(`{"type":"ping"}`)) != nil {
				return
			}
		case <-ctx.Done():
			return
		}
	}
}

func has(seats []int, s int) bool {
	for _, x := range seats {
		if x == s {
			return true
		}
	}
	return false
}
