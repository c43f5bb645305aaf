package diceflick

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

var reviewGame = Game{Sim: botSim}

// lastFlick is a practice position whose best flick is plain: one blue
// die in hand, the turn's last flick, a blue die beside the uncovered blue
// marker (hole 1,1) so a blue die in 1,2 (or 0,1, 2,1, 1,0's other
// neighbours) makes a group. The arena holds nothing else.
func lastFlick(t testing.TB, players int) *Match {
	t.Helper()
	m, err := NewMatch(botSim, []string{"ann", "bob", "cy"}[:players], nil)
	if err != nil {
		t.Fatal(err)
	}
	s := &m.S
	s.Phase, s.FlicksLeft, s.Bonus, s.ToDraw = PhaseFlick, 1, false, 0
	s.Hand[0] = [MaxHand]Color{Blue}
	s.NHand[0] = 1
	s.Bag[Blue] -= 2
	s.Arena[1*Cols+0] = MakeCell(Blue, 6)
	return m
}

// judgeMove judges chosen (nil: a hint) in m for seat 0, with the outcome
// of playing it (landings from a seeded source) when it is a move.
func judgeMove(t testing.TB, m *Match, chosen engine.Action) engine.Judgement {
	t.Helper()
	d := engine.Decision{Seat: 0, View: m.View(0), Legal: m.Legal(0), Chosen: chosen}
	if chosen != nil {
		c := m.Clone().(*Match)
		ev, err := c.Apply(engine.Move{Seat: 0, Action: chosen})
		if err != nil {
			t.Fatal(err)
		}
		d.Outcome = append(d.Outcome, ev...)
		src := engine.NewSource(5)
		for c.Turn().Chance {
			ev, err := c.Apply(engine.Move{Seat: engine.ChanceSeat, Action: c.SampleChance(src)})
			if err != nil {
				t.Fatal(err)
			}
			d.Outcome = append(d.Outcome, ev...)
		}
	}
	j, err := reviewGame.Judge(d, engine.JudgeOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	return j
}

func decode(t testing.TB, raw json.RawMessage) Action {
	t.Helper()
	a, err := DecodeAction(raw)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func say(j engine.Judgement) string {
	var b strings.Builder
	for _, n := range j.Notes {
		b.WriteString(engine.Render(info.Messages, n) + "\n")
	}
	return b.String()
}

// verdict judges chosen in m and returns the verdict and points lost.
func verdict(t testing.TB, m *Match, chosen engine.Action) (engine.Judgement, string, float64) {
	t.Helper()
	j := judgeMove(t, m, chosen)
	v, pts, _ := engine.Verdict(j)
	if string(j.Chosen.Action) != string(mustJSON(t, chosen)) {
		t.Fatalf("chosen %s, played %s", j.Chosen.Action, mustJSON(t, chosen))
	}
	if err := m.Check(engine.Move{Seat: 0, Action: decode(t, j.Best.Action)}); err != nil {
		t.Fatalf("best %s is not legal: %v", j.Best.Action, err)
	}
	if missing := unrendered(j); missing != "" {
		t.Fatalf("a note or a choice's words without a sentence: %s", missing)
	}
	return j, v, pts
}

func mustJSON(t testing.TB, a engine.Action) []byte {
	b, err := json.Marshal(a)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// unrendered is the first message of j the catalogue has no sentence for.
func unrendered(j engine.Judgement) string {
	msgs := append([]engine.Message{}, j.Notes...)
	for _, v := range append([]engine.Valued{j.Best, j.Chosen}, j.Others...) {
		msgs = append(msgs, v.Says...)
	}
	for _, m := range msgs {
		if s := engine.Render(info.Messages, m); strings.Contains(s, "{") || strings.Contains(s, "diceflick.") {
			return s
		}
	}
	if _, ok := info.Messages[j.Measure]; !ok {
		return j.Measure
	}
	return ""
}

// The hint aims the die where it makes a group, says why in one sentence,
// and playing it is judged best with nothing lost.
func TestJudgeFlickBestAim(t *testing.T) {
	m := lastFlick(t, 1)
	h := judgeMove(t, m, nil)
	best := decode(t, h.Best.Action)
	fr := h.Data.(FlickReview)
	hole, _ := ParseHole(fr.Best.Hole)
	if best.Type != ActFlick || best.Die != 0 || !groupWith(&m.S, hole) {
		t.Fatalf("hint %v at %s: no group there", best, fr.Best.Hole)
	}
	if len(h.Notes) != 1 || !strings.HasPrefix(h.Notes[0].Key, "diceflick.reason.group") {
		t.Fatalf("hint notes %v", h.Notes)
	}
	if h.Best.Points < 10 || h.Best.Win >= 0 || h.Measure != measureFlick {
		t.Fatalf("hint %+v", h.Best)
	}
	j, v, lost := verdict(t, m, best)
	if v != engine.VerdictBest || lost != 0 {
		t.Fatalf("the best aim played: %s, lost %v", v, lost)
	}
	if fd := j.Data.(FlickReview); fd.Played == nil || fd.Played.Aim.Hole != fr.Best.Hole || fd.Landed == nil {
		t.Fatalf("data %+v", fd)
	}
}

// groupWith tells whether a blue die in hole h of s makes a scoring group.
func groupWith(s *State, h int) bool {
	t := *s
	t.Arena[h] = MakeCell(Blue, 1)
	bd := t.Board()
	_, ch := bd.Solve()
	for _, g := range ch.Groups {
		for _, x := range g {
			if x == h {
				return true
			}
		}
	}
	return false
}

// A flick into the trench or out of the box throws the group away: a
// blunder that costs about the group's expected points; a flick at the
// centre scores the die double but makes no group: a smaller loss.
func TestJudgeBadFlicks(t *testing.T) {
	m := lastFlick(t, 1)
	for _, tc := range []struct {
		f      physics.Flick
		verd   string
		lo, hi float64
		aim    string
	}{
		{physics.Flick{Base: 0, Power: 0}, engine.VerdictBlunder, 10, 13, "trench"},
		{physics.Flick{Base: 0, Power: 1}, engine.VerdictBlunder, 10, 13, "out"},
		{physics.Flick{Base: 1, Angle: 0.5, Power: 0.5}, engine.VerdictMistake, 3, 6, "hole"},
	} {
		j, v, lost := verdict(t, m, Action{Type: ActFlick, Die: 0, Flick: tc.f})
		fd := j.Data.(FlickReview)
		if v != tc.verd || lost < tc.lo || lost > tc.hi || fd.Played.Aim.Where != tc.aim {
			t.Errorf("%+v: %s, lost %.2f, aimed at %+v; want %s, %v to %v, %s\n%s", tc.f, v, lost, fd.Played.Aim, tc.verd, tc.lo, tc.hi, tc.aim, say(j))
		}
	}
}

// Scoring: everything on offer is best; scoring nothing throws it away.
func TestJudgeScore(t *testing.T) {
	m := lastFlick(t, 1)
	s := &m.S
	s.Phase, s.FlicksLeft, s.NHand[0] = PhaseScore, 0, 0
	s.Arena[0] = MakeCell(Blue, 5)
	s.Arena[s.C.Centre] = MakeCell(Green, 3)
	bd := s.Board()
	total, best := bd.Solve() // 6+5+2 for the group, 3·2 for the centre
	if total != 19 {
		t.Fatalf("offer %d", total)
	}
	j, v, lost := verdict(t, m, Action{Type: ActScore, Choice: best})
	if v != engine.VerdictBest || lost != 0 || j.Chosen.Points != 19 || j.Measure != measureScore {
		t.Fatalf("the best scored: %s lost %v, %+v", v, lost, j.Chosen)
	}
	_, v, lost = verdict(t, m, Action{Type: ActScore, Choice: Choice{Groups: [][]int{}}})
	if v != engine.VerdictBlunder || lost != 19 {
		t.Fatalf("nothing scored: %s lost %v", v, lost)
	}
	_, v, lost = verdict(t, m, Action{Type: ActScore, Choice: Choice{Groups: best.Groups}})
	if v != engine.VerdictBlunder || lost != 6 {
		t.Fatalf("the centre left: %s lost %v", v, lost)
	}
	h := judgeMove(t, m, nil)
	if string(h.Best.Action) != string(mustJSON(t, Action{Type: ActScore, Choice: best})) || len(h.Notes) != 1 {
		t.Fatalf("hint %s %v", h.Best.Action, h.Notes)
	}
	// Nothing to score: nothing to decide.
	s.Arena = [Holes]Cell{}
	d := engine.Decision{Seat: 0, View: m.View(0), Legal: m.Legal(0), Chosen: Action{Type: ActScore, Choice: Choice{Groups: [][]int{}}}}
	if _, err := reviewGame.Judge(d, engine.JudgeOptions{}); err != engine.ErrForced {
		t.Fatalf("an empty arena: %v", err)
	}
}

// At a shared table in the last round the win chances are the measure: a
// flick into the trench when a group would have won is a blunder by them.
func TestJudgeWinChances(t *testing.T) {
	m := lastFlick(t, 2)
	s := &m.S
	s.Round = s.C.Rounds - 1
	s.Current = 1 // bob's turn, ann has played the round
	s.Hand[1], s.NHand[1] = s.Hand[0], s.NHand[0]
	s.Hand[0], s.NHand[0] = [MaxHand]Color{}, 0
	s.Totals = [MaxPlayers]int{100, 95}
	d := func(a engine.Action) engine.Judgement {
		dd := engine.Decision{Seat: 1, View: m.View(1), Legal: m.Legal(1), Chosen: a}
		j, err := reviewGame.Judge(dd, engine.JudgeOptions{Seed: 1})
		if err != nil {
			t.Fatal(err)
		}
		return j
	}
	h := d(nil)
	best := decode(t, h.Best.Action)
	j := d(best)
	if j.Best.Win < 0.9 || len(j.Balance) != 2 || j.Balance[0]+j.Balance[1] < 0.999 || j.Balance[0]+j.Balance[1] > 1.001 {
		t.Fatalf("the best: win %v, balance %v", j.Best.Win, j.Balance)
	}
	j = d(Action{Type: ActFlick, Die: 0, Flick: physics.Flick{Power: 0}})
	v, _, win := engine.Verdict(j)
	if v != engine.VerdictBlunder || win < 0.5 || j.Balance[0] < 0.9 {
		t.Fatalf("into the trench: %s, win lost %.2f, balance %v", v, win, j.Balance)
	}
}

// With only the bonus flick left, stopping is a choice like the flicks:
// judged, and the best (a flick or stopping) is legal there.
func TestJudgeBonusFlick(t *testing.T) {
	m := lastFlick(t, 1)
	m.S.Bonus = true
	if !m.S.MayStop() {
		t.Fatal("the bonus flick is not optional")
	}
	bd := m.S.Board()
	_, ch := bd.Solve()
	j, v, lost := verdict(t, m, Action{Type: ActScore, Choice: ch})
	if v == engine.VerdictBest || lost < 5 || !strings.Contains(say(j), "bonus flick was worth more") {
		t.Fatalf("stopping before a sure group: %s, lost %v\n%s", v, lost, say(j))
	}
}

// The same decision, budget and seed give the same judgement.
func TestJudgeDeterministic(t *testing.T) {
	m := lastFlick(t, 1)
	a := Action{Type: ActFlick, Die: 0, Flick: physics.Flick{Base: 1, Angle: 0.3, Power: 0.6}}
	x, _ := json.Marshal(judgeMove(t, m, a))
	y, _ := json.Marshal(judgeMove(t, m, a))
	if string(x) != string(y) {
		t.Fatalf("two judgements:\n%s\n%s", x, y)
	}
}

// reviewRecord plays a seeded two-player game of medium bots with the real
// physics and returns its record.
func reviewRecord(tb testing.TB, rounds int) engine.Record {
	r, err := engine.NewRunner(reviewGame, []string{"ann", "bob"}, fmt.Appendf(nil, `{"rounds":%d}`, rounds), 11, nil)
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]engine.Controller, 2)
	for p := range bots {
		if bots[p], err = reviewGame.NewBot("medium", engine.BotSeed(11, engine.Seat(p))); err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.PlayBots(bots); err != nil {
		tb.Fatal(err)
	}
	return r.Record
}

// BenchmarkReviewGame reviews a whole seeded two-player game of 10 rounds
// on one worker (docs/performance.md).
func BenchmarkReviewGame(b *testing.B) {
	rec := reviewRecord(b, 10)
	var rv *engine.Review
	for b.Loop() {
		var err error
		if rv, err = engine.ReviewRecord(context.Background(), reviewGame, rec, engine.ReviewOptions{Seed: 1, Workers: 1}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(len(rv.Decisions)), "decisions")
}
