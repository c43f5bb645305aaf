package server

import (
	"encoding/json"
	"sync"
	"time"

	"github.com/nats-io/nats.go"

	"github.com/dicehall/dicehall/engine"
)

// The lobby across nodes. Who is at a table (presence) and whose turn it is
// are known only where the table runs: its owner's actor counts the
// connections every edge holds there (bus.go), and holds the state. So
// each node tells the others the summaries of the tables it runs, on
// dh.lobby (header N: the node): those that changed since the last round,
// every lobbyEvery; all of them every lobbyFull rounds; and a "gone" for a
// table that stopped here. Every node keeps the latest summary of each
// table run elsewhere (the highest lease epoch wins: a table that changed
// hands is told about by both nodes for a moment), and forgets it once
// its node goes silent or has not repeated it for lobbyKeep. A lobby thus
// shows, for a table run elsewhere, what its owner knew at most about a
// second ago, and needs no request to anyone.

const (
	lobbySubject = "dh.lobby"
	lobbyEvery   = time.Second
	lobbyFull    = 10 // rounds: every 10 s
	lobbyKeep    = 3 * lobbyFull * lobbyEvery
	// lobbyChunk bounds a message's summaries (NATS' default payload
	// limit is 1 MiB).
	lobbyChunk = 256 << 10
)

// lobbySummary is a summary as nodes tell each other: what the API never
// sends included.
type lobbySummary struct {
	TableSummary
	Creator string                    `json:"creator,omitempty"`
	Actors  []engine.Seat             `json:"actors,omitempty"`
	Clocks  map[engine.Seat]time.Time `json:"clocks,omitempty"`
	Watched bool                      `json:"watched,omitempty"`
	Seen    time.Time                 `json:"seen,omitzero"`
	// Epoch is the owner's lease epoch; Gone: the table stopped there.
	Epoch int64 `json:"epoch"`
	Gone  bool  `json:"gone,omitempty"`
}

func toLobby(sum TableSummary, epoch int64) lobbySummary {
	return lobbySummary{TableSummary: sum, Creator: sum.creator, Actors: sum.actors, Clocks: sum.clocks,
		Watched: sum.watched, Seen: sum.seen, Epoch: epoch}
}

func (l lobbySummary) summary() TableSummary {
	sum := l.TableSummary
	sum.creator, sum.actors, sum.clocks, sum.watched, sum.seen = l.Creator, l.Actors, l.Clocks, l.Watched, l.Seen
	sum.loaded = true
	return sum
}

// sharedLobby is a node's side of dh.lobby.
type sharedLobby struct {
	b *bus

	mu     sync.Mutex
	remote map[string]remoteSummary // tables run elsewhere, by ID

	// The publishing goroutine's own: what it told last, per table.
	told map[string]toldSummary
}

type remoteSummary struct {
	lobbySummary
	node string
	at   time.Time // when last heard
}

type toldSummary struct {
	sum   *TableSummary
	epoch int64
}

// shareLobby subscribes this node to the others' summaries.
func (b *bus) shareLobby() (*nats.Subscription, error) {
	b.lobby = &sharedLobby{b: b, remote: map[string]remoteSummary{}, told: map[string]toldSummary{}}
	return b.nc.Subscribe(lobbySubject, b.lobby.receive)
}

func (l *sharedLobby) receive(m *nats.Msg) {
	node := m.Header.Get("N")
	var sums []lobbySummary
	if node == "" || node == l.b.node || json.Unmarshal(m.Data, &sums) != nil {
		return
	}
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, s := range sums {
		cur, ok := l.remote[s.ID]
		if ok && (cur.Epoch > s.Epoch || cur.Epoch == s.Epoch && cur.Gone && !s.Gone) {
			continue // older news: the table has changed hands, or stopped, since
		}
		l.remote[s.ID] = remoteSummary{lobbySummary: s, node: node, at: now}
	}
}

// run tells the others about this node's tables every lobbyEvery, and
// forgets what silent nodes told.
func (l *sharedLobby) run() {
	tick := time.NewTicker(lobbyEvery)
	defer tick.Stop()
	for round := 1; ; round++ {
		select {
		case <-l.b.s.ctx.Done():
			return
		case <-tick.C:
		}
		l.tell(round%lobbyFull == 0)
		l.expire()
	}
}

// tell publishes the summaries of the tables running here that changed
// since they were last told (all of them when full), and a "gone" for
// those that stopped.
func (l *sharedLobby) tell(full bool) {
	var out []lobbySummary
	running := map[string]bool{}
	for _, t := range l.b.s.runningTables() {
		sum := t.summary.Load()
		if sum == nil || t.lost.Load() {
			continue
		}
		running[t.id] = true
		epoch := t.lease.Epoch
		if last, ok := l.told[t.id]; ok && !full && last.sum == sum && last.epoch == epoch {
			continue
		}
		l.told[t.id] = toldSummary{sum: sum, epoch: epoch}
		out = append(out, toLobby(*sum, epoch))
	}
	for id, last := range l.told {
		if !running[id] {
			out = append(out, lobbySummary{TableSummary: TableSummary{ID: id}, Epoch: last.epoch, Gone: true})
			delete(l.told, id)
		}
	}
	var chunk []json.RawMessage
	size := 0
	flush := func() {
		if len(chunk) == 0 {
			return
		}
		m := nats.NewMsg(lobbySubject)
		m.Header.Set("N", l.b.node)
		m.Data = mustJSON(chunk)
		_ = l.b.nc.PublishMsg(m)
		chunk, size = chunk[:0], 0
	}
	for _, s := range out {
		data := mustJSON(s)
		if size+len(data) > lobbyChunk {
			flush()
		}
		chunk = append(chunk, data)
		size += len(data)
	}
	flush()
}

// expire forgets the tables that stopped, and those of nodes that went
// silent or stopped telling about them.
func (l *sharedLobby) expire() {
	now := time.Now()
	l.mu.Lock()
	defer l.mu.Unlock()
	for id, r := range l.remote {
		if now.Sub(r.at) >= lobbyKeep || !l.b.alive(r.node, now) {
			delete(l.remote, id)
		}
	}
}

// elsewhere is the latest summary of table id from the node that runs it,
// if another node does.
func (s *Server) elsewhere(id string) (TableSummary, bool) {
	if s.bus == nil || s.bus.lobby == nil {
		return TableSummary{}, false
	}
	l := s.bus.lobby
	l.mu.Lock()
	r, ok := l.remote[id]
	l.mu.Unlock()
	if !ok || r.Gone || !l.b.alive(r.node, time.Now()) {
		return TableSummary{}, false
	}
	return r.summary(), true
}

// runningElsewhere are the summaries of the tables other nodes run (not
// this one).
func (s *Server) runningElsewhere() []TableSummary {
	if s.bus == nil || s.bus.lobby == nil {
		return nil
	}
	l := s.bus.lobby
	now := time.Now()
	l.mu.Lock()
	rs := make([]remoteSummary, 0, len(l.remote))
	for _, r := range l.remote {
		if !r.Gone {
			rs = append(rs, r)
		}
	}
	l.mu.Unlock()
	out := make([]TableSummary, 0, len(rs))
	for _, r := range rs {
		if l.b.alive(r.node, now) && s.running(r.ID) == nil {
			out = append(out, r.summary())
		}
	}
	return out
}
