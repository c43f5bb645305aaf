package tui

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// fixedClock makes move stamps reproducible.
func fixedClock() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) }

// fakeClock is the wall clock of a test: it only moves when told.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time { return c.t }

// table is a test table: a shell with its registered board, a clock that
// moves only when told, and no self-scheduled clock steps.
type table struct {
	t   testing.TB
	clk *fakeClock
	*Shell
}

// newTable seats players at game id (from the registry) with the given
// options, no bot delay and a w×h screen, and starts it (the bots who act
// first are asked).
func newTable(t testing.TB, id string, seats []Seat, seed uint64, opts string, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	tt := openTable(t, id, seats, seed, opts, w, h, edit...)
	tt.run(tt.Init())
	return tt
}

// openTable is newTable without Init: a test that watches the first
// bots being asked runs Init's command itself.
func openTable(t testing.TB, id string, seats []Seat, seed uint64, opts string, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	g, ok := all.Registry.Lookup(id)
	if !ok {
		t.Fatalf("no game %s", id)
	}
	clk := &fakeClock{t: fixedClock()}
	cfg := Config{Game: g, Seats: seats, Seed: seed, ManualClock: true, Now: clk.now}
	if opts != "" {
		cfg.Options = []byte(opts)
	}
	for _, e := range edit {
		e(&cfg)
	}
	sh, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	tt := &table{t: t, clk: clk, Shell: sh}
	tt.send(tea.WindowSizeMsg{Width: w, Height: h})
	return tt
}

// seatsOf parses a player list for game id.
func seatsOf(t testing.TB, id, players string, seed uint64) []Seat {
	t.Helper()
	g, _ := all.Registry.Lookup(id)
	seats, err := ParsePlayers(g, players, seed)
	if err != nil {
		t.Fatal(err)
	}
	return seats
}

// send delivers a message and runs every command it leads to, the way the
// Bubble Tea program would (synchronously).
func (g *table) send(msg tea.Msg) {
	g.t.Helper()
	_, cmd := g.Update(msg)
	g.run(cmd)
}

func (g *table) run(cmd tea.Cmd) {
	g.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 100000 {
			g.t.Fatal("commands do not settle")
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
			_, next := g.Update(msg)
			queue = append(queue, next)
		}
	}
}

