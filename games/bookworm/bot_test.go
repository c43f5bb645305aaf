package bookworm

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// checkedBot wraps a bot and fails the test when it answers outside the
// view: an action of a kind the view does not list, a pass where passing
// is not allowed, a negative think time. It logs every answer.
type checkedBot struct {
	t   *testing.T
	bot *Bot
	log *[]string
}

func (c checkedBot) Name() string { return c.bot.Name() }

func (c checkedBot) ThinkMillis(view any) int64 { return c.bot.ThinkMillis(view) }

func (c checkedBot) Choose(view any, legal []engine.Action) (engine.Action, error) {
	c.t.Helper()
	v := view.(*View)
	a, err := c.bot.Choose(view, legal)
	if err != nil {
		c.t.Fatalf("seat %d: %v", v.Seat, err)
	}
	think := c.bot.ThinkMillis(view)
	if think < 0 {
		c.t.Fatalf("seat %d: think time %d", v.Seat, think)
	}
	if a == nil {
		if p := v.State.Phase; p != PhaseName && p != PhaseChallenge && p != PhaseVote {
			c.t.Fatalf("seat %d passed in phase %v", v.Seat, p)
		}
		if v.State.Phase == PhaseName && v.State.Now+think <= v.State.Deadline {
			c.t.Fatalf("seat %d passes its turn but says it acts in %d ms, before the deadline", v.Seat, think)
		}
	} else if !slices.Contains(v.Legal, a.Kind()) {
		c.t.Fatalf("seat %d chose %v (%s), the view allows %v", v.Seat, a, a.Kind(), v.Legal)
	}
	if c.log != nil {
		*c.log = append(*c.log, fmt.Sprintf("%d %v %d", v.Seat, a, think))
	}
	return a, nil
}

// playSeeded plays one game of kinds (seat order) from seed and returns
// the match, the stats and every answer of every bot. lexFor gives each
// seat's lexicon (nil: the game's).
func playSeeded(t *testing.T, g Game, kinds []string, options string, seed uint64, lexFor func(p int) words.Lexicon) (*Match, engine.Tally, []string) {
	t.Helper()
	var raw []byte
	if options != "" {
		raw = []byte(options)
	}
	m, err := g.NewMatch([]string{"ann", "bob", "cy", "di", "eve", "fay"}[:len(kinds)], raw)
	if err != nil {
		t.Fatal(err)
	}
	var log []string
	bots := make([]engine.Controller, len(kinds))
	for p, k := range kinds {
		lex := g.Lexicon
		if lexFor != nil {
			lex = lexFor(p)
		}
		b, err := NewBot(k, engine.SplitSeed(seed, uint64(p+1)), lex)
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = checkedBot{t: t, bot: b, log: &log}
	}
	st, err := engine.PlayCounted(m, bots, engine.NewSource(engine.SplitSeed(seed, 0)), g)
	if err != nil {
		t.Fatal(err)
	}
	if !m.S.Over() {
		t.Fatal("PlayCounted returned before the end")
	}
	if err := invariants(m.S); err != nil {
		t.Fatal(err)
	}
	return m, st, log
}

func realGame() Game { return Game{Deck: words.Deck(), Lexicon: words.Default()} }

func TestBotKinds(t *testing.T) {
	g := realGame()
	if got := g.Info().BotKinds(); !slices.Equal(got, []string{"easy", "medium", "hard"}) {
		t.Fatalf("kinds %v", got)
	}
	for _, k := range g.Info().BotKinds() {
		c, err := g.NewBot(k, 1)
		if err != nil || c.Name() != k {
			t.Fatalf("%s: %v %v", k, c, err)
		}
		if _, ok := c.(engine.Pacer); !ok {
			t.Fatalf("%s is not a Pacer", k)
		}
	}
	if _, err := g.NewBot("expert", 1); err == nil {
		t.Fatal("unknown kind accepted")
	}
	if _, err := (*Bot)(nil).Choose(struct{}{}, nil); err == nil {
		t.Fatal("a foreign view accepted")
	}
}

