package tui

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// fixedClock makes move stamps reproducible.
func fixedClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// newGame sets up a client the way `dicehall play` does, with no bot delay,
// a fixed clock and a fixed screen size.
func newGame(t testing.TB, players string, seed uint64, w, h int, edit ...func(*Config)) *DiceStars {
	t.Helper()
	seats, err := ParsePlayers(players, seed)
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Seats: seats, Seed: seed, Now: fixedClock}
	for _, e := range edit {
		e(&cfg)
	}
	m, err := NewDiceStars(cfg)
	if err != nil {
		t.Fatal(err)
	}
	send(t, m, tea.WindowSizeMsg{Width: w, Height: h})
	run(t, m, m.Init())
	return m
}

// send delivers a message and runs every command it leads to, the way the
// Bubble Tea program would (synchronously; bot delays are zero in tests).
func send(t testing.TB, m *DiceStars, msg tea.Msg) {
	t.Helper()
	_, cmd := m.Update(msg)
	run(t, m, cmd)
}

func run(t testing.TB, m *DiceStars, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			t.Fatal("commands do not settle")
		}
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		switch msg := c().(type) {
		case tea.BatchMsg:
			queue = append(queue, msg...)
		case tea.QuitMsg:
		default:
			_, next := m.Update(msg)
			queue = append(queue, next)
		}
	}
}

// keyMsg builds the key press a terminal would report.
func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func press(t testing.TB, m *DiceStars, keys ...string) {
	t.Helper()
	for _, k := range keys {
		send(t, m, keyMsg(k))
	}
}

// screen is the rendered screen without colours.
func screen(m *DiceStars) string { return ansi.Strip(m.View().Content) }

// checkMessage is the engine's refusal of a move by the current player.
func checkMessage(t *testing.T, m *DiceStars, a dicestars.Action) string {
	t.Helper()
	err := m.Match().Check(engine.Move{Seat: engine.Seat(m.Match().S.Current), Action: a})
	if err == nil {
		t.Fatalf("%v is legal; the test wants a refusal", a)
	}
	re, ok := engine.AsRuleError(err)
	if !ok {
		t.Fatalf("%v refused without a RuleError: %v", a, err)
	}
	return re.Message
}

func wantOnScreen(t *testing.T, m *DiceStars, texts ...string) {
	t.Helper()
	s := screen(m)
	for _, x := range texts {
		if !strings.Contains(s, x) {
			t.Fatalf("screen lacks %q:\n%s", x, s)
		}
	}
}

func TestKeysKnown(t *testing.T) {
	for _, k := range []string{"enter", "esc", "backspace", "tab", "ctrl+c", "q", "3"} {
		if got := keyMsg(k).String(); got != k {
			t.Errorf("key %q reads as %q", k, got)
		}
	}
}

