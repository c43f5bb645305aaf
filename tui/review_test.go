package tui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
)

// tally is a tiny game for the review screen, in the shape of the
// engine's own review test game: each seat in turn picks 1, 2 or 3 points
// (on its last turn only 1: nothing to decide), then nature adds a bonus of
// 0 or 1; the most points after the rounds wins. Its analyst knows the
// truth: a pick is worth its points, and the win chances are the shares of
// e^(points).
type tally struct {
	rounds int
	noWin  bool // the analyst gives points only
}

type tallyAction struct {
	N     int  `json:"n,omitempty"`
	Bonus int  `json:"bonus,omitempty"`
	Roll  bool `json:"roll,omitempty"`
}

func (a tallyAction) Kind() string {
	if a.Roll {
		return "bonus"
	}
	return "pick"
}

type tallyState struct {
	score  []int
	turn   int // picks made
	rounds int
	chance bool
}

var tallyMessages = map[string]string{
	"tally.pick":    "pick {n} {n:point:points}",
	"tally.measure": "points this turn",
	"tally.lead":    "{who} leads by {n}",
	"tally.why":     "three is always the most a pick can bring",
	"tally.picked":  "{who} picked {n}",
	"tally.bonus":   "a bonus of {n}",
}

func (g tally) Info() engine.Info {
	return engine.Info{ID: "tally", Title: "Tally", MinPlayers: 1, MaxPlayers: 4, Reviews: true, Messages: tallyMessages}
}

func (g tally) New(p []string, _ json.RawMessage) (engine.State, error) {
	if len(p) == 0 {
		return nil, errors.New("no players")
	}
	return &tallyState{score: make([]int, len(p)), rounds: max(1, g.rounds)}, nil
}

func (tally) DecodeAction(b []byte) (engine.Action, error) {
	var a tallyAction
	return a, json.Unmarshal(b, &a)
}

func (s *tallyState) seat() engine.Seat { return engine.Seat(s.turn % len(s.score)) }
func (s *tallyState) Turn() engine.Turn {
	switch {
	case s.turn >= s.rounds*len(s.score):
		return engine.Turn{Over: true}
	case s.chance:
		return engine.Turn{Chance: true}
	}
	return engine.Turn{Actors: []engine.Seat{s.seat()}}
}

func (s *tallyState) Legal(seat engine.Seat) []engine.Action {
	if !s.Turn().Has(seat) || seat < 0 {
		return nil
	}
	if s.turn >= (s.rounds-1)*len(s.score) {
		return []engine.Action{tallyAction{N: 1}}
	}
	return []engine.Action{tallyAction{N: 1}, tallyAction{N: 2}, tallyAction{N: 3}}
}

func (s *tallyState) Check(m engine.Move) error {
	a, _ := m.Action.(tallyAction)
	if m.Seat == engine.ChanceSeat {
		if !s.chance || !a.Roll {
			return engine.Refuse("bad-bonus", "not the time for a bonus")
		}
		return nil
	}
	for _, l := range s.Legal(m.Seat) {
		if l == a {
			return nil
		}
	}
	return engine.Refuse("bad-pick", "a pick is 1, 2 or 3 points, on your turn")
}

func (s *tallyState) Apply(m engine.Move) ([]engine.Event, error) {
	if err := s.Check(m); err != nil {
		return nil, err
	}
	a := m.Action.(tallyAction)
	if m.Seat == engine.ChanceSeat {
		s.score[s.seat()] += a.Bonus
		s.chance = false
		s.turn++
		return []engine.Event{{Kind: "bonus", Seat: m.Seat, Data: a.Bonus}}, nil
	}
	s.score[m.Seat] += a.N
	s.chance = true
	return []engine.Event{{Kind: "picked", Seat: m.Seat, Data: a.N}}, nil
}

func (s *tallyState) SampleChance(src engine.Source) engine.Action {
	return tallyAction{Roll: true, Bonus: src.IntN(2)}
}
func (s *tallyState) View(engine.Seat) any { return s.Clone() }
func (s *tallyState) Result() engine.Result {
	over := s.Turn().Over
	var w []int
	if over {
		best := -1
		for p, v := range s.score {
			switch {
			case v > best:
				best, w = v, []int{p}
			case v == best:
				w = append(w, p)
			}
		}
	}
	return engine.NewResult(over, s.score, w)
}
func (s *tallyState) Players() []string { return nil }
func (s *tallyState) Clone() engine.State {
	c := *s
	c.score = append([]int(nil), s.score...)
	return &c
}

