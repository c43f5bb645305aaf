package tui

import (
	"fmt"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func init() { registerBoard("dicestars", func() Board { return &DiceStars{focus: -1} }) }

// DiceStars is the terminal board of Dice Stars: the score sheets, the
// reserve, and keys for draws, takes and the star picker.
type DiceStars struct {
	sh     *Shell
	match  *dicestars.Match
	layout *dicestars.Layout

	returnReserve bool  // draw with the reserve put back (refill turns)
	picking       bool  // the multiplier-row picker is open
	pickStars     int   // stars to place
	pickRows      []int // row index chosen for each star so far
	focus         int   // sheet shown in full when not all fit (-1: whoever plays)
	width         int   // of the screen last drawn

	prev dicestars.Report // the sheets before the last move
	// news are the cells each bot wrote on its last take, marked on its
	// sheet until its next; the sheet of the last one stays in view (the
	// table held) until showUntil, so its move can be followed.
	news      map[int]*sheetNews
	showing   int // the bot whose move is shown (-1: none)
	showUntil int64
}

// sheetNews are the cells a take wrote on a sheet: white and green cells
// by row and cell index, multiplier stars by row (how many were marked
// before), the penalty.
type sheetNews struct {
	cells   map[[2]int]bool
	starsAt map[int]int
	penalty bool
}

// showFactor: a bot's take stays in view this many bot delays.
const showFactor = 3

// Attach reads the table's match.
func (m *DiceStars) Attach(sh *Shell) error {
	match, ok := sh.State().(*dicestars.Match)
	if !ok {
		return fmt.Errorf("dice stars board: the table plays %T", sh.State())
	}
	m.sh, m.match, m.layout = sh, match, match.S.L
	m.prev, m.showing = match.Report(), -1
	return nil
}

// Holding: a bot's take is shown on its sheet before the table goes on.
func (m *DiceStars) Holding() bool { return m.showing >= 0 && m.sh.Now() < m.showUntil }

// Tick lets the next sheet show once a bot's take has been seen.
func (m *DiceStars) Tick() {
	if m.showing >= 0 && m.sh.Now() >= m.showUntil {
		m.showing = -1
	}
}

// isNew reports whether cell i of row r of p's sheet was just written by a
// bot.
func (m *DiceStars) isNew(p, r, i int) bool {
	n := m.news[p]
	return n != nil && n.cells[[2]int{r, i}] && !m.match.S.Over()
}

// Spec: the sheets need 80×24; a bot's roll shows as its own step.
func (m *DiceStars) Spec() BoardSpec {
	return BoardSpec{MinWidth: 80, MinHeight: 24, BotChanceWaits: true}
}

// Match is the game being played (read it, never change it).
func (m *DiceStars) Match() *dicestars.Match { return m.match }

func (m *DiceStars) current() engine.Seat { return engine.Seat(m.match.S.Current) }
func (m *DiceStars) currentSeat() Seat    { return m.sh.Seats()[m.match.S.Current] }
func (m *DiceStars) name(p int) string    { return m.sh.Name(p) }

// Played resets the input after every move, and marks what a bot's take
// wrote on its sheet.
func (m *DiceStars) Played(mv engine.Move, _ []engine.Event) {
	m.returnReserve = false
	m.closePicker()
	cur := m.match.Report()
	if a, ok := mv.Action.(dicestars.Action); ok && mv.Seat >= 0 && !m.sh.IsPerson(mv.Seat) && (a.Type == dicestars.ActTakeColor || a.Type == dicestars.ActTakeValue || a.Type == dicestars.ActTakeStars) {
		p := int(mv.Seat)
		n := &sheetNews{cells: map[[2]int]bool{}, starsAt: map[int]int{}}
		was, now := m.prev.Players[p], cur.Players[p]
		for r := range now.Rows {
			for i, c := range now.Rows[r].Cells {
				if c != was.Rows[r].Cells[i] {
					n.cells[[2]int{r, i}] = true
				}
			}
			if now.Rows[r].Marked > was.Rows[r].Marked {
				n.starsAt[r] = was.Rows[r].Marked
			}
		}
		n.penalty = now.Penalty != was.Penalty
		if m.news == nil {
			m.news = map[int]*sheetNews{}
		}
		m.news[p] = n
		if d := m.sh.BotDelay().Milliseconds() * showFactor; d > 0 {
			m.showing, m.showUntil = p, m.sh.Now()+d
		}
	}
	m.prev = cur
}

// try asks the rules to play a for the person at the keyboard: the current
// seat when it is a person's, else the last person who played, so a
// refusal names whose turn it is.
func (m *DiceStars) try(a dicestars.Action) {
	seat := m.current()
	if !m.sh.IsPerson(seat) || m.match.Turn().Chance {
		seat = m.sh.Keyboard()
	}
	m.sh.Act(seat, a)
}

func (m *DiceStars) closePicker() { m.picking, m.pickRows, m.pickStars = false, nil, 0 }

// Key handles a key the shell did not take: tab shows another sheet; the
// rest are moves of the person on turn.
func (m *DiceStars) Key(k tea.KeyPressMsg) bool {
	s := k.String()
	if m.showing >= 0 && s != "tab" {
		// A key ends the showing of a bot's move: on with the game.
		m.showing = -1
	}
	if s == "tab" {
		m.cycleFocus()
		return true
	}
	if m.sh.Over() {
		return false
	}
	if m.picking {
		m.pickKey(s)
		return true
	}
	if !m.sh.IsPerson(m.current()) || m.match.Turn().Chance {
		if a, ok := m.actionFor(s); ok {
			// Let the engine say why: it is not this keyboard's turn.
			m.try(a)
			return true
		}
		m.sh.Say(m.sh.botPlaying())
		return true
	}
	switch s {
	case "r":
		m.toggleReturn()
		return true
	case "esc":
		m.sh.Say("")
		return true
	}
	if s == "s" && m.match.S.Phase == dicestars.PhaseTake {
		m.openPicker()
		return true
	}
	if a, ok := m.actionFor(s); ok {
		m.try(a)
		return true
	}
	return false
}

// actionFor maps a key to the move it means in the current phase: digits
// announce a draw before the roll and choose a value after it; k p b o
// choose a colour; s chooses the stars.
func (m *DiceStars) actionFor(s string) (dicestars.Action, bool) {
	if len(s) != 1 {
		return dicestars.Action{}, false
	}
	c := s[0]
	switch {
	case c >= '0' && c <= '9':
		if m.match.S.Phase == dicestars.PhaseDraw {
			return dicestars.Draw(int(c-'0'), m.returnReserve), true
		}
		return dicestars.TakeValue(int(c - '0')), true
	case c == 's':
		return dicestars.Action{Type: dicestars.ActTakeStars}, true
	}
	if col, ok := colorKeys[c]; ok {
		return dicestars.TakeColor(col), true
	}
	return dicestars.Action{}, false
}

// colorKeys are the colour keys, the letters shown on dice and columns.
var colorKeys = map[byte]dicestars.Color{
	'k': dicestars.Black, 'p': dicestars.Purple, 'b': dicestars.Blue, 'o': dicestars.Orange,
}

func colorKey(c dicestars.Color) string {
	for k, cc := range colorKeys {
		if cc == c {
			return string(k)
		}
	}
	return "?"
}

// toggleReturn switches "put the reserve back into the bag" for this draw;
// the engine explains why it is not allowed when no refill is due.
func (m *DiceStars) toggleReturn() {
	if m.match.S.Phase != dicestars.PhaseDraw || !m.match.S.RefillDue {
		if err := m.match.Check(engine.Move{Seat: m.current(), Action: dicestars.Draw(3, true)}); err != nil {
			m.sh.Refuse(err)
			return
		}
	}
	m.returnReserve = !m.returnReserve
	if m.returnReserve {
		m.sh.Say("the reserve goes back into the bag with the discard: you will draw 3 dice")
	} else {
		m.sh.Say("the reserve stays on the table")
	}
}

// openPicker starts a star choice: the player then names a row for each
// star. Without a legal star choice the engine says why.
func (m *DiceStars) openPicker() {
	stars := 0
	for _, d := range m.match.S.ReserveDice() {
		if d.IsStar() {
			stars++
		}
	}
	hasLegal := false
	for _, a := range m.match.S.LegalActions(nil) {
		if a.Type == dicestars.ActTakeStars {
			hasLegal = true
			break
		}
	}
	if !hasLegal {
		m.try(dicestars.Action{Type: dicestars.ActTakeStars})
		return
	}
	m.picking, m.pickStars, m.pickRows = true, stars, nil
	m.sh.Say("")
}

// pickMult is the star choice as picked so far.
func (m *DiceStars) pickMult() dicestars.Action {
	a := dicestars.Action{Type: dicestars.ActTakeStars}
	// An action names rows by value (the same JSON in every layout).
	for _, r := range m.pickRows {
		a.Mult[m.layout.RowValues[r]-dicestars.LowRow]++
	}
	return a
}

func (m *DiceStars) pickKey(s string) {
	switch s {
	case "esc":
		m.closePicker()
		m.sh.Say("star choice cancelled")
		return
	case "backspace", "u":
		if n := len(m.pickRows); n > 0 {
			m.pickRows = m.pickRows[:n-1]
		}
		m.sh.Say("")
		return
	case "enter":
		m.try(m.pickMult())
		return
	}
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		v := int(s[0] - '0')
		r := m.layout.RowOf(v)
		if r < 0 {
			m.sh.Fail(fmt.Sprintf("the sheet has no row %d: rows are 2 to 6", v))
			return
		}
		if len(m.pickRows) == m.pickStars {
			m.sh.Fail(fmt.Sprintf("all %d stars are placed: enter confirms, backspace undoes", m.pickStars))
			return
		}
		a := m.pickMult()
		sh := &m.match.S.Sheets[m.match.S.Current]
		if free := m.layout.Multipliers[r] - int(sh.Marked[r]) - a.StarsIn(v); free <= 0 {
			m.sh.Fail(fmt.Sprintf("row %d has no unmarked multiplier cell left", v))
			return
		}
		m.pickRows = append(m.pickRows, r)
		if len(m.pickRows) == m.pickStars {
			m.sh.Say("enter confirms the star choice")
		} else {
			m.sh.Say("")
		}
		return
	}
	m.sh.Fail("placing stars: a row key 2-6 per star, enter confirms, backspace undoes, esc cancels")
}

func (m *DiceStars) cycleFocus() {
	n := len(m.sh.Seats())
	m.focus++
	if m.focus >= n {
		m.focus = -1
	}
	if m.focus < 0 {
		m.sh.Say("the full sheet follows the player to act")
	} else {
		m.sh.Say(fmt.Sprintf("showing %s sheet (tab: next)", possessive(m.name(m.focus))))
	}
}