func TestParsePlayers(t *testing.T) {
	seats, err := ParsePlayers("ann, bob=bot:random ,bot:random,bot:random", 7)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seats {
		got = append(got, fmt.Sprintf("%s/%s/%v", s.Name, s.BotKind, s.IsBot()))
	}
	want := []string{"ann//false", "bob/random/true", "random/random/true", "random 2/random/true"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	for spec, wantErr := range map[string]string{
		"ann,bot:nosuch":    `unknown dice stars bot "nosuch"`,
		"a,b,c,d,e":         "1 to 4 players",
		"ann,,bob":          "player 2 has no name",
		"ann,Ann":           `two players are named "Ann"`,
		"ann,x=bot:nothing": `unknown dice stars bot "nothing"`,
	} {
		if _, err := ParsePlayers(spec, 1); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%q: error %v, want %q", spec, err, wantErr)
		}
	}
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
	m := newGame(t, "ann,bob", 1, 120, 40)
	s := &m.Match().S
	wantOnScreen(t, m, "▶ ann to play", "ann, draw dice from the bag", "[3] draw 3 dice", "Reserve empty", "Bag 14")

	refused := func(keys string, a dicestars.Action) {
		t.Helper()
		want := checkMessage(t, m, a)
		before := *s
		moves := len(m.Record().Moves)
		press(t, m, keys)
		if m.Message() != want {
			t.Fatalf("key %q: message %q, want the engine's %q", keys, m.Message(), want)
		}
		wantOnScreen(t, m, "✗ "+want)
		if *s != before || len(m.Record().Moves) != moves {
			t.Fatalf("key %q changed the game", keys)
		}
	}
	refused("1", dicestars.Draw(1, false))                       // must draw 3 at the start
	refused("4", dicestars.Draw(4, false))                       // a draw is 1..3
	refused("k", dicestars.TakeColor(dicestars.Black))           // draw first
	refused("r", dicestars.Draw(3, true))                        // no refill due
	refused("s", dicestars.Action{Type: dicestars.ActTakeStars}) // draw first
	press(t, m, "x")
	if !strings.Contains(m.Message(), `the key "x" does nothing here`) {
		t.Fatalf("unknown key: message %q", m.Message())
	}

	press(t, m, "3")
	if s.Phase != dicestars.PhaseTake || s.NReserve != 3 {
		t.Fatalf("after 3: phase %v, reserve %d", s.Phase, s.NReserve)
	}
	if m.Message() != "" {
		t.Fatalf("a legal key left the message %q", m.Message())
	}
	var dice []string
	for _, d := range s.ReserveDice() {
		dice = append(dice, d.String())
	}
	wantOnScreen(t, m, "ann drew 3: "+strings.Join(dice, " "), "take all dice of one colour")
	for _, d := range s.ReserveDice() {
		name := d.Color().String() + " " + faceText(d.Face())
		wantOnScreen(t, m, name) // dice show their colour's name, not only the colour
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
	press(t, m, colorKey(take.Color))
	if s.Current != 1 || s.Phase != dicestars.PhaseDraw {
		t.Fatalf("after the take: current %d phase %v", s.Current, s.Phase)
	}
	if got := s.Sheets[0].Total(s.L); got != total {
		t.Fatalf("ann's total %d, want %d", got, total)
	}
	wantOnScreen(t, m, "▶ bob to play", fmt.Sprintf("ann took %s", take.Color), fmt.Sprintf("total %d", total))
}

// TestDigitIsValueAfterRoll: digits announce draws, then choose values.
func TestDigitIsValueAfterRoll(t *testing.T) {
	m := newGame(t, "ann,bob", 1, 120, 40)
	press(t, m, "3")
	a, ok := m.actionFor("5")
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
	m := newGame(t, "ann,bob", seed, 120, 40)
	s := &m.Match().S
	press(t, m, "3", "s")
	if !m.picking || m.pickStars < 2 {
		t.Fatalf("s did not open the picker for %d stars", m.pickStars)
	}
	n := m.pickStars
	wantOnScreen(t, m, fmt.Sprintf("place %d stars on multiplier rows (0 of %d placed)", n, n), "[2] row 2", "[enter] confirm")

	// Confirming too early: the engine says how many cells to mark.
	early := dicestars.Action{Type: dicestars.ActTakeStars}
	early.Mult[0] = 1
	want := checkMessage(t, m, early)
	press(t, m, "2", "enter")
	if m.Message() != want || !m.picking {
		t.Fatalf("early enter: message %q (want %q), picking %v", m.Message(), want, m.picking)
	}
	// Row 2 has two multiplier cells; a third star there is refused.
	press(t, m, "2")
	if n >= 3 {
		press(t, m, "2")
		if !strings.Contains(m.Message(), "row 2 has no unmarked multiplier cell left") {
			t.Fatalf("overfull row: message %q", m.Message())
		}
	}
	// Undo one, cancel, reopen, place them all in row 6.
	press(t, m, "backspace")
	if len(m.pickRows) != 1 {
		t.Fatalf("backspace: %d rows picked", len(m.pickRows))
	}
	press(t, m, "esc")
	if m.picking || s.Phase != dicestars.PhaseTake {
		t.Fatal("esc did not cancel the picker")
	}
	press(t, m, "s")
	for i := 0; i < n; i++ {
		press(t, m, "6")
	}
	wantOnScreen(t, m, fmt.Sprintf("(%d of %d placed)", n, n), "×0 unless filled")
	press(t, m, "enter")
	if m.picking || s.Sheets[0].Marked[4] != uint8(n) {
		t.Fatalf("after enter: picking %v, row 6 marked %d", m.picking, s.Sheets[0].Marked[4])
	}
	if !s.RefillDue {
		t.Fatal("a star choice must make the refill due")
	}
	rows := strings.TrimSuffix(strings.Repeat("6, ", n), ", ")
	wantOnScreen(t, m, fmt.Sprintf("ann took %d stars: multipliers in rows %s", n, rows), "refill due")

	// bob's turn begins with the refill: r toggles the reserve going back.
	wantOnScreen(t, m, "[r] also put the reserve back: no")
	press(t, m, "r")
	wantOnScreen(t, m, "[r] also put the reserve back: yes")
	if s.NReserve > 0 {
		want := checkMessage(t, m, dicestars.Draw(1, true))
		press(t, m, "1")
		if m.Message() != want {
			t.Fatalf("draw 1 with the reserve back: %q, want %q", m.Message(), want)
		}
	}
	press(t, m, "3")
	if s.NReserve != 3 || s.DiscardCount() != 0 {
		t.Fatalf("after the refill with the reserve back: reserve %d, discard %d", s.NReserve, s.DiscardCount())
	}
}

func TestQuitAsks(t *testing.T) {
	m := newGame(t, "ann,bob", 1, 120, 40)
	press(t, m, "q")
	wantOnScreen(t, m, "Quit the game?", "[y] quit", "[n] keep playing")
	press(t, m, "3") // ignored while asking
	if m.Match().S.Phase != dicestars.PhaseDraw {
		t.Fatal("a key played while quit was asked")
	}
	press(t, m, "n")
	if m.Quitting() || m.confirmQuit {
		t.Fatal("n did not cancel")
	}
	press(t, m, "q")
	_, cmd := m.Update(keyMsg("y"))
	if cmd == nil {
		t.Fatal("y returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok || !m.Quitting() {
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
func playByKeys(t *testing.T, m *DiceStars, seed uint64) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 99))
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
		before := len(m.Record().Moves)
		press(t, m, actionKeys(m, a)...)
		if m.msgIsError {
			t.Fatalf("keys for %v refused: %s", a, m.Message())
		}
		if len(m.Record().Moves) <= before {
			t.Fatalf("keys for %v played nothing", a)
		}
	}
}

