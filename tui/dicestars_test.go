package tui

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// newGame sets up Dice Stars the way `dicehall play` does, with no bot
// delay, a fixed clock and a fixed screen size, and lets the bots who
// start play their turns.
func newGame(t testing.TB, players string, seed uint64, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	g := newTable(t, "dicestars", seatsOf(t, "dicestars", players, seed), seed, "", w, h, edit...)
	g.settle()
	return g
}

// ds is the table's Dice Stars board.
func (g *table) ds() *DiceStars { return g.board.(*DiceStars) }

// keys presses keys one by one, letting the bots play after each, as a
// person at the table would see them.
func (g *table) keys(keys ...string) {
	g.t.Helper()
	for _, k := range keys {
		g.press(k)
		g.settle()
	}
}

// checkMessage is the engine's refusal of a move by the current player.
func checkMessage(t *testing.T, g *table, a dicestars.Action) string {
	t.Helper()
	m := g.ds().Match()
	err := m.Check(engine.Move{Seat: engine.Seat(m.S.Current), Action: a})
	if err == nil {
		t.Fatalf("%v is legal; the test wants a refusal", a)
	}
	re, ok := engine.AsRuleError(err)
	if !ok {
		t.Fatalf("%v refused without a RuleError: %v", a, err)
	}
	return re.Message
}

// TestBotSeeds: bots are seeded with SplitSeed(seed, seat), so two bots of
// the same kind in one game do not mirror each other, and a seed replays.
func TestBotSeeds(t *testing.T) {
	a := newGame(t, "bot:random,bot:random", 5, 120, 40)
	b := newGame(t, "bot:random,bot:random", 5, 120, 40)
	if !reflect.DeepEqual(a.Record(), b.Record()) {
		t.Fatal("the same seed gave two different games")
	}
	c := newGame(t, "bot:random,bot:random", 6, 120, 40)
	if reflect.DeepEqual(a.Record().Moves, c.Record().Moves) {
		t.Fatal("seeds 5 and 6 gave the same game")
	}
}

// TestIllegalKeysExplained drives a hot-seat game with keys: illegal keys
// leave the game as it was and show the engine's own refusal; legal ones
// move it on and show on screen.
func TestIllegalKeysExplained(t *testing.T) {
	g := newGame(t, "ann,bob", 1, 120, 40)
	s := &g.ds().Match().S
	g.wantOnScreen("▶ ann to play", "ann, draw dice from the bag", "[3] draw 3 dice", "Reserve empty", "Bag 14")

	refused := func(keys string, a dicestars.Action) {
		t.Helper()
		want := checkMessage(t, g, a)
		before := *s
		moves := len(g.Record().Moves)
		g.keys(keys)
		if g.Message() != want {
			t.Fatalf("key %q: message %q, want the engine's %q", keys, g.Message(), want)
		}
		g.wantOnScreen("✗ " + want)
		if *s != before || len(g.Record().Moves) != moves {
			t.Fatalf("key %q changed the game", keys)
		}
	}
	refused("1", dicestars.Draw(1, false))                       // must draw 3 at the start
	refused("4", dicestars.Draw(4, false))                       // a draw is 1..3
	refused("k", dicestars.TakeColor(dicestars.Black))           // draw first
	refused("r", dicestars.Draw(3, true))                        // no refill due
	refused("s", dicestars.Action{Type: dicestars.ActTakeStars}) // draw first
	g.keys("x")
	if !strings.Contains(g.Message(), `the key "x" does nothing here`) {
		t.Fatalf("unknown key: message %q", g.Message())
	}

	g.keys("3")
	if s.Phase != dicestars.PhaseTake || s.NReserve != 3 {
		t.Fatalf("after 3: phase %v, reserve %d", s.Phase, s.NReserve)
	}
	if g.Message() != "" {
		t.Fatalf("a legal key left the message %q", g.Message())
	}
	var dice []string
	for _, d := range s.ReserveDice() {
		color, face, _ := strings.Cut(d.String(), ":") // "orange:star" is told "orange ★"
		dice = append(dice, color+" "+strings.Replace(face, "star", "★", 1))
	}
	g.wantOnScreen("ann drew "+dice[0]+", "+dice[1]+" and "+dice[2], "take all dice of one colour")
	for _, d := range s.ReserveDice() {
		name := d.Color().String() + " " + faceText(d.Face())
		g.wantOnScreen(name) // dice show their colour's name, not only the colour
	}

	// A colour that is not in the reserve, and a value that is no row.
	absent := dicestars.Color(dicestars.NumColors)
	for c := dicestars.Color(0); c < dicestars.NumColors && absent == dicestars.NumColors; c++ {
		absent = c
		for _, d := range s.ReserveDice() {
			if d.Color() == c {
				absent = dicestars.NumColors
			}
		}
	}
	refused(colorKey(absent), dicestars.TakeColor(absent))
	refused("1", dicestars.TakeValue(1))
	refused("9", dicestars.TakeValue(9))

	// A legal take: the first legal colour.
	var take dicestars.Action
	for _, a := range s.LegalActions(nil) {
		if a.Type == dicestars.ActTakeColor {
			take = a
			break
		}
	}
	if take.Type == 0 {
		t.Skip("seed 1 rolls no legal colour")
	}
	total := 0
	for _, d := range s.ReserveDice() {
		if d.Color() == take.Color {
			total += d.Face()
		}
	}
	g.keys(colorKey(take.Color))
	if s.Current != 1 || s.Phase != dicestars.PhaseDraw {
		t.Fatalf("after the take: current %d phase %v", s.Current, s.Phase)
	}
	if got := s.Sheets[0].Total(s.L); got != total {
		t.Fatalf("ann's total %d, want %d", got, total)
	}
	g.wantOnScreen("▶ bob to play", fmt.Sprintf(" %s di", take.Color), fmt.Sprintf("into the %s column", take.Color), fmt.Sprintf("total %d", total))
}

