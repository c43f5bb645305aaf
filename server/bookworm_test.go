package server

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// bwSnap is what the test driver reads from the actor each step.
type bwSnap struct {
	version     int
	phase       bookworm.Phase
	current     int8
	speaker     int8 // the word under judgement's speaker, -1 none
	actors      []engine.Seat
	annTakenOut bool
	botsReady   bool  // every bot actor has decided for this version
	wakeMs      int64 // when the actor next runs by itself (game ms), -1 none
	nowMs       int64
	bobView     *bookworm.View
}

func bwSnapshot(t *testing.T, ts *testServer, id string) bwSnap {
	return inActor(t, ts, id, func(tb *table) bwSnap {
		m := tb.state.(*bookworm.Match)
		s := bwSnap{version: tb.version, phase: m.S.Phase, current: m.S.Current, speaker: -1,
			actors: m.Turn().Actors, annTakenOut: tb.meta.Seats[0].TakenOver, botsReady: true, wakeMs: -1,
			nowMs: tb.s.clock.Now().Sub(tb.meta.Created).Milliseconds(), bobView: m.SeatView(2)}
		if m.S.Pending >= 0 {
			s.speaker = m.S.Named[m.S.Pending].Seat
		}
		for _, seat := range s.actors {
			if p := tb.plans[seat]; tb.botControlled(seat) && (p == nil || p.deciding || !tb.current(seat, p)) {
				s.botsReady = false
			}
		}
		if at, ok := tb.nextWake(); ok {
			s.wakeMs = at.Sub(tb.meta.Created).Milliseconds()
		}
		return s
	})
}

// bobWord finds a word the lexicon fits to the category that bob may say
// now for one of the dice he could take, or "".
func bobWord(v *bookworm.View) (string, int) {
	if v.Category == nil {
		return "", 0
	}
	said := map[string]bool{}
	for _, w := range v.Words {
		said[words.Normalize(w.Word)] = true
	}
	for _, opt := range v.Takeable {
		for _, w := range words.Default().Words(v.Category.ID) {
			if !said[w] && !strings.Contains(w, " ") && strings.ContainsRune(strings.ToLower(opt.Letters), rune(w[0])) {
				return w, opt.Die
			}
		}
	}
	return "", 0
}