// shares are the win chances of scores: e^points, normalised.
func shares(score []int) []float64 {
	out := make([]float64, len(score))
	var sum float64
	for p, v := range score {
		out[p] = math.Exp(float64(v) / 2)
		sum += out[p]
	}
	for p := range out {
		out[p] /= sum
	}
	return out
}

func (g tally) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	if len(d.Legal) < 2 {
		return engine.Judgement{}, engine.ErrForced
	}
	v := d.View.(*tallyState)
	val := func(n int) engine.Valued {
		b, _ := json.Marshal(tallyAction{N: n})
		sc := append([]int(nil), v.score...)
		sc[d.Seat] += n
		win := shares(sc)[d.Seat]
		if g.noWin {
			win = -1
		}
		return engine.Valued{Action: b, Points: float64(n), Win: win,
			Says: []engine.Message{{Key: "tally.pick", Args: map[string]any{"n": n}}}}
	}
	j := engine.Judgement{Best: val(3), Others: []engine.Valued{val(2), val(1)}, Measure: "tally.measure",
		Notes: []engine.Message{{Key: "tally.why"}}}
	if d.Chosen != nil {
		n := d.Chosen.(tallyAction).N
		j.Chosen = val(n)
		sc := append([]int(nil), v.score...)
		sc[d.Seat] += n
		if !g.noWin {
			j.Balance = shares(sc)
		}
	}
	return j, nil
}

func (tally) Narrate(e engine.Event, players []string) []engine.Message {
	n, _ := e.Data.(int)
	if e.Kind == "bonus" {
		return []engine.Message{{Key: "tally.bonus", Args: map[string]any{"n": n}}}
	}
	return []engine.Message{{Key: "tally.picked", Args: map[string]any{"who": engine.SeatName(players, e.Seat), "n": n}}}
}

// tallyBot always picks the same number (1 when it may not).
type tallyBot struct{ n int }

func (tallyBot) Name() string { return "tally" }
func (b tallyBot) Choose(_ any, legal []engine.Action) (engine.Action, error) {
	for _, a := range legal {
		if a.(tallyAction).N == b.n {
			return a, nil
		}
	}
	return legal[0], nil
}

func init() { registerBoard("tally", func() Board { return &tallyBoard{} }) }

// tallyBoard draws the scores and takes 1 2 3.
type tallyBoard struct{ sh *Shell }

func (b *tallyBoard) Attach(sh *Shell) error { b.sh = sh; return nil }
func (b *tallyBoard) Spec() BoardSpec        { return BoardSpec{MinWidth: 40, MinHeight: 12} }
func (b *tallyBoard) st() *tallyState        { return b.sh.State().(*tallyState) }
func (b *tallyBoard) Render(w, h int) string {
	s := b.st()
	lines := []string{styleTitle.Render(" TALLY ") + fmt.Sprintf(" round %d of %d", min(s.rounds, s.turn/len(s.score)+1), s.rounds), ""}
	for p, v := range s.score {
		mark := "  "
		if !s.Turn().Over && s.seat() == engine.Seat(p) {
			mark = "▶ "
		}
		lines = append(lines, fmt.Sprintf("%s%-8s %s %d", mark, b.sh.Name(p), strings.Repeat("■", v), v))
	}
	msg, isErr := b.sh.Message()
	return screenFooter(lines, msg, isErr, b.sh.Log(), "1 2 3 pick · q quit", w, h)
}
func (b *tallyBoard) Key(k tea.KeyPressMsg) bool {
	switch k.String() {
	case "1", "2", "3":
		b.sh.Act(b.st().seat(), tallyAction{N: int(k.String()[0] - '0')})
		return true
	}
	return false
}
func (b *tallyBoard) Played(engine.Move, []engine.Event) {}
func (b *tallyBoard) Help() []string                     { return []string{"1 2 3   pick that many points"} }
func (b *tallyBoard) Summary() string                    { return "tally over" }