// keyMsg builds the key press a terminal would report.
func keyMsg(k string) tea.KeyPressMsg {
	codes := map[string]rune{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown,
		"enter": tea.KeyEnter, "esc": tea.KeyEscape, "backspace": tea.KeyBackspace, "tab": tea.KeyTab, "f1": tea.KeyF1, "f2": tea.KeyF2,
		"pgup": tea.KeyPgUp, "pgdown": tea.KeyPgDown, "home": tea.KeyHome, "end": tea.KeyEnd}
	if base, ok := strings.CutPrefix(k, "shift+"); ok {
		if c, ok := codes[base]; ok {
			return tea.KeyPressMsg{Code: c, Mod: tea.ModShift}
		}
	}
	if c, ok := codes[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	switch k {
	case "space", " ":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	case "ctrl+g":
		return tea.KeyPressMsg{Code: 'g', Mod: tea.ModCtrl}
	}
	r := []rune(k)
	if len(r) != 1 {
		panic("keyMsg: " + k)
	}
	return tea.KeyPressMsg{Code: r[0], Text: k}
}

func (g *table) press(keys ...string) {
	g.t.Helper()
	for _, k := range keys {
		g.send(keyMsg(k))
	}
}

// ticks sends n clock steps (the clock does not move).
func (g *table) ticks(n int) {
	g.t.Helper()
	for range n {
		g.send(tick{})
	}
}

// advance moves the wall clock on by ms and delivers a clock step.
func (g *table) advance(ms int64) {
	g.t.Helper()
	g.clk.t = g.clk.t.Add(time.Duration(ms) * time.Millisecond)
	g.send(tick{})
}

// settle sends clock steps while bots have something to play and no
// person is to act.
func (g *table) settle() {
	g.t.Helper()
	for i := 0; g.pending(); i++ {
		if i > 100000 {
			g.t.Fatal("the bots never settle")
		}
		g.send(tick{})
	}
}

// pending: a bot's move, nature's delayed step or a held board waits for
// the clock.
func (g *table) pending() bool {
	if g.over {
		return false
	}
	return len(g.decided) > 0 || g.chanceWait || g.holding()
}

// Message is the answer to the last key.
func (g *table) Message() string { m, _ := g.Shell.Message(); return m }

func (g *table) isErr() bool { _, e := g.Shell.Message(); return e }

// screen is the rendered screen without colours.
func (g *table) screen() string { return ansi.Strip(g.View().Content) }

func (g *table) wantOnScreen(texts ...string) {
	g.t.Helper()
	s := g.screen()
	for _, x := range texts {
		if !strings.Contains(s, x) {
			g.t.Fatalf("screen lacks %q:\n%s", x, s)
		}
	}
}

func TestKeysKnown(t *testing.T) {
	for _, k := range []string{"enter", "esc", "backspace", "tab", "ctrl+c", "q", "3", "left", "shift+up", "space", "f1"} {
		if got := keyMsg(k).String(); got != k {
			t.Errorf("key %q reads as %q", k, got)
		}
	}
}

// TestShellEveryBoard: every game with a board plays at the terminal sizes
// people have (80×24, 120×40): the screen fills exactly, the help overlay
// lists the game's keys and closes on a key, and quitting asks first.
func TestShellEveryBoard(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		if !HasBoard(id) {
			continue
		}
		g, _ := all.Registry.Lookup(id)
		for _, size := range [][2]int{{80, 24}, {120, 40}} {
			w, h := size[0], size[1]
			tt := newTable(t, id, seatsOf(t, id, "ann,bob", 1), 1, "", w, h)
			if spec := tt.board.Spec(); spec.MinWidth > w || spec.MinHeight > h {
				t.Fatalf("%s needs %d×%d, more than %d×%d", id, spec.MinWidth, spec.MinHeight, w, h)
			}
			checkSize(t, tt.screen(), w, h)
			moves := len(tt.Record().Moves) // nature's first moves
			tt.press("f1")
			tt.wantOnScreen("KEYS · "+strings.ToUpper(g.Info().Title), "f1      this help")
			checkSize(t, tt.screen(), w, h)
			// The game's clock stands still while the help covers the board.
			tt.advance(600_000)
			if tt.Now() != 0 || len(tt.Record().Moves) != moves {
				t.Fatalf("%s: behind the help, game time went on to %d ms", id, tt.Now())
			}
			tt.press("x")
			if strings.Contains(tt.screen(), "KEYS · ") || len(tt.Record().Moves) != moves {
				t.Fatalf("%s: the key that closes the help did more", id)
			}
			tt.advance(100)
			if tt.Now() != 100 {
				t.Fatalf("%s: after the help, game time is %d ms, want 100", id, tt.Now())
			}
			tt.press("q")
			if !tt.Confirming() {
				t.Fatalf("%s: q did not ask", id)
			}
			tt.press("n")
			if tt.Confirming() || tt.Quitting() {
				t.Fatalf("%s: n did not keep playing", id)
			}
			tt.press("q", "y")
			if !tt.Quitting() {
				t.Fatalf("%s: q y did not quit", id)
			}
		}
	}
}

func checkSize(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Fatalf("%d lines on a %d-line screen", len(lines), h)
	}
	for i, l := range lines {
		if n := len([]rune(l)); n > w {
			t.Fatalf("line %d is %d wide on a %d-wide screen: %q", i, n, w, l)
		}
	}
}

// TestWindowTooSmall: below a board's minimum size the shell says so
// instead of drawing a broken board, keys wait (ctrl+c still quits), and
// the board comes back when the window grows.
func TestWindowTooSmall(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		if !HasBoard(id) {
			continue
		}
		t.Run(id, func(t *testing.T) {
			tt := newTable(t, id, seatsOf(t, id, "ann,bob", 1), 1, "", 60, 15)
			out := tt.screen()
			checkSize(t, out, 60, 15)
			golden.RequireEqual(t, out)
			moves := len(tt.Record().Moves) // nature's first moves
			tt.press("1", "q")
			if len(tt.Record().Moves) != moves || tt.Confirming() {
				t.Fatal("a key did something in a window too small to show it")
			}
			// The game waits: its clock stands still.
			tt.advance(600_000)
			if tt.Now() != 0 || len(tt.Record().Moves) != moves {
				t.Fatalf("in a window too small, game time went on to %d ms", tt.Now())
			}
			spec := tt.board.Spec()
			tt.send(tea.WindowSizeMsg{Width: spec.MinWidth, Height: spec.MinHeight})
			if strings.Contains(tt.screen(), "The window is") {
				t.Fatal("the notice stays at the minimum size")
			}
			tt.advance(100)
			if tt.Now() != 100 {
				t.Fatalf("once the window grew, game time is %d ms, want 100", tt.Now())
			}
			tt.send(tea.WindowSizeMsg{Width: 60, Height: 15})
			tt.press("ctrl+c")
			if !tt.Quitting() {
				t.Fatal("ctrl+c does not quit in a small window")
			}
		})
	}
}

