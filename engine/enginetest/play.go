package enginetest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// checkGames plays the configured number of random games, then as many
// where every seat plays its first listed action (the table's fallback).
func (s *suite) checkGames(tb testing.TB, n int, opts string) {
	tb.Helper()
	failed := 0
	games := s.cfg.games()
	for i := range games {
		seed := engine.SplitSeed(s.cfg.Seed, uint64(i))
		for _, firstOnly := range []bool{false, true} {
			if firstOnly && i > 0 {
				continue // little varies between them: chance only
			}
			if err := s.playGame(n, raw(opts), seed, firstOnly); err != nil {
				mode := "random"
				if firstOnly {
					mode = "first-listed"
				}
				tb.Errorf("%s, %d players, options %q, %s game of seed %d: %v", s.info.ID, n, opts, mode, seed, err)
				if failed++; failed >= 3 {
					return
				}
			}
		}
	}
}

// firstOnlyMoves bounds a game of first-listed actions.
const firstOnlyMoves = 100

// game is one game being played by the suite.
type game struct {
	s         *suite
	r         *engine.Runner
	n         int
	rng       *rand.Rand
	now       int64
	pool      []engine.Action // actions seen earlier, tried again later
	chance    engine.Action   // the last chance outcome, for hostile replays
	decoded   map[string]bool // listed JSON forms already round-tripped
	firstOnly bool
	// snapshot is what the present step compares states by.
	snapshot func(engine.State) (string, error)
}

// playGame plays one seeded game, checking every step, and returns the
// first broken promise.
func (s *suite) playGame(n int, opts json.RawMessage, seed uint64, firstOnly bool) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	r, err := engine.NewRunner(s.g, Names(n), opts, seed, nil)
	if err != nil {
		return fmt.Errorf("New: %w", err)
	}
	g := &game{s: s, r: r, n: n, rng: engine.NewSource(engine.SplitSeed(seed, 1)), decoded: map[string]bool{}, firstOnly: firstOnly}
	midway := g.rng.IntN(64) // a prefix of the record is replayed too
	var mid string
	midMoves := -1
	for steps := 0; ; steps++ {
		over, err := g.step()
		if err != nil {
			return fmt.Errorf("move %d: %w", len(r.Record.Moves), err)
		}
		if over {
			break
		}
		if steps == midway {
			if mid, err = Snapshot(r.State); err != nil {
				return err
			}
			midMoves = len(r.Record.Moves)
		}
		if firstOnly && len(r.Record.Moves) >= firstOnlyMoves {
			break // the fallback need not end a game (Bookworm's gives up)
		}
		if len(r.Record.Moves) >= s.cfg.maxMoves() {
			return fmt.Errorf("the game has not ended after %d moves", len(r.Record.Moves))
		}
	}
	if r.State.Turn().Over {
		if err := g.checkOver(); err != nil {
			return err
		}
	}
	final, err := Snapshot(r.State)
	if err != nil {
		return err
	}
	if err := s.replay(r.Record, len(r.Record.Moves), final); err != nil {
		return err
	}
	if midMoves >= 0 {
		return s.replay(r.Record, midMoves, mid)
	}
	return nil
}

// replay rebuilds the first k moves of rec from its JSON form and compares
// what the seats see with want.
func (s *suite) replay(rec engine.Record, k int, want string) error {
	rec.Moves = rec.Moves[:k]
	data, err := json.Marshal(rec)
	if err != nil {
		return fmt.Errorf("the record does not encode: %w", err)
	}
	var back engine.Record
	if err := engine.DecodeStrict(data, &back); err != nil {
		return fmt.Errorf("the record does not decode: %w", err)
	}
	st, err := engine.Replay(s.g, back)
	if err != nil {
		return fmt.Errorf("the record of %d moves does not replay: %w", k, err)
	}
	got, err := Snapshot(st)
	if err != nil {
		return err
	}
	if got != want {
		return fmt.Errorf("the record's first %d moves replay to another game:\nplayed   %s\nreplayed %s", k, want, got)
	}
	return nil
}

