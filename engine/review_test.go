package engine

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// pick is a tiny game for reviews: two seats take turns, each picking 1, 2
// or 3 points (or, on a seat's last turn, only 1: a forced move); after
// each pick nature adds a bonus of 0 or 1. Most points after three picks
// each wins. Its analyst knows the truth: a pick is worth its points, and
// the win chance is the share of points so far.
type pick struct{ noWin bool }

type pickAction struct {
	N     int `json:"n"`
	Bonus int `json:"bonus,omitempty"`
}

func (a pickAction) Kind() string {
	if a.Bonus >= 0 && a.N == 0 {
		return "bonus"
	}
	return "pick"
}

type pickState struct {
	score  [2]int
	turn   int // picks made
	chance bool
}

func (pick) Info() Info { return Info{ID: "pick", Title: "Pick", MinPlayers: 2, MaxPlayers: 2} }
func (pick) New(p []string, _ json.RawMessage) (State, error) {
	if len(p) != 2 {
		return nil, errors.New("two players")
	}
	return &pickState{}, nil
}
func (pick) DecodeAction(b []byte) (Action, error) {
	var a pickAction
	return a, json.Unmarshal(b, &a)
}
func (s *pickState) seat() Seat { return Seat(s.turn % 2) }
func (s *pickState) Turn() Turn {
	if s.turn >= 6 {
		return Turn{Over: true}
	}
	if s.chance {
		return Turn{Chance: true}
	}
	return Turn{Actors: []Seat{s.seat()}}
}
func (s *pickState) Legal(seat Seat) []Action {
	if !s.Turn().Has(seat) || seat < 0 {
		return nil
	}
	if s.turn >= 4 {
		return []Action{pickAction{N: 1}}
	}
	return []Action{pickAction{N: 1}, pickAction{N: 2}, pickAction{N: 3}}
}
func (s *pickState) Check(m Move) error {
	a, _ := m.Action.(pickAction)
	if m.Seat == ChanceSeat {
		if !s.chance || a.N != 0 || a.Bonus < 0 || a.Bonus > 1 {
			return Refuse("bad-bonus", "no")
		}
		return nil
	}
	for _, l := range s.Legal(m.Seat) {
		if l == a {
			return nil
		}
	}
	return Refuse("bad-pick", "no")
}
func (s *pickState) Apply(m Move) ([]Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	a := m.Action.(pickAction)
	if m.Seat == ChanceSeat {
		s.score[s.seat()] += a.Bonus
		s.chance = false
		s.turn++
		return []Event{{Kind: "bonus", Seat: m.Seat, Data: a.Bonus}}, nil
	}
	s.score[m.Seat] += a.N
	s.chance = true
	return []Event{{Kind: "picked", Seat: m.Seat, Data: a.N}}, nil
}
func (s *pickState) SampleChance(src Source) Action { return pickAction{Bonus: src.IntN(2)} }
func (s *pickState) View(Seat) any                  { c := *s; return &c }
func (s *pickState) Result() Result {
	over := s.turn >= 6
	var w []int
	if over {
		switch {
		case s.score[0] > s.score[1]:
			w = []int{0}
		case s.score[1] > s.score[0]:
			w = []int{1}
		default:
			w = []int{0, 1}
		}
	}
	return NewResult(over, s.score[:], w)
}
func (s *pickState) Players() []string { return []string{"a", "b"} }
func (s *pickState) Clone() State      { c := *s; return &c }

