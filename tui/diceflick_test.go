package tui

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// aimBot is a test bot: it flicks its first die at the first free hole a
// perfect hand reaches, takes the bonus flick, and scores the best offer.
type aimBot struct{}

func (aimBot) Name() string { return "aim" }

func (aimBot) Choose(view any, legal []engine.Action) (engine.Action, error) {
	v := view.(diceflick.View)
	if v.Best != nil && (v.Phase == "score") {
		ch, err := v.Best.Choice.Choice()
		return diceflick.Action{Type: diceflick.ActScore, Choice: ch}, err
	}
	for h := range diceflick.Holes {
		if v.Arena[h/diceflick.Cols][h%diceflick.Cols] != "" {
			continue
		}
		if f, ok := physics.DefaultArena.AimBest(h); ok {
			return diceflick.Action{Type: diceflick.ActFlick, Die: 0, Flick: f}, nil
		}
	}
	return legal[0], nil
}

// dfGame is a test table: the model and the test; the test sends the
// frames.
type dfGame struct {
	t testing.TB
	m *Diceflick
}

func newDF(t testing.TB, seats []DiceflickSeat, seed uint64, opts string, w, h int) *dfGame {
	t.Helper()
	cfg := DiceflickConfig{Seats: seats, Seed: seed, ManualTicks: true}
	if opts != "" {
		cfg.Options = json.RawMessage(opts)
	}
	m, err := NewDiceflick(cfg)
	if err != nil {
		t.Fatal(err)
	}
	g := &dfGame{t: t, m: m}
	g.send(tea.WindowSizeMsg{Width: w, Height: h})
	g.run(m.Init())
	return g
}

func dfPeople(names ...string) []DiceflickSeat {
	var out []DiceflickSeat
	for _, n := range names {
		if n == "bot" {
			out = append(out, DiceflickSeat{Name: "robo", BotKind: "aim", Bot: aimBot{}})
			continue
		}
		out = append(out, DiceflickSeat{Name: n})
	}
	return out
}

func (g *dfGame) send(msg tea.Msg) {
	g.t.Helper()
	_, cmd := g.m.Update(msg)
	g.run(cmd)
}

// run executes commands the way the program would, synchronously (no
// frames are scheduled: ManualTicks).
func (g *dfGame) run(cmd tea.Cmd) {
	g.t.Helper()
	queue := []tea.Cmd{cmd}
	for steps := 0; len(queue) > 0; steps++ {
		if steps > 10000 {
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
			_, next := g.m.Update(msg)
			queue = append(queue, next)
		}
	}
}

func dfKey(k string) tea.KeyPressMsg {
	codes := map[string]rune{"left": tea.KeyLeft, "right": tea.KeyRight, "up": tea.KeyUp, "down": tea.KeyDown}
	if base, ok := strings.CutPrefix(k, "shift+"); ok {
		if c, ok := codes[base]; ok {
			return tea.KeyPressMsg{Code: c, Mod: tea.ModShift}
		}
	}
	if c, ok := codes[k]; ok {
		return tea.KeyPressMsg{Code: c}
	}
	if k == "space" {
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	}
	return keyMsg(k)
}

func (g *dfGame) press(keys ...string) {
	g.t.Helper()
	for _, k := range keys {
		g.send(dfKey(k))
	}
}

func (g *dfGame) ticks(n int) {
	g.t.Helper()
	for range n {
		g.send(DiceflickTick{})
	}
}

// settle sends frames until no animation runs and no bot move waits.
func (g *dfGame) settle() {
	g.t.Helper()
	for i := 0; g.m.Animating() || g.m.botAction != nil; i++ {
		if i > 5000 {
			g.t.Fatal("the animation never ends")
		}
		g.send(DiceflickTick{})
	}
}

func (g *dfGame) screen() string { return ansi.Strip(g.m.View().Content) }

func (g *dfGame) wantOnScreen(texts ...string) {
	g.t.Helper()
	s := g.screen()
	for _, x := range texts {
		if !strings.Contains(s, x) {
			g.t.Fatalf("screen lacks %q:\n%s", x, s)
		}
	}
}

// lastMove is the last move of the record, decoded.
func (g *dfGame) lastMove() (engine.Seat, diceflick.Action) {
	g.t.Helper()
	r := g.m.Record()
	lm := r.Moves[len(r.Moves)-1]
	a, err := diceflick.DecodeAction(lm.Action)
	if err != nil {
		g.t.Fatal(err)
	}
	return lm.Seat, a
}

