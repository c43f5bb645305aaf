package dicestars

import (
	"context"
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
)

// testBudget keeps the judgements of the tests quick; the positions below
// are decided within the move, so no rollout changes their values.
const testBudget = 64

// turn plays a draw of the dice given (their faces fixed) and, when take
// is set, the take, all checked by the rules.
func turn(t *testing.T, s *State, take Action, dice ...Die) {
	t.Helper()
	for _, a := range []Action{Draw(len(dice), false), Roll(dice...)} {
		if err := s.Apply(a); err != nil {
			t.Fatalf("%v: %v", a, err)
		}
	}
	if take.Type != 0 {
		if err := s.Apply(take); err != nil {
			t.Fatalf("%v: %v", take, err)
		}
	}
}

// judge judges chosen (nil: a hint) in s for the player to act.
func judge(t *testing.T, s State, chosen *Action, seed uint64) engine.Judgement {
	t.Helper()
	d := engine.Decision{Seat: engine.Seat(s.Current), View: &View{Seat: engine.Seat(s.Current), State: s}}
	if chosen != nil {
		d.Chosen = *chosen
	}
	j, err := Game{}.Judge(d, engine.JudgeOptions{Budget: testBudget, Seed: seed})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func wire(t *testing.T, a Action) string {
	t.Helper()
	raw, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

func hasNote(j engine.Judgement, key string) bool {
	return slices.ContainsFunc(j.Notes, func(m engine.Message) bool { return m.Key == key })
}

// lastTake is a two-player position on the last take of the game: seat 0
// has 10 points, seat 1 none and a reserve of a star, two 6s and a 2. Only
// the two 6s (12 points in row 6) win; any other take loses.
func lastTake(t *testing.T) State {
	s, err := NewState(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	turn(t, &s, TakeValue(5), MakeDie(Blue, 5), MakeDie(Purple, 5), MakeDie(Black, Star))
	turn(t, &s, Action{}, MakeDie(Blue, 6), MakeDie(Orange, 6), MakeDie(Purple, 2))
	s.Ending = true // seat 0 filled its last white cell: this take ends the game
	return s
}

func TestJudgeFlagsALosingTake(t *testing.T) {
	s := lastTake(t)
	waste := TakeColor(Purple) // the 2 where the 6s win
	j := judge(t, s, &waste, 1)
	if got, want := string(j.Best.Action), wire(t, TakeValue(6)); got != want {
		t.Fatalf("best %s, want %s", got, want)
	}
	if j.Best.Win != 1 || j.Best.Points != 12 || j.Chosen.Win != 0 || j.Chosen.Points != 2 {
		t.Errorf("best %+v, chosen %+v: want a sure win on 12 against a sure loss on 2", j.Best, j.Chosen)
	}
	verdict, points, win := engine.Verdict(j)
	if verdict != engine.VerdictBlunder || points != 10 || win != 1 {
		t.Errorf("verdict %s, %v points and %v win lost; want a blunder losing 10 points and the game", verdict, points, win)
	}
	if !reflect.DeepEqual(j.Balance, []float64{1, 0}) {
		t.Errorf("balance %v, want seat 0 winning", j.Balance)
	}
	if !hasNote(j, "dicestars.review.fill.value") || !hasNote(j, "dicestars.review.played") || !hasNote(j, "dicestars.review.fill.color") {
		t.Errorf("notes %v: want the 6s' row, then the move played and its column", j.Notes)
	}
	if len(j.Others) == 0 {
		t.Error("no other choice listed")
	}

	best := TakeValue(6)
	j = judge(t, s, &best, 1)
	if verdict, points, win := engine.Verdict(j); verdict != engine.VerdictBest || points != 0 || win != 0 {
		t.Errorf("the winning take judged %s, losing %v points %v win", verdict, points, win)
	}
	if hasNote(j, "dicestars.review.played") {
		t.Errorf("notes %v: the best move played has no second explanation", j.Notes)
	}
}

// soloEnd is a solo position on a sheet with one white cell left (row 6,
// blue column) and the green cell of row 5, every multiplier marked, the
// solo grid at 28 of 30, and a reserve of a blue 6 and an orange 5. The
// blue 6 ends the game leaving 5 points (one mark: a win); the 5 leaves the
// 6 behind (two marks): the grid fills and the game is lost.
func soloEnd(t *testing.T) State {
	l := DefaultLayout
	l.SoloPoints = 2
	s, err := NewState(&l, 1)
	if err != nil {
		t.Fatal(err)
	}
	sh := &s.Sheets[0]
	for r := range NumRows {
		sh.Filled[r] = uint8(1)<<l.RowCells(r) - 1
		sh.Sum[r] = int16(3 * l.RowValues[r] * l.RowCells(r))
		sh.Marked[r] = uint8(l.Multipliers[r])
	}
	sh.Filled[l.RowOf(6)] &^= 1 << l.ColumnOf(Blue)
	sh.Filled[l.RowOf(5)] &^= 1 << NumColors
	sh.WhiteEmpty = 1
	s.SoloMarked = 28
	s.Bag[Blue]--
	s.Bag[Orange]--
	s.Reserve[0], s.Reserve[1], s.NReserve = MakeDie(Blue, 6), MakeDie(Orange, 5), 2
	s.Phase = PhaseTake
	s.Recount()
	return s
}

func TestJudgeFlagsFillingTheSoloGrid(t *testing.T) {
	s := soloEnd(t)
	fives := TakeValue(5)
	j := judge(t, s, &fives, 7)
	if got, want := string(j.Best.Action), wire(t, TakeColor(Blue)); got != want {
		t.Fatalf("best %s, want %s (the blue 6, first of the two takes that win)", got, want)
	}
	if j.Best.Win != 1 || j.Chosen.Win != 0 {
		t.Errorf("best wins %v, the 5 %v: want 1 and 0", j.Best.Win, j.Chosen.Win)
	}
	if verdict, _, win := engine.Verdict(j); verdict != engine.VerdictBlunder || win != 1 {
		t.Errorf("filling the solo grid judged %s losing %v of a win", verdict, win)
	}
	if !hasNote(j, "dicestars.review.solo") || !hasNote(j, "dicestars.review.solo.full") || !hasNote(j, "dicestars.review.value.solo") {
		t.Errorf("notes %v: want the mark of the best, the grid filled by the move played", j.Notes)
	}
	if !reflect.DeepEqual(j.Balance, []float64{0}) {
		t.Errorf("balance %v, want the solo game lost", j.Balance)
	}
}

// midGame is a two-player position after a few seeded greedy turns, with
// the dice of the next take rolled: a decision the rollouts must weigh.
func midGame(t *testing.T) State {
	s, err := NewState(nil, 2)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(5)
	bots := []Bot{NewGreedyBot(1), NewGreedyBot(2)}
	for s.Turns < 8 || s.Phase != PhaseTake {
		switch s.Phase {
		case PhaseRoll:
			s.ApplyUnchecked(s.SampleRoll(src))
		default:
			s.ApplyUnchecked(bots[s.Current].Decide(&s))
		}
	}
	if len(s.LegalActions(nil)) < 2 {
		t.Fatalf("the position has %d choices", len(s.LegalActions(nil)))
	}
	return s
}

func TestJudgeIsDeterministic(t *testing.T) {
	s := midGame(t)
	a := s.LegalActions(nil)[0]
	j1, j2 := judge(t, s, &a, 3), judge(t, s, &a, 3)
	if !reflect.DeepEqual(j1, j2) {
		t.Fatalf("same decision, budget and seed, two judgements:\n%+v\n%+v", j1, j2)
	}
	if len(j1.Balance) != 2 || j1.Balance[0]+j1.Balance[1] < 0.99 || j1.Balance[0]+j1.Balance[1] > 1.01 {
		t.Errorf("balance %v: two win shares that add up to 1", j1.Balance)
	}
	h := judge(t, s, nil, 3)
	if h.Chosen.Win != -1 || h.Balance != nil || len(h.Notes) == 0 || len(h.Best.Says) == 0 {
		t.Errorf("hint %+v: want a best move said in words, its reasons, no choice made", h)
	}
	if string(h.Best.Action) != string(j1.Best.Action) && string(j1.Best.Action) != wire(t, a) {
		t.Errorf("the hint's best %s is not the review's %s", h.Best.Action, j1.Best.Action)
	}
}

func TestJudgeForcedAndWrongViews(t *testing.T) {
	s, _ := NewState(nil, 2)
	three := Draw(3, false)
	d := engine.Decision{Seat: 0, View: &View{State: s}, Chosen: three}
	if _, err := (Game{}).Judge(d, engine.JudgeOptions{Budget: testBudget}); !errors.Is(err, engine.ErrForced) {
		t.Errorf("the compulsory first draw: %v, want ErrForced", err)
	}
	d.Chosen = nil // a hint still names the move
	j, err := Game{}.Judge(d, engine.JudgeOptions{Budget: testBudget})
	if err != nil || string(j.Best.Action) != wire(t, three) {
		t.Errorf("hint at the start: %s, %v", j.Best.Action, err)
	}
	d.Seat = 1
	if _, err := (Game{}).Judge(d, engine.JudgeOptions{}); !errors.Is(err, engine.ErrForced) {
		t.Errorf("a seat not to act: %v, want ErrForced", err)
	}
	d.Seat, d.View = 0, s
	if _, err := (Game{}).Judge(d, engine.JudgeOptions{}); err == nil || errors.Is(err, engine.ErrForced) {
		t.Errorf("a State for a view: %v, want an error", err)
	}
}

// reviewGame plays a seeded two-player game of greedy bots and returns it.
func reviewGame(tb testing.TB) engine.Record {
	tb.Helper()
	r, err := engine.NewRunner(Game{}, []string{"ann", "bob"}, nil, 11, nil)
	if err != nil {
		tb.Fatal(err)
	}
	bots := []engine.Controller{Controller{Bot: NewGreedyBot(1)}, Controller{Bot: NewGreedyBot(2)}}
	if err := r.PlayBots(bots); err != nil {
		tb.Fatal(err)
	}
	return r.Record
}

// BenchmarkReviewGame reviews a whole two-player game at the default
// budget on one worker (docs/performance.md).
func BenchmarkReviewGame(b *testing.B) {
	rec := reviewGame(b)
	for b.Loop() {
		rv, err := engine.ReviewRecord(context.Background(), Game{}, rec, engine.ReviewOptions{Seed: 1, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		b.ReportMetric(float64(len(rv.Decisions)), "decisions")
	}
}