// Random line-ups of 2 to 6 bots, with and without the Special die, play
// whole games: every answer is checked against the view and every move by
// the rules (engine.PlayBots stops on a refusal).
func TestBotsPlayLegally(t *testing.T) {
	g := realGame()
	kinds := g.Info().BotKinds()
	for n := MinPlayers; n <= MaxPlayers; n++ {
		for _, special := range []bool{true, false} {
			for i := range 4 {
				seed := uint64(1000*n + 10*i)
				if special {
					seed++
				}
				line := make([]string, n)
				for p := range line {
					line[p] = kinds[engine.SplitSeed(seed, uint64(p))%3]
				}
				opts := fmt.Sprintf(`{"special": %v}`, special)
				_, st, _ := playSeeded(t, g, line, opts, seed, nil)
				if st.Game[0] == 0 {
					t.Fatalf("%v: no round played", line)
				}
			}
		}
	}
}

// With a table lexicon that knows no word, every word opens a challenge
// window; bots with different lexicons then challenge, allow and vote.
func TestBotsJudgeWords(t *testing.T) {
	g := Game{Deck: words.Deck()} // the table knows no word
	small := fakeLex{}
	for _, card := range words.Deck() {
		for _, c := range card.Categories {
			small[c.ID] = words.Default().Words(c.ID)[:min(3, len(words.Default().Words(c.ID)))]
		}
	}
	challenges, votes := 0, 0
	for i := range 6 {
		_, _, log := playSeeded(t, g, []string{"hard", "medium", "easy", "hard"}, "", uint64(i), func(p int) words.Lexicon {
			if p%2 == 0 {
				return small
			}
			return words.Default()
		})
		for _, l := range log {
			challenges += strings.Count(l, " challenge ")
			votes += strings.Count(l, " vote accept ")
		}
	}
	if challenges == 0 || votes == 0 {
		t.Fatalf("%d challenges, %d accept votes: the judging paths were not played", challenges, votes)
	}
}

func TestBotDeterministic(t *testing.T) {
	g := realGame()
	line := []string{"easy", "hard", "medium", "hard"}
	m1, _, log1 := playSeeded(t, g, line, "", 42, nil)
	m2, _, log2 := playSeeded(t, g, line, "", 42, nil)
	if !slices.Equal(log1, log2) || m1.S.Totals != m2.S.Totals || m1.S.Now != m2.S.Now {
		t.Fatal("the same seed played two different games")
	}
	_, _, log3 := playSeeded(t, g, line, "", 43, nil)
	if slices.Equal(log1, log3) {
		t.Fatal("seeds 42 and 43 played the same game")
	}
}

// Hard against easy, seats alternating: hard wins clearly, and the easy
// bot runs out of time now and then while the hard one never answers late.
func TestHardBeatsEasy(t *testing.T) {
	g := realGame()
	const games = 40
	hardWins, easyLate, hardLate, easyTO, hardTO := 0.0, 0, 0, 0, 0
	for i := range games {
		line, h := []string{"hard", "easy"}, 0
		if i%2 == 1 {
			line, h = []string{"easy", "hard"}, 1
		}
		m, st, _ := playSeeded(t, g, line, "", uint64(7000+i), nil)
		if w := m.S.Winners(); slices.Contains(w, h) {
			hardWins += 1 / float64(len(w))
		}
		hardLate += st.Seat[h][statLate]
		easyLate += st.Seat[1-h][statLate]
		hardTO += st.Seat[h][statFails]
		easyTO += st.Seat[1-h][statFails]
	}
	t.Logf("hard won %.1f of %d; late answers easy %d hard %d; failed turns easy %d hard %d",
		hardWins, games, easyLate, hardLate, easyTO, hardTO)
	if hardWins < 0.8*games {
		t.Fatalf("hard won only %.1f of %d games against easy", hardWins, games)
	}
	if easyLate == 0 || hardLate != 0 {
		t.Fatalf("late answers: easy %d (want some), hard %d (want none)", easyLate, hardLate)
	}
	if easyTO < 3*hardTO || easyTO == 0 {
		t.Fatalf("failed turns: easy %d, hard %d", easyTO, hardTO)
	}
}

// perfectBot is the hard bot knowing every word of lex: its choices then
// depend on tactics alone.
// perfectBot is the hard bot knowing every everyday and common word,
// without its lookahead: the tactics tests check its valuation (takeWorth);
// TestHardLookahead the lookahead.
func perfectBot(lex words.Lexicon) *Bot {
	b, _ := NewBot("hard", 1, lex)
	lvl := *hardBase
	lvl.vocab = 1
	b.lvl = &lvl
	return b
}