// tallyRecord plays a game of tally: picks[i] is the i-th pick (a forced
// last round picks 1 whatever it says), bonuses from seed, each move
// thought over for think[i%len] seconds.
func tallyRecord(g tally, players []string, picks []int, seed uint64) engine.Record {
	r, err := engine.NewRunner(g, players, nil, seed, nil)
	if err != nil {
		panic(err)
	}
	at := int64(0)
	for i := 0; !r.State.Turn().Over; i++ {
		seat := r.State.Turn().Actors[0]
		legal := r.State.Legal(seat)
		n := 1
		if len(legal) > 1 && i < len(picks) {
			n = picks[i]
		}
		at += int64(700 + 900*(i%3))
		if _, err := r.Play(engine.Move{Seat: seat, At: at, Action: tallyAction{N: n}}); err != nil {
			panic(err)
		}
		if _, err := r.ResolveChance(at, nil); err != nil {
			panic(err)
		}
	}
	return r.Record
}

// tallyReview reviews a record of g.
func tallyReview(g tally, rec engine.Record) *engine.Review {
	rv, err := engine.ReviewRecord(context.Background(), g, rec, engine.ReviewOptions{Seed: 1, Workers: 2})
	if err != nil {
		panic(err)
	}
	return rv
}

// newTallyTable seats players at g (tally, or a wrapper of it) with no bot
// delay on a w×h screen, and starts it.
func newTallyTable(t testing.TB, g engine.Game, seats []Seat, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	clk := &fakeClock{t: fixedClock()}
	cfg := Config{Game: g, Seats: seats, Seed: 5, ManualClock: true, Now: clk.now}
	for _, e := range edit {
		e(&cfg)
	}
	sh, err := NewShell(cfg, &tallyBoard{})
	if err != nil {
		t.Fatal(err)
	}
	tt := &table{t: t, clk: clk, Shell: sh}
	tt.send(tea.WindowSizeMsg{Width: w, Height: h})
	tt.run(tt.Init())
	return tt
}

// soloTally is ann against a bot that picks 1, over rounds rounds.
func soloTally(t testing.TB, rounds int) *table {
	return newTallyTable(t, tally{rounds: rounds}, []Seat{{Name: "ann"}, {Name: "bot", BotKind: "one", Bot: tallyBot{n: 1}}}, 80, 24)
}

// plain hides the analyst of a game.
type plain struct{ engine.Game }

// TestHint: in a game against bots, h asks the coach off the UI loop (the
// screen says it thinks), then shows the best choice and why; h again
// hides it, a move drops it. f2 asks too.
func TestHint(t *testing.T) {
	g := soloTally(t, 4)
	_, cmd := g.Update(keyMsg("h"))
	if got := g.Message(); !strings.Contains(got, "thinking") {
		t.Fatalf("while the coach thinks the message is %q", got)
	}
	g.wantOnScreen("hint: the coach is thinking")
	g.run(cmd)
	g.wantOnScreen("hint for ann", "best  pick 3 points", "why   • three is always the most a pick can bring")
	g.press("h")
	if strings.Contains(g.screen(), "hint for ann") {
		t.Fatal("h again does not hide the hint")
	}
	g.press("f2")
	g.wantOnScreen("hint for ann")
	g.press("2")
	g.settle()
	if strings.Contains(g.screen(), "hint for ann") {
		t.Fatal("the hint outlives the move")
	}
	if n := len(g.Record().Moves); n != 4 {
		t.Fatalf("%d moves: the hint played something", n)
	}
}

// TestHintRefused: no hints with two people at the keyboard, nor in a game
// that has no coach, nor out of turn; the refusals say why.
func TestHintRefused(t *testing.T) {
	g := newTallyTable(t, tally{rounds: 3}, []Seat{{Name: "ann"}, {Name: "bob"}}, 80, 24)
	g.press("h")
	if got := g.Message(); !strings.Contains(got, "one person at the table") {
		t.Errorf("hot-seat hint: %q", got)
	}
	g = newTallyTable(t, plain{tally{rounds: 3}}, []Seat{{Name: "ann"}, {Name: "bot", BotKind: "one", Bot: tallyBot{n: 1}}}, 80, 24)
	g.press("h")
	if got := g.Message(); got != "Tally gives no hints yet" {
		t.Errorf("hint in a game without a coach: %q", got)
	}
	g = newTallyTable(t, tally{rounds: 3}, []Seat{{Name: "bot", BotKind: "one", Bot: tallyBot{n: 1}}, {Name: "ann"}}, 80, 24,
		func(c *Config) { c.BotDelay = time.Hour })
	g.press("h") // the bot's turn: its move waits its hour
	if got := g.Message(); !strings.Contains(got, "your turn") {
		t.Errorf("hint out of turn: %q", got)
	}
}

