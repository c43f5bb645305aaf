package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/nats-io/nats.go"

	"github.com/dicehall/dicehall/engine"
)

// The bus (NATS) lets any node accept a player: a node holding a WebSocket
// for a table another node owns (the edge) relays the client's frames to
// the owner, and the owner sends its messages back to the edge, which
// writes them to its local connections. The owner publishes each update
// once per seat view and edge, not once per connection: an edge fans it
// out to its connections watching that seat.
//
// Subjects:
//   - dh.t.<table>: to the table's owner (queue group "owner", so one
//     node takes each message even while a lost owner still listens).
//     Header K: "open" (request: a connection arrives), "frame" (a client
//     message), "close" (the client went), "welcome" (the edge saw a
//     version gap: send a fresh welcome), "http" (request: an HTTP call
//     for the table), "claim" (request: a player who signed in claims
//     their guest seat, auth.go). Header E names the edge, C the
//     connection.
//   - dh.e.<node>: to an edge, in order on one subscription. K: "c" (a
//     message for connection C), "s" (an update for table T's seat S:
//     every connection of the edge there), "o" (connection C was
//     admitted at seat S), "x" (close connection C: Code, reason in the
//     body).
//   - dh.lobby: the summaries of the tables each node runs, for the
//     others' lobbies (lobby_cluster.go).
//   - dh.hb: every node says it lives (header N) every second; an edge
//     closes the connections of an owner it has not heard from for
//     busSilence (the players reconnect, to the node that adopted the
//     table), an owner drops the connections of a silent edge.
//
// Stored before told stays the rule: the owner publishes only what it has
// stored. NATS may drop messages to a slow edge: every update carries its
// version, and an edge that sees a gap asks for a fresh welcome.

const (
	busBeat    = time.Second
	busSilence = 4 * time.Second
	// busOpenWait bounds an open request (the owner attaches the
	// connection in its actor first) and an HTTP call.
	busOpenWait = 10 * time.Second
)

func tableSubject(id string) string  { return "dh.t." + id }
func edgeSubject(node string) string { return "dh.e." + node }

// bus is this node's side of the bus.
type bus struct {
	s    *Server
	nc   *nats.Conn
	node string
	subs []*nats.Subscription

	mu      sync.Mutex
	proxied map[uint64]*conn              // edge: local connections to tables owned elsewhere, by serial
	byTable map[string]map[*conn]struct{} // the same, by table: an update fans out to its table's only
	seen    map[string]time.Time          // the nodes heard from, when last
	started time.Time
	lobby   *sharedLobby // the summaries of the tables other nodes run (lobby_cluster.go)
}

func (s *Server) startBus() error {
	c := s.cfg.Cluster
	if c == nil || c.NATS == nil {
		return nil
	}
	b := &bus{s: s, nc: c.NATS, node: c.Node, proxied: map[uint64]*conn{}, byTable: map[string]map[*conn]struct{}{}, seen: map[string]time.Time{}, started: time.Now()}
	edge, err := b.nc.Subscribe(edgeSubject(b.node), b.onEdge)
	if err != nil {
		return fmt.Errorf("bus: subscribe: %w", err)
	}
	// An edge's messages may come in bursts (an update for many seats):
	// the default pending limits hold them; over them NATS drops, and
	// the version gap brings a fresh welcome.
	hb, err := b.nc.Subscribe("dh.hb", func(m *nats.Msg) {
		if n := m.Header.Get("N"); n != "" {
			b.mu.Lock()
			b.seen[n] = time.Now()
			b.mu.Unlock()
		}
	})
	if err != nil {
		return fmt.Errorf("bus: subscribe: %w", err)
	}
	lobby, err := b.shareLobby()
	if err != nil {
		return fmt.Errorf("bus: subscribe: %w", err)
	}
	b.subs = []*nats.Subscription{edge, hb, lobby}
	if err := b.nc.FlushTimeout(5 * time.Second); err != nil {
		return fmt.Errorf("bus: flush: %w", err)
	}
	s.bus = b
	go b.beat()
	go b.lobby.run()
	return nil
}