// The hard bot weighs each take by the round played out: knowing every
// word, it takes what the review calls the best (the same lookahead).
func TestHardLookahead(t *testing.T) {
	m := atRealTurns(t, 3, `{"special":false}`, "C/K", "D", "M", "P", "A", "Z", "N")
	hold(m, 0, dieShowing(t, m, "Z"))
	m.S.Totals[0] = 10
	b, _ := NewBot("hard", 1, nil)
	lvl := *b.lvl
	lvl.vocab = 1
	b.lvl = &lvl
	a, ok := choose(t, b, m, 1)
	j := judge(t, m, 1, nil)
	if best := decode(t, j.Best.Action); !ok || a.Die != best.Die {
		t.Fatalf("the hard bot chose %v, the review's best is %v", a, best)
	}
}

func choose(t *testing.T, b *Bot, m *Match, seat engine.Seat) (Action, bool) {
	t.Helper()
	a, err := b.Choose(m.SeatView(seat), m.Legal(seat))
	if err != nil {
		t.Fatal(err)
	}
	if a == nil {
		return Action{}, false
	}
	return a.(Action), true
}

func TestHardTactics(t *testing.T) {
	// Points: Z (3) beats the 1- and 2-point dice.
	m := atTurns(t, 2, `{"special": false}`, "C/K", "D", "M", "P", "A", "Z", "N")
	a, ok := choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die != dieShowing(t, m, "Z") {
		t.Fatalf("chose %v, want the Z die", a)
	}

	// Stealing from the leader: ann leads and holds the A (2); taking it
	// is worth 2 + 1 (ann loses 2, gains a card), more than the E (2) of
	// the display.
	m = atTurns(t, 3, `{"special": false}`, "C/K", "E", "M", "P", "A", "B", "N")
	m.S.Totals[0] = 10
	hold(m, 0, dieShowing(t, m, "A"))
	a, ok = choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die != dieShowing(t, m, "A") {
		t.Fatalf("chose %v, want to steal the A die from the leader", a)
	}

	// NOT alone scores −2: with no other die the bot takes a letter die.
	m = atTurns(t, 2, "", "C/K", "D", "M", "P", "B", "B", "N", "not")
	a, ok = choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die == 7 {
		t.Fatalf("chose %v, want a letter die, not NOT alone", a)
	}
	hold(m, 1, dieShowing(t, m, "C/K"))
	a, ok = choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die != 7 {
		t.Fatalf("chose %v, want NOT (+2 with another die)", a)
	}

	// Taking the last white die would end the game with the bot behind:
	// it steals instead.
	m = atTurns(t, 2, `{"special": false}`, "C/K", "D", "M", "P", "A", "B", "N")
	for d := 0; d < 6; d++ {
		hold(m, int8(d%2), d)
	}
	m.S.Totals[0], m.S.Totals[1] = 30, 18
	a, ok = choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die == 6 {
		t.Fatalf("chose %v: ended a game it loses", a)
	}
	// Ahead, it ends the game.
	m.S.Totals[0], m.S.Totals[1] = 5, 25
	a, ok = choose(t, perfectBot(testLex), m, 1)
	if !ok || a.Die != 6 {
		t.Fatalf("chose %v, want the last white die to win", a)
	}
}

func TestBotWithoutWords(t *testing.T) {
	empty := fakeLex{}
	// The ? die is the way out when no word comes to mind.
	m := atTurns(t, 2, "", roll("?")...)
	b := perfectBot(empty)
	a, ok := choose(t, b, m, 1)
	if !ok || a.Type != ActQuestion {
		t.Fatalf("chose %v, want the ? die", a)
	}
	// Without it the bot lets the clock run out.
	m = atTurns(t, 2, "", roll("a-z")...)
	b = perfectBot(empty)
	if a, ok := choose(t, b, m, 1); ok {
		t.Fatalf("chose %v with no word known", a)
	}
	if think := b.ThinkMillis(m.SeatView(1)); m.S.Now+think <= m.S.Deadline {
		t.Fatalf("think %d ms: acts before the deadline %d", think, m.S.Deadline)
	}
}

