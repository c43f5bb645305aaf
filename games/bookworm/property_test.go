package bookworm

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"pgregory.net/rapid"
)

// Property tests: whole games of random play (words from the fake lexicon
// and made-up ones, challenges, votes, the ? die, timeouts), every choice
// drawn by rapid, with illegal actions thrown in along the way.

// pickSource lets rapid's choices stand for chance.
type pickSource struct{ pick func(n int) int }

func (p pickSource) IntN(n int) int { return p.pick(n) }

// randomMove picks a legal move (or nil when the game is over). pick(n)
// returns 0..n-1; made counts made-up words so they stay new.
func randomMove(m *Match, pick func(n int) int, made *int) (engine.Seat, int64, engine.Action) {
	s := m.S
	now := s.Now + int64(pick(4))*700
	tu := m.Turn()
	switch {
	case tu.Over:
		return 0, 0, nil
	case tu.Chance:
		return engine.ChanceSeat, now, s.SampleChance(pickSource{pick})
	}
	if s.Timed() {
		// rapid favours small draws, so rare events take the largest value:
		// failures stay rare enough for scores to climb to the target.
		if pick(8) == 7 {
			return engine.SystemSeat, s.Deadline + int64(pick(3)), Timeout()
		}
		now = min(now, s.Deadline)
	}
	actors := s.Actors()
	p := actors[pick(len(actors))]
	seat := engine.Seat(p)
	switch s.Phase {
	case PhaseName:
		opts := s.Takeable(p)
		if pick(10) == 9 || len(opts) == 0 {
			legal := m.Legal(seat) // the ? die when it is there, giving up
			return seat, now, legal[pick(len(legal))]
		}
		o := opts[pick(len(opts))]
		letter := o.Letters[pick(len(o.Letters))]
		if cat, ok := s.CategoryInPlay(); ok && pick(3) > 0 {
			for _, w := range m.S.cfg.Lex.Words(cat.ID) {
				if w[0] == letter && s.Check(seat, now, Name(w, o.Die)) == nil {
					return seat, now, Name(w, o.Die)
				}
			}
		}
		*made++
		return seat, now, Name(madeUp(letter, *made), o.Die)
	}
	legal := m.Legal(seat)
	return seat, now, legal[pick(len(legal))]
}

// madeUp is a word no lexicon knows, starting with letter ("kzq bad").
func madeUp(letter byte, n int) string {
	w := []byte{letter, 'z', 'q', ' '}
	for ; n > 0; n /= 26 {
		w = append(w, byte('a'+n%26))
	}
	return string(w)
}

// junk are actions that are often illegal; trying them must change nothing.
var junk = []Action{Name("zzz", 0), Name("cat", 7), Name("", 1), Timeout(), Challenge(), Allow(), Vote(false),
	TakeQuestion(), ChooseCategory(2), TurnTo(SpecialStack), DrawCard(1), RollNames(roll("not")...), GiveUp()}

func TestRandomGames(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(MinPlayers, MaxPlayers).Draw(rt, "players")
		special := rapid.Bool().Draw(rt, "special")
		opts := fmt.Sprintf(`{"special":%v,"target":%d}`, special, rapid.IntRange(1, 21).Draw(rt, "target"))
		tb, err := engine.NewRunner(testGame(), []string{"a", "b", "c", "d", "e", "f"}[:n], []byte(opts), 1, nil)
		if err != nil {
			rt.Fatal(err)
		}
		m := tb.State.(*Match)
		pick := func(k int) int { return rapid.IntRange(0, k-1).Draw(rt, "pick") }
		made := 0
		for step := 0; !m.S.Over(); step++ {
			if step > 3000 {
				rt.Fatalf("no end after %d moves", step)
			}
			if pick(5) == 4 {
				a := junk[pick(len(junk))]
				seat := engine.Seat(pick(n+2) - 2)
				before := m.S.clone()
				if _, err := m.Apply(engine.Move{Seat: seat, At: m.S.Now, Action: a}); err == nil {
					if err := tb.Record.Log(engine.Move{Seat: seat, At: m.S.Now, Action: a}); err != nil {
						rt.Fatal(err)
					}
				} else if !reflect.DeepEqual(before, m.S) {
					rt.Fatalf("refused %v by %v changed the state", a, seat)
				}
				continue
			}
			seat, at, a := randomMove(m, pick, &made)
			if _, err := tb.Play(engine.Move{Seat: seat, At: at, Action: a}); err != nil {
				rt.Fatalf("step %d: %v by %v at %d refused: %v", step, a, seat, at, err)
			}
			if err := invariants(m.S); err != nil {
				rt.Fatalf("step %d after %v: %v", step, a, err)
			}
		}
		// (Refusals, clones and replays are the conformance suite's.)
		// Totals are the sums of the rounds, and the winners the best.
		r := m.Result()
		best := r.Scores[0]
		for _, sc := range r.Scores {
			best = max(best, sc)
		}
		if best < m.S.cfg.Set.Target {
			rt.Fatalf("over with a best of %d, target %d", best, m.S.cfg.Set.Target)
		}
		for _, w := range r.Winners {
			if r.Scores[w] != best {
				rt.Fatalf("winner %d scored %d, best %d", w, r.Scores[w], best)
			}
		}
	})
}
