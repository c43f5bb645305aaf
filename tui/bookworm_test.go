package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// newBW sets up a Bookworm table with the given seats (people and test
// bots), no clock steps of its own (the test moves the clock), and the
// registry's deck and lexicon.
func newBW(t testing.TB, seats []Seat, seed uint64, opts string, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	return newTable(t, "bookworm", seats, seed, opts, w, h, edit...)
}

// people seats a person per name.
func people(names ...string) []Seat {
	var out []Seat
	for _, n := range names {
		out = append(out, Seat{Name: n})
	}
	return out
}

// bw is the table's Bookworm board.
func (g *table) bw() *Bookworm { return g.board.(*Bookworm) }

// st is the Bookworm game's state.
func (g *table) st() *bookworm.State { return g.bw().s() }

func (g *table) typeWord(w string) {
	g.t.Helper()
	for _, r := range w {
		g.press(string(r))
	}
}

// knownWord is a word of the lexicon for the category in play that takes
// die d for the player on turn (no spaces, not named yet).
func (g *table) knownWord(d int) string {
	g.t.Helper()
	s := g.st()
	cat, ok := s.CategoryInPlay()
	if !ok {
		g.t.Fatal("no category in play")
	}
	for _, w := range words.Default().Words(cat.ID) {
		if strings.ContainsAny(w, " -'") {
			continue
		}
		if s.Check(engine.Seat(s.Current), s.Now, bookworm.Name(w, d)) == nil && s.Known(w) {
			return w
		}
	}
	g.t.Skipf("the lexicon has no word for die %d (%s) in %s", d, s.FaceName(d), cat.ID)
	return ""
}

// whiteInDisplay is the first white die in the display whose letter has a
// known word, or -1.
func (g *table) knownDisplayDie() (int, string) {
	s := g.st()
	cat, _ := s.CategoryInPlay()
	for d := 0; d < 7; d++ {
		if s.Owner[d] != bookworm.Display {
			continue
		}
		for _, w := range words.Default().Words(cat.ID) {
			if !strings.ContainsAny(w, " -'") && s.Check(engine.Seat(s.Current), s.Now, bookworm.Name(w, d)) == nil {
				return d, w
			}
		}
	}
	return -1, ""
}

// unknownWord is a made-up word (the lexicon cannot know it) that takes die
// d by its letter; n keeps words of a round apart.
func (g *table) unknownWord(d, n int) string {
	f := strings.ToLower(g.st().FaceName(d))
	return fmt.Sprintf("%czzq%c", f[0], 'a'+n%26)
}

func (g *table) lastMove() engine.LoggedMove {
	r := g.Record()
	return r.Moves[len(r.Moves)-1]
}

// lastMoveBy is the latest recorded move of seat.
func (g *table) lastMoveBy(seat engine.Seat) engine.LoggedMove {
	g.t.Helper()
	r := g.Record()
	for i := len(r.Moves) - 1; i >= 0; i-- {
		if r.Moves[i].Seat == seat {
			return r.Moves[i]
		}
	}
	g.t.Fatalf("no move of %s", seat)
	return engine.LoggedMove{}
}

// start2 is ann and bob, seed 7: ann is the Bookworm and picks Cities, so
// bob is on turn with the display D S R R L T J STACK.
func start2(t *testing.T) *table {
	g := newBW(t, people("ann", "bob"), 7, "", 110, 32)
	g.press("1")
	if g.st().Phase != bookworm.PhaseName || g.st().Current != 1 {
		t.Fatalf("after the category: phase %s, current %d", g.st().Phase, g.st().Current)
	}
	return g
}

func TestBookwormTypeAndTake(t *testing.T) {
	g := start2(t)
	d, w := g.knownDisplayDie()
	if d < 0 {
		t.Skip("no known word for the display")
	}
	g.typeWord(w)
	g.wantOnScreen("bob, your word: " + w + "▌")
	if only := g.bw().onlyDie(); only != d {
		t.Fatalf("the display's only die for %q is %d, want %d", w, only, d)
	}
	g.press("enter") // one Enter: the display has one die for the letter
	if lm := g.lastMove(); lm.Seat != 1 || !strings.Contains(string(lm.Action), w) {
		t.Fatalf("one enter did not name the word: last move %+v", lm)
	}
	// A known word may be disputed too: its short window runs out.
	if g.st().Phase != bookworm.PhaseChallenge || g.st().Deadline-g.Now() != 2000 {
		t.Fatalf("after a known word: phase %s, window %d ms", g.st().Phase, g.st().Deadline-g.Now())
	}
	g.advance(g.st().Deadline - g.Now() + 1)
	if g.st().Owner[d] != 1 {
		t.Fatalf("die %d belongs to %d, want bob (1); message %q", d, g.st().Owner[d], g.Message())
	}
	if g.st().Current != 0 || g.bw().word != "" {
		t.Fatalf("after the take: current %d, word field %q", g.st().Current, g.bw().word)
	}
	g.wantOnScreen("✓ "+w+" (bob)", "ann, your word: ▌")
}

