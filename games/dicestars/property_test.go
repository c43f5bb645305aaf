package dicestars

import (
	"encoding/json"
	"fmt"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"pgregory.net/rapid"
)

// Property tests: whole games of random legal play, every choice drawn by
// rapid (so failures shrink to short games). The helpers here also serve
// the fuzz targets and the conformance suite's proposals.

// invariants checks what must hold after every step of every game.
func invariants(s *State) error {
	if err := diceConserved(s); err != nil {
		return err
	}
	// The cached counts must be what a recount gives.
	recounted := *s
	recounted.Recount()
	if recounted != *s {
		return fmt.Errorf("cached room or reserve counts differ from a recount")
	}
	for p := 0; p < int(s.NPlayers); p++ {
		sh := &s.Sheets[p]
		white, rows := 0, 0
		for r := 0; r < NumRows; r++ {
			if sh.Marked[r] > uint8(s.L.Multipliers[r]) {
				return fmt.Errorf("seat %d row %d: %d multipliers marked", p, s.L.RowValues[r], sh.Marked[r])
			}
			if sh.Filled[r]>>s.L.RowCells(r) != 0 {
				return fmt.Errorf("seat %d row %d: a cell beyond the row is written", p, s.L.RowValues[r])
			}
			sum := 0
			for i := 0; i < s.L.RowCells(r); i++ {
				filled, x, v := sh.Cell(r, i)
				if !filled && i < NumColors {
					white++
				}
				if filled && !x {
					sum += v
				}
			}
			if sum != int(sh.Sum[r]) {
				return fmt.Errorf("seat %d row %d: sum %d, cells add to %d", p, s.L.RowValues[r], sh.Sum[r], sum)
			}
			rows += sh.RowScore(s.L, r)
		}
		if white != int(sh.WhiteEmpty) {
			return fmt.Errorf("seat %d: %d white cells empty, WhiteEmpty %d", p, white, sh.WhiteEmpty)
		}
		if sh.Total(s.L) != rows-int(sh.Penalty) {
			return fmt.Errorf("seat %d: total %d, rows %d − penalty %d", p, sh.Total(s.L), rows, sh.Penalty)
		}
		if (sh.Penalized || white == 0) && !s.Ending {
			return fmt.Errorf("seat %d: penalty or full sheet without the end triggered", p)
		}
		if sh.Penalty != 0 && !sh.Penalized {
			return fmt.Errorf("seat %d: a penalty of %d not marked as taken", p, sh.Penalty)
		}
	}
	if s.Phase == PhaseRoll && (s.Pending < 1 || s.Pending > 3 || int(s.Pending) > s.BagCount()) {
		return fmt.Errorf("%d dice pending with %d in the bag", s.Pending, s.BagCount())
	}
	if s.Phase == PhaseTake && s.NReserve == 0 {
		return fmt.Errorf("take phase with an empty reserve")
	}
	if int(s.SoloMarked) > s.L.SoloCells {
		return fmt.Errorf("solo grid: %d of %d marked", s.SoloMarked, s.L.SoloCells)
	}
	return nil
}

// rollFrom draws a legal roll: die i is picked by index among the dice left
// in the bag, its face by index among the colour's six.
func rollFrom(s *State, pick func(i, n int) int) Action {
	a := Action{Type: ActRoll, N: s.Pending}
	bag := s.Bag
	for i := 0; i < int(s.Pending); i++ {
		x := pick(2*i, sum4(bag))
		c := 0
		for x >= int(bag[c]) {
			x -= int(bag[c])
			c++
		}
		bag[c]--
		a.Dice[i] = MakeDie(Color(c), s.L.Dice[c].Faces[pick(2*i+1, 6)])
	}
	return a
}

// anyAction builds an arbitrary action from small numbers: legal or not,
// well-formed or not (but within the array bounds of Action).
func anyAction(kind, n, c, v int, rr bool, mult [NumRows]uint8, dice [3]Die) Action {
	switch kind % 5 {
	case 0:
		return Action{Type: ActDraw, N: uint8(n % 5), ReturnReserve: rr}
	case 1:
		return Action{Type: ActRoll, N: uint8(n % 4), Dice: dice}
	case 2:
		return TakeColor(Color(c % 5))
	case 3:
		return TakeValue(v % 8)
	}
	return Action{Type: ActTakeStars, Mult: mult}
}

func containsAction(list []Action, a Action) bool {
	for _, b := range list {
		if b == a {
			return true
		}
	}
	return false
}

// probe tries an arbitrary action on a copy and checks how the rules treat
// it: a refusal changes nothing; in the take phase Check accepts exactly the
// legal takes; whatever Check accepts, Apply performs.
func probe(s *State, a Action) error {
	c := *s
	err := c.Apply(a)
	if err != nil {
		if c != *s {
			return fmt.Errorf("%v refused (%v) but the state changed", a, err)
		}
		if _, ok := engine.AsRuleError(err); !ok && err != engine.ErrGameOver && err != engine.ErrChancePending {
			return fmt.Errorf("%v refused with a %T, not a RuleError", a, err)
		}
	}
	if s.Phase == PhaseTake {
		if legal := containsAction(s.LegalActions(nil), a); legal != (err == nil) {
			return fmt.Errorf("take %v: in LegalActions %v, Check error %v", a, legal, err)
		}
	}
	if err == nil {
		return invariants(&c)
	}
	return nil
}