// TestDigitIsValueAfterRoll: digits announce draws, then choose values.
func TestDigitIsValueAfterRoll(t *testing.T) {
	g := newGame(t, "ann,bob", 1, 120, 40)
	g.keys("3")
	a, ok := g.ds().actionFor("5")
	if !ok || a.Type != dicestars.ActTakeValue || a.Value != 5 {
		t.Fatalf("5 after the roll means %v", a)
	}
}

// starSeed finds a seed whose first roll lets the first player take at
// least want stars.
func starSeed(t *testing.T, want int) uint64 {
	t.Helper()
	for seed := uint64(0); seed < 5000; seed++ {
		st, _ := dicestars.NewState(nil, 2)
		st.ApplyUnchecked(dicestars.Draw(3, false))
		st.ApplyUnchecked(st.SampleRoll(engine.NewSource(seed)))
		stars := 0
		for _, d := range st.ReserveDice() {
			if d.IsStar() {
				stars++
			}
		}
		if stars >= want {
			return seed
		}
	}
	t.Fatalf("no seed rolls %d stars", want)
	return 0
}

func TestStarPicker(t *testing.T) {
	seed := starSeed(t, 3)
	g := newGame(t, "ann,bob", seed, 120, 40)
	m := g.ds()
	s := &m.Match().S
	g.keys("3", "s")
	if !m.picking || m.pickStars < 2 {
		t.Fatalf("s did not open the picker for %d stars", m.pickStars)
	}
	n := m.pickStars
	g.wantOnScreen(fmt.Sprintf("place %d stars on multiplier rows (0 of %d placed)", n, n), "[2] row 2", "[enter] confirm")

	// Confirming too early: the engine says how many cells to mark.
	early := dicestars.Action{Type: dicestars.ActTakeStars}
	early.Mult[0] = 1
	want := checkMessage(t, g, early)
	g.keys("2", "enter")
	if g.Message() != want || !m.picking {
		t.Fatalf("early enter: message %q (want %q), picking %v", g.Message(), want, m.picking)
	}
	// Row 2 has two multiplier cells; a third star there is refused.
	g.keys("2")
	if n >= 3 {
		g.keys("2")
		if !strings.Contains(g.Message(), "row 2 has no unmarked multiplier cell left") {
			t.Fatalf("overfull row: message %q", g.Message())
		}
	}
	// Undo one, cancel, reopen, place them all in row 6.
	g.keys("backspace")
	if len(m.pickRows) != 1 {
		t.Fatalf("backspace: %d rows picked", len(m.pickRows))
	}
	g.keys("esc")
	if m.picking || s.Phase != dicestars.PhaseTake {
		t.Fatal("esc did not cancel the picker")
	}
	g.keys("s")
	for i := 0; i < n; i++ {
		g.keys("6")
	}
	g.wantOnScreen(fmt.Sprintf("(%d of %d placed)", n, n), "×0 unless filled")
	g.keys("enter")
	if m.picking || s.Sheets[0].Marked[4] != uint8(n) {
		t.Fatalf("after enter: picking %v, row 6 marked %d", m.picking, s.Sheets[0].Marked[4])
	}
	if !s.RefillDue {
		t.Fatal("a star choice must make the refill due")
	}
	g.wantOnScreen(fmt.Sprintf("ann took %d stars: %d multipliers in row 6", n, n), "refill due")

	// bob's turn begins with the refill: r toggles the reserve going back.
	g.wantOnScreen("[r] also put the reserve back: no")
	g.keys("r")
	g.wantOnScreen("[r] also put the reserve back: yes")
	if s.NReserve > 0 {
		want := checkMessage(t, g, dicestars.Draw(1, true))
		g.keys("1")
		if g.Message() != want {
			t.Fatalf("draw 1 with the reserve back: %q, want %q", g.Message(), want)
		}
	}
	g.keys("3")
	if s.NReserve != 3 || s.DiscardCount() != 0 {
		t.Fatalf("after the refill with the reserve back: reserve %d, discard %d", s.NReserve, s.DiscardCount())
	}
}

