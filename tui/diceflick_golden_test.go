package tui

import (
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

// dfGoldenCase is a Diceflick screen to compare: the players (dfPeople),
// the options, and the steps that lead to it from seed 5.
type dfGoldenCase struct {
	name  string
	names []string
	opts  string
	steps func(g *table)
	edit  func(*Config) // the table's set-up, if not the tests' own
}

// dfGoldenCases are the screens both layouts are compared on.
var dfGoldenCases = []dfGoldenCase{
	{name: "aim", names: []string{"ann", "bob"}, steps: func(g *table) {
		g.press("2", "shift+down", "left", "left", "left")
	}},
	{name: "rolling", names: []string{"ann", "bob"}, steps: func(g *table) {
		g.press("shift+down", "space")
		g.ticks(3)
	}},
	{name: "scoring", names: []string{"ann", "bob"}, steps: func(g *table) {
		scoringArena(g)
		g.press("down")
	}},
	{name: "refused", names: []string{"ann", "bob"}, steps: func(g *table) {
		scoringArena(g)
		g.press("down", "down", "space", "enter")
	}},
	{name: "bot_aims", names: []string{"ann", "bot"}, steps: func(g *table) {
		scoringArena(g)
		g.press("enter")
	}},
}

// dfGolden renders each case at w×h (colours stripped) and compares it
// with testdata/<test>/<case>.golden.
func dfGolden(t *testing.T, cases []dfGoldenCase, w, h int) {
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var edit []func(*Config)
			if c.edit != nil {
				edit = append(edit, c.edit)
			}
			g := newDF(t, dfPeople(c.names...), 5, c.opts, w, h, edit...)
			c.steps(g)
			out := g.screen()
			checkSize(t, out, w, h)
			golden.RequireEqual(t, out)
		})
	}
}

// TestDiceflickGolden compares the full layout's screens (100×30) with
// testdata/TestDiceflickGolden/*.golden.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestDiceflickGolden -update
func TestDiceflickGolden(t *testing.T) { dfGolden(t, dfGoldenCases, 100, 30) }

// TestDiceflickCompactGolden compares the compact layout at 80×24 (the
// arena at compact scale, the notepad's latest rounds, the panel wrapped)
// with testdata/TestDiceflickCompactGolden/*.golden: the full layout's
// cases, and a bot's flick rolling and landed, a score, a skipped bonus
// flick, four players, and the end of a game.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestDiceflickCompactGolden -update
func TestDiceflickCompactGolden(t *testing.T) {
	botFlick := func(g *table) {
		scoringArena(g)
		g.press("enter")
		for !g.df().Animating() {
			g.ticks(1)
		}
	}
	dfGolden(t, append(dfGoldenCases[:len(dfGoldenCases):len(dfGoldenCases)],
		dfGoldenCase{name: "bot_rolling", names: []string{"ann", "bot"}, steps: func(g *table) {
			botFlick(g)
			g.ticks(4)
		}},
		dfGoldenCase{name: "bot_landed", names: []string{"ann", "bot"}, steps: func(g *table) {
			botFlick(g)
			for g.df().Animating() {
				g.ticks(1)
			}
		}},
		dfGoldenCase{name: "scored", names: []string{"ann", "bob"}, steps: func(g *table) {
			scoringArena(g)
			g.press("enter")
		}},
		dfGoldenCase{name: "bonus_skipped", names: []string{"ann", "bob"}, steps: func(g *table) {
			s := g.df().s()
			s.Bonus, s.FlicksLeft = true, 1
			g.press("s")
		}},
		botScoredCase,
		dfGoldenCase{name: "four_players", names: []string{"ann", "bob", "cat", "bot"}, steps: scoringArena},
		dfGoldenCase{name: "over", names: []string{"ann", "bot"}, opts: `{"rounds":2}`, steps: dfPlayToEnd},
		dfGoldenCase{name: "over_10", names: []string{"you", "bot"}, steps: dfPlayToEnd},
		dfGoldenCase{name: "mid_you", names: []string{"you", "bot"}, steps: func(g *table) {
			for g.df().s().Round < 4 {
				dfStep(g)
			}
		}},
	), 80, 24)
}

// TestDiceflickWideGolden compares the full layout at 120×40, in the
// middle of a game and at its end, with testdata/TestDiceflickWideGolden.
// After a deliberate change to the screen, rerun with:
// go test ./tui -run TestDiceflickWideGolden -update
func TestDiceflickWideGolden(t *testing.T) {
	dfGolden(t, []dfGoldenCase{
		{name: "mid", names: []string{"ann", "bot"}, steps: func(g *table) {
			for g.df().s().Round < 4 {
				dfStep(g)
			}
		}},
		{name: "over", names: []string{"you", "bot", "cat"}, steps: dfPlayToEnd},
		botScoredCase,
	}, 120, 40)
}

// botScoredCase is a bot's score held in view (bots taking their time):
// the dice it scored marked on the arena as it was, each part's points,
// and who plays next.
var botScoredCase = dfGoldenCase{name: "bot_scored", names: []string{"ann", "bot"},
	edit: func(c *Config) { c.BotDelay = 50 * time.Millisecond },
	steps: func(g *table) {
		scoringArena(g)
		g.press("enter")
		for steps := 0; g.df().showing() == nil; steps++ {
			if steps > 5000 {
				g.t.Fatal("the bot's score is never shown")
			}
			if g.df().Animating() {
				g.press("space")
				continue
			}
			g.advance(50)
		}
	}}

// dfStep moves a game of people and bots on by one step: a frame while a
// landing plays or a bot acts, the best score, or a flick down the middle.
func dfStep(g *table) {
	switch {
	case g.df().Animating(), g.df().botOnTurn():
		g.ticks(1)
	case g.df().scoring:
		g.press("enter")
	default:
		g.press("shift+down", "space")
	}
}

// dfPlayToEnd plays the game to its end by dfStep.
func dfPlayToEnd(g *table) {
	for steps := 0; !g.df().s().Over(); steps++ {
		if steps > 20000 {
			g.t.Fatal("the game does not end")
		}
		dfStep(g)
	}
}
