package diceflick

import (
	"fmt"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

var botSim = ArenaSim(&physics.DefaultArena)

// playSeeded plays one bot game: kinds[p] in seat p, chance from stream 0 of
// seed, bot p from stream p+1. engine.PlayBots applies every decision through
// Match.Apply, which refuses an illegal one, so a game that ends is a game
// of legal moves.
func playSeeded(t testing.TB, kinds []string, seed uint64, rounds int) *Match {
	t.Helper()
	names := make([]string, len(kinds))
	bots := make([]engine.Controller, len(kinds))
	for p, k := range kinds {
		names[p] = fmt.Sprintf("%s#%d", k, p)
		b, err := Game{Sim: botSim}.NewBot(k, engine.SplitSeed(seed, uint64(p+1)))
		if err != nil {
			t.Fatal(err)
		}
		bots[p] = b
	}
	m, err := NewMatch(botSim, names, fmt.Appendf(nil, `{"rounds": %d}`, rounds))
	if err != nil {
		t.Fatal(err)
	}
	if err := engine.PlayBots(m, bots, engine.NewSource(engine.SplitSeed(seed, 0)), nil); err != nil {
		t.Fatalf("seed %d, %v: %v", seed, kinds, err)
	}
	return m
}

func TestBotsPlayLegally(t *testing.T) {
	tables := [][]string{{"hard"}, {"easy", "medium"}, {"medium", "hard", "easy"}, {"hard", "easy", "medium", "easy"}}
	// The race pass (-short) plays one game a table: the bots share
	// nothing between goroutines, and the full pass plays both.
	seeds := uint64(2)
	if testing.Short() {
		seeds = 1
	}
	for i, kinds := range tables {
		for seed := range seeds {
			m := playSeeded(t, kinds, 100*uint64(i)+seed, 4)
			if !m.S.Over() {
				t.Fatalf("%v: game not over", kinds)
			}
		}
	}
}

func TestBotsRegistered(t *testing.T) {
	g := Game{Sim: botSim}
	if got := g.Info().BotKinds(); len(got) != 3 || got[0] != "easy" || got[2] != "hard" {
		t.Fatalf("BotKinds = %v", got)
	}
	if _, err := g.NewBot("grandmaster", 1); err == nil {
		t.Fatal("unknown kind accepted")
	}
	b, _ := g.NewBot("Hard", 1)
	if b.Name() != "hard" {
		t.Fatalf("name %q", b.Name())
	}
	if _, err := b.Choose(struct{}{}, nil); err == nil {
		t.Fatal("a foreign view was accepted")
	}
	// Nature's turn: nothing for a bot to decide.
	m, _ := NewMatch(botSim, []string{"a"}, nil)
	if _, err := b.Choose(m.View(0), nil); err == nil {
		t.Fatal("the bot decided while nature draws")
	}
}

func TestBotsDeterministic(t *testing.T) {
	kinds := []string{"hard", "easy", "medium"}
	a := playSeeded(t, kinds, 7, 3).Result()
	b := playSeeded(t, kinds, 7, 3).Result()
	if fmt.Sprint(a) != fmt.Sprint(b) {
		t.Fatalf("same seed, different games: %v vs %v", a, b)
	}
}

// The bot takes the optional bonus flick and only ever scores the solver's
// best, so what it scores each turn is the offer.
func TestBotScoresBest(t *testing.T) {
	m, _ := NewMatch(botSim, []string{"a"}, nil)
	m.S.Phase = PhaseScore
	m.S.FlicksLeft = 0
	for _, h := range []int{0, 1, 2, 12} {
		m.S.Arena[h] = MakeCell(Blue, 4)
	}
	b, _ := NewBot("easy", 1, botSim)
	a, err := b.Choose(m.View(0), m.Legal(0))
	if err != nil {
		t.Fatal(err)
	}
	bd := m.S.Board()
	best, _ := bd.Solve()
	ch := a.(Action).Choice
	if _, got, err := bd.Evaluate(&ch); err != nil || got != best {
		t.Fatalf("scored %d (%v), best %d", got, err, best)
	}
}

// Hard scores clearly more than easy in practice games. Over 2000 games
// the hard bot's practice mean is far above easy's (docs/performance.md);
// 6 short games at these seeds leave a wide margin.
func TestBotStrengthOrder(t *testing.T) {
	if testing.Short() {
		t.Skip("plays 12 games")
	}
	sum := map[string]int{}
	for _, k := range []string{"easy", "hard"} {
		for seed := range uint64(6) {
			sum[k] += playSeeded(t, []string{k}, 40+seed, 5).Result().Scores[0]
		}
	}
	t.Logf("6 practice games of 5 rounds: easy %d, hard %d", sum["easy"], sum["hard"])
	if sum["hard"] < sum["easy"]*5/4+10 {
		t.Fatalf("hard %d is not clearly above easy %d", sum["hard"], sum["easy"])
	}
}

// BenchmarkHardDecide times a hard bot's flick decision in positions of
// seeded games (docs/performance.md: under 300 ms).
func BenchmarkHardDecide(b *testing.B) {
	views := decisionViews(b, 24)
	bot, _ := NewBot("hard", 1, botSim)
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		if _, err := bot.Choose(views[i%len(views)], nil); err != nil {
			b.Fatal(err)
		}
	}
}

// decisionViews collects flick decisions from a seeded two-player game.
func decisionViews(tb testing.TB, n int) []View {
	m, _ := NewMatch(botSim, []string{"a", "b"}, nil)
	src := engine.NewSource(3)
	bots := []*Bot{}
	for p := range 2 {
		bt, _ := NewBot("medium", uint64(p), botSim)
		bots = append(bots, bt)
	}
	var out []View
	for !m.S.Over() && len(out) < n {
		var a engine.Action
		seat := engine.ChanceSeat
		if m.Turn().Chance {
			a = m.SampleChance(src)
		} else {
			seat = engine.Seat(m.S.Current)
			v := m.View(seat).(View)
			if m.S.Phase == PhaseFlick {
				out = append(out, v)
			}
			var err error
			if a, err = bots[seat].Choose(v, nil); err != nil {
				tb.Fatal(err)
			}
		}
		if _, err := m.Apply(engine.Move{Seat: seat, Action: a}); err != nil {
			tb.Fatal(err)
		}
	}
	return out
}
