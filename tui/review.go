package tui

import (
	"errors"
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
)

// The review screen: an engine.Review of a finished game, for any game.
// It sums up each seat, draws the balance of the game, lists every judged
// decision with its verdict, and shows the position of the decision chosen
// (the game's own board, replayed from the record) with the choice made
// against the best and why. The game's words are its catalogue's
// (Info.Messages): the screen names no game.

// reviewScreen is the review's state; the shell shows it after a game, and
// RunReview on its own.
type reviewScreen struct {
	game  engine.Game
	info  engine.Info
	rec   engine.Record
	rv    *engine.Review
	names []string

	sel  int  // the decision chosen (index into rv.Decisions)
	top  int  // the list's first row shown
	open bool // the chosen decision's position is shown
	// words: on a screen too small for the board and the words together,
	// the words are shown rather than the board.
	words bool
	help  bool

	// The position shown, replayed once per decision.
	pos   *Shell
	posAt int
	posOK bool
	err   error
}

// newReviewScreen shows rv, the review of rec (a game of g).
func newReviewScreen(g engine.Game, rec engine.Record, rv *engine.Review) (*reviewScreen, error) {
	if rv == nil {
		return nil, errors.New("no review")
	}
	names := rv.Players
	if len(names) == 0 {
		names = rec.Players
	}
	r := &reviewScreen{game: g, info: g.Info(), rec: rec, rv: rv, names: names, posAt: -1}
	// Start on the first costly decision, where there is something to see.
	r.sel = max(0, r.nextCostly(-1, 1))
	return r, nil
}

// name is seat p's name.
func (r *reviewScreen) name(p engine.Seat) string { return engine.SeatName(r.names, p) }

// What a key does to the review, for whoever shows it.
type reviewExit int

const (
	reviewStays reviewExit = iota // the review stays on screen
	reviewBack                    // the review is closed
	reviewQuits                   // the program should end
)

// key handles a key press of the review screen.
func (r *reviewScreen) key(key string, h int) reviewExit {
	if r.help {
		r.help = false
		return reviewStays
	}
	n := len(r.rv.Decisions)
	page := max(1, h/2)
	switch key {
	case "q":
		return reviewQuits
	case "?", "f1":
		r.help = true
	case "esc", "backspace":
		if !r.open {
			return reviewBack
		}
		r.open = false
	case "enter", "space":
		r.open = !r.open && n > 0
	case "tab":
		r.words = !r.words
	case "up", "k", "left", "h":
		r.sel--
	case "down", "j", "right", "l":
		r.sel++
	case "pgup":
		r.sel -= page
	case "pgdown":
		r.sel += page
	case "home", "g":
		r.sel = 0
	case "end", "G":
		r.sel = n - 1
	case "n":
		if k := r.nextCostly(r.sel, 1); k >= 0 {
			r.sel = k
		}
	case "N", "p":
		if k := r.nextCostly(r.sel, -1); k >= 0 {
			r.sel = k
		}
	case "t":
		if r.rv.Turning >= 0 {
			r.sel = r.rv.Turning
		}
	}
	r.sel = max(0, min(r.sel, n-1))
	return reviewStays
}

// nextCostly is the next decision after from (before it when step is -1)
// judged an inaccuracy or worse; -1 when none is.
func (r *reviewScreen) nextCostly(from, step int) int {
	for k := from + step; k >= 0 && k < len(r.rv.Decisions); k += step {
		if costly(r.rv.Decisions[k].Verdict) {
			return k
		}
	}
	return -1
}

// costly reports whether a verdict counts as a mistake of some size.
func costly(v string) bool {
	return v == engine.VerdictInaccuracy || v == engine.VerdictMistake || v == engine.VerdictBlunder
}

// position is the table at the chosen decision, replayed from the record
// (nil with the reason when the game has no board here).
func (r *reviewScreen) position() (*Shell, error) {
	if len(r.rv.Decisions) == 0 {
		return nil, errors.New("no decision")
	}
	at := r.rv.Decisions[r.sel].Move
	if at != r.posAt {
		r.posAt = at
		r.pos, r.err = replayShell(r.game, r.rec, at)
	}
	return r.pos, r.err
}

// RunReview shows rv, the review of the record rec of game g, full-screen
// until the viewer quits.
func RunReview(g engine.Game, rec engine.Record, rv *engine.Review) error {
	r, err := newReviewScreen(g, rec, rv)
	if err != nil {
		return err
	}
	if _, err := tea.NewProgram(&reviewProgram{r: r}).Run(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	return nil
}

// reviewProgram is the review screen as a program of its own.
type reviewProgram struct {
	r    *reviewScreen
	w, h int
}

func (p *reviewProgram) Init() tea.Cmd { return nil }

func (p *reviewProgram) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
	case tea.KeyPressMsg:
		if k := msg.String(); k == "ctrl+c" || p.r.key(k, p.h) != reviewStays {
			return p, tea.Quit
		}
	}
	return p, nil
}

func (p *reviewProgram) View() tea.View {
	w, h := p.w, p.h
	if w <= 0 || h <= 0 {
		w, h = defaultWidth, defaultHeight
	}
	v := tea.NewView(p.r.render(w, h))
	v.AltScreen = true
	v.WindowTitle = "dicehall · review · " + p.r.info.Title
	return v
}
