package tui

import (
	"fmt"
	"image/color"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// Colours of the paper sheet: each die colour, the green bonus cells, the
// yellow multiplier cells.
var (
	dieBG = [dicestars.NumColors]color.Color{
		dicestars.Black:  lipgloss.Color("#262626"),
		dicestars.Purple: lipgloss.Color("#7d3c98"),
		dicestars.Blue:   lipgloss.Color("#2e6fd8"),
		dicestars.Orange: lipgloss.Color("#e67e22"),
	}
	dieFG = [dicestars.NumColors]color.Color{
		dicestars.Black:  lipgloss.Color("#ffffff"),
		dicestars.Purple: lipgloss.Color("#ffffff"),
		dicestars.Blue:   lipgloss.Color("#ffffff"),
		dicestars.Orange: lipgloss.Color("#1a1a1a"),
	}
	// cellBG tints the white cells of each colour column.
	cellBG = [dicestars.NumColors]color.Color{
		dicestars.Black:  lipgloss.Color("#3a3a3a"),
		dicestars.Purple: lipgloss.Color("#4a2359"),
		dicestars.Blue:   lipgloss.Color("#1b3f78"),
		dicestars.Orange: lipgloss.Color("#7a4310"),
	}

	styleGreen   = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#1e6b34"))
	styleGreenHd = lipgloss.NewStyle().Foreground(lipgloss.Color("#3ecf5a")).Bold(true)
	styleYellow  = lipgloss.NewStyle().Foreground(lipgloss.Color("#f4d03f"))
	styleYellowB = styleYellow.Bold(true)
	styleBold    = lipgloss.NewStyle().Bold(true)
	styleFaint   = lipgloss.NewStyle().Faint(true)
	styleKey     = lipgloss.NewStyle().Foreground(lipgloss.Color("#5dade2")).Bold(true)
	styleError   = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	stylePenalty = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f"))
	styleTitle   = lipgloss.NewStyle().Foreground(lipgloss.Color("#1a1a1a")).Background(lipgloss.Color("#f4d03f")).Bold(true)
	styleTurn    = lipgloss.NewStyle().Foreground(lipgloss.Color("#f4d03f")).Bold(true)
	styleWin     = lipgloss.NewStyle().Foreground(lipgloss.Color("#3ecf5a")).Bold(true)
)

// colorLetter is the letter shown for a colour (also its key).
func colorLetter(c dicestars.Color) string { return strings.ToUpper(colorKey(c)) }

func faceText(face int) string {
	if face == dicestars.Star {
		return "★"
	}
	return fmt.Sprint(face)
}

// dieChip shows a die in its colour with its name and face, so it reads
// without colour too.
func dieChip(d dicestars.Die) string {
	c := d.Color()
	return lipgloss.NewStyle().Background(dieBG[c]).Foreground(dieFG[c]).
		Render(" " + c.String() + " " + faceText(d.Face()) + " ")
}

// shortDieChip is dieChip by the colour's letter ("P4"), for a crowded
// reserve.
func shortDieChip(d dicestars.Die) string {
	c := d.Color()
	return lipgloss.NewStyle().Background(dieBG[c]).Foreground(dieFG[c]).
		Render(" " + colorLetter(c) + faceText(d.Face()) + " ")
}

func keyHint(k string) string { return styleKey.Render("[" + k + "]") }

// Render draws the screen as text (with ANSI styles) at w×h.
func (m *DiceStars) Render(w, h int) string {
	m.width = w
	rep := m.match.SeatView(engine.Spectator)

	top := []string{m.headerLine(rep, w)}
	var bottom []string
	bottom = append(bottom, m.tableLines(rep)...)
	bottom = append(bottom, "")
	if m.match.S.Over() {
		bottom = append(bottom, m.endLines(rep)...)
	} else {
		bottom = append(bottom, m.actionLines(rep)...)
	}
	bottom = append(bottom, m.messageLine())
	help := m.helpLine()

	budget := h - len(top) - len(bottom) - 1 // help line
	sheets := m.sheetsBlock(&rep.Report, w, budget)
	lines := append(top, sheets...)
	lines = append(lines, bottom...)
	room := h - len(lines) - 1
	if hints := m.hintLines(); room > 1 {
		// The rules that matter now, the first first, as room allows.
		hints = hints[:min(len(hints), room-1)]
		for _, l := range hints {
			lines = append(lines, styleFaint.Render(l))
		}
		room -= len(hints)
	}
	msg, _ := m.sh.Message()
	log := m.sh.Log()
	if room <= 1 && msg == "" && len(log) > 0 {
		// No room for the log: the message line shows the last action.
		lines[len(lines)-1] = styleFaint.Render(log[len(log)-1])
	}
	if room > 1 && len(log) > 0 {
		lines = append(lines, styleFaint.Render("── log "+strings.Repeat("─", max(0, min(w, 60)-7))))
		room--
		lines = append(lines, log[max(0, len(log)-room):]...)
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	if len(lines) > h-1 {
		lines = lines[:h-1]
	}
	lines = append(lines, help)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}

func (m *DiceStars) headerLine(v *dicestars.View, w int) string {
	info := fmt.Sprintf("seed %d · turn %d", m.sh.Seed(), v.Turns+1)
	if v.Over {
		info = fmt.Sprintf("seed %d · %s", m.sh.Seed(), plural(v.Turns, "turn", "turns"))
	}
	left := styleTitle.Render(" DICE STARS ") + " " + styleFaint.Render(info)
	var right string
	switch {
	case m.match.S.Over():
		right = styleTurn.Render("game over")
	default:
		p := int(m.match.S.Current)
		right = styleTurn.Render("▶ " + m.name(p) + m.sh.Seats()[p].botLabel() + " to play")
	}
	gap := max(1, w-lipgloss.Width(left)-lipgloss.Width(right))
	return left + strings.Repeat(" ", gap) + right
}

// tableLines shows the reserve, bag, discard, refill, end and solo grid.
func (m *DiceStars) tableLines(v *dicestars.View) []string {
	lines := []string{m.reserveLine(m.widthOr())}
	counts := func(label string, total int, by map[string]int) string {
		parts := []string{}
		for _, c := range m.layout.Columns {
			parts = append(parts, fmt.Sprintf("%s%d", colorLetter(c), by[c.String()]))
		}
		return fmt.Sprintf("%s %d (%s)", label, total, strings.Join(parts, " "))
	}
	// The notes in full where they fit, else their first words (the draw
	// prompt of a refill turn says what a refill does).
	notes := func(short bool) string {
		line := counts("Bag", v.Bag, v.BagColors) + " · " + counts("Discard", v.Discard, v.Discarded)
		if v.RefillDue && !v.Over {
			line += " · " + styleYellowB.Render(cut("refill due: the discard goes back into the bag", short))
		}
		if v.Ending && !v.Over {
			line += " · " + stylePenalty.Render(cut("end triggered: last round", short))
		}
		return line
	}
	line := notes(false)
	if lipgloss.Width(line) > m.widthOr() {
		line = notes(true)
	}
	lines = append(lines, line)
	if len(v.Players) == 1 && v.Players[0].Solo != nil {
		lines = append(lines, soloLine(v.Players[0].Solo))
	}
	return lines
}

// cut is a note's words before its colon when short is asked for.
func cut(note string, short bool) string {
	if before, _, ok := strings.Cut(note, ":"); ok && short {
		return before
	}
	return note
}

// reserveLine shows the reserve's dice on one line of width w: named
// ("purple 4") and spaced when they fit, else side by side, else by their
// colour's letter as the sheet's columns name them ("P4"), which fits
// every die of the bag in 80 columns.
func (m *DiceStars) reserveLine(w int) string {
	label := styleBold.Render("Reserve ")
	dice := m.match.S.ReserveDice()
	if len(dice) == 0 {
		return label + "empty"
	}
	chips := make([]string, len(dice))
	for i, d := range dice {
		chips[i] = dieChip(d)
	}
	if line := label + strings.Join(chips, " "); lipgloss.Width(line) <= w {
		return line
	}
	if line := label + strings.Join(chips, ""); lipgloss.Width(line) <= w {
		return line
	}
	for i, d := range dice {
		chips[i] = shortDieChip(d)
	}
	return label + strings.Join(chips, "")
}

func soloLine(so *dicestars.SoloReport) string {
	var b strings.Builder
	if so.Cells <= 60 {
		for i := 0; i < so.Cells; i++ {
			if i > 0 && i%5 == 0 {
				b.WriteByte(' ')
			}
			if i < so.Marked {
				b.WriteString("■")
			} else {
				b.WriteString("□")
			}
		}
		b.WriteByte(' ')
	}
	return styleBold.Render("Solo grid ") + b.String() +
		fmt.Sprintf("%d/%d crossed · virtual opponent %d", so.Marked, so.Cells, so.Opponent)
}

// sheetWidth is the width of one full sheet.
func (m *DiceStars) sheetWidth() int {
	_, maxG, maxM := m.sheetDims()
	return 3 + 1 + 3*dicestars.NumColors + 1 + 3*maxG + 1 + 2*maxM + 1 + 3 + 1 + 6
}

func (m *DiceStars) sheetDims() (rows, maxG, maxM int) {
	for r := 0; r < dicestars.NumRows; r++ {
		maxG = max(maxG, m.layout.Green[r])
		maxM = max(maxM, m.layout.Multipliers[r])
	}
	return dicestars.NumRows, maxG, maxM
}

// sheetsBlock lays out the sheets in the room left: all in full when they
// fit, else the focused sheet (tab) in full and one line for each other,
// else one line each.
func (m *DiceStars) sheetsBlock(rep *dicestars.Report, w, room int) []string {
	n := len(rep.Players)
	sw := m.sheetWidth()
	perRow := max(1, min(n, (w+2)/(sw+3)))
	full := []string{""}
	for i := 0; i < n; i += perRow {
		var cols []string
		for p := i; p < min(n, i+perRow); p++ {
			if p > i {
				cols = append(cols, "   ")
			}
			cols = append(cols, lipgloss.NewStyle().Width(sw).Render(strings.Join(m.sheetLines(rep, p), "\n")))
		}
		full = append(full, strings.Split(lipgloss.JoinHorizontal(lipgloss.Top, cols...), "\n")...)
		full = append(full, "")
	}
	if len(full) <= room {
		return full
	}
	focus := m.focus
	if focus < 0 || focus >= n {
		focus = int(m.match.S.Current)
		if m.showing >= 0 {
			focus = m.showing
		}
	}
	summaries := func(skip int) []string {
		var out []string
		for p := 0; p < n; p++ {
			if p != skip {
				out = append(out, m.summaryLine(rep, p))
			}
		}
		return out
	}
	focused := append([]string{""}, m.sheetLines(rep, focus)...)
	focused = append(focused, summaries(focus)...)
	if n > 1 && len(focused)+2 <= room {
		focused = append(focused, styleFaint.Render("(tab shows another sheet in full)"))
	}
	if len(focused)+1 <= room {
		focused = append(focused, "")
	}
	if len(focused) <= room {
		return focused
	}
	return append(append([]string{""}, summaries(-1)...), "")
}

func (m *DiceStars) playerTitle(rep *dicestars.Report, p int) string {
	t := styleBold.Render(rep.Players[p].Name)
	t += styleFaint.Render(m.sh.Seats()[p].botLabel())
	if !rep.Over && int(m.match.S.Current) == p {
		t = styleTurn.Render("▶ ") + t
	}
	return t
}

// summaryLine is one sheet in one line.
func (m *DiceStars) summaryLine(rep *dicestars.Report, p int) string {
	pr := rep.Players[p]
	scores := make([]string, len(pr.Rows))
	for i, r := range pr.Rows {
		scores[i] = fmt.Sprint(r.Score)
	}
	pen := "—"
	if pr.Penalized {
		pen = fmt.Sprint(pr.Penalty)
	}
	return fmt.Sprintf("%s  total %d · row scores %s · penalty %s · %s left",
		m.playerTitle(rep, p), pr.Total, strings.Join(scores, "/"), pen, plural(pr.WhiteLeft, "white cell", "white cells"))
}

// sheetLines draws one score sheet: value rows × colour columns (white
// cells), the green bonus cells, the yellow multipliers, sum and score.
func (m *DiceStars) sheetLines(rep *dicestars.Report, p int) []string {
	pr := rep.Players[p]
	_, maxG, maxM := m.sheetDims()
	sw := m.sheetWidth()

	title := m.playerTitle(rep, p)
	total := styleBold.Render(fmt.Sprintf("total %d", pr.Total))
	lines := []string{title + strings.Repeat(" ", max(1, sw-lipgloss.Width(title)-lipgloss.Width(total))) + total}

	hd := "    "
	for _, c := range m.layout.Columns {
		hd += lipgloss.NewStyle().Background(dieBG[c]).Foreground(dieFG[c]).Bold(true).Render(" " + colorLetter(c) + " ")
	}
	hd += " " + styleGreenHd.Render(center("bonus", 3*maxG))
	hd += " " + styleYellowB.Render(center("×2 if all", 2*maxM))
	hd += " " + styleFaint.Render("sum  score")
	lines = append(lines, hd)

	for r, row := range pr.Rows {
		var b strings.Builder
		b.WriteString(styleBold.Render(fmt.Sprintf(" %d  ", row.Value)))
		for i := 0; i < dicestars.NumColors; i++ {
			c := m.layout.Columns[i]
			if m.isNew(p, r, i) {
				b.WriteString(styleFresh.Render(newCellText(row.Cells[i])))
				continue
			}
			b.WriteString(lipgloss.NewStyle().Background(cellBG[c]).Foreground(lipgloss.Color("#ffffff")).Render(cellText(row.Cells[i])))
		}
		b.WriteByte(' ')
		for i := 0; i < maxG; i++ {
			switch {
			case i < m.layout.Green[r] && m.isNew(p, r, dicestars.NumColors+i):
				b.WriteString(styleFresh.Render(newCellText(row.Cells[dicestars.NumColors+i])))
			case i < m.layout.Green[r]:
				b.WriteString(styleGreen.Render(cellText(row.Cells[dicestars.NumColors+i])))
			default:
				b.WriteString("   ")
			}
		}
		b.WriteByte(' ')
		var mult strings.Builder
		from, fresh := -1, false
		if n := m.news[p]; n != nil && !m.match.S.Over() {
			from, fresh = n.starsAt[r]
		}
		for i := 0; i < row.Multipliers; i++ {
			switch {
			case fresh && i >= from && i < row.Marked:
				mult.WriteString(styleFresh.Render("★*"))
			case i < row.Marked:
				mult.WriteString(styleYellow.Render("★ "))
			default:
				mult.WriteString(styleYellow.Render("☆ "))
			}
		}
		b.WriteString(mult.String() + strings.Repeat("  ", maxM-row.Multipliers))
		mark := "  "
		switch {
		case row.Marked == row.Multipliers:
			mark = "×2"
		case row.Marked > 0:
			mark = "×0"
		}
		fmt.Fprintf(&b, " %3d %s %3d", row.Sum, mark, row.Score)
		lines = append(lines, b.String())
	}
	pen := "penalty —"
	switch {
	case pr.Penalized && m.news[p] != nil && m.news[p].penalty && !m.match.S.Over():
		pen = styleFresh.Render(fmt.Sprintf("penalty -%d*", pr.Penalty))
	case pr.Penalized:
		pen = stylePenalty.Render(fmt.Sprintf("penalty -%d", pr.Penalty))
	}
	lines = append(lines, "    "+pen+styleFaint.Render(" · "+plural(pr.WhiteLeft, "white cell", "white cells")+" left"))
	return lines
}

// newCellText is a cell a bot just wrote, marked * so it reads without
// colour too.
func newCellText(t string) string { return fmt.Sprintf("%2s*", t) }

// cellText is a 3-wide cell: the number written, X, or a dot when empty.
func cellText(t string) string {
	if t == "" {
		t = "·"
	}
	return fmt.Sprintf("%2s ", t)
}

func center(s string, w int) string {
	n := lipgloss.Width(s)
	if n >= w {
		return s
	}
	l := (w - n) / 2
	return strings.Repeat(" ", l) + s + strings.Repeat(" ", w-n-l)
}

// hintLines say the rules a player needs at this point of the game: how
// stars score, when the game ends, how the solo grid fills.
func (m *DiceStars) hintLines() []string {
	s := &m.match.S
	if s.Over() {
		return nil
	}
	var out []string
	if s.Solo() {
		out = append(out, fmt.Sprintf("Solo grid: after your take, the reserve's dice cross out sum÷%d cells, rounded up", m.layout.SoloGroup),
			"(doubled if a star is among them; stars alone: 1 cell). A full grid loses.")
	}
	out = append(out, "☆ stars in a row: all marked → sum ×2; only some marked → the row scores 0")
	if !s.Ending {
		out = append(out, "The round where a sheet fills all white cells or takes a penalty is the last.")
	}
	return out
}

// actionLines lists what the player to act may do, with keys.
func (m *DiceStars) actionLines(v *dicestars.View) []string {
	s := &m.match.S
	seat := m.currentSeat()
	if m.sh.Confirming() {
		return []string{styleError.Render("Quit the game?") + " The game is not over. " + keyHint("y") + " quit  " + keyHint("n") + " keep playing"}
	}
	if m.showing >= 0 {
		who := m.name(m.showing)
		next := possessive(m.currentSeat().Name) + " turn"
		if m.currentSeat().IsBot() {
			next = m.currentSeat().Name + " plays"
		}
		return []string{styleTurn.Render("▶ "+possessive(who)+" move") + " is marked * on " + possessive(who) + " sheet; " + next + " next " + styleFaint.Render("(any key: at once)")}
	}
	if seat.IsBot() {
		thinking := m.sh.Thinking(m.current())
		verb := "choosing…"
		switch {
		case s.Phase == dicestars.PhaseRoll:
			verb = "rolling…"
		case thinking && s.Phase == dicestars.PhaseDraw:
			verb = "deciding how many dice to draw…"
		case thinking:
			verb = "choosing dice…"
		}
		return []string{styleTurn.Render(seat.Name+seat.botLabel()+" ") + verbFor(seat.Name, "is") + " " + verb}
	}
	legal := m.match.S.LegalActions(nil)
	if m.picking {
		return m.pickerLines()
	}
	switch s.Phase {
	case dicestars.PhaseDraw:
		var ch []string
		for _, a := range legal {
			if a.Type == dicestars.ActDraw && a.ReturnReserve == m.returnReserve {
				ch = append(ch, fmt.Sprintf("%s draw %s", keyHint(fmt.Sprint(a.N)), plural(int(a.N), "die", "dice")))
			}
		}
		lines := []string{styleTurn.Render(seat.Name+", draw dice from the bag: ") + strings.Join(ch, "  ")}
		if s.MustDrawThree(false) && !m.returnReserve {
			lines = append(lines, styleFaint.Render("The reserve is empty or shows only stars: you must draw 3."))
		}
		if s.RefillDue {
			state := "no"
			if m.returnReserve {
				state = "yes (then you draw 3)"
			}
			line := fmt.Sprintf("Refill: the discard goes back into the bag. %s also put the reserve back: %s", keyHint("r"), styleBold.Render(state))
			if lipgloss.Width(line) > m.widthOr() {
				// Narrow: the line under the prompt says what a yes means.
				line = fmt.Sprintf("Refill: the discard goes back into the bag. %s also put the reserve back: %s", keyHint("r"), styleBold.Render(strings.TrimSuffix(state, " (then you draw 3)")))
			}
			lines = append(lines, line)
		}
		return lines
	case dicestars.PhaseTake:
		var ch []string
		stars := false
		for _, a := range legal {
			switch a.Type {
			case dicestars.ActTakeColor:
				n, sum := m.takeSize(a)
				ch = append(ch, fmt.Sprintf("%s %s ×%d (sum %d) → %s column", keyHint(colorKey(a.Color)), a.Color, n, sum, colorLetter(a.Color)))
			case dicestars.ActTakeValue:
				n, sum := m.takeSize(a)
				ch = append(ch, fmt.Sprintf("%s the %ds ×%d (sum %d) → row %d", keyHint(fmt.Sprint(a.Value)), a.Value, n, sum, a.Value))
			case dicestars.ActTakeStars:
				if !stars {
					stars = true
					n, _ := m.takeSize(a)
					ch = append(ch, fmt.Sprintf("%s stars ×%d → multipliers", keyHint("s"), n))
				}
			}
		}
		lines := []string{styleTurn.Render(seat.Name + ", take all dice of one colour, one value or the stars:")}
		lines = append(lines, wrapChoices(ch, m.widthOr())...)
		if !s.AnyTakeFits() {
			lines = append(lines, stylePenalty.Render("Nothing fits your sheet: this turn is a penalty. Choose a colour or a value; its sum goes in the penalty cell and ends the game after this round."))
		}
		return lines
	}
	return nil
}

func (m *DiceStars) widthOr() int { return m.width }

// wrapChoices lays out choices on as few lines as fit the width.
func wrapChoices(ch []string, w int) []string {
	var lines []string
	cur := " "
	for _, c := range ch {
		if lipgloss.Width(cur)+2+lipgloss.Width(c) > w && cur != " " {
			lines = append(lines, cur)
			cur = " "
		}
		cur += " " + c + " "
	}
	if cur != " " {
		lines = append(lines, cur)
	}
	return lines
}

// takeSize is how many dice a take would take, and their sum.
func (m *DiceStars) takeSize(a dicestars.Action) (n, sum int) {
	for _, d := range m.match.S.ReserveDice() {
		take := false
		switch a.Type {
		case dicestars.ActTakeColor:
			take = d.Color() == a.Color
		case dicestars.ActTakeValue:
			take = d.Face() == int(a.Value)
		case dicestars.ActTakeStars:
			take = d.IsStar()
		}
		if take {
			n++
			sum += d.Face()
		}
	}
	return n, sum
}

// pickerLines is the multiplier-row picker of a star choice.
func (m *DiceStars) pickerLines() []string {
	a := m.pickMult()
	sh := &m.match.S.Sheets[m.match.S.Current]
	head := styleTurn.Render(fmt.Sprintf("%s, place %s on multiplier rows (%d of %d placed):",
		m.currentSeat().Name, plural(m.pickStars, "star", "stars"), len(m.pickRows), m.pickStars))
	var ch []string
	for r := 0; r < dicestars.NumRows; r++ {
		total := m.layout.Multipliers[r]
		placed := a.StarsIn(m.layout.RowValues[r])
		marked := int(sh.Marked[r]) + placed
		cells := strings.Repeat("★", int(sh.Marked[r])) + styleTurn.Render(strings.Repeat("★", placed)) + strings.Repeat("☆", total-marked)
		note := ""
		switch {
		case marked == total:
			note = " full ×2"
		case marked > 0:
			note = " ×0 unless filled"
		}
		ch = append(ch, fmt.Sprintf("%s row %d %s%s", keyHint(fmt.Sprint(m.layout.RowValues[r])), m.layout.RowValues[r], styleYellow.Render(cells), note))
	}
	lines := []string{head}
	lines = append(lines, wrapChoices(ch, m.widthOr())...)
	lines = append(lines, " "+keyHint("enter")+" confirm  "+keyHint("backspace")+" undo  "+keyHint("esc")+" cancel")
	return lines
}

// messageLine is the answer to the last key; the quit question is asked
// in the action lines instead.
func (m *DiceStars) messageLine() string {
	msg, isErr := m.sh.Message()
	switch {
	case msg == "" || m.sh.Confirming():
		return ""
	case isErr:
		return styleError.Render("✗ " + msg)
	}
	return styleBold.Render("» " + msg)
}

func (m *DiceStars) helpLine() string {
	var h string
	switch {
	case m.sh.Confirming():
		h = "y quit · n keep playing"
	case m.match.S.Over() && m.sh.CanReview():
		h = "r review · s save record · q quit"
	case m.match.S.Over():
		h = "s save record · q quit"
	case m.picking:
		h = "2-6 row for the next star · enter confirm · backspace undo · esc cancel · q quit"
	case m.currentSeat().IsBot() || m.match.Turn().Chance:
		h = "a bot is playing · tab sheets · q quit"
	case m.match.S.Phase == dicestars.PhaseDraw:
		h = "1 2 3 draw dice · r reserve back too (refill turns) · tab sheets · q quit"
	default:
		h = "k black p purple b blue o orange · 2-6 value · s stars · tab sheets · q quit"
	}
	return styleFaint.Render(h)
}

// endLines is the end screen: each row's score for each player, totals and
// the winner(s); in the solo game, win or loss against the virtual
// opponent and why.
func (m *DiceStars) endLines(v *dicestars.View) []string {
	rep := &v.Report
	var heads []string
	for r := 0; r < dicestars.NumRows; r++ {
		heads = append(heads, fmt.Sprintf("row %d", m.layout.RowValues[r]))
	}
	heads = append(heads, "penalty")
	var rows []rankRow
	for _, p := range rep.Players {
		rr := rankRow{Name: p.Name, Total: p.Total}
		for _, row := range p.Rows {
			c := fmt.Sprint(row.Score)
			switch {
			case row.Marked == row.Multipliers:
				c = fmt.Sprintf("%d×2=%d", row.Sum, row.Score)
			case row.Marked > 0:
				c = fmt.Sprintf("%d×0=0", row.Sum)
			}
			rr.Cells = append(rr.Cells, c)
		}
		rr.Cells = append(rr.Cells, fmt.Sprint(-p.Penalty))
		rows = append(rows, rr)
	}
	winners := rep.Winners
	if len(rep.Players) == 1 && rep.Players[0].Solo != nil {
		// Solo: the virtual opponent is ranked too.
		rows = append(rows, rankRow{Name: "virtual opponent", Total: rep.Players[0].Solo.Opponent})
		if len(winners) == 0 {
			winners = []string{"virtual opponent"}
		}
	}
	lines := []string{styleTurn.Render("Game over") + "  " + styleFaint.Render("after "+plural(rep.Turns, "turn", "turns"))}
	lines = append(lines, wrapLine(styleWin.Render(m.Outcome()), max(40, m.width))...)
	lines = append(lines, rankTable(heads, rows, winners)...)

	save := keyHint("s") + " save the record to " + m.sh.DefaultRecordPath()
	if saved, _ := m.sh.Saved(); saved != "" {
		save = "Record saved to " + saved + " (dicehall replay shows it)."
	}
	if m.sh.CanReview() {
		save = keyHint("r") + " review  " + save
	}
	lines = append(lines, save+"  "+keyHint("q")+" quit")
	return lines
}

// Outcome says who won, in one sentence (the solo game says why).
func (m *DiceStars) Outcome() string {
	rep := m.match.Report()
	if !rep.Over {
		return "the game is not over"
	}
	if len(rep.Players) == 1 && rep.Players[0].Solo != nil {
		p, so := rep.Players[0], rep.Players[0].Solo
		switch {
		case so.Lost:
			return fmt.Sprintf("%s: the last of the %d solo-grid cells was crossed out before the sheet was done.", says(p.Name, "loses"), so.Cells)
		case len(rep.Winners) == 1:
			return fmt.Sprintf("%s: %d points against the virtual opponent's %d (%d of %d solo cells crossed).", says(p.Name, "wins"), p.Total, so.Opponent, so.Marked, so.Cells)
		default:
			return fmt.Sprintf("%s: %d points is not more than the virtual opponent's %d (%d of %d solo cells crossed).", says(p.Name, "loses"), p.Total, so.Opponent, so.Marked, so.Cells)
		}
	}
	best := 0
	for _, p := range rep.Players {
		if p.Name == rep.Winners[0] {
			best = p.Total
		}
	}
	if len(rep.Winners) == 1 {
		return fmt.Sprintf("Winner: %s with %s.", rep.Winners[0], plural(best, "point", "points"))
	}
	return fmt.Sprintf("Shared win: %s with %s each.", strings.Join(rep.Winners, " and "), plural(best, "point", "points"))
}

// Summary is a line or two to print once the full screen is gone.
func (m *DiceStars) Summary() string {
	rep := m.match.Report()
	scores := make([]string, len(rep.Players))
	for i, p := range rep.Players {
		scores[i] = fmt.Sprintf("%s %d", p.Name, p.Total)
	}
	s := fmt.Sprintf("Dice Stars, seed %d: %s.", m.sh.Seed(), strings.Join(scores, ", "))
	if rep.Over {
		s += " " + m.Outcome()
	} else {
		s += " Left after " + plural(rep.Turns, "turn", "turns") + "."
	}
	switch saved, err := m.sh.Saved(); {
	case saved != "":
		s += "\nRecord saved to " + saved + "."
	case err != nil:
		s += "\nThe record was not saved: " + err.Error()
	}
	return s
}

// Help lists the keys of Dice Stars.
func (m *DiceStars) Help() []string {
	return []string{
		"1 2 3   before the roll: draw that many dice from the bag",
		"r       on a refill turn: put the reserve back into the bag too",
		"k p b o take all dice of a colour (black, purple, blue, orange)",
		"2-6     after the roll: take all dice of that value",
		"s       take the stars: then a row key 2-6 per star, enter confirms,",
		"        backspace undoes, esc cancels",
		"tab     show another player's sheet in full (small windows)",
	}
}