func (b *bus) close() {
	for _, sub := range b.subs {
		_ = sub.Unsubscribe()
	}
}

// beat says this node lives, and closes what hangs on silent nodes.
func (b *bus) beat() {
	tick := time.NewTicker(busBeat)
	defer tick.Stop()
	for {
		msg := nats.NewMsg("dh.hb")
		msg.Header.Set("N", b.node)
		_ = b.nc.PublishMsg(msg)
		select {
		case <-b.s.ctx.Done():
			return
		case <-tick.C:
		}
		b.dropSilent()
	}
}

// alive reports whether node was heard from lately (this node always is).
func (b *bus) alive(node string, now time.Time) bool {
	if node == b.node {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	at, ok := b.seen[node]
	if !ok {
		// Not heard from yet: this node may have started a moment ago.
		at = b.started
	}
	return now.Sub(at) < busSilence
}

func (b *bus) dropSilent() {
	now := time.Now()
	if b.nc.Status() != nats.CONNECTED {
		// Cut off the bus: nothing relayed arrives any more.
		for _, c := range b.proxiedConns() {
			c.closeGracefully(statusTryAgainLater, "the server lost its link to the others: reconnect")
		}
		return
	}
	for _, c := range b.proxiedConns() {
		if !b.alive(c.proxy.owner, now) {
			c.closeGracefully(statusTryAgainLater, "the table's server stopped answering: reconnect")
		}
	}
	for _, t := range b.s.runningTables() {
		for _, c := range t.remoteConns() {
			if !b.alive(c.remote.key.edge, now) {
				c.remote.gone(t, c)
			}
		}
	}
}

// tableProxies lists this node's proxied connections to table id.
func (b *bus) tableProxies(id string) []*conn {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*conn, 0, len(b.byTable[id]))
	for c := range b.byTable[id] {
		out = append(out, c)
	}
	return out
}

func (b *bus) proxiedConns() []*conn {
	b.mu.Lock()
	defer b.mu.Unlock()
	out := make([]*conn, 0, len(b.proxied))
	for _, c := range b.proxied {
		out = append(out, c)
	}
	return out
}

// ---- the owner's side

// remoteKey names a connection held by an edge.
type remoteKey struct {
	edge string
	id   uint64
}

// remoteLink is, at the owner, what a connection held by an edge needs:
// its messages go to the edge over the bus.
type remoteLink struct {
	b   *bus
	key remoteKey
}

func (r *remoteLink) header(kind string) *nats.Msg {
	m := nats.NewMsg(edgeSubject(r.key.edge))
	m.Header.Set("K", kind)
	m.Header.Set("C", strconv.FormatUint(r.key.id, 10))
	return m
}

func (r *remoteLink) send(data []byte) {
	m := r.header("c")
	m.Data = data
	_ = r.b.nc.PublishMsg(m)
}

func (r *remoteLink) admitted(seat engine.Seat) {
	m := r.header("o")
	m.Header.Set("S", strconv.Itoa(int(seat)))
	_ = r.b.nc.PublishMsg(m)
}

func (r *remoteLink) close(code websocket.StatusCode, reason string) {
	m := r.header("x")
	m.Header.Set("Code", strconv.Itoa(int(code)))
	m.Data = []byte(reason)
	_ = r.b.nc.PublishMsg(m)
}

// gone detaches a remote connection whose edge went or closed it.
func (r *remoteLink) gone(t *table, c *conn) {
	if !t.forgetRemote(r.key, c) {
		return
	}
	c.cancel()
	if c.counted.Load() {
		t.s.wsConns.release(c.addr)
	}
	dctx, cancel := context.WithTimeout(t.s.ctx, 5*time.Second)
	defer cancel()
	_ = t.postWait(dctx, func() { t.detach(c) })
}

// remotes are the table's connections held by edges, found by key when
// their frames arrive (guarded by rmu: the bus's goroutine and the actor
// both use them).
func (t *table) remoteConns() []*conn {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	out := make([]*conn, 0, len(t.remotes))
	for _, c := range t.remotes {
		out = append(out, c)
	}
	return out
}

func (t *table) remote(k remoteKey) *conn {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	return t.remotes[k]
}

