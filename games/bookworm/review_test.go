package bookworm

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// playRecord plays one seeded game of bots (kinds, seat order) and returns
// its record.
func playRecord(tb testing.TB, g Game, kinds []string, options string, seed uint64) engine.Record {
	tb.Helper()
	names := []string{"ann", "bob", "cy", "di", "eve", "fay"}[:len(kinds)]
	var raw json.RawMessage
	if options != "" {
		raw = json.RawMessage(options)
	}
	r, err := engine.NewRunner(g, names, raw, seed, nil)
	if err != nil {
		tb.Fatal(err)
	}
	bots := make([]engine.Controller, len(kinds))
	for p, k := range kinds {
		if bots[p], err = g.NewBot(k, engine.BotSeed(seed, engine.Seat(p))); err != nil {
			tb.Fatal(err)
		}
	}
	if err := r.PlayBots(bots); err != nil {
		tb.Fatal(err)
	}
	return r.Record
}

// BenchmarkReviewGame reviews a whole seeded three-player game (hard,
// medium, easy; the real lexicon) at the default budget, one worker.
func BenchmarkReviewGame(b *testing.B) {
	g := realGame()
	rec := playRecord(b, g, []string{"hard", "medium", "easy"}, "", 1)
	var decisions int
	for b.Loop() {
		rv, err := engine.ReviewRecord(context.Background(), g, rec, engine.ReviewOptions{Seed: 1, Workers: 1})
		if err != nil {
			b.Fatal(err)
		}
		decisions = len(rv.Decisions)
	}
	b.ReportMetric(float64(decisions), "decisions")
	b.ReportMetric(float64(len(rec.Moves)), "moves")
}

// atRealTurns starts a real-lexicon game of n players on card 1's first
// category (animals) with the dice showing faces: seat 1 is to name a word.
func atRealTurns(t *testing.T, n int, options string, faces ...string) *Match {
	t.Helper()
	m, err := realGame().NewMatch([]string{"ann", "bob", "cy", "di"}[:n], []byte(options))
	if err != nil {
		t.Fatal(err)
	}
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	do(t, m, 0, 0, ChooseCategory(0))
	if c, _ := m.S.CategoryInPlay(); c.ID != "animals" {
		t.Fatalf("card 1's first category is %q, want animals", c.ID)
	}
	do(t, m, engine.ChanceSeat, 0, RollNames(faces...))
	return m
}

// judge asks the game about seat's decision in m (chosen nil: a hint),
// with a small rollout budget.
func judge(t *testing.T, m *Match, seat engine.Seat, chosen engine.Action) engine.Judgement {
	t.Helper()
	j, err := judgeErr(m, seat, chosen, nil)
	if err != nil {
		t.Fatalf("judge %v: %v", chosen, err)
	}
	return j
}

func judgeErr(m *Match, seat engine.Seat, chosen engine.Action, outcome []engine.Event) (engine.Judgement, error) {
	return realGame().Judge(engine.Decision{Seat: seat, View: m.SeatView(seat), Legal: m.Legal(seat), Chosen: chosen, Outcome: outcome},
		engine.JudgeOptions{Budget: 4})
}

func decode(t *testing.T, raw json.RawMessage) Action {
	t.Helper()
	a, err := DecodeAction(raw)
	if err != nil {
		t.Fatalf("%s: %v", raw, err)
	}
	return a
}

// hasNote reports whether j's notes include key.
func hasNote(j engine.Judgement, key string) bool {
	for _, n := range j.Notes {
		if n.Key == key {
			return true
		}
	}
	return false
}