func (g pick) Judge(d Decision, o JudgeOptions) (Judgement, error) {
	if len(d.Legal) < 2 {
		return Judgement{}, ErrForced
	}
	v := d.View.(*pickState)
	val := func(a Action) Valued {
		n := a.(pickAction).N
		b, _ := json.Marshal(a)
		sc := v.score
		sc[d.Seat] += n
		win := float64(sc[d.Seat]+1) / float64(sc[0]+sc[1]+2)
		if g.noWin {
			win = -1
		}
		return Valued{Action: b, Points: float64(n), Win: win, Says: []Message{{Key: "pick", Args: map[string]any{"n": n}}}}
	}
	j := Judgement{Best: val(pickAction{N: 3}), Scale: 1.5,
		Notes: []Message{{Key: "seed", Args: map[string]any{"seed": strconv.FormatUint(o.Seed, 10)}}}}
	if d.Chosen != nil {
		j.Chosen = val(d.Chosen)
		n := d.Chosen.(pickAction).N
		sc := v.score
		sc[d.Seat] += n
		tot := float64(sc[0] + sc[1] + 2)
		j.Balance = []float64{float64(sc[0]+1) / tot, float64(sc[1]+1) / tot}
		if g.noWin {
			j.Balance = nil
		}
		j.Data = len(d.Outcome)
	}
	return j, nil
}

// pickRecord plays picks (seat 0, 1, 0, 1, then the forced 1s) with the
// given bonuses.
func pickRecord(t *testing.T, picks [4]int, bonus [6]int) Record {
	t.Helper()
	r, err := NewRunner(pick{}, []string{"a", "b"}, nil, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := int64(0)
	for i := 0; i < 6; i++ {
		n := 1
		if i < 4 {
			n = picks[i]
		}
		at += int64(1000 * (i + 1))
		if _, err := r.Play(Move{Seat: Seat(i % 2), At: at, Action: pickAction{N: n}}); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Play(Move{Seat: ChanceSeat, At: at, Action: pickAction{Bonus: bonus[i]}}); err != nil {
			t.Fatal(err)
		}
	}
	return r.Record
}

func TestReviewJudgesEveryDecision(t *testing.T) {
	// Seat 0 plays perfectly; seat 1 picks 1 (a blunder: 2 points lost,
	// scale 1.5) and then 2 (an inaccuracy or mistake by points: 1/1.5).
	rec := pickRecord(t, [4]int{3, 1, 3, 2}, [6]int{0, 1, 0, 0, 1, 0})
	rv, err := ReviewRecord(context.Background(), pick{noWin: true}, rec, ReviewOptions{Seed: 7})
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Decisions) != 4 {
		t.Fatalf("%d decisions judged, want 4 (forced ones skipped)", len(rv.Decisions))
	}
	wantMoves := []int{0, 2, 4, 6}
	for k, d := range rv.Decisions {
		if d.Move != wantMoves[k] {
			t.Errorf("decision %d at move %d, want %d (its index in the record)", k, d.Move, wantMoves[k])
		}
		if d.Thought != 1000*int64(k+1) {
			t.Errorf("decision %d thought %d ms, want %d", k, d.Thought, 1000*(k+1))
		}
		if d.Data != 2 {
			t.Errorf("decision %d saw %v outcome events, want its pick and the bonus after it", k, d.Data)
		}
	}
	if d := rv.Decisions[0]; d.Verdict != VerdictBest || d.PointsLost != 0 {
		t.Errorf("the best pick: %s, %v lost", d.Verdict, d.PointsLost)
	}
	if d := rv.Decisions[1]; d.Verdict != VerdictBlunder || d.PointsLost != 2 {
		t.Errorf("picking 1 of 3: %s, %v lost; want a blunder costing 2", d.Verdict, d.PointsLost)
	}
	if d := rv.Decisions[3]; d.Verdict != VerdictMistake || d.PointsLost != 1 {
		t.Errorf("picking 2 of 3: %s, %v lost; want a mistake costing 1", d.Verdict, d.PointsLost)
	}
	s0, s1 := rv.Seats[0], rv.Seats[1]
	if s0.Accuracy != 1 || s0.PointsLost != 0 || len(s0.Worst) != 0 {
		t.Errorf("perfect seat: %+v", s0)
	}
	if s1.Accuracy != 0 || s1.PointsLost != 3 || s1.Blunders != 1 || s1.Mistakes != 1 {
		t.Errorf("seat 1: %+v", s1)
	}
	if !reflect.DeepEqual(s1.Worst, []int{1, 3}) {
		t.Errorf("seat 1's worst %v, want [1 3] (the blunder first)", s1.Worst)
	}
	if rv.Turning != -1 || rv.Balance != nil {
		t.Errorf("no win chances, yet turning %d balance %v", rv.Turning, rv.Balance)
	}
}