func TestBookwormRefusedWordShowsReason(t *testing.T) {
	g := start2(t)
	// Die 0 shows D: a word on B is refused by the engine, and its
	// sentence is what the screen says.
	g.typeWord("berlin")
	g.press("0", "enter")
	want, ok := engine.AsRuleError(g.st().Check(1, g.st().Now, bookworm.Name("berlin", 0)))
	if !ok {
		t.Fatal("the engine accepts berlin for die 0")
	}
	if g.Message() != want.Message {
		t.Fatalf("message %q, want the engine's %q", g.Message(), want.Message)
	}
	g.wantOnScreen("✗ " + want.Message)
	if g.st().Owner[0] != bookworm.Display || len(g.Record().Moves) != 3 {
		t.Fatal("a refused word changed the game")
	}
	// esc goes back to the word; backspace edits it.
	g.press("esc", "backspace")
	if g.bw().stage != stageWord || g.bw().word != "berli" {
		t.Fatalf("stage %d word %q", g.bw().stage, g.bw().word)
	}
}

func TestBookwormSteal(t *testing.T) {
	g := start2(t)
	d, w := g.knownDisplayDie()
	if d < 0 {
		t.Skip("no known word")
	}
	g.typeWord(w)
	g.press(fmt.Sprint(d), "enter")
	// ann steals bob's die with another word on its letter.
	w2 := g.knownWord(d)
	g.typeWord(w2)
	// No display die shows the letter: enter offers bob's die at once.
	g.press("enter")
	if g.bw().sel != d {
		t.Fatalf("enter chose die %d, want bob's die %d", g.bw().sel, d)
	}
	g.wantOnScreen("stolen from bob")
	// s cycles the display and each other player's pile (top die first).
	g.press("s")
	if g.bw().sel < 0 || g.st().Owner[g.bw().sel] != bookworm.Display {
		t.Fatalf("s chose die %d, want the display", g.bw().sel)
	}
	g.press("s")
	if g.bw().sel != d {
		t.Fatalf("s chose die %d, want bob's top die %d", g.bw().sel, d)
	}
	g.press("enter")
	if g.st().Owner[d] != 0 || g.st().Cards[1] != 1 {
		t.Fatalf("after the steal: die %d owner %d, bob's cards %d; message %q", d, g.st().Owner[d], g.st().Cards[1], g.Message())
	}
	g.wantOnScreen("ann stole die")
}

func TestBookwormChallengeAndVote(t *testing.T) {
	g := newBW(t, people("ann", "bob", "cat"), 7, "", 110, 32)
	g.press("1")
	w := g.unknownWord(0, 0)
	g.typeWord(w)
	g.press("0", "enter")
	if g.st().Phase != bookworm.PhaseChallenge {
		t.Fatalf("phase %s after an unknown word; message %q", g.st().Phase, g.Message())
	}
	g.wantOnScreen("not in the word list", "c challenges or a lets it pass, then the seat number (ann 1, cat 3)", "may challenge: 1 ann, 3 cat")
	// Two people may challenge: the key, then who.
	g.press("c")
	g.wantOnScreen("who challenges? press the seat number: 1 ann · 3 cat")
	g.press("2") // bob spoke: not his to judge
	if g.st().Phase != bookworm.PhaseChallenge {
		t.Fatal("the speaker's seat number was taken")
	}
	g.press("c", "3")
	if g.st().Phase != bookworm.PhaseVote || g.st().Challenger != 2 {
		t.Fatalf("phase %s challenger %d", g.st().Phase, g.st().Challenger)
	}
	g.press("y", "1")
	g.wantOnScreen("▶ Vote", "accept: ann", "still to vote: 3 cat")
	// A second vote by ann is refused by the rules: cat is the one left.
	g.press("n", "3")
	// 1 accept, 1 reject: a tie keeps the word.
	if g.st().Owner[0] != 1 {
		t.Fatalf("die 0 owner %d after a tied vote", g.st().Owner[0])
	}
	g.wantOnScreen("vote on \"" + w + "\": 1 accept, 1 reject, 0 abstain: it stands")
}