func TestBotChallengeAndVote(t *testing.T) {
	g := Game{Deck: testDeck} // the table knows no word
	start := func() *Match {
		m, err := g.NewMatch([]string{"ann", "bob", "cy"}, nil)
		if err != nil {
			t.Fatal(err)
		}
		do(t, m, engine.ChanceSeat, 0, DrawCard(1))
		do(t, m, 0, 0, ChooseCategory(0)) // animals
		do(t, m, engine.ChanceSeat, 0, RollNames(roll("a-z")...))
		return m
	}
	// A known word is let pass, and accepted in a vote.
	m := start()
	do(t, m, 1, 0, Name("dog", 1))
	b, _ := NewBot("easy", 3, testLex)
	if a, ok := choose(t, b, m, 2); !ok || a.Type != ActAllow {
		t.Fatalf("known word: %v", a)
	}
	do(t, m, 0, 100, Challenge())
	if a, ok := choose(t, b, m, 2); !ok || a.Type != ActVote || !a.Accept {
		t.Fatalf("known word in a vote: %v", a)
	}
	if think := b.ThinkMillis(m.SeatView(2)); think <= 0 || m.S.Now+think > m.S.Deadline {
		t.Fatalf("vote in %d ms, window to %d", think, m.S.Deadline)
	}
	// Bots judge as words.Opine: a made-up word and a real word far from
	// the category are challenged and voted down by every bot; a real word
	// near it (jackal: an animal the test lexicon lacks) is never
	// challenged, and the bot abstains on it.
	for _, kind := range BotKinds {
		for seed := range uint64(50) {
			for _, c := range []struct {
				word   string
				reject bool
			}{{"dodo bird xx", true}, {"sxqzt", true}, {"sofa", true}, {"jackal", false}} {
				m := start()
				do(t, m, 1, 0, Name(c.word, 7)) // the a-z die: any word
				b, _ := NewBot(kind, seed, testLex)
				a, ok := choose(t, b, m, 2)
				if c.reject != (ok && a.Type == ActChallenge) {
					t.Fatalf("%s bot (seed %d) on %q in the window: %v %v", kind, seed, c.word, a, ok)
				}
				if !c.reject {
					do(t, m, 0, 100, Challenge())
				} else {
					do(t, m, 2, 100, a)
				}
				v, ok := choose(t, b, m, 2)
				switch {
				case c.reject && (!ok || v.Type != ActVote || v.Accept):
					t.Fatalf("%s bot voted %v %v on %q, want reject", kind, v, ok, c.word)
				case !c.reject && ok:
					t.Fatalf("%s bot voted %v on %q, want an abstention", kind, v, c.word)
				}
			}
		}
	}
}

// Choosing a category: hard takes the one its words cover best, easy at
// random; turning the Special die with no usable word: hard picks ?.
func TestBotCategoryAndFace(t *testing.T) {
	lex := fakeLex{"animals": {"zebra"}, "fruits": {"apple"}, "cheeses": {"brie", "cheddar", "dolcelatte",
		"edam", "feta", "gouda", "halloumi", "manchego", "parmesan", "ricotta", "stilton", "wensleydale"}}
	m := newTest(t, 2, "")
	do(t, m, engine.ChanceSeat, 0, DrawCard(1))
	if a, ok := choose(t, perfectBot(lex), m, 0); !ok || a.Type != ActCategory || a.Category != 2 {
		t.Fatalf("chose %v, want category 2 (cheeses)", a)
	}
	picked := map[int]bool{}
	for seed := range uint64(30) {
		b, _ := NewBot("easy", seed, lex)
		a, _ := choose(t, b, m, 0)
		picked[a.Category] = true
	}
	if len(picked) != 3 {
		t.Fatalf("easy picked only %v", picked)
	}
	do(t, m, 0, 0, ChooseCategory(0))
	do(t, m, engine.ChanceSeat, 0, RollNames(roll("turn")...))
	if a, ok := choose(t, perfectBot(fakeLex{}), m, 0); !ok || a.Type != ActTurnTo || a.Face != SpecialQuestion {
		t.Fatalf("chose %v, want to turn to ?", a)
	}
}