func TestQuitAsks(t *testing.T) {
	g := newGame(t, "ann,bob", 1, 120, 40)
	g.keys("q")
	g.wantOnScreen("Quit the game?", "[y] quit", "[n] keep playing")
	g.keys("3") // goes on playing: the key is not played
	if g.ds().Match().S.Phase != dicestars.PhaseDraw || g.Confirming() {
		t.Fatal("a key played while quit was asked, or left the question up")
	}
	g.keys("q", "n")
	if g.Quitting() || g.Confirming() {
		t.Fatal("n did not cancel")
	}
	g.keys("q")
	_, cmd := g.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok || !g.Quitting() {
		t.Fatal("y did not quit")
	}
}

// actionKeys are the keys a person types for a legal action.
func actionKeys(m *DiceStars, a dicestars.Action) []string {
	switch a.Type {
	case dicestars.ActDraw:
		var k []string
		if a.ReturnReserve != m.returnReserve {
			k = append(k, "r")
		}
		return append(k, fmt.Sprint(a.N))
	case dicestars.ActTakeColor:
		return []string{colorKey(a.Color)}
	case dicestars.ActTakeValue:
		return []string{fmt.Sprint(a.Value)}
	}
	k := []string{"s"}
	for r, n := range a.Mult {
		for i := 0; i < int(n); i++ {
			k = append(k, fmt.Sprint(m.layout.RowValues[r]))
		}
	}
	return append(k, "enter")
}

// playByKeys plays every person's turn by typing the keys of a random legal
// action (bots play themselves) until the game ends.
func playByKeys(t *testing.T, g *table, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
	m := g.ds()
	s := &m.Match().S
	for turns := 0; !s.Over(); turns++ {
		if turns > 2000 {
			t.Fatal("the game does not end")
		}
		if m.currentSeat().IsBot() {
			t.Fatalf("a bot's turn is waiting (phase %v)", s.Phase)
		}
		legal := s.LegalActions(nil)
		a := legal[rng.IntN(len(legal))]
		before := len(g.Record().Moves)
		g.keys(actionKeys(m, a)...)
		if g.isErr() {
			t.Fatalf("keys for %v refused: %s", a, g.Message())
		}
		if len(g.Record().Moves) <= before {
			t.Fatalf("keys for %v played nothing", a)
		}
	}
}

// checkRecord replays the record through the engine and compares.
func checkRecord(t *testing.T, g *table, rec engine.Record) {
	t.Helper()
	st, err := engine.Replay(dicestars.Game{}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.(*dicestars.Match).Report(), g.ds().Match().Report(); !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed record differs:\n%+v\n%+v", got, want)
	}
}