func roundTrip(a Action) error {
	data, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("encode %v: %v", a, err)
	}
	b, err := DecodeAction(data)
	if err != nil {
		return fmt.Errorf("decode %s: %v", data, err)
	}
	if b != a {
		return fmt.Errorf("%v → %s → %v", a, data, b)
	}
	return nil
}

// TestPropertyRandomPlay: whole games of random legal play keep the
// invariants after every step, give every seat the same number of turns
// and end on a trigger, with the result the report shows; the record
// rebuilds the very same State, caches included. (Refusals, clones, JSON,
// views of replays and the end of random games are the conformance
// suite's, in conformance_test.go.)
func TestPropertyRandomPlay(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		n := rapid.IntRange(1, MaxPlayers).Draw(rt, "players")
		m, err := NewMatch([]string{"ada", "bo", "cy", "di"}[:n], nil)
		if err != nil {
			rt.Fatal(err)
		}
		s := &m.S
		rec := engine.Record{Game: "dicestars", Players: m.Names}
		turns := make([]int, n)
		for step := 0; !s.Over(); step++ {
			if step > 3*60*MaxPlayers {
				rt.Fatalf("no end after %d steps", step)
			}
			var a Action
			seat := seatOf(s.Current)
			if s.Phase == PhaseRoll {
				seat = engine.ChanceSeat
				a = rollFrom(s, func(i, k int) int { return rapid.IntRange(0, k-1).Draw(rt, "roll") })
			} else {
				legal := s.LegalActions(nil)
				if len(legal) == 0 {
					rt.Fatalf("no legal action in phase %v", s.Phase)
				}
				a = legal[rapid.IntRange(0, len(legal)-1).Draw(rt, "choice")]
			}
			if s.Phase == PhaseTake {
				turns[s.Current]++
			}
			mv := engine.Move{Seat: seat, Action: a}
			if _, err := m.Apply(mv); err != nil {
				rt.Fatalf("legal %v refused: %v", a, err)
			}
			if err := rec.Log(mv); err != nil {
				rt.Fatal(err)
			}
			if err := invariants(s); err != nil {
				rt.Fatalf("after %v: %v", a, err)
			}
		}
		// Everyone played the same number of turns (solo: the game ended by
		// the sheet or the solo grid).
		for p := range turns {
			if turns[p] != turns[0] {
				rt.Fatalf("turns per seat %v", turns)
			}
		}
		if n > 1 && int(s.Turns)%n != 0 {
			rt.Fatalf("%d turns for %d players", s.Turns, n)
		}
		if !s.Ending && !s.SoloLost {
			rt.Fatal("over without a trigger")
		}
		res := m.Result()
		for p := range res.Scores {
			if res.Scores[p] != m.Report().Players[p].Total {
				rt.Fatalf("seat %d: result %d, report %d", p, res.Scores[p], m.Report().Players[p].Total)
			}
		}
		st, err := engine.Replay(Game{}, rec)
		if err != nil {
			rt.Fatal(err)
		}
		replayed := st.(*Match).S
		if *replayed.L != *s.L {
			rt.Fatal("the replayed game has another layout")
		}
		replayed.L = s.L // each match owns its copy of the layout
		if replayed != *s {
			rt.Fatal("the replayed state differs")
		}
	})
}

// SampleRoll always gives a roll the rules accept, whatever the bag holds.
func TestPropertySampleRollIsLegal(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		s := freshState(t, 2)
		for c := range s.Bag {
			k := rapid.Uint8Range(0, s.Bag[c]).Draw(rt, "bag")
			s.Discard[c] += s.Bag[c] - k
			s.Bag[c] = k
		}
		if s.BagCount() == 0 {
			return
		}
		s.Phase = PhaseRoll
		s.Pending = uint8(min(s.BagCount(), rapid.IntRange(1, 3).Draw(rt, "n")))
		a := s.SampleRoll(engine.NewSource(rapid.Uint64().Draw(rt, "seed")))
		if err := s.Apply(a); err != nil {
			rt.Fatalf("sampled %v refused: %v", a, err)
		}
		if err := invariants(&s); err != nil {
			rt.Fatal(err)
		}
	})
}

// Every well-formed action survives JSON both ways.
func TestPropertyActionJSON(t *testing.T) {
	rapid.Check(t, func(rt *rapid.T) {
		var a Action
		switch rapid.IntRange(0, 4).Draw(rt, "kind") {
		case 0:
			a = Draw(rapid.IntRange(1, 3).Draw(rt, "n"), rapid.Bool().Draw(rt, "rr"))
		case 1:
			k := rapid.IntRange(1, 3).Draw(rt, "n")
			var dice []Die
			for i := 0; i < k; i++ {
				c := Color(rapid.IntRange(0, NumColors-1).Draw(rt, "color"))
				dice = append(dice, MakeDie(c, DefaultLayout.Dice[c].Faces[rapid.IntRange(0, 5).Draw(rt, "face")]))
			}
			a = Roll(dice...)
		case 2:
			a = TakeColor(Color(rapid.IntRange(0, NumColors-1).Draw(rt, "color")))
		case 3:
			a = TakeValue(rapid.IntRange(2, 6).Draw(rt, "value"))
		default:
			a = Action{Type: ActTakeStars}
			for r := range a.Mult {
				a.Mult[r] = rapid.Uint8Range(0, uint8(DefaultLayout.Multipliers[r])).Draw(rt, "mult")
			}
		}
		if err := roundTrip(a); err != nil {
			rt.Fatal(err)
		}
	})
}
