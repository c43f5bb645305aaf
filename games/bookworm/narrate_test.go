package bookworm

import (
	"slices"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// The log lines of every Bookworm event, as the terminal has always written
// them (its golden screens show them), and the two the web log adds.
func TestNarrateSentences(t *testing.T) {
	players := []string{"ann", "bob"}
	ev := func(kind string, seat engine.Seat, data any) engine.Event {
		return engine.Event{Kind: kind, Seat: seat, Data: data}
	}
	card := words.Card{ID: 7, Categories: [3]words.Category{{Name: "Fruit"}, {Name: "Rivers"}, {Name: "Poets"}}}
	cases := []struct {
		e    engine.Event
		want []string
	}{
		{ev("card", 0, CardEvent{Card: card, Chooser: 1}), []string{`new category card: "Fruit", "Rivers" and "Poets"`}},
		{ev("category", 1, CategoryEvent{Index: 1, Category: words.Category{Name: "Rivers", Level: words.Medium}}), []string{`bob chose "Rivers" (medium)`}},
		{ev("category", engine.SystemSeat, CategoryEvent{Category: words.Category{Name: "Fruit", Level: words.Easy}}), []string{`the table chose "Fruit" (easy)`}},
		{ev("roll", engine.ChanceSeat, RollEvent{Faces: []string{"e", "qu", "dots", "a-z"}}), []string{"the dice show e, qu, •• and A–Z"}},
		{ev("special-turned", 0, SpecialEvent{Face: "not"}), []string{"ann turned the Special die to NOT"}},
		{ev("special-turned", 0, SpecialEvent{Face: "stack"}), []string{"ann turned the Special die to Stack"}},
		{ev("turn", engine.SystemSeat, TurnEvent{Seat: 1, CountdownAt: 10000, Deadline: 15000}), nil},
		{ev("word", 1, WordEvent{Word: "pear", Die: 3, Letter: "P", From: -1}), []string{`bob says "pear" (P)`}},
		{ev("challenge-window", 1, WindowEvent{Deadline: 4000}), []string{"the word list does not know it: anyone may challenge"}},
		{ev("allow", 0, nil), []string{"ann lets it pass"}},
		{ev("challenge", 0, ChallengeEvent{Word: "pear", Deadline: 9000}), []string{`ann challenges "pear": vote!`}},
		{ev("vote", 1, VoteEvent{Accept: true}), []string{"bob votes accept"}},
		{ev("vote", 0, VoteEvent{Accept: false}), []string{"ann votes reject"}},
		{ev("verdict", 0, VerdictEvent{Word: "pear", Accept: 1, Reject: 0, Abstain: 1, Accepted: true}), []string{`vote on "pear": 1 accept, 0 reject, 1 abstain: it stands`}},
		{ev("verdict", 0, VerdictEvent{Word: "pxar", Accept: 0, Reject: 2, Accepted: false}), []string{`vote on "pxar": 0 accept, 2 reject, 0 abstain: rejected: try another word`}},
		// A die goes to the speaker, whoever made the move (here a timeout).
		{ev("take", engine.SystemSeat, TakeEvent{Die: 3, Face: "p", From: -1, To: 1, Word: "pear"}), []string{"bob took the p die"}},
		{ev("take", 0, TakeEvent{Die: 9, Face: "dots", From: -1, To: 1, Bonus: true}), []string{"bob also gets the •• die"}},
		{ev("steal", engine.SystemSeat, TakeEvent{Die: 2, Face: "a-z", From: 0, To: 1, BookwormCards: 3}), []string{"bob stole the A–Z die from ann, who gets a Bookworm card"}},
		{ev("question", 0, TakeEvent{Die: 9, Face: "?", From: -1, To: 0}), []string{"ann took the ? die: a new card"}},
		{ev("timeout", engine.SystemSeat, TimeoutEvent{Phase: "name", Seat: 0}), nil},
		{ev("timeout", engine.SystemSeat, TimeoutEvent{Phase: "challenge", Seat: 0}), []string{"nobody challenged: the word stands"}},
		{ev("timeout", engine.SystemSeat, TimeoutEvent{Phase: "vote", Seat: 0}), []string{"the vote's time is up"}},
		{ev("fail", engine.SystemSeat, FailEvent{Seat: 0, Reason: "timeout"}), []string{"ann ran out of time"}},
		{ev("fail", 1, FailEvent{Seat: 1, Reason: "gave-up"}), []string{"bob gave up"}},
		{ev("round-end", 0, RoundEndEvent{Round: 1, Scores: []ScoreLine{{Total: 4}, {Total: -2}}, Totals: []int{4, -2}}), []string{"round 1 over: ann +4 and bob -2"}},
		{ev("round", 0, RoundEvent{Round: 2, Bookworm: 1}), []string{"round 2: bob is the Bookworm"}},
		{ev("reshuffle", 0, nil), []string{"every category card has been used: the stack starts over"}},
		{ev("game-over", 0, GameOverEvent{Scores: []int{21, 9}, Winners: []int{0}}), []string{"game over: ann wins"}},
		{ev("game-over", 0, GameOverEvent{Scores: []int{21, 21}, Winners: []int{0, 1}}), []string{"game over: ann and bob share the win"}},
	}
	for _, c := range cases {
		if got := engine.Describe(Game{}, c.e, players); !slices.Equal(got, c.want) {
			t.Errorf("%s %+v: got %q, want %q", c.e.Kind, c.e.Data, got, c.want)
		}
	}
}

// The verdicts Bookworm gives `dicehall words` are the engine's words for
// them, in English and in French; another language is refused plainly.
func TestJudgeWord(t *testing.T) {
	g := Game{Lexicon: testLex, Deck: testDeck}
	cat := testDeck[0].Categories[0].ID
	known := testLex.Words(cat)[0]
	for word, want := range map[string]string{known: engine.VerdictFits, "table": engine.VerdictUnknown, "sxqzt": engine.VerdictNotAWord} {
		if got, err := g.JudgeWord("en", cat, word); err != nil || got != want {
			t.Errorf("%s: %q %v, want %q", word, got, err, want)
		}
	}
	if got, err := g.JudgeWord("fr", "animals", "souris"); err != nil || got != engine.VerdictFits {
		t.Errorf("souris in French: %q %v", got, err)
	}
	if _, err := g.JudgeWord("de", "animals", "Maus"); err == nil {
		t.Error("German accepted")
	}
	if _, err := g.JudgeWord("en", "no-such", "cow"); err == nil {
		t.Error("an unknown category accepted")
	}
}