func TestBookwormRejectedWordFreshCountdown(t *testing.T) {
	g := newBW(t, people("ann", "bob"), 7, "", 110, 32)
	g.press("1")
	g.typeWord(g.unknownWord(0, 0))
	g.press("0", "enter", "c") // ann alone may challenge: no seat number
	if g.st().Phase != bookworm.PhaseVote {
		t.Fatalf("phase %s", g.st().Phase)
	}
	g.wantOnScreen("ann: y accepts, n rejects")
	g.press("n")
	if g.st().Phase != bookworm.PhaseName || g.st().Current != 1 || g.st().Named[0].Status != bookworm.WordRejected {
		t.Fatalf("after the rejection: phase %s current %d", g.st().Phase, g.st().Current)
	}
	// Only the countdown is left: no think time.
	g.wantOnScreen("COUNTDOWN [5] 4 3 2 1")
}

func TestBookwormTimeoutAtDeadline(t *testing.T) {
	g := start2(t)
	dl, cd := g.st().Deadline, g.st().CountdownAt
	g.advance(cd - g.Now() - 100)
	g.wantOnScreen("think time: the countdown starts in 0.1 s")
	g.advance(2100) // 2 s into the countdown: 3 left
	g.wantOnScreen("COUNTDOWN 5 4 [3] 2 1")
	if g.st().Phase != bookworm.PhaseName {
		t.Fatal("the turn ended early")
	}
	// The clock jumps well past the deadline: the timeout is stamped at
	// the deadline, not at the late tick.
	g.advance(30000)
	lm := g.lastMoveBy(engine.SystemSeat)
	if lm.Seat != engine.SystemSeat || lm.At != dl || string(lm.Action) != `{"timeout":true}` {
		t.Fatalf("last move %+v, want the timeout at %d", lm, dl)
	}
	lr := g.st().LastRound
	if lr == nil || lr.Failer != 1 || lr.Lines[1].Penalty != -2 {
		t.Fatalf("round score %+v", lr)
	}
	g.wantOnScreen("Round 1 is over: bob found no word in time.", "penalty -2", "bob starts round 2 as the Bookworm", "bob ran out of time")
	// The summary stays until a key; then bob chooses.
	g.advance(60000)
	if !g.bw().pause {
		t.Fatal("the round summary went away by itself with people at the table")
	}
	g.press("enter")
	g.wantOnScreen("▶ bob is the Bookworm and chooses the category")
}

func TestBookwormWordAtTheDeadlineCounts(t *testing.T) {
	g := start2(t)
	dl := g.st().Deadline
	g.advance(dl - g.Now())
	d, w := g.knownDisplayDie()
	if d < 0 {
		t.Skip("no known word")
	}
	g.typeWord(w)
	g.press(fmt.Sprint(d), "enter")
	if n := len(g.st().Named); n != 1 || g.st().Phase != bookworm.PhaseChallenge {
		t.Fatalf("a word at the deadline was refused: %q", g.Message())
	}
}

// playRound names made-up words for white display dice, letting each
// challenge window run out, until the round ends.
func (g *table) playRound() {
	g.t.Helper()
	round := g.st().Round
	for n := 0; g.st().Round == round && !g.st().Over(); n++ {
		if n > 40 {
			g.t.Fatal("the round does not end")
		}
		d := -1
		for i := 0; i < 7; i++ {
			if g.st().Owner[i] == bookworm.Display {
				d = i
				break
			}
		}
		g.typeWord(g.unknownWord(d, n))
		g.press(fmt.Sprint(d), "enter")
		if g.st().Phase == bookworm.PhaseChallenge {
			g.advance(g.st().Deadline - g.Now() + 1)
		}
	}
}

func TestBookwormFullRound(t *testing.T) {
	g := start2(t)
	g.playRound()
	lr := g.st().LastRound
	if lr == nil || lr.Failer != -1 {
		t.Fatalf("round score %+v", lr)
	}
	ender := g.Name(int(lr.Ender))
	g.wantOnScreen(fmt.Sprintf("Round 1 is over: %s took the last white die from the display.", ender),
		fmt.Sprintf("%s starts round 2 as the Bookworm", ender))
	for p, l := range lr.Lines[:2] {
		if l.Total != g.st().Totals[p] {
			t.Errorf("seat %d: round %d, total %d", p, l.Total, g.st().Totals[p])
		}
	}
	g.press("enter")
	if g.st().Phase != bookworm.PhaseCategory || g.st().Current != lr.Ender {
		t.Fatalf("round 2: phase %s chooser %d", g.st().Phase, g.st().Current)
	}
}

func TestBookwormGameOverAndRecord(t *testing.T) {
	path := t.TempDir() + "/bw.json"
	g := newBW(t, people("ann", "bob"), 7, `{"target":3}`, 110, 32, func(c *Config) { c.RecordPath = path })
	for r := 0; !g.st().Over(); r++ {
		if r > 20 {
			t.Fatal("the game does not end")
		}
		if r > 0 {
			g.press("enter")
		}
		g.press("1")
		g.playRound()
	}
	g.wantOnScreen("Game over after", "record saved to "+path)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec engine.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	st, err := engine.Replay(bookworm.Game{Deck: words.Deck(), Lexicon: words.Default()}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Result().Scores, g.bw().Match().Result().Scores; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("replayed scores %v, played %v", got, want)
	}
}