func (t *table) forgetRemote(k remoteKey, c *conn) bool {
	t.rmu.Lock()
	defer t.rmu.Unlock()
	if t.remotes[k] != c {
		return false
	}
	delete(t.remotes, k)
	return true
}

// serveBus subscribes the table's owner subject while the actor runs.
func (t *table) serveBus() error {
	b := t.s.bus
	if b == nil {
		return nil
	}
	sub, err := b.nc.QueueSubscribe(tableSubject(t.id), "owner", func(m *nats.Msg) { t.onBus(b, m) })
	if err != nil {
		return fmt.Errorf("bus: subscribe table %s: %w", t.id, err)
	}
	t.sub = sub
	// This node's own players who reached the table through its former
	// owner come back to it here.
	for _, c := range b.tableProxies(t.id) {
		c.closeGracefully(statusTryAgainLater, "the table moved to this server: reconnect")
	}
	// The subscription must be known to the NATS server before anyone
	// is sent here.
	return b.nc.FlushTimeout(5 * time.Second)
}

// leaveBus stops taking the table's messages (the actor is stopping), and
// tells the edges to send their players back.
func (t *table) leaveBus() {
	if t.sub != nil {
		// Drain, not Unsubscribe: a request already on its way here is
		// still answered (this node takes the table again for it, or
		// sends the player back), rather than dropped unanswered.
		_ = t.sub.Drain()
	}
}

// openMsg is an open request's body: who the connection is.
type openMsg struct {
	TokenHash   string `json:"tokenHash,omitempty"`
	Account     string `json:"account,omitempty"`
	AccountName string `json:"accountName,omitempty"`
	Addr        string `json:"addr"`
}

func (t *table) onBus(b *bus, m *nats.Msg) {
	edge := m.Header.Get("E")
	id, _ := strconv.ParseUint(m.Header.Get("C"), 10, 64)
	key := remoteKey{edge: edge, id: id}
	switch m.Header.Get("K") {
	case "open":
		var o openMsg
		if edge == "" || json.Unmarshal(m.Data, &o) != nil {
			_ = m.Respond([]byte("bad open"))
			return
		}
		_ = m.Respond([]byte("ok")) // an owner took it; what follows comes on the edge's subject
		t.s.goTracked(func() { t.openRemote(b, key, o) })
	case "frame":
		c := t.remote(key)
		if c == nil {
			// Not ours (the table changed hands): the player comes back.
			(&remoteLink{b: b, key: key}).close(statusTryAgainLater, "the table moved to another server: reconnect")
			return
		}
		c.lastRead.Store(int64(c.sinceBorn()))
		c.handle(m.Data)
	case "close":
		if c := t.remote(key); c != nil {
			c.remote.gone(t, c)
		}
	case "welcome":
		if c := t.remote(key); c != nil {
			_ = t.post(func() { t.welcomes[c] = true })
		}
	case "http":
		t.s.goTracked(func() { t.s.serveForwarded(m) })
	case "claim":
		t.s.goTracked(func() { _ = m.Respond([]byte(t.s.claimForEdge(t.id, m.Data))) })
	}
}

// openRemote attaches a connection held by an edge, as serveWS does a
// local one. An actor that stopped since the request came (idle, or
// letting the table go) is started again here, as serveWS would; a table
// another node has taken meanwhile sends the player back, to reconnect.
func (t *table) openRemote(b *bus, key remoteKey, o openMsg) {
	link := &remoteLink{b: b, key: key}
	release := func() {}
	for attempt := 0; ; attempt++ {
		err := t.attachRemote(link, o)
		release()
		if errors.Is(err, errGone) && attempt < 3 {
			if t, release, err = t.s.actor(t.s.ctx, t.id); err == nil {
				continue
			}
		}
		if err != nil {
			link.close(statusTryAgainLater, clip(err.Error(), 100))
		}
		return
	}
}