// TestParsePlayersAnyGame: one player list for every game: bot kinds come
// from the game's Info, and its seat bounds apply.
func TestParsePlayersAnyGame(t *testing.T) {
	ds, _ := all.Registry.Lookup("dicestars")
	seats, err := ParsePlayers(ds, "ann, bob=bot:random ,bot:random,bot:random", 7)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range seats {
		got = append(got, s.Name+"/"+s.BotKind+s.botLabel())
	}
	if want := "ann/ bob/random (bot random) random/random (bot) random 2/random (bot)"; strings.Join(got, " ") != want {
		t.Fatalf("got %q, want %q", strings.Join(got, " "), want)
	}
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		if len(info.Bots) > 0 {
			if _, err := ParsePlayers(g, DefaultPlayers(info), 1); err != nil {
				t.Errorf("%s: the default players: %v", id, err)
			}
		}
		_, err := ParsePlayers(g, "ann,bot:genius", 1)
		if err == nil || !strings.Contains(err.Error(), strings.Join(info.BotKinds(), ", ")) {
			t.Errorf("%s: an unknown bot: %v, want the kinds listed", id, err)
		}
		if _, err := ParsePlayers(g, strings.Repeat("a,", info.MaxPlayers)+"z", 1); err == nil {
			t.Errorf("%s: %d players accepted", id, info.MaxPlayers+1)
		}
		if n := info.MinPlayers - 1; n > 0 {
			if _, err := ParsePlayers(g, strings.TrimSuffix(strings.Repeat("a,", n), ","), 1); err == nil {
				t.Errorf("%s: %d players accepted", id, n)
			}
		}
		if info.DefaultBot == "" {
			continue
		}
		seats, err := ParsePlayers(g, "ann,bot:"+info.DefaultBot, 1)
		if err != nil || len(seats) != 2 || seats[0].IsBot() || !seats[1].IsBot() || seats[1].Name != info.DefaultBot {
			t.Errorf("%s: ann and the default bot: %+v %v", id, seats, err)
		}
		// A game that lists bots but cannot seat them (no BotProvider).
		if _, err := ParsePlayers(noBots{g}, "ann,bot:"+info.DefaultBot, 1); err == nil || !strings.Contains(err.Error(), "has no bots") {
			t.Errorf("%s: a bot without a provider: %v", id, err)
		}
	}
	for spec, wantErr := range map[string]string{
		"ann,,bob":          "player 2 has no name",
		"ann,Ann":           `two players are named "Ann"`,
		"ann,x=bot:nothing": `Dice Stars has no bot "nothing"`,
	} {
		if _, err := ParsePlayers(ds, spec, 1); err == nil || !strings.Contains(err.Error(), wantErr) {
			t.Errorf("%q: error %v, want %q", spec, err, wantErr)
		}
	}
}

// noBots is a game without its BotProvider.
type noBots struct{ engine.Game }

// TestShellLogIsTheNarration: bots play a whole game of every game at the
// terminal, and the log is exactly the game's own narration of every
// event of the record (less what the board keeps in view): no line of the
// shell's own, no raw event, no bot fallback.
func TestShellLogIsTheNarration(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		if !HasBoard(id) {
			continue
		}
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		t.Run(id, func(t *testing.T) {
			bots := make([]string, min(max(info.MinPlayers, 2), info.MaxPlayers))
			for i := range bots {
				bots[i] = "bot:" + info.DefaultBot
			}
			tt := newTable(t, id, seatsOf(t, id, strings.Join(bots, ","), 3), 3, "", 120, 40)
			for i := 0; !tt.Over(); i++ {
				if i > 100000 {
					t.Fatal("the bots do not finish")
				}
				tt.advance(100)
			}
			rec := tt.Record()
			st, err := g.New(rec.Players, rec.Options)
			if err != nil {
				t.Fatal(err)
			}
			shown, _ := tt.board.(OnBoard)
			var want []string
			for _, lm := range rec.Moves {
				a, err := g.DecodeAction(lm.Action)
				if err != nil {
					t.Fatal(err)
				}
				ev, err := st.Apply(engine.Move{Seat: lm.Seat, At: lm.At, Action: a})
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range ev {
					if shown == nil || !shown.OnBoard(e) {
						want = append(want, engine.Describe(g, e, rec.Players)...)
					}
				}
			}
			if got := tt.Log(); strings.Join(got, "\n") != strings.Join(want, "\n") {
				t.Fatalf("the log (%d lines) is not the narration (%d lines):\n%s\n---\n%s", len(got), len(want), strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			for _, l := range want {
				if strings.ContainsAny(l, "{}") {
					t.Errorf("a raw line in the narration: %q", l)
				}
			}
		})
	}
}