// step checks the present state and plays one move.
func (g *game) step() (over bool, err error) {
	st := g.r.State
	turn := st.Turn()
	// Every view is encoded at every step; the comparisons after each
	// probe watch the spectator and one player (chosen afresh each step),
	// which keeps the suite fast and still covers every seat over a game.
	if _, err := Snapshot(st); err != nil {
		return false, err
	}
	watch := allSeats(g.n)
	if len(watch) > 2 {
		watch = []engine.Seat{engine.Spectator, engine.Seat(g.rng.IntN(g.n))}
	}
	g.snapshot = func(st engine.State) (string, error) { return snapshotOf(st, watch) }
	snap, err := g.snapshot(st)
	if err != nil {
		return false, err
	}
	if err := g.checkTurn(turn); err != nil {
		return false, err
	}
	legal, err := g.checkLegal(turn)
	if err != nil {
		return false, err
	}
	if c, err := g.snapshot(st.Clone()); err != nil || c != snap {
		return false, fmt.Errorf("a fresh clone looks different from its original (%v)", err)
	}
	if err := g.hostile(turn, legal, snap); err != nil {
		return false, err
	}
	if turn.Over {
		return true, nil
	}
	proposed, err := g.probe(turn, legal, snap)
	if err != nil {
		return false, err
	}
	m, err := g.choose(turn, legal, proposed)
	if err != nil {
		return false, err
	}
	// The move is played on the original; a clone taken before must not
	// see it.
	before := st.Clone()
	if _, accepted, err := try(st, m, snap, g.snapshot); err != nil || !accepted {
		return false, fmt.Errorf("%s by %v at %d, chosen as legal: accepted %v, %v", describe(m.Action), m.Seat, m.At, accepted, err)
	}
	if err := g.r.Record.Log(m); err != nil {
		return false, err
	}
	if c, err := g.snapshot(before); err != nil || c != snap {
		return false, fmt.Errorf("playing %s on the original changed a clone taken before (%v)", describe(m.Action), err)
	}
	g.now = max(g.now, m.At)
	g.remember(m.Action)
	if m.Seat == engine.ChanceSeat {
		g.chance = m.Action
	}
	return false, nil
}

func (g *game) checkTurn(turn engine.Turn) error {
	res := g.r.State.Result()
	if res.Over != turn.Over {
		return fmt.Errorf("Turn().Over %v but Result().Over %v", turn.Over, res.Over)
	}
	if len(res.Scores) != g.n {
		return fmt.Errorf("%d scores for %d players", len(res.Scores), g.n)
	}
	if turn.Over && (len(turn.Actors) > 0 || turn.Chance || len(turn.Deadlines) > 0) {
		return fmt.Errorf("the game is over but the turn still has actors, chance or clocks: %+v", turn)
	}
	if turn.Chance && len(turn.Actors) > 0 {
		return fmt.Errorf("chance is pending and seats %v may act too", turn.Actors)
	}
	if !turn.Over && !turn.Chance && len(turn.Actors) == 0 {
		return fmt.Errorf("nobody may act and the game is not over")
	}
	for i, a := range turn.Actors {
		if a < 0 || int(a) >= g.n || slices.Contains(turn.Actors[:i], a) {
			return fmt.Errorf("actors %v: not distinct seats of %d players", turn.Actors, g.n)
		}
	}
	for _, d := range turn.Deadlines {
		if !turn.Has(d.Seat) {
			return fmt.Errorf("a deadline for %v, who is not on turn", d.Seat)
		}
	}
	return nil
}

