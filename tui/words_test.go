package tui

import (
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/dicestars"
)

func TestPlural(t *testing.T) {
	for _, c := range []struct {
		n         int
		one, many string
		want      string
	}{
		{0, "die", "dice", "0 dice"},
		{1, "die", "dice", "1 die"},
		{2, "die", "dice", "2 dice"},
		{1, "round", "rounds", "1 round"},
		{1, "point", "points", "1 point"},
		{1, "pt", "pts", "1 pt"},
		{3, "turn", "turns", "3 turns"},
	} {
		if got := plural(c.n, c.one, c.many); got != c.want {
			t.Errorf("plural(%d, %q, %q) = %q, want %q", c.n, c.one, c.many, got, c.want)
		}
	}
}

// TestSecondPerson: a player called "you" (the default name) is spoken to
// in the second person; other names keep the third.
func TestSecondPerson(t *testing.T) {
	for _, c := range []struct{ who, verb, want string }{
		{"you", "draws", "you draw"},
		{"You", "is", "You are"},
		{"you", "has", "you have"},
		{"you", "wins", "you win"},
		{"you", "catches", "you catch"},
		{"you", "passes", "you pass"},
		{"you", "tries", "you try"},
		{"you", "took", "you took"},
		{"ann", "draws", "ann draws"},
		{"ann", "is", "ann is"},
		{"youssef", "draws", "youssef draws"},
	} {
		if got := says(c.who, c.verb); got != c.want {
			t.Errorf("says(%q, %q) = %q, want %q", c.who, c.verb, got, c.want)
		}
	}
	for _, c := range []struct{ who, want string }{
		{"you", "your"}, {"ann", "ann's"}, {"james", "james'"}, {"greedy 2", "greedy 2's"},
	} {
		if got := possessive(c.who); got != c.want {
			t.Errorf("possessive(%q) = %q, want %q", c.who, got, c.want)
		}
	}
	for _, c := range []struct {
		w    []string
		want string
	}{
		{[]string{"you"}, "you win"}, {[]string{"ann"}, "ann wins"}, {[]string{"you", "ann"}, "you and ann share the win"},
	} {
		if got := winnersText(c.w); got != c.want {
			t.Errorf("winnersText(%q) = %q, want %q", c.w, got, c.want)
		}
	}
	for _, c := range []struct{ tmpl, want string }{
		{"{who} draws {dice}", "{who} draw {dice}"},
		{"{who} also gets the •• die", "{who} also get the •• die"},
		{"game over: {who} wins", "game over: {who} win"},
		{"{who} took die {die} ({face})", "{who} took die {die} ({face})"},
		{"{who}: \"{word}\" for die {die}", "{who}: \"{word}\" for die {die}"},
		{"{who} lets it pass", "{who} let it pass"},
		{"{who} draw {n}…", "{who} draw {n}…"},
	} {
		if got := secondPerson(c.tmpl); got != c.want {
			t.Errorf("secondPerson(%q) = %q, want %q", c.tmpl, got, c.want)
		}
	}
}

// TestNarrationSecondPerson: the log says "you draw", "you score", never
// "you draws"; other players keep their verbs.
func TestNarrationSecondPerson(t *testing.T) {
	g, _ := all.Registry.Lookup("diceflick")
	names := []string{"you", "medium"}
	for _, c := range []struct {
		e    engine.Event
		want string
	}{
		{engine.Event{Kind: "draw", Seat: 0, Data: diceflick.DrawEvent{Player: "you", Dice: []string{"yellow", "blue"}}}, "you draw 2 dice: yellow and blue"},
		{engine.Event{Kind: "draw", Seat: 1, Data: diceflick.DrawEvent{Player: "medium", Dice: []string{"yellow"}}}, "medium draws 1 die: yellow"},
	} {
		got := narrate(g, c.e, names)
		if len(got) == 0 || got[0] != c.want {
			t.Errorf("narrate(%+v) = %q, want %q", c.e, got, c.want)
		}
	}
	// On screen: Diceflick's turn line and log at the default name.
	tt := newDF(t, dfPeople("you", "bot"), 5, "", 80, 24)
	out := tt.screen()
	for _, bad := range []string{"you draws", "you's", "you is", "you names"} {
		if strings.Contains(out, bad) {
			t.Errorf("the screen says %q:\n%s", bad, out)
		}
	}
	tt.wantOnScreen("your turn", "you draw ")
	bw := newBW(t, people("you", "ann"), 7, "", 80, 24)
	bw.wantOnScreen("▶ you are the Bookworm and choose the category")
}

// TestScreensSayOneDie: numbers on screen agree with their nouns.
func TestScreensSayOneDie(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 5, "", 80, 24)
	st := g.df().s()
	st.NHand[st.Current] = 1
	g.press("3")
	if msg := g.Message(); !strings.Contains(msg, "holds 1 die:") {
		t.Fatalf("message %q", msg)
	}
}