// attachRemote attaches the edge's connection to t's actor.
func (t *table) attachRemote(link *remoteLink, o openMsg) error {
	s := t.s
	ctx, cancel := context.WithCancel(s.ctx)
	c := &conn{s: s, t: t, remote: link, tokenHash: o.TokenHash, account: o.Account, accountName: o.AccountName,
		ctx: ctx, cancel: cancel, log: s.log.With("table", t.id, "edge", link.key.edge),
		bucket: bucket{rate: s.cfg.MsgRate, burst: float64(s.cfg.MsgBurst)},
		addr:   o.Addr, serial: s.connSeq.Add(1), born: s.clock.Now()}
	t.rmu.Lock()
	t.remotes[link.key] = c
	t.rmu.Unlock()
	aerr, err := call(ctx, t, func() error { return t.attach(c) })
	if err == nil {
		err = aerr
	}
	if err != nil {
		t.forgetRemote(link.key, c)
		cancel()
		return err
	}
	if d := s.cfg.Limits.WSIdle; d > 0 {
		go c.watchIdle(d)
	}
	return nil
}

// publishSeats sends an update to the edges watching seats: one message
// per edge and seat.
func (t *table) publishSeats(msgs map[engine.Seat][]byte) {
	type edgeSeat struct {
		edge string
		seat engine.Seat
	}
	sent := map[edgeSeat]bool{}
	for c := range t.conns {
		if c.remote == nil {
			continue
		}
		k := edgeSeat{c.remote.key.edge, c.seat}
		if sent[k] {
			continue
		}
		sent[k] = true
		m := nats.NewMsg(edgeSubject(k.edge))
		m.Header.Set("K", "s")
		m.Header.Set("T", t.id)
		m.Header.Set("S", strconv.Itoa(int(k.seat)))
		m.Data = msgs[k.seat]
		_ = c.remote.b.nc.PublishMsg(m)
	}
}

// ---- the edge's side

// proxyLink is, at an edge, what a local connection to a table owned
// elsewhere needs.
type proxyLink struct {
	b     *bus
	table string
	owner string
	// Edge-subject goroutine only: the seat the owner admitted it to, the
	// last version it was sent, and whether a fresh welcome is awaited.
	seat     engine.Seat
	admitted bool
	version  int
	resync   bool
}

func (p *proxyLink) publish(c *conn, kind string, data []byte) error {
	m := nats.NewMsg(tableSubject(p.table))
	m.Header.Set("K", kind)
	m.Header.Set("E", p.b.node)
	m.Header.Set("C", strconv.FormatUint(c.serial, 10))
	m.Data = data
	return p.b.nc.PublishMsg(m)
}

// open asks the owner to take the connection; false when no owner
// answers (the table is changing hands: the player comes back).
func (p *proxyLink) open(ctx context.Context, c *conn) error {
	m := ownerMsg(p.b, p.table, "open")
	m.Header.Set("C", strconv.FormatUint(c.serial, 10))
	m.Data = mustJSON(openMsg{TokenHash: c.tokenHash, Account: c.account, AccountName: c.accountName, Addr: c.addr})
	return p.b.ask(ctx, m)
}

// ownerMsg is a message of kind from this node to table id's owner.
func ownerMsg(b *bus, id, kind string) *nats.Msg {
	m := nats.NewMsg(tableSubject(id))
	m.Header.Set("K", kind)
	m.Header.Set("E", b.node)
	return m
}

// ask sends a request to a table's owner: nil when it answers "ok", an
// error with its answer otherwise (nats.ErrNoResponders: nobody listens).
func (b *bus) ask(ctx context.Context, m *nats.Msg) error {
	ctx, cancel := context.WithTimeout(ctx, busOpenWait)
	defer cancel()
	reply, err := b.nc.RequestMsgWithContext(ctx, m)
	if err != nil {
		return err
	}
	if string(reply.Data) != "ok" {
		return errors.New(string(reply.Data))
	}
	return nil
}