// The take decision on fixed dice: ann leads and holds the Z die (3
// points), bob is to name a word. Stealing the Z brings 5 at once (3 for
// bob, 2 more that the leader loses beyond her Bookworm card), the D of
// the display 1; played out, the round ends with bob further behind after
// the D. Taking the D is a blunder, with the margin it loses; stealing the
// Z, with whatever word, is the best and loses nothing; a hint says so,
// with example words of the lexicon for the Z.
func TestReviewTake(t *testing.T) {
	m := atRealTurns(t, 3, `{"special":false}`, "C/K", "D", "M", "P", "A", "Z", "N")
	z, d := dieShowing(t, m, "Z"), dieShowing(t, m, "D")
	hold(m, 0, z)
	m.S.Totals[0] = 10

	j := judge(t, m, 1, Name("dog", d))
	best := decode(t, j.Best.Action)
	if best.Type != ActName || best.Die != z || j.Best.Points <= j.Chosen.Points {
		t.Fatalf("best %v (%v points), chosen %v points: want the Z stolen", best, j.Best.Points, j.Chosen.Points)
	}
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBlunder || math.Abs(lost-(j.Best.Points-j.Chosen.Points)) > 1e-9 || lost < takeScale {
		t.Fatalf("verdict %s, %v points lost: want a blunder of %v", v, lost, j.Best.Points-j.Chosen.Points)
	}
	if j.Measure != measureMargin || j.Best.Win >= 0 || j.Chosen.Win >= 0 {
		t.Fatalf("measure %q, win %v/%v: want points and no win chance", j.Measure, j.Best.Win, j.Chosen.Win)
	}
	if err := m.S.Check(1, 0, best); err != nil {
		t.Fatalf("the best action %v is not legal: %v", best, err)
	}
	data := j.Data.(TakeData)
	if len(data.Best.Words) == 0 || data.Best.Words[0] != best.Word || data.Chosen.Die != d {
		t.Fatalf("data %+v, best %v", data, best)
	}
	for _, w := range data.Best.Words {
		if w[0] != 'z' || !m.S.Known(w) {
			t.Errorf("example %q is not an animal of the lexicon starting with Z", w)
		}
	}
	for _, key := range []string{"bookworm.review.why-points", "bookworm.review.why-steal-leader", "bookworm.review.words"} {
		if !hasNote(j, key) {
			t.Errorf("no %s note in %+v", key, j.Notes)
		}
	}
	if len(j.Balance) != 3 || math.Abs(j.Balance[0]+j.Balance[1]+j.Balance[2]-1) > 0.02 {
		t.Errorf("balance %v: want 3 chances adding up to 1", j.Balance)
	}
	// The best, with another word, said 4 s into the turn: no loss, and
	// the notes tell the time that was left.
	ev, err := m.Clone().Apply(engine.Move{Seat: 1, At: 4000, Action: Name("zebu", z)})
	if err != nil {
		t.Fatal(err)
	}
	if j, err = judgeErr(m, 1, Name("zebu", z), ev); err != nil {
		t.Fatal(err)
	}
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBest || lost != 0 || string(j.Best.Action) != string(j.Chosen.Action) {
		t.Fatalf("stealing the Z: %s, %v lost, best %s", v, lost, j.Best.Action)
	}
	if s := renderNotes(j); !strings.Contains(s, "said with 11 seconds left") {
		t.Errorf("notes %q: want the 11 s left", s)
	}
	// A hint: the same best die, its reasons, no chosen choice.
	h, err := engine.Hint(realGame(), m, 1, engine.JudgeOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if a := decode(t, h.Best.Action); a.Die != z || h.Chosen.Action != nil || h.Balance != nil ||
		len(h.Best.Says) != 1 || h.Best.Says[0].Key != "bookworm.review.say-steal" || !hasNote(h, "bookworm.review.words") {
		t.Fatalf("hint %+v", h)
	}
	if s := renderNotes(h); strings.Contains(s, "bookworm.") || strings.Contains(s, "{") || !strings.Contains(s, "zebra") {
		t.Errorf("the hint reads %q", s)
	}
}

// renderNotes is j's choices and notes in English, one a line.
func renderNotes(j engine.Judgement) string {
	var b strings.Builder
	for _, ms := range [][]engine.Message{j.Chosen.Says, j.Best.Says, j.Notes} {
		for _, m := range ms {
			b.WriteString(engine.Render(info.Messages, m) + "\n")
		}
	}
	return b.String()
}

// Ending the game behind is a blunder when a steal keeps it going; ending
// it ahead is the best.
func TestReviewGameEnd(t *testing.T) {
	m := atRealTurns(t, 2, `{"special":false}`, "C/K", "D", "M", "P", "A", "B", "N")
	for d := 0; d < 6; d++ {
		hold(m, int8(d%2), d)
	}
	last := 6 // the N, the display's last white die
	// ann holds C/K, M and A (4 points), bob D, P and B (3): ending the
	// round now ends the game, ann 23, bob 22.
	m.S.Totals[0], m.S.Totals[1] = 19, 18
	j := judge(t, m, 1, Name("newt", last))
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBlunder || lost < 20 {
		t.Fatalf("ending the game behind: %s, %v lost (best %s)", v, lost, j.Best.Action)
	}
	if decode(t, j.Best.Action).Die == last {
		t.Fatalf("best %s: the last die", j.Best.Action)
	}
	m.S.Totals[0], m.S.Totals[1] = 5, 25
	j = judge(t, m, 1, Name("newt", last))
	if v, _, _ := engine.Verdict(j); v != engine.VerdictBest || !hasNote(j, "bookworm.review.why-ends-won") || !hasNote(j, "bookworm.review.why-last") {
		t.Fatalf("ending the game ahead: %s, notes %v", v, j.Notes)
	}
	if j.Balance[1] != 1 || j.Balance[0] != 0 {
		t.Fatalf("balance after winning: %v", j.Balance)
	}
}

// Giving up when a word would take a die costs the die and the penalty;
// with no word for any die and no ? die there is nothing to decide.
func TestReviewGiveUpAndForced(t *testing.T) {
	m := atRealTurns(t, 2, `{"special":false}`, "C/K", "D", "M", "P", "A", "Z", "N")
	j := judge(t, m, 1, GiveUp())
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBlunder || lost < takeScale || decode(t, j.Best.Action).Type != ActName {
		t.Fatalf("giving up: %s, %v lost, chosen %v", v, lost, j.Chosen.Points)
	}
	g := Game{Deck: testDeck, Lexicon: fakeLex{}}
	e, err := g.NewMatch([]string{"ann", "bob"}, []byte(`{"special":false}`))
	if err != nil {
		t.Fatal(err)
	}
	do(t, e, engine.ChanceSeat, 0, DrawCard(1))
	do(t, e, 0, 0, ChooseCategory(0))
	do(t, e, engine.ChanceSeat, 0, RollNames("C/K", "D", "M", "P", "A", "Z", "N"))
	d := engine.Decision{Seat: 1, View: e.SeatView(1), Legal: e.Legal(1), Chosen: GiveUp()}
	if _, err := g.Judge(d, engine.JudgeOptions{}); !errors.Is(err, engine.ErrForced) {
		t.Fatalf("no word known, gave up: %v, want ErrForced", err)
	}
	d.Chosen = nil
	h, err := g.Judge(d, engine.JudgeOptions{})
	if err != nil || decode(t, h.Best.Action).Type != ActGiveUp || !hasNote(h, "bookworm.review.no-word") {
		t.Fatalf("hint with no word: %+v %v", h, err)
	}
}

// Choosing a category: the one whose words cover the most dice is the
// best; one with a single word is a blunder. Turning the Special die with
// no word for any die: ? is the best (the hard bot's estimate), NOT a
// blunder.
func TestReviewCategoryAndFace(t *testing.T) {
	lex := fakeLex{"animals": {"zebra"}, "fruits": {"apple"}, "cheeses": words.Default().Words("cheeses")}
	g := Game{Deck: testDeck, Lexicon: lex}
	m, err := g.NewMatch([]string{"ann", "bob"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	d := engine.Decision{Seat: 0, View: m.SeatView(0), Legal: m.Legal(0), Chosen: ChooseCategory(0)}
	j, err := g.Judge(d, engine.JudgeOptions{Budget: 2})
	if err != nil {
		t.Fatal(err)
	}
	if a := decode(t, j.Best.Action); a.Category != 2 || j.Measure != measureCoverage {
		t.Fatalf("best %v, measure %s: want cheeses (2) by coverage", a, j.Measure)
	}
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBlunder || lost < categoryScale {
		t.Fatalf("animals: %s, %v lost", v, lost)
	}
	if !hasNote(j, "bookworm.review.why-category") || len(j.Balance) != 2 {
		t.Fatalf("notes %v, balance %v", j.Notes, j.Balance)
	}
	d.Chosen = ChooseCategory(2)
	if j, err = g.Judge(d, engine.JudgeOptions{Budget: 2}); err != nil {
		t.Fatal(err)
	}
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBest || lost != 0 {
		t.Fatalf("cheeses: %s, %v lost", v, lost)
	}

	g = Game{Deck: testDeck, Lexicon: fakeLex{}}
	if m, err = g.NewMatch([]string{"ann", "bob"}, nil); err != nil {
		t.Fatal(err)
	}
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	do(t, m, 0, 0, ChooseCategory(0))
	do(t, m, engine.ChanceSeat, 0, RollNames(roll("turn")...))
	d = engine.Decision{Seat: 0, View: m.SeatView(0), Legal: m.Legal(0), Chosen: TurnTo(SpecialNot)}
	if j, err = g.Judge(d, engine.JudgeOptions{Budget: 2}); err != nil {
		t.Fatal(err)
	}
	if a := decode(t, j.Best.Action); a.Face != SpecialQuestion || !hasNote(j, "bookworm.review.why-face-question") {
		t.Fatalf("best %v, notes %v: want ?", a, j.Notes)
	}
	if v, _, _ := engine.Verdict(j); v != engine.VerdictBlunder {
		t.Fatalf("NOT with no word: %s", v)
	}
}

// Judging words by the lexicon: a made-up word for the Z (3 points) is to
// be challenged and voted down, letting it pass is a blunder of its 3
// points; letting a known word pass in its short window is no decision,
// disputing it is a blunder; a real word the lexicon lacks but places near
// the category is the table's call: no decision either.
func TestReviewJudging(t *testing.T) {
	start := func(word string) *Match {
		m := atRealTurns(t, 3, `{"special":false}`, "C/K", "D", "M", "P", "A", "Z", "N")
		do(t, m, 1, 1000, Name(word, dieShowing(t, m, "Z")))
		return m
	}
	m := start("zqxv")
	j := judge(t, m, 2, Allow())
	if a := decode(t, j.Best.Action); a.Type != ActChallenge || j.Measure != measureStake || !hasNote(j, "bookworm.review.not-a-word") {
		t.Fatalf("best %v, notes %v", a, j.Notes)
	}
	if v, lost, _ := engine.Verdict(j); v != engine.VerdictBlunder || lost != 3 {
		t.Fatalf("letting zqxv pass: %s, %v lost", v, lost)
	}
	if j = judge(t, m, 2, Challenge()); j.Chosen.Points != 0 || string(j.Chosen.Action) != string(j.Best.Action) {
		t.Fatalf("challenging zqxv: %+v", j)
	}
	do(t, m, 2, 1500, Challenge())
	if v, lost, _ := engine.Verdict(judge(t, m, 0, Vote(true))); v != engine.VerdictBlunder || lost != 3 {
		t.Fatalf("voting zqxv in: %s, %v lost", v, lost)
	}
	if v, _, _ := engine.Verdict(judge(t, m, 0, Vote(false))); v != engine.VerdictBest {
		t.Fatalf("voting zqxv out: %s", v)
	}

	m = start("zebra")
	if _, err := judgeErr(m, 2, Allow(), nil); !errors.Is(err, engine.ErrForced) {
		t.Fatalf("letting a known word pass: %v, want ErrForced", err)
	}
	j = judge(t, m, 2, Challenge())
	if v, _, _ := engine.Verdict(j); v != engine.VerdictBlunder || !hasNote(j, "bookworm.review.fits") {
		t.Fatalf("challenging zebra: %s, notes %v", v, j.Notes)
	}

	g := testGame() // its lexicon lacks jackal, an animal
	tm, err := g.NewMatch([]string{"ann", "bob", "cy"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	do(t, tm, engine.ChanceSeat, 0, DrawCard(1))
	do(t, tm, 0, 0, ChooseCategory(0))
	do(t, tm, engine.ChanceSeat, 0, RollNames(roll("a-z")...))
	do(t, tm, 1, 0, Name("jackal", 7))
	d := engine.Decision{Seat: 2, View: tm.SeatView(2), Legal: tm.Legal(2), Chosen: Allow()}
	if _, err := g.Judge(d, engine.JudgeOptions{}); !errors.Is(err, engine.ErrForced) {
		t.Fatalf("jackal: %v, want ErrForced", err)
	}
}

// A whole game reviewed: every kind of decision is judged, the balance
// is every seat's chance (adding up to 1), and the same review twice is
// the same.
func TestReviewWholeGame(t *testing.T) {
	g := realGame()
	rec := playRecord(t, g, []string{"hard", "medium", "easy"}, `{"target":10}`, 3)
	o := engine.ReviewOptions{Budget: 2, Seed: 1, Workers: 2}
	rv, err := engine.ReviewRecord(context.Background(), g, rec, o)
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, d := range rv.Decisions {
		kinds[d.Kind]++
		if d.Balance != nil {
			sum := 0.0
			for _, w := range d.Balance {
				sum += w
			}
			if math.Abs(sum-1) > 0.02 {
				t.Errorf("move %d: balance %v", d.Move, d.Balance)
			}
		}
	}
	if kinds["name"] == 0 || kinds["category"] == 0 || len(rv.Balance) == 0 {
		t.Fatalf("decisions by kind %v, %d balance points", kinds, len(rv.Balance))
	}
	again, err := engine.ReviewRecord(context.Background(), g, rec, o)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(rv)
	b, _ := json.Marshal(again)
	if string(a) != string(b) {
		t.Fatal("the same review twice differs")
	}
}