func TestReviewBalanceAndTurningPoint(t *testing.T) {
	rec := pickRecord(t, [4]int{1, 3, 1, 3}, [6]int{})
	rv, err := ReviewRecord(context.Background(), pick{}, rec, ReviewOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(rv.Balance) != 4 {
		t.Fatalf("balance has %d points, want one per decision", len(rv.Balance))
	}
	// Seat 1 wins; its chance jumps most at its first 3 (from 2/5 after a
	// 1 to 4/6 against 1).
	if rv.Turning != 1 {
		t.Errorf("turning point %d, want decision 1", rv.Turning)
	}
	// 1 instead of 3 at the start: 2/3 against 4/5, 13 points of win
	// chance lost: a mistake (10–20), not a blunder, although by points
	// alone (2 of scale 1.5) it would be one.
	if d := rv.Decisions[0]; d.Verdict != VerdictMistake || d.WinLost < 0.13 {
		t.Errorf("picking 1 when 3 wins more: %s, win lost %v", d.Verdict, d.WinLost)
	}
}

func TestReviewDeterministicAcrossWorkers(t *testing.T) {
	rec := pickRecord(t, [4]int{2, 1, 3, 2}, [6]int{1, 0, 1, 0, 1, 1})
	var got []string
	for _, w := range []int{1, 4} {
		var seen int
		rv, err := ReviewRecord(context.Background(), pick{}, rec, ReviewOptions{Seed: 3, Workers: w, Progress: func(done, total int) {
			seen = done
			if total != 6 {
				t.Errorf("progress total %d, want 6 decisions asked", total)
			}
		}})
		if err != nil {
			t.Fatal(err)
		}
		if seen != 6 {
			t.Errorf("progress reached %d of 6", seen)
		}
		b, _ := json.Marshal(rv)
		got = append(got, string(b))
	}
	if got[0] != got[1] {
		t.Errorf("a review depends on its workers:\n%s\n%s", got[0], got[1])
	}
}

func TestReviewCancelled(t *testing.T) {
	rec := pickRecord(t, [4]int{2, 1, 3, 2}, [6]int{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ReviewRecord(ctx, pick{}, rec, ReviewOptions{}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled review: %v", err)
	}
}

func TestHint(t *testing.T) {
	g := pick{}
	st, _ := g.New([]string{"a", "b"}, nil)
	j, err := Hint(g, st, 0, JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if string(j.Best.Action) != `{"n":3}` {
		t.Errorf("hint %s, want pick 3", j.Best.Action)
	}
	if _, err := Hint(g, st, 1, JudgeOptions{}); err == nil {
		t.Error("a hint for the seat not on turn")
	} else if re, ok := AsRuleError(err); !ok || re.Rule != "hint-not-your-turn" {
		t.Errorf("hint off turn: %v", err)
	}
	if Reviewable(struct{ Game }{g}) {
		t.Error("a game without Judge is reviewable")
	}
}

// panicky judges like pick but panics on seat 1's decisions.
type panicky struct{ pick }

func (g panicky) Judge(d Decision, o JudgeOptions) (Judgement, error) {
	if d.Seat == 1 {
		panic("bug in the analysis")
	}
	return g.pick.Judge(d, o)
}

func TestAnalysisPanicIsAnError(t *testing.T) {
	rec := pickRecord(t, [4]int{2, 1, 3, 2}, [6]int{})
	if _, err := ReviewRecord(context.Background(), panicky{}, rec, ReviewOptions{Workers: 2}); err == nil || !strings.Contains(err.Error(), "bug in the analysis") {
		t.Errorf("a panicking analysis: %v", err)
	}
	st, _ := panicky{}.New([]string{"a", "b"}, nil)
	st.Apply(Move{Seat: 0, Action: pickAction{N: 1}})
	st.Apply(Move{Seat: ChanceSeat, Action: pickAction{}})
	if _, err := Hint(panicky{}, st, 1, JudgeOptions{}); err == nil {
		t.Error("a panicking hint gave no error")
	}
}