func (b *bus) onEdge(m *nats.Msg) {
	switch m.Header.Get("K") {
	case "s":
		id := m.Header.Get("T")
		seat, _ := strconv.Atoi(m.Header.Get("S"))
		v := versionOf(m.Data)
		for _, c := range b.tableProxies(id) {
			if p := c.proxy; p.admitted && p.seat == engine.Seat(seat) {
				p.deliver(c, m.Data, v)
			}
		}
	case "c", "o", "x":
		id, _ := strconv.ParseUint(m.Header.Get("C"), 10, 64)
		b.mu.Lock()
		c := b.proxied[id]
		b.mu.Unlock()
		if c == nil {
			return
		}
		switch m.Header.Get("K") {
		case "c":
			c.proxy.deliver(c, m.Data, versionOf(m.Data))
		case "o":
			seat, _ := strconv.Atoi(m.Header.Get("S"))
			c.proxy.seat, c.proxy.admitted = engine.Seat(seat), true
		case "x":
			code, _ := strconv.Atoi(m.Header.Get("Code"))
			c.closeAfterQueue(websocket.StatusCode(code), string(m.Data))
		}
	}
}

// wireVersion is what an edge reads of a message: its type and version.
type wireVersion struct {
	Type    string `json:"type"`
	Version int    `json:"version"`
}

func versionOf(data []byte) wireVersion {
	var v wireVersion
	if bytes.HasPrefix(data, []byte(`{"type":"update"`)) || bytes.HasPrefix(data, []byte(`{"type":"welcome"`)) {
		_ = json.Unmarshal(data, &v)
	}
	return v
}

// deliver writes a message from the owner to the local connection,
// checking the versions of updates: after a gap it asks for a fresh
// welcome and drops updates until it comes.
func (p *proxyLink) deliver(c *conn, data []byte, v wireVersion) {
	switch v.Type {
	case "welcome":
		p.version, p.resync = v.Version, false
	case "update":
		if p.resync {
			return
		}
		if v.Version != p.version+1 {
			if v.Version <= p.version {
				return // already sent (a welcome overtook it)
			}
			p.resync = true
			c.log.Warn("updates lost on the bus: asking for a fresh welcome", "had", p.version, "got", v.Version)
			_ = p.publish(c, "welcome", nil)
			return
		}
		p.version = v.Version
	}
	c.enqueue(data)
}

// ownerWaits bounds the tries to reach a table's owner that nobody
// answers for (it is subscribing as the table starts, or letting it go
// as it stops): between them, this node may take the table itself.
const ownerWaits = 10

// noOwner reports whether nobody listens on the table's subject.
func noOwner(err error) bool { return errors.Is(err, nats.ErrNoResponders) }