func TestDiceflickAimKeys(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	g.press("3", "b", "b", "left", "shift+left", "up", "shift+up", "down")
	die, f := g.m.Aim()
	want := physics.Flick{Base: 2, Angle: 6 * math.Pi / 180, Power: 0.6}
	if die != 2 || f.Base != want.Base || math.Abs(f.Angle-want.Angle) > 1e-9 || math.Abs(f.Power-want.Power) > 1e-9 {
		t.Fatalf("aim = die %d %+v, want die 2 %+v", die, f, want)
	}
	g.wantOnScreen("AIM die 3", "base 2 north", "angle +6°", "power 0.60")
	// The base cycles back; shift+b steps back.
	g.press("b", "b", "B")
	if _, f := g.m.Aim(); f.Base != 3 {
		t.Fatalf("base after b b B = %d, want 3", f.Base)
	}
	// The angle stops at the rules' limit.
	for range 30 {
		g.press("shift+right")
	}
	if _, f := g.m.Aim(); math.Abs(f.Angle+diceflick.DefaultComponents.MaxAngle) > 1e-9 {
		t.Fatalf("angle = %v, want the limit -%v", f.Angle, diceflick.DefaultComponents.MaxAngle)
	}
	// No die 7; sliding needs the children's variant.
	g.press("7")
	g.wantOnScreen("no die 7")
	g.press("]")
	g.wantOnScreen("--shift-bases")
	moves := len(g.m.Record().Moves)
	g.press("space")
	_, a := g.lastMove()
	if len(g.m.Record().Moves) <= moves {
		t.Fatal("space did not flick")
	}
	// The flick is followed by its landing (chance); the flick before it is ann's.
	r := g.m.Record()
	fa, _ := diceflick.DecodeAction(r.Moves[moves].Action)
	if fa.Type != diceflick.ActFlick || fa.Die != 2 || fa.Flick.Base != 3 || r.Moves[moves].Seat != 0 {
		t.Fatalf("flick move = %+v seat %d", fa, r.Moves[moves].Seat)
	}
	if a.Type != diceflick.ActLand {
		t.Fatalf("last move is a %s, want the landing", a.Kind())
	}
}

func TestDiceflickShiftBases(t *testing.T) {
	g := newDF(t, dfPeople("ann"), 3, `{"shiftBases":true}`, 100, 30)
	g.press("]", "]", "]", "[")
	if _, f := g.m.Aim(); math.Abs(f.Offset-0.2) > 1e-9 {
		t.Fatalf("offset = %v, want 0.2", f.Offset)
	}
	g.wantOnScreen("offset +0.2", "sliding bases")
}

// TestDiceflickAnimation: the landing plays back along its path, two path
// points (PathStepMillis 20) per 40 ms frame, then the die settles and the
// screen says where.
func TestDiceflickAnimation(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	g.press("space")
	if !g.m.Animating() {
		t.Fatal("no animation after the flick")
	}
	n := len(g.m.anim.path)
	if n < 3 {
		t.Fatalf("path of %d points", n)
	}
	g.wantOnScreen("die is rolling")
	frames := (n - 1 + 1) / 2
	g.ticks(frames - 1)
	if !g.m.Animating() {
		t.Fatalf("the animation ended before %d frames", frames)
	}
	// Keys other than space wait while the die rolls.
	g.press("b")
	if _, f := g.m.Aim(); f.Base != 0 {
		t.Fatal("a key changed the aim during the animation")
	}
	g.ticks(1)
	if g.m.Animating() {
		t.Fatalf("the animation runs past %d frames", frames)
	}
	if !strings.Contains(g.m.Message(), "the ") || g.screen() == "" {
		t.Fatalf("no landing message: %q", g.m.Message())
	}
	g.wantOnScreen(g.m.Message())
}

// scoringArena puts ann at the scoring with blue dice on 0,0–0,2, a white
// joker on 0,3 and yellow dice on 0,4 and 1,4: the joker may join the blue
// or the yellow group, not both.
func scoringArena(g *dfGame) {
	s := &g.m.match.S
	s.Arena[0] = diceflick.MakeCell(diceflick.Blue, 2)
	s.Arena[1] = diceflick.MakeCell(diceflick.Blue, 3)
	s.Arena[2] = diceflick.MakeCell(diceflick.Blue, 1)
	s.Arena[3] = diceflick.MakeCell(diceflick.White, 6)
	s.Arena[4] = diceflick.MakeCell(diceflick.Yellow, 5)
	s.Arena[9] = diceflick.MakeCell(diceflick.Yellow, 4)
	s.Phase, s.FlicksLeft = diceflick.PhaseScore, 0
	g.m.enterTurn()
}