// ThinkMillis and Choose agree whichever is asked first, and asking again
// changes nothing.
func TestBotPlansOnce(t *testing.T) {
	m := atTurns(t, 3, "", roll("a-z")...)
	b1, _ := NewBot("medium", 9, words.Default())
	b2, _ := NewBot("medium", 9, words.Default())
	v := m.SeatView(1)
	t1 := b1.ThinkMillis(v)
	a1, _ := b1.Choose(v, nil)
	a2, _ := b2.Choose(v, nil)
	t2 := b2.ThinkMillis(v)
	a3, _ := b2.Choose(m.SeatView(1), nil)
	if fmt.Sprint(a1) != fmt.Sprint(a2) || t1 != t2 || fmt.Sprint(a2) != fmt.Sprint(a3) {
		t.Fatalf("%v %d / %v %d / %v", a1, t1, a2, t2, a3)
	}
	// Not its turn: nothing.
	if a, _ := b1.Choose(m.SeatView(2), nil); a != nil {
		t.Fatalf("seat 2 chose %v out of turn", a)
	}
}

func TestFastKey(t *testing.T) {
	for _, w := range []string{"dog", "ice cream", "Crème brûlée", "a  b", " dog", "dog ", "o'clock", "x1",
		strings.Repeat("a", MaxWordRunes), strings.Repeat("a", MaxWordRunes+1), ""} {
		k1, ok1 := fastKey(w)
		k2, ok2 := WordKey(w)
		if k1 != k2 || ok1 != ok2 {
			t.Errorf("%q: fastKey %q %v, WordKey %q %v", w, k1, ok1, k2, ok2)
		}
	}
}

// Reaction times: hard always answers within 3 s of the default 15 s turn
// and stays quick at a slow table; easy runs out now and then at any table
// speed; everything shrinks with a short clock.
func TestBotPace(t *testing.T) {
	late := func(kind, options string) (n int, longest int64) {
		m := atTurns(t, 2, options, roll("a-z")...)
		for seed := range uint64(150) {
			b, _ := NewBot(kind, seed, words.Default())
			think := b.ThinkMillis(m.SeatView(1))
			if a, _ := b.Choose(m.SeatView(1), nil); a == nil {
				t.Fatalf("%s (seed %d) knows no animal for 8 dice", kind, seed)
			}
			if m.S.Now+think > m.S.Deadline {
				n++
			}
			longest = max(longest, think)
		}
		return n, longest
	}
	for _, c := range []struct {
		options       string
		hardMax       int64
		easyLateRange [2]int
	}{
		{"", 3000, [2]int{3, 30}},
		{`{"thinkSeconds": 600}`, 3000, [2]int{3, 30}},
		{`{"thinkSeconds": 0, "countdownSeconds": 2}`, 400, [2]int{3, 30}},
	} {
		if n, longest := late("hard", c.options); n != 0 || longest > c.hardMax {
			t.Errorf("%s: hard late %d times, longest %d ms (want ≤ %d)", c.options, n, longest, c.hardMax)
		}
		n, _ := late("easy", c.options)
		t.Logf("%s: easy late %d times in 150", c.options, n)
		if n < c.easyLateRange[0] || n > c.easyLateRange[1] {
			t.Errorf("%s: easy late %d times in 150, want %v", c.options, n, c.easyLateRange)
		}
	}
}

// BenchmarkBotGame3P plays whole hard/medium/easy games on the simulated
// clock: views, bot decisions and rules together (docs/performance.md).
func BenchmarkBotGame3P(b *testing.B) {
	g := realGame()
	kinds := []string{"hard", "medium", "easy"}
	decisions := 0
	for i := 0; b.Loop(); i++ {
		m, _ := g.NewMatch([]string{"a", "b", "c"}, nil)
		bots := make([]engine.Controller, 3)
		for p := range bots {
			bots[p], _ = g.NewBot(kinds[p], engine.SplitSeed(uint64(i), uint64(p+1)))
		}
		st, err := engine.PlayCounted(m, bots, engine.NewSource(uint64(i)), g)
		if err != nil {
			b.Fatal(err)
		}
		for p := range 3 {
			decisions += st.Seat[p][statWords] + st.Seat[p][statFails] + st.Seat[p][statQuestions]
		}
	}
	b.ReportMetric(float64(decisions)/float64(b.N), "turns/game")
}