// TestHotSeatGame: two people and a bot play a whole game, the people by
// keys. The end screen shows every row's score and the winner; the record
// written replays to the same game.
func TestHotSeatGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	g := newGame(t, "ann,bob,bot:random", 11, 120, 60, func(c *Config) { c.RecordPath = path })
	playByKeys(t, g, 11)
	m := g.ds()
	rep := m.Match().Report()
	g.wantOnScreen("Game over", "row 2", "row 6", "penalty", "total", m.Outcome(), "Record saved to "+path)
	if !strings.HasPrefix(m.Outcome(), "Winner: ") && !strings.HasPrefix(m.Outcome(), "Shared win: ") {
		t.Fatalf("outcome %q", m.Outcome())
	}
	for _, w := range rep.Winners {
		if !strings.Contains(m.Outcome(), w) {
			t.Fatalf("outcome %q does not name winner %s", m.Outcome(), w)
		}
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var rec engine.Record
	if err := json.Unmarshal(data, &rec); err != nil {
		t.Fatal(err)
	}
	if rec.Game != "dicestars" || rec.Seed != 11 || !reflect.DeepEqual(rec.Players, []string{"ann", "bob", "random"}) {
		t.Fatalf("record header %+v", rec)
	}
	checkRecord(t, g, rec)
	if !strings.Contains(g.Summary(), "Record saved to "+path) {
		t.Fatalf("summary %q", g.Summary())
	}
	g.keys("x")
	if g.Message() != "the game is over: r reviews it, s saves the record, q quits" {
		t.Fatalf("key after the end: %q", g.Message())
	}
}

// TestBotsOnly: bots play a whole game by themselves, one visible step at a
// time; the log has a line per action.
func TestBotsOnly(t *testing.T) {
	g := newGame(t, "bot:random,bot:random,bot:random,bot:random", 3, 120, 50)
	if !g.ds().Match().S.Over() {
		t.Fatal("the bots did not finish")
	}
	if got, want := len(g.Log()), len(g.Record().Moves); got < want {
		t.Fatalf("%d log lines for %d moves", got, want)
	}
	g.wantOnScreen("Game over", g.ds().Outcome(), "[s] save the record to dicestars-3.json")
	checkRecord(t, g, g.Record())
	// Offer to save at the end: s writes the record.
	path := filepath.Join(t.TempDir(), "r.json")
	g.cfg.RecordPath = path
	g.keys("s")
	if _, err := os.Stat(path); err != nil {
		t.Fatal(err)
	}
	g.wantOnScreen("Record saved to " + path)
}

// TestSolo plays the solo variant to its end by keys: the solo grid shows,
// and the end says win or loss against the virtual opponent, and why.
func TestSolo(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		g := newGame(t, "ann", seed, 110, 40, func(c *Config) { c.Options = []byte(`{"soloGrid":20}`) })
		g.wantOnScreen("Solo grid □□□□□ □□□□□ □□□□□ □□□□□ 0/20 crossed · virtual opponent 0")
		playByKeys(t, g, seed)
		out := g.ds().Outcome()
		so := g.ds().Match().Report().Players[0].Solo
		switch {
		case so.Lost:
			if !strings.Contains(out, "ann loses: the last of the 20 solo-grid cells was crossed out") {
				t.Fatalf("lost game: %q", out)
			}
		case strings.Contains(out, "ann wins: "):
		case strings.Contains(out, "ann loses: "):
		default:
			t.Fatalf("solo outcome %q", out)
		}
		g.wantOnScreen(out)
	}
}

// TestBotDelay: a bot's step is played once the bot delay has passed in
// game time, each step of its turn on its own (the roll waits a delay after
// the draw); an answer for a game that moved on is dropped, and keys during
// a bot's turn get the engine's refusal.
func TestBotDelay(t *testing.T) {
	g := openTable(t, "dicestars", seatsOf(t, "dicestars", "bot:random,ann", 1), 1, "", 120, 40,
		func(c *Config) { c.BotDelay = 30 * time.Millisecond })
	// The decision runs in its own command.
	cmd := g.Init()
	g.wantOnScreen("random (bot) is deciding how many dice to draw…")
	g.run(cmd)
	if len(g.Record().Moves) != 0 {
		t.Fatal("the bot played before its delay")
	}
	g.advance(29)
	if len(g.Record().Moves) != 0 {
		t.Fatal("the bot played before its delay")
	}
	g.advance(1)
	m := g.ds().Match()
	if m.S.Phase != dicestars.PhaseRoll {
		t.Fatalf("phase %v after the bot's draw", m.S.Phase)
	}
	if lm := g.Record().Moves[0]; lm.At != 30 {
		t.Fatalf("the draw is stamped at %d ms, want 30", lm.At)
	}
	g.wantOnScreen("random (bot) is rolling…", "random draws 3 dice…")
	// A stale answer changes nothing.
	before := m.S
	g.send(botAnswer{gen: 0, seat: 0, move: engine.Move{Seat: 0, At: 30, Action: dicestars.Draw(3, false)}})
	g.advance(29)
	if m.S != before {
		t.Fatal("a stale bot answer was played, or the roll came early")
	}
	g.advance(1)
	if m.S.Phase != dicestars.PhaseTake {
		t.Fatalf("phase %v after the bot's roll", m.S.Phase)
	}
	// Keys during a bot's turn are refused by the engine: not ann's turn.
	g.press("b")
	if g.Message() != "it is random's turn, not yours" {
		t.Fatalf("key in a bot's turn: %q", g.Message())
	}
}