// ownerPause is the wait before try attempt+1: 20 ms doubling to 320 ms
// (about 2.5 s in all).
func ownerPause(ctx context.Context, attempt int) error {
	select {
	case <-time.After(min(20*time.Millisecond<<attempt, 320*time.Millisecond)):
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// openProxied registers c as this node's connection to table id, run by
// owner, and has the owner admit it; its welcome may arrive (and wait in
// c's queue) before the WebSocket is accepted.
func (s *Server) openProxied(ctx context.Context, id, owner string, c *conn) error {
	b := s.bus
	c.proxy = &proxyLink{b: b, table: id, owner: owner}
	b.mu.Lock()
	b.proxied[c.serial] = c
	if b.byTable[id] == nil {
		b.byTable[id] = map[*conn]struct{}{}
	}
	b.byTable[id][c] = struct{}{}
	b.mu.Unlock()
	if err := c.proxy.open(ctx, c); err != nil {
		b.unproxy(c)
		return err
	}
	return nil
}

// unproxy forgets a proxied connection and tells its owner it went.
func (b *bus) unproxy(c *conn) {
	b.mu.Lock()
	delete(b.proxied, c.serial)
	if m := b.byTable[c.proxy.table]; m != nil {
		delete(m, c)
		if len(m) == 0 {
			delete(b.byTable, c.proxy.table)
		}
	}
	b.mu.Unlock()
	_ = c.proxy.publish(c, "close", nil)
}

// serveProxied serves the WebSocket of a connection openProxied opened.
func (s *Server) serveProxied(w http.ResponseWriter, r *http.Request, c *conn) {
	defer s.bus.unproxy(c)
	ws, err := websocket.Accept(w, r, &websocket.AcceptOptions{InsecureSkipVerify: true})
	if err != nil {
		return
	}
	ws.SetReadLimit(hardFrameLimit)
	if !c.setWS(ws) {
		return // its owner closed it meanwhile
	}
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
	c.readLoop()
}

// ---- HTTP calls for a table owned elsewhere

// forwardedKey marks a request that came over the bus: it is answered
// here or refused, never sent on again, and the edge applied the POST
// limits already.
type forwardedKey struct{}

func forwarded(r *http.Request) bool { return r.Context().Value(forwardedKey{}) != nil }

// httpCall is an HTTP request or answer on the bus.
type httpCall struct {
	Method string      `json:"method,omitempty"`
	URL    string      `json:"url,omitempty"`
	Host   string      `json:"host,omitempty"`
	Remote string      `json:"remote,omitempty"`
	Status int         `json:"status,omitempty"`
	Header http.Header `json:"header"`
	Body   []byte      `json:"body,omitempty"`
}

// ownerRoute runs h here when this node runs table {id} or may take it;
// otherwise it sends the request to the owner over the bus.
func (s *Server) ownerRoute(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if s.bus == nil || forwarded(r) || !validID(id) || s.running(id) != nil {
			h(w, r)
			return
		}
		if r.Method == http.MethodPost && !s.allowPost(w, r) {
			return
		}
		body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.cfg.MaxBody))
		if err != nil {
			writeError(w, http.StatusRequestEntityTooLarge, "too-large", fmt.Sprintf("request bodies are limited to %d bytes", s.cfg.MaxBody))
			return
		}
		here := func() {
			r.Body = io.NopCloser(bytes.NewReader(body))
			h(w, r.WithContext(context.WithValue(r.Context(), forwardedKey{}, true))) // limits applied above
		}
		call := httpCall{Method: r.Method, URL: r.URL.RequestURI(), Host: r.Host, Remote: r.RemoteAddr, Header: r.Header.Clone(), Body: body}
		var ans httpCall
		for attempt := 0; ; attempt++ {
			if s.running(id) != nil {
				here()
				return
			}
			ctx, cancel := context.WithTimeout(r.Context(), s.cfg.StoreTimeout)
			l, lerr := s.store.LeaseOf(ctx, id)
			cancel()
			if lerr != nil || l.Node == s.Node() {
				here() // nobody runs it: this node will
				return
			}
			m := nats.NewMsg(tableSubject(id))
			m.Header.Set("K", "http")
			m.Header.Set("E", s.Node())
			m.Data = mustJSON(call)
			rctx, rcancel := context.WithTimeout(r.Context(), busOpenWait)
			reply, err := s.bus.nc.RequestMsgWithContext(rctx, m)
			rcancel()
			if err == nil {
				err = json.Unmarshal(reply.Data, &ans)
			}
			if noOwner(err) && attempt < ownerWaits && ownerPause(r.Context(), attempt) == nil {
				continue // the owner is starting or letting the table go
			}
			if err != nil {
				s.log.Info("table owner not reached", "table", id, "owner", l.Node, "err", err)
				w.Header().Set("Retry-After", "2")
				writeError(w, http.StatusServiceUnavailable, "unavailable", "the table is changing servers: try again in a moment")
				return
			}
			break
		}
		for k, v := range ans.Header {
			w.Header()[k] = v
		}
		w.WriteHeader(ans.Status)
		_, _ = w.Write(ans.Body)
	}
}

// serveForwarded answers an HTTP request another node sent over the bus.
func (s *Server) serveForwarded(m *nats.Msg) {
	var in httpCall
	if err := json.Unmarshal(m.Data, &in); err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithValue(s.ctx, forwardedKey{}, true), busOpenWait)
	defer cancel()
	r, err := http.NewRequestWithContext(ctx, in.Method, in.URL, bytes.NewReader(in.Body))
	if err != nil {
		return
	}
	r.Header = in.Header
	r.Host, r.RemoteAddr = in.Host, in.Remote
	rec := httptest.NewRecorder()
	s.handler.ServeHTTP(rec, r)
	_ = m.Respond(mustJSON(httpCall{Status: rec.Code, Header: rec.Header(), Body: rec.Body.Bytes()}))
}
