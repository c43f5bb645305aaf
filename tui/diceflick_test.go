package tui

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"charm.land/lipgloss/v2"
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

// newDF sets up a Diceflick table: the test sends the frames.
func newDF(t testing.TB, seats []Seat, seed uint64, opts string, w, h int, edit ...func(*Config)) *table {
	t.Helper()
	return newTable(t, "diceflick", seats, seed, opts, w, h, edit...)
}

// dfPeople seats a person per name; "bot" seats the test bot robo.
func dfPeople(names ...string) []Seat {
	var out []Seat
	for _, n := range names {
		if n == "bot" {
			out = append(out, Seat{Name: "robo", BotKind: "aim", Bot: aimBot{}})
			continue
		}
		out = append(out, Seat{Name: n})
	}
	return out
}

// df is the table's Diceflick board.
func (g *table) df() *Diceflick { return g.board.(*Diceflick) }

// lastAction is the last move of the record, decoded.
func (g *table) lastAction() (engine.Seat, diceflick.Action) {
	g.t.Helper()
	r := g.Record()
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
	die, f := g.df().Aim()
	want := physics.Flick{Base: 2, Angle: 6 * math.Pi / 180, Power: 0.6}
	if die != 2 || f.Base != want.Base || math.Abs(f.Angle-want.Angle) > 1e-9 || math.Abs(f.Power-want.Power) > 1e-9 {
		t.Fatalf("aim = die %d %+v, want die 2 %+v", die, f, want)
	}
	g.wantOnScreen("AIM die 3", "base 2 north", "angle +6°", "power 0.60")
	// The base cycles back; shift+b steps back.
	g.press("b", "b", "B")
	if _, f := g.df().Aim(); f.Base != 3 {
		t.Fatalf("base after b b B = %d, want 3", f.Base)
	}
	// The angle stops at the rules' limit.
	for range 30 {
		g.press("shift+right")
	}
	if _, f := g.df().Aim(); math.Abs(f.Angle+diceflick.DefaultComponents.MaxAngle) > 1e-9 {
		t.Fatalf("angle = %v, want the limit -%v", f.Angle, diceflick.DefaultComponents.MaxAngle)
	}
	// No die 7; sliding needs the children's variant.
	g.press("7")
	g.wantOnScreen("no die 7")
	g.press("]")
	g.wantOnScreen("--shift-bases")
	moves := len(g.Record().Moves)
	g.press("space")
	_, a := g.lastAction()
	if len(g.Record().Moves) <= moves {
		t.Fatal("space did not flick")
	}
	// The flick is followed by its landing (chance); the flick before it is ann's.
	r := g.Record()
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
	if _, f := g.df().Aim(); math.Abs(f.Offset-0.2) > 1e-9 {
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
	if !g.df().Animating() {
		t.Fatal("no animation after the flick")
	}
	n := len(g.df().anim.path)
	if n < 3 {
		t.Fatalf("path of %d points", n)
	}
	g.wantOnScreen("die is rolling")
	frames := (n - 1 + 1) / 2
	g.ticks(frames - 1)
	if !g.df().Animating() {
		t.Fatalf("the animation ended before %d frames", frames)
	}
	// Keys other than space wait while the die rolls.
	g.press("b")
	if _, f := g.df().Aim(); f.Base != 0 {
		t.Fatal("a key changed the aim during the animation")
	}
	g.ticks(1)
	if g.df().Animating() {
		t.Fatalf("the animation runs past %d frames", frames)
	}
	if !strings.Contains(g.Message(), "the ") || g.screen() == "" {
		t.Fatalf("no landing message: %q", g.Message())
	}
	g.wantOnScreen(g.Message())
}

// scoringArena puts ann at the scoring with blue dice on 0,0–0,2, a white
// joker on 0,3 and yellow dice on 0,4 and 1,4: the joker may join the blue
// or the yellow group, not both.
func scoringArena(g *table) {
	s := &g.df().match.S
	s.Arena[0] = diceflick.MakeCell(diceflick.Blue, 2)
	s.Arena[1] = diceflick.MakeCell(diceflick.Blue, 3)
	s.Arena[2] = diceflick.MakeCell(diceflick.Blue, 1)
	s.Arena[3] = diceflick.MakeCell(diceflick.White, 6)
	s.Arena[4] = diceflick.MakeCell(diceflick.Yellow, 5)
	s.Arena[9] = diceflick.MakeCell(diceflick.Yellow, 4)
	s.Phase, s.FlicksLeft = diceflick.PhaseScore, 0
	g.df().enterTurn()
}

func TestDiceflickScoringRefusedThenBest(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	scoringArena(g)
	b := g.df().s().Board()
	best, _ := b.Solve()
	g.wantOnScreen("SCORING", fmt.Sprintf("best offer %d", best), "(the best)")
	// Switch on every group: the joker's two groups overlap.
	for i, p := range g.df().parts {
		if p.kind == "group" && !p.on {
			g.df().cursor = i
			g.press("space")
		}
	}
	g.wantOnScreen("this choice is refused")
	moves := len(g.Record().Moves)
	g.press("enter")
	if len(g.Record().Moves) != moves {
		t.Fatal("a refused choice was recorded")
	}
	if !strings.Contains(g.Message(), "is in two groups") {
		t.Fatalf("message = %q, want the engine's reason", g.Message())
	}
	g.wantOnScreen("✗ " + g.Message())
	// r brings the best offer back; enter scores it.
	g.press("r", "enter")
	if got := g.df().s().Totals[0]; got != best {
		t.Fatalf("ann scored %d, want the best %d", got, best)
	}
	g.wantOnScreen(fmt.Sprintf("ann scores %d", best))
}

func TestDiceflickScoreLess(t *testing.T) {
	g := newDF(t, dfPeople("ann", "bob"), 3, "", 100, 30)
	scoringArena(g)
	// The first part is the best offer's group; switching it off scores
	// the rest only.
	b := g.df().s().Board()
	best, _ := b.Solve()
	g.press("space")
	ch := g.df().Choice()
	_, want, err := b.Evaluate(&ch)
	if err != nil {
		t.Fatal(err)
	}
	g.press("enter")
	if got := g.df().s().Totals[0]; got != want || want >= best {
		t.Fatalf("ann scored %d, want %d (less than the best %d)", got, want, best)
	}
	g.wantOnScreen("points were on offer")
}

// TestDiceflickFullGame plays a short game, a person against the test bot,
// with fake frames; the record replays to the same totals.
func TestDiceflickFullGame(t *testing.T) {
	path := filepath.Join(t.TempDir(), "game.json")
	g := newDF(t, dfPeople("ann", "bot"), 11, `{"rounds":3}`, 100, 30, func(c *Config) { c.RecordPath = path })
	sawBotAim := false
	for steps := 0; !g.df().s().Over(); steps++ {
		if steps > 2000 {
			t.Fatal("the game does not end")
		}
		switch {
		case g.df().Animating():
			g.ticks(1)
		case g.df().botOnTurn():
			if b := g.df().botAction(); b != nil && b.Type == diceflick.ActFlick {
				if strings.Contains(g.screen(), "robo takes aim") {
					sawBotAim = true
				}
			}
			g.ticks(1)
		case g.df().scoring:
			g.press("enter")
		default:
			g.press("shift+down", "space") // a soft flick: it stays in the box
		}
	}
	if !sawBotAim {
		t.Error("the bot's aim was never shown before its flick")
	}
	g.wantOnScreen("GAME OVER", "record saved to "+path)
	rep := g.df().match.Report()
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
	if got, want := st.Result().Scores, g.df().match.Result().Scores; got[0] != want[0] || got[1] != want[1] {
		t.Fatalf("replayed scores %v, played %v", got, want)
	}
	if s := g.Summary(); !strings.Contains(s, "won") && !strings.Contains(s, " and ") {
		t.Fatalf("summary %q names no winner", s)
	}
	// After the end, q quits.
	g.press("q")
	if !g.Quitting() {
		t.Fatal("q does not quit after the game")
	}
}

func TestDiceflickQuitAsks(t *testing.T) {
	g := newDF(t, dfPeople("ann"), 3, "", 100, 30)
	g.press("q")
	g.wantOnScreen("quit the game?")
	g.press("n")
	if g.Quitting() {
		t.Fatal("n quit the game")
	}
	g.press("q", "y")
	if !g.Quitting() {
		t.Fatal("q y did not quit")
	}
}

// TestDiceflickEverySize plays games at sizes from the minimum 80×24 to
// past the full layout's 96×28: every screen fills exactly, the arena
// shows all 25 holes at the scale the layout chose, and the compact
// layout's panel and key hints fit without being cut.
func TestDiceflickEverySize(t *testing.T) {
	hole := regexp.MustCompile(`[\[({][^\[\](){}]{3}[\])}]`)
	for _, size := range [][2]int{{80, 24}, {81, 25}, {87, 27}, {88, 28}, {90, 40}, {95, 30}, {96, 24}, {96, 27}, {120, 24}, {96, 28}, {100, 30}, {120, 40}} {
		w, h := size[0], size[1]
		for _, game := range []struct {
			names []string
			opts  string
		}{{[]string{"ann", "bot"}, `{"rounds":2,"shiftBases":true}`}, {[]string{"ann", "bob", "cat", "bot"}, `{"rounds":1}`}} {
			t.Run(fmt.Sprintf("%dx%d_%dp", w, h, len(game.names)), func(t *testing.T) {
				g := newDF(t, dfPeople(game.names...), 7, game.opts, w, h)
				lay := g.df().layout(w, h)
				if full := w >= 96 && h >= 28; lay.compact == full {
					t.Fatalf("compact layout %v at %d×%d", lay.compact, w, h)
				}
				aw, ah, _, _ := canvasSize(g.df().arena, lay.scale)
				if wantW := map[bool]int{true: 41, false: 33}[h >= 28 && w >= 88]; aw != wantW {
					t.Fatalf("arena %d wide at %d×%d, want %d", aw, w, h, wantW)
				}
				check := func() {
					t.Helper()
					out := g.screen()
					checkSize(t, out, w, h)
					if g.df().Animating() {
						return
					}
					n := 0
					for _, l := range strings.Split(out, "\n")[1 : 1+ah] {
						n += len(hole.FindAllString(string([]rune(l)[:aw]), -1))
					}
					if n != diceflick.Holes {
						t.Fatalf("%d holes drawn:\n%s", n, out)
					}
					if !lay.compact {
						return
					}
					rep := g.df().match.Report()
					for _, l := range g.df().panelLines(&rep, lay) {
						if lipgloss.Width(l) > lay.panelW {
							t.Fatalf("panel line %q is wider than %d:\n%s", ansi.Strip(l), lay.panelW, out)
						}
					}
					if hw := lipgloss.Width(g.df().dfHelp(lay)); hw > w {
						t.Fatalf("key hints %d wide on %d columns:\n%s", hw, w, out)
					}
				}
				for steps := 0; !g.df().s().Over(); steps++ {
					if steps > 3000 {
						t.Fatal("the game does not end")
					}
					check()
					switch {
					case g.df().Animating(), g.df().botOnTurn():
						g.ticks(1)
					case g.df().scoring:
						g.press("down", "space")
						check()
						g.press("r", "enter")
					case g.df().s().MayStop():
						g.press("s")
						check()
						g.press("esc", "]", "space")
					default:
						// Now and then straight at the bonus hole, for the
						// optional flick.
						st := g.df().s()
						if f, ok := physics.DefaultArena.AimBest(st.C.Bonus); ok && steps%3 == 0 && !st.Arena[st.C.Bonus].Full() {
							g.df().flick = f
							g.press("space")
							continue
						}
						g.press("b", "left", "shift+down", "space")
					}
				}
				check()
			})
		}
	}
}

// TestDiceflickBotScoreShown: a bot's score stays in view, the table held,
// with the dice it scored on the arena as it was: until a key when a
// person plays next (space only ends the showing, it does not flick),
// for showFactor bot delays when a bot does. The notepad marks the bots'
// scores until the person's next key.
func TestDiceflickBotScoreShown(t *testing.T) {
	const delay = 50
	botScores := func(g *table, seat int) {
		g.t.Helper()
		for steps := 0; ; steps++ {
			if steps > 5000 {
				g.t.Fatalf("the bot never scored:\n%s", g.screen())
			}
			if sh := g.df().showing(); sh != nil && sh.ev.Player == g.Name(seat) {
				return
			}
			if g.df().Animating() {
				g.press("space")
				continue
			}
			g.advance(delay)
		}
	}
	g := newDF(t, dfPeople("ann", "bot"), 5, "", 80, 24, func(c *Config) { c.BotDelay = delay * time.Millisecond })
	scoringArena(g)
	g.press("enter")
	botScores(g, 1)
	sh := g.df().showing()
	if sh == nil || !g.df().Holding() {
		t.Fatal("the bot's score is not shown")
	}
	g.wantOnScreen(fmt.Sprintf("robo scores %s", plural(sh.ev.Total, "point", "points")), "next: ann's turn", "any key goes on")
	if sh.ev.Total > 0 && !strings.Contains(g.screen(), "{") {
		t.Fatalf("the scored dice are not marked:\n%s", g.screen())
	}
	g.advance(10 * showFactor * delay)
	if g.df().showing() == nil {
		t.Fatal("the showing ended before ann pressed a key")
	}
	moves := len(g.Record().Moves)
	g.press("space")
	if g.df().showing() != nil || len(g.Record().Moves) != moves {
		t.Fatalf("space: showing %v, %d moves (was %d)", g.df().showing() != nil, len(g.Record().Moves), moves)
	}
	if _, ok := g.df().fresh[1]; !ok {
		t.Fatal("the bot's score is not marked in the notepad")
	}
	g.wantOnScreen("ann's turn", "AIM")
	g.press("left")
	if len(g.df().fresh) != 0 {
		t.Fatal("the notepad mark outlived ann's next key")
	}

	// Bots only: each score shows for showFactor delays, then the game goes on.
	g = newDF(t, []Seat{{Name: "robo", BotKind: "aim", Bot: aimBot{}}, {Name: "otto", BotKind: "aim", Bot: aimBot{}}}, 5, "", 80, 24,
		func(c *Config) { c.BotDelay = delay * time.Millisecond })
	botScores(g, 0)
	if g.df().showing() == nil {
		t.Fatal("robo's score is not shown")
	}
	g.wantOnScreen("robo scores", "next: otto's turn")
	g.advance(showFactor*delay - 1)
	if g.df().showing() == nil {
		t.Fatal("the showing ended early")
	}
	g.advance(1)
	if g.df().showing() != nil || g.df().Holding() {
		t.Fatal("the showing outlasts showFactor bot delays among bots")
	}
}