// checkLegal checks Legal for every seat and returns the actors' lists.
func (g *game) checkLegal(turn engine.Turn) (map[engine.Seat][]engine.Action, error) {
	st := g.r.State
	legal := map[engine.Seat][]engine.Action{}
	for seat := engine.Spectator; int(seat) < g.n; seat++ {
		list := st.Legal(seat)
		switch {
		case seat == engine.SystemSeat:
			if len(list) > 0 && len(turn.Deadlines) == 0 {
				return nil, fmt.Errorf("Legal(system) lists %d timeouts with no clock running", len(list))
			}
			continue
		case turn.Has(seat) && seat != engine.ChanceSeat:
			if len(list) == 0 {
				return nil, fmt.Errorf("%v is on turn but Legal lists nothing", seat)
			}
		case len(list) > 0:
			return nil, fmt.Errorf("Legal(%v) lists %s but the turn is %+v", seat, describe(list[0]), turn)
		}
		for _, a := range list {
			if err := g.checkListed(seat, a); err != nil {
				return nil, err
			}
		}
		legal[seat] = list
	}
	if len(turn.Deadlines) > 0 {
		first := turn.Deadlines[0].At
		for _, d := range turn.Deadlines {
			first = min(first, d.At)
		}
		if g.now < first {
			if m, ok := engine.TimeoutMove(st, g.now); ok {
				return nil, fmt.Errorf("a timeout %s at %d is accepted before the first deadline at %d", describe(m.Action), g.now, first)
			}
		}
	}
	return legal, nil
}

// checkListed checks one listed action: the rules accept it now, and its
// JSON form decodes to an action they treat the same and that encodes the
// same; the same JSON with an unknown field or trailing data is refused.
func (g *game) checkListed(seat engine.Seat, a engine.Action) error {
	st := g.r.State
	m := engine.Move{Seat: seat, At: g.now, Action: a}
	if err := st.Check(m); err != nil {
		return fmt.Errorf("Legal(%v) lists %s, which Check refuses at %d: %v", seat, describe(a), g.now, err)
	}
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("listed %s %+v does not encode: %w", a.Kind(), a, err)
	}
	if g.decoded[string(data)] {
		return nil
	}
	g.decoded[string(data)] = true
	b, err := g.s.g.DecodeAction(data)
	if err != nil {
		return fmt.Errorf("listed %s does not decode: %w", data, err)
	}
	if again, err := json.Marshal(b); err != nil || !bytes.Equal(again, data) {
		return fmt.Errorf("listed %s decodes to an action encoding as %s (%v)", data, again, err)
	}
	if err := st.Check(engine.Move{Seat: seat, At: g.now, Action: b}); err != nil {
		return fmt.Errorf("listed %s, decoded, is refused: %v", data, err)
	}
	if err := refuseDecode(g.s.g, append(slices.Clip(data), " {}"...)); err != nil {
		return err
	}
	if len(data) > 2 && data[0] == '{' && data[1] != '}' {
		if err := refuseDecode(g.s.g, append([]byte(`{"noSuchField":1,`), data[1:]...)); err != nil {
			return err
		}
	}
	return nil
}

// hostile makes moves from seats that may not act now (every player off
// turn, nature when no chance is pending, the table's clock with a
// player's action, the spectator) and requires each to be refused cleanly.
func (g *game) hostile(turn engine.Turn, legal map[engine.Seat][]engine.Action, snap string) error {
	var acts []engine.Action
	for _, list := range legal {
		acts = append(acts, list...)
	}
	acts = append(acts, g.pool...)
	if len(acts) == 0 {
		return nil
	}
	pick := func() engine.Action { return acts[g.rng.IntN(len(acts))] }
	var seats []engine.Seat
	for seat := range engine.Seat(g.n) {
		if !turn.Has(seat) {
			seats = append(seats, seat)
		}
	}
	// Keep it cheap: one player off turn per step, and the others now and then.
	if len(seats) > 1 {
		seats = []engine.Seat{seats[g.rng.IntN(len(seats))]}
	}
	seats = append(seats, engine.Spectator, engine.Seat(g.n))
	var moves []engine.Move
	for _, seat := range seats {
		moves = append(moves, engine.Move{Seat: seat, At: g.now, Action: pick()})
	}
	moves = append(moves, engine.Move{Seat: engine.SystemSeat, At: g.now, Action: pick()})
	if !turn.Chance && g.chance != nil {
		moves = append(moves, engine.Move{Seat: engine.ChanceSeat, At: g.now, Action: g.chance})
	}
	var tried []string
	for _, m := range moves {
		if m.Seat == engine.SystemSeat && slices.ContainsFunc(g.r.State.Legal(engine.SystemSeat), func(a engine.Action) bool {
			return describe(a) == describe(m.Action)
		}) {
			continue // a listed timeout: the clock's own move
		}
		_, accepted, err := try(g.r.State, m, "", g.snapshot)
		if err != nil {
			return fmt.Errorf("hostile move: %w", err)
		}
		if accepted {
			return fmt.Errorf("%s by %v, who may not act (turn %+v), was played", describe(m.Action), m.Seat, turn)
		}
		tried = append(tried, fmt.Sprintf("%s by %v", describe(m.Action), m.Seat))
	}
	// One comparison for all of them keeps the suite fast; a failure lists
	// the candidates.
	if after, err := g.snapshot(g.r.State); err != nil || after != snap {
		return fmt.Errorf("one of these refused moves changed the state (%v): %s", err, strings.Join(tried, "; "))
	}
	return nil
}