// TestBookwormHumansAndBots plays Bookworm over WebSockets: ann (seat 0)
// and bob (seat 2) are people, seat 1 a hard bot. The game's lexicon is
// left out so every word is judged by the players. Ann never answers: her
// category choice (no rule clock) goes to her bot through the turn clock,
// and her word turns time out. Bob names words the bots know; ann
// challenges them, so the bot votes.
func TestBookwormHumansAndBots(t *testing.T) {
	reg := &engine.Registry{}
	reg.Register(bookworm.Game{Deck: words.Deck()})
	clock := newFakeClock()
	ts := startServer(t, Config{Clock: clock, Games: reg})
	ann, bob := newPlayer(t, ts), newPlayer(t, ts)
	id := ann.create(map[string]any{"game": "bookworm", "name": "ann",
		"options":  map[string]any{"special": false, "target": 1000},
		"settings": map[string]any{"turnSeconds": 5},
		"seats":    []map[string]any{{"kind": "human", "bot": "hard"}, {"kind": "bot", "bot": "hard"}, {"kind": "human"}}})
	if st := bob.join(id, 2, "bob"); st != 200 {
		t.Fatalf("bob joins: %d", st)
	}
	ca, cb := ann.connect(id), bob.connect(id)
	var seen []msg // ann's messages
	drain := func() {
		for {
			select {
			case m, ok := <-ca.msgs:
				if !ok {
					t.Fatalf("ann's connection ended: %v", <-ca.err)
				}
				seen = append(seen, m)
			default:
				return
			}
		}
	}
	changed := func(before bwSnap) bwSnap {
		t.Helper()
		limit := time.Now().Add(waitLimit)
		for {
			s := bwSnapshot(t, ts, id)
			if s.version != before.version || s.annTakenOut != before.annTakenOut {
				return s
			}
			if time.Now().After(limit) {
				t.Fatalf("nothing happened at version %d (phase %v)", before.version, before.phase)
			}
			time.Sleep(time.Millisecond)
		}
	}
	act := func(c *wsClient, before bwSnap, action any) {
		t.Helper()
		c.send(map[string]any{"type": "act", "action": action, "version": before.version})
		changed(before)
	}

	var (
		botCategory, botName, botVote, roundEnd, humanTimeout, deadlineChecked bool
		bobTried                                                               = map[int]bool{}
	)
	for step := 0; ; step++ {
		if step > 400 {
			t.Fatalf("no full picture after %d steps: category %v name %v vote %v round-end %v human-timeout %v deadline %v",
				step, botCategory, botName, botVote, roundEnd, humanTimeout, deadlineChecked)
		}
		drain()
		for _, m := range seen {
			if m.Type != "update" {
				continue
			}
			a := string(m.Move.Action)
			// Ann and bob never choose a category or vote: the bots did.
			botCategory = botCategory || strings.Contains(a, `"category"`)
			botVote = botVote || strings.Contains(a, `"vote"`)
			botName = botName || m.Move.Seat == 1 && strings.Contains(a, `"name"`)
			for _, e := range m.Events {
				roundEnd = roundEnd || e.Kind == "round-end"
				if d, ok := e.Data.(map[string]any); ok && e.Kind == "fail" && m.Move.Seat == engine.SystemSeat && d["seat"] != 1.0 {
					humanTimeout = true
				}
			}
		}
		if botCategory && botName && botVote && roundEnd && humanTimeout && deadlineChecked {
			break
		}
		s := bwSnapshot(t, ts, id)
		switch {
		case s.phase == bookworm.PhaseOver:
			t.Fatal("the game ended first")
		case s.annTakenOut && s.phase != bookworm.PhaseCategory && s.phase != bookworm.PhaseTurnTo:
			ca.send(map[string]any{"type": "reclaim"})
			changed(s)
			continue
		case s.phase == bookworm.PhaseName && s.current == 0 && !deadlineChecked:
			// Ann's own rule deadline is her deadline field.
			at := slices.IndexFunc(seen, func(m msg) bool { return m.Type == "update" && m.Version == s.version })
			if at < 0 {
				seen = append(seen, ca.await("update", func(m msg) bool { return m.Version == s.version }))
				at = len(seen) - 1
			}
			u := seen[at]
			var v bookworm.View
			if err := json.Unmarshal(u.View, &v); err != nil || v.Seat != 0 || !slices.Contains(v.Legal, "name") {
				t.Fatalf("ann's view: %v %s", err, u.View)
			}
			if want := v.Deadline - s.nowMs; u.Deadline != want || !u.Turn.Has(0) || len(u.Turn.Deadlines) != 1 {
				t.Fatalf("ann's deadline field %d, want %d (%s)", u.Deadline, want, u.raw)
			}
			deadlineChecked = true
			continue
		case s.phase == bookworm.PhaseName && s.current == 2 && !bobTried[s.version]:
			bobTried[s.version] = true
			if w, die := bobWord(s.bobView); w != "" {
				act(cb, s, map[string]any{"name": w, "die": die})
				continue
			}
		case s.phase == bookworm.PhaseChallenge && s.speaker == 2 && slices.Contains(s.actors, 0):
			act(ca, s, map[string]any{"challenge": true})
			continue
		}
		// Nobody human acts now: let the bots decide, then move the clock
		// to the next thing the table does by itself.
		if !s.botsReady {
			time.Sleep(time.Millisecond)
			continue
		}
		if s.wakeMs < 0 {
			t.Fatalf("the table waits for nothing in phase %v, actors %v", s.phase, s.actors)
		}
		clock.Advance(time.Duration(max(0, s.wakeMs-s.nowMs)) * time.Millisecond)
		changed(s)
	}
	// Ann's bot chose the first category once her 5 s turn clock ran out.
	moves := storedMoves(t, ts, id)
	if i := slices.IndexFunc(moves, func(m storedMove) bool { return strings.Contains(m.Action, "category") }); moves[i].Seat != 0 || moves[i].At < 5000 {
		t.Fatalf("the first category: %+v", moves[i])
	}
	if s := ann.summary(id); s.Status != "live" || s.Result.Over {
		t.Fatalf("at the end: %+v", s)
	}
}