func TestRankTable(t *testing.T) {
	rows := []rankRow{{Name: "ann", Total: 10}, {Name: "bob", Total: 30}, {Name: "cat", Total: 10}, {Name: "dan", Total: 5}}
	lines := rankTable([]string{"r1"}, rows, []string{"bob"})
	got := make([]string, len(lines))
	for i, l := range lines {
		got[i] = strings.Join(strings.Fields(ansi.Strip(l)), " ")
	}
	want := []string{"place r1 │ total", "★ 1st bob │ 30", "=2nd ann │ 10", "=2nd cat │ 10", "4th dan │ 5"}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("ranking\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestDiceStarsBotMoveShown: at 80×24, after a bot's take its sheet stays
// in view with the cells it wrote marked, and the table waits, before
// your sheet comes back; a key goes on at once.
func TestDiceStarsBotMoveShown(t *testing.T) {
	delay := func(c *Config) { c.BotDelay = 700 * time.Millisecond }
	g := newGame(t, "ann,bot:greedy", 42, 80, 24, delay)
	g.press("3")
	take := ""
	for _, a := range g.ds().Match().S.LegalActions(nil) {
		switch a.Type {
		case dicestars.ActTakeColor:
			take = colorKey(a.Color)
		case dicestars.ActTakeValue:
			take = string(rune('0' + a.Value))
		}
		if take != "" {
			break
		}
	}
	g.press(take)
	for i := 0; g.ds().showing < 0; i++ {
		if i > 200 {
			t.Fatalf("the bot's take is never shown; log %q", g.Log())
		}
		g.advance(100)
	}
	n := g.ds().news[1]
	if n == nil || len(n.cells)+len(n.starsAt) == 0 {
		t.Fatal("no cell of the bot's take is marked")
	}
	out := g.screen()
	checkSize(t, out, 80, 24)
	g.wantOnScreen("greedy's move is marked * on greedy's sheet; ann's turn next")
	if !strings.Contains(out, "*") || !strings.Contains(out, "greedy (bot)") {
		t.Fatalf("the bot's sheet is not shown marked:\n%s", out)
	}
	if !g.holding() {
		t.Fatal("the table goes on while the bot's move is shown")
	}
	g.advance(3*700 + 100)
	if g.ds().showing >= 0 {
		t.Fatal("the bot's move is still shown after its time")
	}
	g.wantOnScreen("ann, draw dice from the bag")

	// A key ends the showing at once.
	g2 := newGame(t, "ann,bot:greedy", 42, 80, 24, delay)
	g2.press("3", take)
	for i := 0; g2.ds().showing < 0 && i < 200; i++ {
		g2.advance(100)
	}
	g2.press("3")
	if g2.ds().showing >= 0 || g2.ds().Match().S.Phase != dicestars.PhaseTake {
		t.Fatalf("a key did not go on: showing %d, phase %v", g2.ds().showing, g2.ds().Match().S.Phase)
	}
}

// TestBookwormBotMoveMarked: the die a bot took and its word stay marked
// « » a moment.
func TestBookwormBotMoveMarked(t *testing.T) {
	bot := &testBot{think: 2000}
	g := newBW(t, []Seat{{Name: "ann"}, {Name: "robo", BotKind: "test", Bot: bot}}, 7, "", 80, 24)
	g.press("1")
	g.advance(2100)
	g.press("a") // ann lets robo's made-up word pass: robo takes the die
	d := -1
	for i, o := range g.st().Owner[:g.st().NDice] {
		if o == 1 {
			d = i
		}
	}
	if d < 0 {
		t.Fatalf("robo took no die; log %q", g.Log())
	}
	out := g.screen()
	checkSize(t, out, 80, 24)
	if !strings.Contains(out, "«"+string(rune('0'+d))+" ") || !strings.Contains(out, "(robo)»") {
		t.Fatalf("robo's die %d and word are not marked:\n%s", d, out)
	}
	g.advance(freshMs + 100)
	if strings.Contains(g.screen(), "«") {
		t.Fatalf("the marks stay:\n%s", g.screen())
	}
}

// TestStaleErrorCleared: a refusal is cleared once the table moves on.
func TestStaleErrorCleared(t *testing.T) {
	g := newBW(t, people("ann", "bob"), 7, "", 80, 24)
	g.press("1")
	g.typeWord("berlin")
	g.press("0", "enter")
	if !g.isErr() {
		t.Fatal("no refusal to start from")
	}
	// The turn runs out: a new situation, the refusal goes.
	g.advance(g.st().Deadline - g.Now() + 50)
	if g.isErr() || strings.Contains(g.screen(), "✗") {
		t.Fatalf("the refusal stays: %q", g.Message())
	}
}

// TestBookwormOneEnterOnlyWhenPlain: when the display holds dice that
// differ for the word's letter, enter goes on to choosing the die.
func TestBookwormOneEnterOnlyWhenPlain(t *testing.T) {
	g := start2(t)
	s := g.st()
	letters := map[byte][]int{}
	for _, o := range s.Takeable(s.Current) {
		if o.From == int(bookworm.Display) && len(o.Letters) == 1 {
			letters[o.Letters[0]] = append(letters[o.Letters[0]], o.Die)
		}
	}
	for l, ds := range letters {
		if len(ds) == 1 {
			g.typeWord(string(l) + "zzqx")
			if got := g.bw().onlyDie(); got != ds[0] {
				t.Fatalf("only die for %c: %d, want %d", l, got, ds[0])
			}
			return
		}
	}
	t.Skip("no letter with one die on this display")
}