// probe tries actions on clones: earlier actions again, and what Propose
// suggests. Accepted ones must leave the original as it was and, unless
// Legal leaves their kind out, be listed. It returns the accepted
// proposals, which the move is chosen among too.
func (g *game) probe(turn engine.Turn, legal map[engine.Seat][]engine.Action, snap string) (map[engine.Seat][]engine.Action, error) {
	if turn.Chance {
		return nil, nil
	}
	st := g.r.State
	seat := turn.Actors[g.rng.IntN(len(turn.Actors))]
	// One earlier action and one proposal are tried in full; the other
	// proposals are only checked (what is played is tried in full anyway).
	var cands []engine.Action
	if len(g.pool) > 0 {
		cands = append(cands, g.pool[g.rng.IntN(len(g.pool))])
	}
	accepted := map[engine.Seat][]engine.Action{}
	if g.s.cfg.Propose != nil && !g.firstOnly {
		proposals := g.s.cfg.Propose(st.Clone(), seat, g.rng)
		if len(proposals) > 0 {
			i := g.rng.IntN(len(proposals))
			cands = append(cands, proposals[i])
			proposals = append(proposals[:i:i], proposals[i+1:]...)
		}
		for _, a := range proposals {
			if st.Check(engine.Move{Seat: seat, At: g.now, Action: a}) == nil {
				accepted[seat] = append(accepted[seat], a)
			}
		}
	}
	for i, a := range cands {
		c := st.Clone()
		m := engine.Move{Seat: seat, At: g.now, Action: a}
		_, ok, err := try(c, m, snap, g.snapshot)
		if err != nil {
			return nil, fmt.Errorf("probe: %w", err)
		}
		if !ok {
			continue
		}
		if after, err := g.snapshot(st); err != nil || after != snap {
			return nil, fmt.Errorf("playing %s on a clone changed the original (%v)", describe(a), err)
		}
		if !g.s.unlisted(a) {
			if err := g.listed(seat, a, legal[seat]); err != nil {
				return nil, err
			}
		}
		if i > 0 || len(g.pool) == 0 {
			accepted[seat] = append(accepted[seat], a) // the proposal
		}
	}
	return accepted, nil
}

// listed requires an accepted action a of an exhaustive game to be
// listed: engine.State's Legal lists every legal action, not one per
// effect (a Dice Stars draw announcing more dice than the bag holds is
// listed beside the draw of all of them).
func (g *game) listed(seat engine.Seat, a engine.Action, list []engine.Action) error {
	if slices.ContainsFunc(list, func(b engine.Action) bool { return describe(a) == describe(b) }) {
		return nil
	}
	return fmt.Errorf("the rules accept %s from %v, which Legal does not list", describe(a), seat)
}