func TestDiceflickScoringRefusedThenBest(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	scoringArena(g)
	b := g.m.s().Board()
	best, _ := b.Solve()
	g.wantOnScreen("SCORING", fmt.Sprintf("best offer %d", best), "(the best)")
	// Switch on every group: the joker's two groups overlap.
	for i, p := range g.m.parts {
		if p.kind == "group" && !p.on {
			g.m.cursor = i
			g.press("space")
		}
	}
	g.wantOnScreen("this choice is refused")
	moves := len(g.m.Record().Moves)
	g.press("enter")
	if len(g.m.Record().Moves) != moves {
		t.Fatal("a refused choice was recorded")
	}
	if !strings.Contains(g.m.Message(), "is in two groups") {
		t.Fatalf("message = %q, want the engine's reason", g.m.Message())
	}
	g.wantOnScreen("✗ " + g.m.Message())
	// r brings the best offer back; enter scores it.
	g.press("r", "enter")
	if got := g.m.s().Totals[0]; got != best {
		t.Fatalf("ann scored %d, want the best %d", got, best)
	}
	g.wantOnScreen(fmt.Sprintf("ann scores %d", best))
}

func TestDiceflickScoreLess(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	scoringArena(g)
	// The first part is the best offer's group; switching it off scores
	// the rest only.
	b := g.m.s().Board()
	best, _ := b.Solve()
	g.press("space")
	ch := g.m.Choice()
	_, want, err := b.Evaluate(&ch)
	if err != nil {
		t.Fatal(err)
	}
	g.press("enter")
	if got := g.m.s().Totals[0]; got != want || want >= best {
		t.Fatalf("ann scored %d, want %d (less than the best %d)", got, want, best)
	}
	g.wantOnScreen("was on offer")
}

// TestDiceflickFullGame plays a short game, a person against the test bot,
// with fake frames; the record replays to the same totals.
func TestDiceflickFullGame(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "game.json")
	cfgSeats := dfPeople("ann", "bot")
	m, err := NewDiceflick(DiceflickConfig{Seats: cfgSeats, Seed: 11, ManualTicks: true,
		Options: json.RawMessage(`{"rounds":3}`), RecordPath: path})
	if err != nil {
		t.Fatal(err)
	}
	g := &dfGame{t: t, m: m}
	g.send(tea.WindowSizeMsg{Width: 100, Height: 30})
	g.run(m.Init())
	sawBotAim := false
	for steps := 0; !g.m.s().Over(); steps++ {
		if steps > 2000 {
			t.Fatal("the game does not end")
		}
		switch {
		case g.m.Animating():
			g.ticks(1)
		case g.m.botOnTurn():
			if b := g.m.botAction; b != nil && b.Type == diceflick.ActFlick {
				if strings.Contains(g.screen(), "robo takes aim") {
					sawBotAim = true
				}
			}
			g.ticks(1)
		case g.m.scoring:
			g.press("enter")
		default:
			g.press("shift+down", "space") // a soft flick: it stays in the box
		}
	}
	if !sawBotAim {
		t.Error("the bot's aim was never shown before its flick")
	}
	g.wantOnScreen("GAME OVER", "record saved to "+path)
	rep := g.m.match.Report()
	for _, p := range rep.Players {
		if len(p.Scores) != 3 {
			t.Fatalf("%s has %d round scores, want 3", p.Name, len(p.Scores))
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
	st, err := engine.Replay(diceflick.Game{}, rec)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.Result().Scores, g.m.match.Result().Scores; got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("replayed scores %v, played %v", got, want)
	}
	if s := g.m.Summary(); !strings.Contains(s, "won") && !strings.Contains(s, " and ") {
		t.Fatalf("summary %q names no winner", s)
	}
	// After the end, q quits.
	g.press("q")
	if !g.m.Quitting() {
		t.Fatal("q does not quit after the game")
	}
}

func TestDiceflickQuitAsks(t *testing.T) {
	g := newDF(t, dfPeople("ann"), 3, "", 100, 30)
	g.press("q")
	g.wantOnScreen("quit the game?")
	g.press("n")
	if g.m.Quitting() {
		t.Fatal("n quit the game")
	}
	g.press("q", "y")
	if !g.m.Quitting() {
		t.Fatal("q y did not quit")
	}
}

func TestParseDiceflickPlayers(t *testing.T) {
	bots := diceflick.Game{}
	seats, err := ParseDiceflickPlayers("ann,bot:hard", 1, bots)
	if err != nil {
		t.Fatal(err)
	}
	if len(seats) != 2 || seats[0].IsBot() || !seats[1].IsBot() || seats[1].Name != "hard" {
		t.Fatalf("seats = %+v", seats)
	}
	for _, bad := range []string{"ann,bot:genius", "a,b,c,d,e", "ann,ann"} {
		if _, err := ParseDiceflickPlayers(bad, 1, bots); err == nil {
			t.Errorf("%q was accepted", bad)
		}
	}
	if _, err := ParseDiceflickPlayers("ann,bot:hard", 1, nil); err == nil {
		t.Error("a bot was seated without bots")
	}
}