// playTally plays ann's turns with 3 (or the forced 1) to the end.
func playTally(g *table) {
	g.t.Helper()
	for i := 0; !g.Over(); i++ {
		if i > 100 {
			g.t.Fatal("the game does not end")
		}
		g.settle()
		if g.Over() {
			break
		}
		if len(g.State().Legal(0)) > 1 {
			g.press("3")
		} else {
			g.press("1")
		}
	}
}

// TestReviewAfterPlay: the end screen offers the review; r computes it in
// the background (the message line counts the decisions judged, esc stops
// it) and shows it; esc goes back to the end screen, r shows it again
// without computing it anew, q from the review quits.
func TestReviewAfterPlay(t *testing.T) {
	g := soloTally(t, 4)
	playTally(g)
	g.press("x")
	if got := g.Message(); !strings.Contains(got, "r reviews it") {
		t.Fatalf("the end screen does not offer the review: %q", got)
	}
	// Started and stopped: nothing shown, the late answer dropped.
	_, cmd := g.Update(keyMsg("r"))
	if got := g.Message(); !strings.Contains(got, "reviewing the game") || !strings.Contains(got, "esc stops") {
		t.Fatalf("while reviewing: %q", got)
	}
	g.press("esc")
	if g.Quitting() || !strings.Contains(g.Message(), "review stopped") {
		t.Fatalf("esc while reviewing: quitting %v, %q", g.Quitting(), g.Message())
	}
	g.run(cmd)
	if g.review != nil {
		t.Fatal("a stopped review showed up")
	}
	// Progress is counted.
	_, cmd = g.Update(keyMsg("r"))
	job := g.reviewJob
	g.run(cmd)
	if job.total.Load() != 8 || job.done.Load() != 8 {
		t.Fatalf("progress %d of %d, want 8 of 8 (every choice, the forced ones of the last round too)", job.done.Load(), job.total.Load())
	}
	g.wantOnScreen("REVIEW · TALLY", "Decisions (6)", "● ann", "● bot")
	first := g.review
	g.press("enter")
	g.wantOnScreen("decision ", "chose ")
	g.press("esc", "esc")
	if g.review != nil || g.Quitting() {
		t.Fatal("esc from the list did not go back to the end screen")
	}
	g.press("r")
	if g.review != first {
		t.Fatal("the review was computed again")
	}
	g.press("q")
	if !g.Quitting() {
		t.Fatal("q in the review does not quit")
	}
}

// TestReviewKeys: moving through the decisions, the costly ones, the
// turning point, and the position shown is the one the seat decided in.
func TestReviewKeys(t *testing.T) {
	gm, rec, rv := tallyGame(false)
	r, err := newReviewScreen(gm, rec, rv)
	if err != nil {
		t.Fatal(err)
	}
	if !costly(rv.Decisions[r.sel].Verdict) || r.nextCostly(-1, 1) != r.sel {
		t.Fatalf("the review opens on decision %d, not the first costly one", r.sel)
	}
	r.key("n", 24)
	if k := r.sel; !costly(rv.Decisions[k].Verdict) || k <= r.nextCostly(-1, 1) {
		t.Fatalf("n went to %d", k)
	}
	r.key("t", 24)
	if r.sel != rv.Turning {
		t.Fatalf("t went to %d, the turning point is %d", r.sel, rv.Turning)
	}
	r.key("home", 24)
	r.key("up", 24)
	if r.sel != 0 {
		t.Fatalf("up from the first: %d", r.sel)
	}
	r.key("end", 24)
	r.key("down", 24)
	if r.sel != len(rv.Decisions)-1 {
		t.Fatalf("down from the last: %d", r.sel)
	}
	for _, k := range []int{0, 5, len(rv.Decisions) - 1} {
		r.sel = k
		pos, err := r.position()
		if err != nil {
			t.Fatal(err)
		}
		d := rv.Decisions[k]
		if len(pos.Record().Moves) != d.Move || !pos.State().Turn().Has(d.Seat) {
			t.Fatalf("decision %d: the position after %d moves, %v to play; want after %d, %v to play",
				k, len(pos.Record().Moves), pos.State().Turn().Actors, d.Move, d.Seat)
		}
	}
	if r.key("esc", 24) != reviewBack || r.key("q", 24) != reviewQuits {
		t.Fatal("esc from the list, q: not leaving")
	}
}