// testBot names a made-up word for the first white display die (or
// passes, when pass is set) after think ms; it lets every word pass and
// accepts in votes.
type testBot struct {
	think int64
	pass  bool
	n     int
}

func (b *testBot) Name() string { return "test" }

func (b *testBot) ThinkMillis(any) int64 { return b.think }

func (b *testBot) Choose(view any, legal []engine.Action) (engine.Action, error) {
	v := view.(*bookworm.View)
	if b.pass {
		return nil, nil
	}
	for _, k := range v.Legal {
		switch k {
		case "allow":
			return bookworm.Allow(), nil
		case "vote":
			return bookworm.Vote(true), nil
		case "name":
			for _, o := range v.Takeable {
				if o.From == -1 && !v.State.IsSpecial(o.Die) {
					b.n++
					return bookworm.Name(fmt.Sprintf("%czzqb%c", o.Letters[0], 'a'+b.n%26), o.Die), nil
				}
			}
		}
	}
	if len(legal) > 0 {
		return legal[0], nil
	}
	return nil, nil
}

func TestBookwormBotWaitsItsThinkTime(t *testing.T) {
	bot := &testBot{think: 2000}
	g := newBW(t, []Seat{{Name: "ann"}, {Name: "robo", BotKind: "test", Bot: bot}}, 7, "", 110, 32)
	g.press("1")
	// robo (seat 1) is on turn: it answered at once, but plays only when
	// its think time has passed in game time.
	start := g.askedAt
	g.advance(1900)
	if len(g.st().Named) != 0 {
		t.Fatal("the bot played before its think time")
	}
	g.advance(200)
	if len(g.st().Named) != 1 {
		t.Fatalf("the bot did not play after its think time; log %q", g.Log())
	}
	if lm := g.lastMove(); lm.Seat != 1 || lm.At != start+2000 {
		t.Fatalf("bot move %+v, want at %d", lm, start+2000)
	}
	// Its made-up word opened a challenge window: ann lets it pass.
	if g.st().Phase != bookworm.PhaseChallenge {
		t.Fatalf("phase %s", g.st().Phase)
	}
	g.press("a")
	if g.st().Current != 0 || g.st().Phase != bookworm.PhaseName {
		t.Fatalf("after allowing: phase %s current %d", g.st().Phase, g.st().Current)
	}
}

func TestBookwormPassingBotTimesOut(t *testing.T) {
	bot := &testBot{think: 500, pass: true}
	g := newBW(t, []Seat{{Name: "robo", BotKind: "test", Bot: bot}, {Name: "ann"}}, 7, "", 110, 32)
	// robo is the Bookworm: passing on the category would stall the game,
	// so the first category is chosen for it.
	g.advance(600)
	if g.st().Phase != bookworm.PhaseName || g.st().Category != 0 {
		t.Fatalf("phase %s category %d; log %q", g.st().Phase, g.st().Category, g.Log())
	}
	// ann names a made-up word; robo passes in the window, which closes
	// at its deadline with the word accepted.
	g.typeWord(g.unknownWord(0, 0))
	g.press("0", "enter")
	dl := g.st().Deadline
	g.advance(dl - g.Now() + 50)
	if g.st().Owner[0] != 1 || g.lastMoveBy(engine.SystemSeat).At != dl {
		t.Fatalf("owner %d, last move %+v, want the timeout at %d", g.st().Owner[0], g.lastMove(), dl)
	}
	// robo passes its own turn too: it fails at the deadline.
	dl = g.st().Deadline
	g.advance(dl - g.Now() + 50)
	if lr := g.st().LastRound; lr == nil || lr.Failer != 0 {
		t.Fatalf("round score %+v", lr)
	}
	// With a bot at the table, the summary waits for a person's key.
	g.press("enter")
	if g.bw().pause {
		t.Fatal("enter did not close the summary")
	}
}

// TestBookwormNarrowKeepsTotals: at 80 columns a bot's longer label takes
// room from the dice column, not from the scores after it.
func TestBookwormNarrowKeepsTotals(t *testing.T) {
	g := newBW(t, seatsOf(t, "bookworm", "ann,bot:medium", 3), 3, "", 80, 24)
	out := g.screen()
	checkSize(t, out, 80, 24)
	g.wantOnScreen("cards  round  total", "2 medium (bot)")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "1 ann ") || strings.Contains(l, "2 medium (bot)") {
			if strings.HasSuffix(l, "…") || !strings.HasSuffix(l, "0") {
				t.Fatalf("a player's row is cut: %q", l)
			}
		}
	}
}