// badBot returns an illegal action or panics.
type badBot struct{ panics bool }

func (b badBot) Name() string { return "bad" }
func (b badBot) Decide(*dicestars.State) dicestars.Action {
	if b.panics {
		panic("boom")
	}
	return dicestars.Draw(1, false)
}

func TestBadBotDoesNotStopTheGame(t *testing.T) {
	for _, panics := range []bool{false, true} {
		seats := []Seat{{Name: "bad", BotKind: "bad", Bot: dicestars.Controller{Bot: badBot{panics}}}, {Name: "ann"}}
		g := newTable(t, "dicestars", seats, 1, "", 120, 40)
		g.settle()
		want := "bad: the reserve is empty or shows only stars, so you must draw 3 dice; playing draw 3 instead"
		if panics {
			want = "bad: the bot failed: boom; playing draw 3 instead"
		}
		if g.Log()[0] != want {
			t.Fatalf("log %q, want %q", g.Log()[0], want)
		}
		if g.ds().Match().S.Current != 1 {
			t.Fatal("the game did not go on to ann")
		}
	}
}

// TestColoursShown: cells and dice carry their colours (the goldens strip
// them).
func TestColoursShown(t *testing.T) {
	g := newGame(t, "ann,bob", 1, 120, 40)
	g.keys("3")
	raw := g.View().Content
	for _, c := range []string{"48;2;230;126;34", "48;2;46;111;216", "48;2;30;107;52", "38;2;244;208;63"} {
		if !strings.Contains(raw, c) {
			t.Errorf("no %s colour on screen", c)
		}
	}
	if v := g.View(); !v.AltScreen {
		t.Error("not full-screen")
	}
}

// TestKeysNeverPlayForABot: in a bots-only game a key that would be a legal
// move for the bot to act is not played for it.
func TestKeysNeverPlayForABot(t *testing.T) {
	g := newTable(t, "dicestars", seatsOf(t, "dicestars", "bot:random,bot:random", 1), 1, "", 120, 40,
		func(c *Config) { c.BotDelay = time.Hour }) // the bot's first step is an hour away
	_, cmd := g.Update(keyMsg("3"))
	if cmd != nil || len(g.Record().Moves) != 0 || g.ds().Match().S.Phase != dicestars.PhaseDraw {
		t.Fatal("a key played the bot's move")
	}
	if g.Message() != "random (bot) is playing: watch, or q to quit" {
		t.Fatalf("message %q", g.Message())
	}
}

// With the rows in another order (the layout option), a row key still
// names the row of that value: the star lands in row 6, wherever the sheet
// prints it.
func TestStarPickerOtherLayout(t *testing.T) {
	l := dicestars.DefaultLayout
	slices.Reverse(l.RowValues[:])
	slices.Reverse(l.Green[:])
	slices.Reverse(l.Multipliers[:])
	opts, err := json.Marshal(dicestars.Options{Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	seed := starSeed(t, 1)
	g := newTable(t, "dicestars", seatsOf(t, "dicestars", "ann,bob", seed), seed, string(opts), 120, 40)
	g.settle()
	m := g.ds()
	s := &m.Match().S
	g.keys("3", "s")
	for range m.pickStars {
		g.keys("6")
	}
	g.keys("enter")
	row6 := l.RowOf(6)
	if m.picking || s.Sheets[0].Marked[row6] == 0 {
		t.Fatalf("after enter: picking %v, marked %v (row 6 is row %d here); %q", m.picking, s.Sheets[0].Marked, row6, g.Message())
	}
}