// checkRecord replays the record through the engine and compares.
func checkRecord(t *testing.T, m *DiceStars, rec engine.Record) {
	t.Helper()
	st, err := engine.Replay(dicestars.Game{}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.(*dicestars.Match).Report(), m.Match().Report(); !reflect.DeepEqual(got, want) {
		t.Fatalf("replayed record differs:\n%+v\n%+v", got, want)
	}
}

// TestHotSeatGame: two people and a bot play a whole game, the people by
// keys. The end screen shows every row's score and the winner; the record
// written replays to the same game.
func TestHotSeatGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	m := newGame(t, "ann,bob,bot:random", 11, 120, 60, func(c *Config) { c.RecordPath = path })
	playByKeys(t, m, 11)
	rep := m.Match().Report()
	wantOnScreen(t, m, "Game over", "row 2", "row 6", "penalty", "total", m.Outcome(), "Record saved to "+path)
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
	checkRecord(t, m, rec)
	if !strings.Contains(m.Summary(), "Record saved to "+path) {
		t.Fatalf("summary %q", m.Summary())
	}
	press(t, m, "x")
	if m.Message() != "the game is over: s saves the record, q quits" {
		t.Fatalf("key after the end: %q", m.Message())
	}
}

// TestBotsOnly: bots play a whole game by themselves, one visible step at a
// time; the log has a line per action.
func TestBotsOnly(t *testing.T) {
	m := newGame(t, "bot:random,bot:random,bot:random,bot:random", 3, 120, 50)
	s := &m.Match().S
	if !s.Over() {
		t.Fatal("the bots did not finish")
	}
	if got, want := len(m.Log()), len(m.Record().Moves); got < want {
		t.Fatalf("%d log lines for %d moves", got, want)
	}
	wantOnScreen(t, m, "Game over", m.Outcome(), "[s] save the record to dicestars-3.json")
	checkRecord(t, m, m.Record())
	// Offer to save at the end: s writes the record.
	dir := t.TempDir()
	m.cfg.RecordPath = filepath.Join(dir, "r.json")
	press(t, m, "s")
	if _, err := os.Stat(m.cfg.RecordPath); err != nil {
		t.Fatal(err)
	}
	wantOnScreen(t, m, "Record saved to "+m.cfg.RecordPath)
}