// choose picks the move to play: nature's outcome, or an actor's listed or
// accepted proposed action stamped some time after the last move; when a
// clock runs out first (engine.Next decides), the table's timeout instead.
func (g *game) choose(turn engine.Turn, legal, proposed map[engine.Seat][]engine.Action) (engine.Move, error) {
	st := g.r.State
	if turn.Chance {
		a := st.SampleChance(g.r.Source)
		if a == nil {
			return engine.Move{}, fmt.Errorf("SampleChance returned nil")
		}
		if err := DecodeRoundTrip(g.s.g, mustJSON(a)); err != nil {
			return engine.Move{}, fmt.Errorf("chance outcome: %w", err)
		}
		return engine.Move{Seat: engine.ChanceSeat, At: g.now, Action: a}, nil
	}
	first := int64(-1) // the earliest deadline
	for _, d := range turn.Deadlines {
		if first < 0 || d.At < first {
			first = d.At
		}
	}
	var m engine.Move
	if g.firstOnly {
		// What a table plays for a seat whose bot failed, as late as it
		// may: at the deadline itself, when a clock runs.
		seat := turn.Actors[0]
		m = engine.Move{Seat: seat, At: g.now + engine.DefaultBotDelayMs, Action: legal[seat][0]}
		if first >= 0 {
			m.At = max(g.now, first)
		}
	} else {
		// Proposals steer a game towards its end (a word takes a die where
		// the listed actions only give up): an accepted one is played
		// three times in four.
		var ps []engine.Action
		for _, list := range proposed {
			ps = append(ps, list...)
		}
		seat := turn.Actors[g.rng.IntN(len(turn.Actors))]
		a := legal[seat][g.rng.IntN(len(legal[seat]))]
		if len(ps) > 0 && g.rng.IntN(4) > 0 {
			for s, list := range proposed {
				seat, a = s, list[g.rng.IntN(len(list))]
			}
		}
		m = engine.Move{Seat: seat, At: g.now + int64(g.rng.IntN(1000)), Action: a}
		if span := first - g.now; first >= 0 && span > 0 {
			// Most moves come in time, some after the clock ran out.
			m.At = g.now + g.rng.Int64N(span+span/8+1)
		}
	}
	due, ok := engine.Next(turn.Deadlines, []engine.Move{m}, engine.Forever, nil)
	if !ok {
		return engine.Move{}, fmt.Errorf("engine.Next found nothing due")
	}
	if due.Move != nil {
		return *due.Move, nil
	}
	tm, ok := engine.TimeoutMove(st, max(g.now, due.Deadline.At))
	if !ok {
		return engine.Move{}, fmt.Errorf("the deadline of %v at %d passed and the rules accept no timeout", due.Deadline.Seat, due.Deadline.At)
	}
	return tm, nil
}

func (g *game) remember(a engine.Action) {
	const size = 64
	if len(g.pool) < size {
		g.pool = append(g.pool, a)
	} else {
		g.pool[g.rng.IntN(size)] = a
	}
}

// checkOver checks the end: a consistent result, nothing legal, and any
// move refused.
func (g *game) checkOver() error {
	res := g.r.State.Result()
	if !res.Over {
		return fmt.Errorf("the turn is over but the result is not")
	}
	if len(res.Winners) == 0 && g.n > 1 {
		// Alone, a player may lose (to a virtual opponent); at a table
		// somebody wins.
		return fmt.Errorf("the game is over with no winner: %+v", res)
	}
	for i, w := range res.Winners {
		if w < 0 || int(w) >= g.n || slices.Contains(res.Winners[:i], w) {
			return fmt.Errorf("winners %v: not distinct seats of %d players", res.Winners, g.n)
		}
	}
	for seat := engine.Spectator; int(seat) < g.n; seat++ {
		if l := g.r.State.Legal(seat); len(l) > 0 {
			return fmt.Errorf("the game is over but Legal(%v) lists %s", seat, describe(l[0]))
		}
	}
	for seat := range engine.Seat(g.n) {
		for _, a := range g.pool[:min(len(g.pool), 8)] {
			_, accepted, err := Try(g.r.State, engine.Move{Seat: seat, At: g.now, Action: a})
			if err != nil || accepted {
				return fmt.Errorf("after the end, %s by %v: accepted %v, %v", describe(a), seat, accepted, err)
			}
		}
	}
	return nil
}

func mustJSON(a engine.Action) []byte {
	data, err := json.Marshal(a)
	if err != nil {
		return []byte(fmt.Sprintf("unencodable %s: %v", a.Kind(), err))
	}
	return data
}