// TestSolo plays the solo variant to its end by keys: the solo grid shows,
// and the end says win or loss against the virtual opponent, and why.
func TestSolo(t *testing.T) {
	for seed := uint64(0); seed < 6; seed++ {
		m := newGame(t, "ann", seed, 110, 40, func(c *Config) { c.SoloGrid = 20 })
		wantOnScreen(t, m, "Solo grid □□□□□ □□□□□ □□□□□ □□□□□ 0/20 crossed · virtual opponent 0")
		playByKeys(t, m, seed)
		out := m.Outcome()
		so := m.Match().Report().Players[0].Solo
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
		wantOnScreen(t, m, out)
	}
}

// TestBotDelay: a bot's step waits for a tea.Tick, and a step scheduled
// before the game moved on is dropped.
func TestBotDelay(t *testing.T) {
	seats, _ := ParsePlayers("bot:random,ann", 1)
	m, err := NewDiceStars(Config{Seats: seats, Seed: 1, BotDelay: 30 * time.Millisecond, Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	cmd := m.Init()
	start := time.Now()
	msg := cmd()
	if d := time.Since(start); d < 25*time.Millisecond {
		t.Fatalf("the bot step came after %v, not the delay", d)
	}
	if _, ok := msg.(botTurnMsg); !ok {
		t.Fatalf("got %T", msg)
	}
	// The decision runs in its own command.
	_, cmd = m.Update(msg)
	wantOnScreen(t, m, "random (bot) is deciding how many dice to draw…")
	move := cmd()
	if _, ok := move.(botMoveMsg); !ok {
		t.Fatalf("decision gave %T", move)
	}
	_, cmd = m.Update(move)
	if m.Match().S.Phase != dicestars.PhaseRoll {
		t.Fatalf("phase %v after the bot's draw", m.Match().S.Phase)
	}
	wantOnScreen(t, m, "random (bot) is rolling…", "random draws 3…")
	// A stale step changes nothing.
	before := m.Match().S
	m.Update(botTurnMsg{gen: 0})
	m.Update(chanceMsg{gen: 0})
	if m.Match().S != before {
		t.Fatal("a stale bot step was played")
	}
	_, _ = m.Update(cmd())
	if m.Match().S.Phase != dicestars.PhaseTake {
		t.Fatalf("phase %v after the bot's roll", m.Match().S.Phase)
	}
	// Keys during a bot's turn are refused by the engine: not ann's turn.
	press(t, m, "b")
	if m.Message() != "it is random's turn, not yours" {
		t.Fatalf("key in a bot's turn: %q", m.Message())
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
		seats := []Seat{{Name: "bad", BotKind: "bad", Bot: badBot{panics}}, {Name: "ann"}}
		m, err := NewDiceStars(Config{Seats: seats, Seed: 1, Now: fixedClock})
		if err != nil {
			t.Fatal(err)
		}
		run(t, m, m.Init())
		want := "bad: the reserve is empty or shows only stars, so you must draw 3 dice; playing draw 3 instead"
		if panics {
			want = "bad: the bot failed: boom; playing draw 3 instead"
		}
		if m.Log()[0] != want {
			t.Fatalf("log %q, want %q", m.Log()[0], want)
		}
	}
}

// TestColoursShown: cells and dice carry their colours (the goldens strip
// them).
func TestColoursShown(t *testing.T) {
	m := newGame(t, "ann,bob", 1, 120, 40)
	press(t, m, "3")
	raw := m.View().Content
	for _, c := range []string{"48;2;230;126;34", "48;2;46;111;216", "48;2;30;107;52", "38;2;244;208;63"} {
		if !strings.Contains(raw, c) {
			t.Errorf("no %s colour on screen", c)
		}
	}
	if v := m.View(); !v.AltScreen {
		t.Error("not full-screen")
	}
}

// TestKeysNeverPlayForABot: in a bots-only game a key that would be a legal
// move for the bot to act is not played for it.
func TestKeysNeverPlayForABot(t *testing.T) {
	seats, _ := ParsePlayers("bot:random,bot:random", 1)
	m, err := NewDiceStars(Config{Seats: seats, Seed: 1, BotDelay: time.Hour, Now: fixedClock})
	if err != nil {
		t.Fatal(err)
	}
	m.Init() // the bot's first step is now an hour away
	_, cmd := m.Update(keyMsg("3"))
	if cmd != nil || len(m.Record().Moves) != 0 || m.Match().S.Phase != dicestars.PhaseDraw {
		t.Fatal("a key played the bot's move")
	}
	if m.Message() != "random (bot) is playing: watch, or q to quit" {
		t.Fatalf("message %q", m.Message())
	}
}
