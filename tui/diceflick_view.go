package tui

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// dfScale is how large the arena is drawn: characters and lines per hole
// pitch. Every hole falls on a whole character at either scale, and points
// are placed by the same mm-to-cell mapping, so the picture stays faithful
// to the physics.
type dfScale struct {
	cols, rows int
	// edgeTrench draws a cell centred on the insert's edge (half felt, half
	// trench) as trench; otherwise it is felt.
	edgeTrench bool
}

var (
	// dfFullScale: terminal cells are about twice as tall as wide, so the
	// box stays square (41×21), with a space between holes.
	dfFullScale = dfScale{cols: 6, rows: 3}
	// dfCompactScale fits 80×24 (33×15): a hole's picture is as wide as
	// the pitch, so holes in a row touch, and a line of felt lies between
	// rows; the box is a little wider than tall. The line beyond the first
	// and last rows of holes is 19 mm, half of it trench: it is drawn as
	// trench, where a die that drops in near the insert comes to rest.
	dfCompactScale = dfScale{cols: 5, rows: 2, edgeTrench: true}
)

// The full layout (the arena at full scale beside the whole notepad) needs
// dfFullWidth×dfFullHeight; a smaller screen, down to the board's minimum,
// gets the compact layout: the panel fitted to the room beside the arena
// (dfPanelMin columns at least), and the arena at compact scale unless the
// full scale leaves that room.
const (
	dfFullWidth  = 96
	dfFullHeight = 28
	dfMinWidth   = 80
	dfMinHeight  = 24
	dfPanelMin   = 45
)

// dfLayout is the layout Render chose for the screen.
type dfLayout struct {
	scale dfScale
	// compact fits the panel to its room: the notepad's latest rounds,
	// lines wrapped, spare lines dropped, short key hints.
	compact bool
	// w is the screen's width; panelW and panelH are the room beside the
	// arena (compact only: the full layout draws the panel as it is).
	w, panelW, panelH int
}

// layout chooses the full layout where it fits, else the compact one.
func (m *Diceflick) layout(w, h int) dfLayout {
	if w >= dfFullWidth && h >= dfFullHeight {
		return dfLayout{scale: dfFullScale, w: w}
	}
	sc := dfCompactScale
	if aw, _, _, _ := canvasSize(m.arena, dfFullScale); h >= dfFullHeight && w-aw-2 >= dfPanelMin {
		sc = dfFullScale
	}
	aw, _, _, _ := canvasSize(m.arena, sc)
	// The header, the message and the key hints take a line each.
	return dfLayout{scale: sc, compact: true, w: w, panelW: w - aw - 2, panelH: h - 3}
}

// Colours of the dice (background, text) and of the box.
var (
	dfDieBG = [diceflick.NumColors]string{"#eeeeee", "#2e6fd8", "#f1c40f", "#27ae60", "#ff6ec7"}
	dfDieFG = [diceflick.NumColors]string{"#1a1a1a", "#ffffff", "#1a1a1a", "#ffffff", "#1a1a1a"}
	// dfMarkFG colours an upgrade marker's letter like its dice.
	dfMarkFG = [diceflick.NumColors]string{"#eeeeee", "#5d9cff", "#f1c40f", "#3ecf5a", "#ff6ec7"}
)

const feltBG = "#1f4d2b"

var (
	styleDFTitle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#1f6f8b")).Bold(true)
	styleWall     = lipgloss.NewStyle().Foreground(lipgloss.Color("#c08a4a")).Background(lipgloss.Color("#5a3a1a"))
	styleTrench   = lipgloss.NewStyle().Foreground(lipgloss.Color("#4a4a4a")).Background(lipgloss.Color("#151515"))
	styleFelt     = lipgloss.NewStyle().Foreground(lipgloss.Color("#9fbfa5")).Background(lipgloss.Color(feltBG))
	styleAimLine  = lipgloss.NewStyle().Foreground(lipgloss.Color("#f4d03f")).Background(lipgloss.Color(feltBG))
	styleRest     = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f")).Background(lipgloss.Color(feltBG)).Bold(true)
	styleBase     = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#5a3a1a")).Bold(true)
	styleBaseOn   = lipgloss.NewStyle().Foreground(lipgloss.Color("#1a1a1a")).Background(lipgloss.Color("#f4d03f")).Bold(true)
	styleScored   = lipgloss.NewStyle().Underline(true).Bold(true)
	styleCursorDF = lipgloss.NewStyle().Reverse(true)
	// styleHole looks like the felt but is its own value, so the aim line
	// (drawn only over bare felt) never writes into a hole.
	styleHole = styleFelt.Bold(false)
)

func dieStyle(c diceflick.Color) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(lipgloss.Color(dfDieFG[c])).Background(lipgloss.Color(dfDieBG[c])).Bold(true)
}

// dfLetter is the letter of a colour on the dice and in hands.
func dfLetter(c diceflick.Color) string {
	return strings.ToUpper(c.String()[:1])
}

// dfChip is a die in a hand: its colour letter on its colour.
func dfChip(c diceflick.Color) string { return dieStyle(c).Render("[" + dfLetter(c) + "]") }

// canvas is the arena as characters, each with its style.
type canvas struct {
	w, h   int
	r      [][]rune
	st     [][]*lipgloss.Style
	sx, sy float64 // characters and lines per mm
}

// canvasSize is the arena's size in characters and lines at scale sc, and
// the scale in characters and lines per mm.
func canvasSize(a *physics.Arena, sc dfScale) (w, h int, sx, sy float64) {
	sx, sy = float64(sc.cols)/a.HolePitch, float64(sc.rows)/a.HolePitch
	return 2*int(math.Round(a.BoxSize/2*sx)) + 1, 2*int(math.Round(a.BoxSize/2*sy)) + 1, sx, sy
}

func newCanvas(a *physics.Arena, sc dfScale) *canvas {
	w, h, sx, sy := canvasSize(a, sc)
	wx, wy := w/2, h/2
	c := &canvas{w: w, h: h, sx: sx, sy: sy}
	half := a.InsertHalf()
	for y := range c.h {
		c.r = append(c.r, make([]rune, c.w))
		c.st = append(c.st, make([]*lipgloss.Style, c.w))
		for x := range c.w {
			dx, dy := x-wx, y-wy
			mx, my := float64(dx)/sx, float64(dy)/sy
			switch {
			case (dx == -wx || dx == wx) && (dy == -wy || dy == wy):
				c.set(x, y, map[[2]bool]rune{{false, false}: '╔', {true, false}: '╗', {false, true}: '╚', {true, true}: '╝'}[[2]bool{dx > 0, dy > 0}], &styleWall)
			case dy == -wy || dy == wy:
				c.set(x, y, '═', &styleWall)
			case dx == -wx || dx == wx:
				c.set(x, y, '║', &styleWall)
			case math.Abs(mx) > half || math.Abs(my) > half,
				sc.edgeTrench && max(math.Abs(mx), math.Abs(my)) >= half-1e-6:
				c.set(x, y, '░', &styleTrench)
			default:
				c.set(x, y, ' ', &styleFelt)
			}
		}
	}
	return c
}

func (c *canvas) set(x, y int, r rune, st *lipgloss.Style) {
	if x >= 0 && x < c.w && y >= 0 && y < c.h {
		c.r[y][x], c.st[y][x] = r, st
	}
}

// cell is the character of a point in the arena (clamped into the box).
func (c *canvas) cell(p physics.Point) (int, int) {
	x := c.w/2 + int(math.Round(p.X*c.sx))
	y := c.h/2 - int(math.Round(p.Y*c.sy))
	return min(max(x, 0), c.w-1), min(max(y, 0), c.h-1)
}

// text writes s from x on, one rune a cell.
func (c *canvas) text(x, y int, s string, st *lipgloss.Style) {
	for i, r := range []rune(s) {
		c.set(x+i, y, r, st)
	}
}

func (c *canvas) lines() []string {
	out := make([]string, c.h)
	for y := range c.h {
		var b strings.Builder
		for x := 0; x < c.w; {
			st := c.st[y][x]
			e := x
			for e < c.w && c.st[y][e] == st {
				e++
			}
			run := string(c.r[y][x:e])
			if st != nil {
				run = st.Render(run)
			}
			b.WriteString(run)
			x = e
		}
		out[y] = b.String()
	}
	return out
}

// holeCell is the 5-character picture of a hole: a die, an uncovered
// marker, or an empty hole.
func holeCell(rep *diceflick.Report, h int) (string, *lipgloss.Style) {
	cell := rep.Arena[h/diceflick.Cols][h%diceflick.Cols]
	if cell != "" {
		col, face, _ := strings.Cut(cell, ":")
		c, _ := diceflick.ParseColor(col)
		st := dieStyle(c)
		if c == diceflick.Pink {
			return "[P:✸]", &st
		}
		return "[" + dfLetter(c) + ":" + face + "]", &st
	}
	name := diceflick.HoleName(h)
	for _, mk := range rep.Markers {
		if mk.Hole != name || !mk.Uncovered {
			continue
		}
		switch mk.Kind {
		case "centre":
			return "( ◎ )", &styleHole
		case "bonus":
			return "( ★ )", &styleHole
		}
		c, err := diceflick.ParseColor(mk.Kind)
		if err == nil {
			st := lipgloss.NewStyle().Foreground(lipgloss.Color(dfMarkFG[c])).Background(lipgloss.Color(feltBG)).Bold(true)
			return "( " + strings.ToLower(dfLetter(c)) + " )", &st
		}
	}
	return "( · )", &styleHole
}

// arenaLines draws the box: walls, trench, holes with their dice and
// markers, the bases, and what is going on (the aim guide, a rolling die,
// the parts being scored).
func (m *Diceflick) arenaLines(rep *diceflick.Report, sc dfScale) []string {
	a := m.arena
	c := newCanvas(a, sc)
	scored, cursor := m.scoredHoles()
	for h := range diceflick.Holes {
		x, y := c.cell(a.HoleCentre(h))
		t, st := holeCell(rep, h)
		if scored&(1<<h) != 0 {
			r := []rune(t)
			r[0], r[4] = '{', '}'
			t = string(r)
			s := st.Inherit(styleScored)
			st = &s
		}
		if cursor&(1<<h) != 0 {
			s := st.Inherit(styleCursorDF)
			st = &s
		}
		c.text(x-2, y, t, st)
	}
	aim, aiming := m.shownAim()
	for b := range 4 {
		f := physics.Flick{Base: b}
		if aiming && aim.Base == b {
			f.Offset = aim.Offset
		}
		x, y := c.cell(a.BasePoint(f))
		st := &styleBase
		if aiming && aim.Base == b {
			st = &styleBaseOn
		}
		c.set(x, y, rune('0'+b), st)
	}
	if aiming {
		m.drawAim(c, aim)
	}
	if an := m.anim; an != nil && len(an.path) > 0 {
		at := min(an.at, len(an.path)-1)
		for _, p := range an.path[:at] {
			x, y := c.cell(p)
			if c.st[y][x] == &styleFelt && c.r[y][x] == ' ' {
				c.set(x, y, '·', &styleAimLine)
			}
		}
		x, y := c.cell(an.path[at])
		st := dieStyle(an.color)
		c.set(x, y, []rune(dfLetter(an.color))[0], &st)
	}
	return c.lines()
}

// drawAim draws the launch line from the base in the aimed direction up to
// the walls, and marks where a steady hand's die would come to rest.
func (m *Diceflick) drawAim(c *canvas, f physics.Flick) {
	a := m.arena
	n := [4]physics.Point{{X: 0, Y: 1}, {X: 1, Y: 0}, {X: 0, Y: -1}, {X: -1, Y: 0}}[f.Base]
	l := physics.Point{X: -n.Y, Y: n.X} // the base's left: positive angles turn this way
	dir := physics.Point{X: n.X*math.Cos(f.Angle) + l.X*math.Sin(f.Angle), Y: n.Y*math.Cos(f.Angle) + l.Y*math.Sin(f.Angle)}
	from := a.BasePoint(f)
	lim := a.BoxSize / 2
	for t := 4.0; ; t += 2 {
		p := physics.Point{X: from.X + dir.X*t, Y: from.Y + dir.Y*t}
		if math.Abs(p.X) >= lim || math.Abs(p.Y) >= lim {
			break
		}
		x, y := c.cell(p)
		if (c.st[y][x] == &styleFelt && c.r[y][x] == ' ') || c.st[y][x] == &styleTrench {
			c.set(x, y, '·', &styleAimLine)
		}
	}
	pv := m.Preview()
	switch {
	case pv.Hole >= 0:
		x, y := c.cell(a.HoleCentre(pv.Hole))
		c.set(x, y, '◆', &styleRest)
	case len(pv.Path) > 0:
		x, y := c.cell(pv.Path[len(pv.Path)-1])
		c.set(x, y, '✗', &styleRest)
	}
}

// shownAim is the flick whose guide is drawn: the person's aim while they
// flick, or a bot's chosen flick while it is shown.
func (m *Diceflick) shownAim() (physics.Flick, bool) {
	if m.anim != nil || m.s().Over() || m.showing() != nil {
		return physics.Flick{}, false
	}
	if b := m.botAction(); b != nil && b.Type == diceflick.ActFlick {
		return b.Flick, true
	}
	if !m.botOnTurn() && !m.scoring && m.s().Phase == diceflick.PhaseFlick {
		return m.flick, true
	}
	return physics.Flick{}, false
}

// scoredHoles are the holes the scoring list's parts switched on score, and
// those of the part under the cursor.
func (m *Diceflick) scoredHoles() (scored, cursor uint32) {
	if sh := m.showing(); sh != nil {
		return sh.holes, 0
	}
	if !m.scoring || m.anim != nil {
		return 0, 0
	}
	b := m.s().Board()
	items := b.Items()
	for i, p := range m.parts {
		var mask uint32
		switch p.kind {
		case "blast":
			h := p.holes[0]
			for k := range diceflick.Holes {
				if (p.line == 1 || p.line == 0) && k/diceflick.Cols == h/diceflick.Cols ||
					p.line == 2 && k%diceflick.Cols == h%diceflick.Cols {
					mask |= 1 << k
				}
			}
			mask &= items
			if p.line > 0 {
				scored |= mask
			}
			if p.line == 0 {
				mask = 1 << h
			}
		default:
			for _, h := range p.holes {
				mask |= 1 << h
			}
			if p.on {
				scored |= mask
			}
		}
		if i == m.cursor && !m.botOnTurn() {
			cursor = mask
		}
	}
	return scored, cursor
}

// Render draws the screen as text (with ANSI styles) at the current size:
// the full layout where it fits, else the compact one (a smaller arena,
// the notepad's latest rounds, the panel wrapped to the room left).
func (m *Diceflick) Render(w, h int) string {
	lay := m.layout(w, h)
	rep := m.match.Report()
	shown := &rep
	if m.anim != nil {
		shown = &m.anim.before
	}
	if sh := m.showing(); sh != nil {
		shown = &sh.before
	}
	left := m.arenaLines(shown, lay.scale)
	right := m.panelLines(&rep, lay)
	lw := lipgloss.Width(left[0])
	lines := []string{m.dfHeader(&rep, w)}
	for i := range max(len(left), len(right)) {
		l := strings.Repeat(" ", lw)
		if i < len(left) {
			l = left[i]
		}
		if i < len(right) {
			l += "  " + right[i]
		}
		lines = append(lines, l)
	}
	msg, isErr := m.sh.Message()
	return screenFooter(lines, msg, isErr, m.sh.Log(), m.dfHelp(lay), w, h)
}

func (m *Diceflick) dfHeader(rep *diceflick.Report, w int) string {
	info := fmt.Sprintf("round %d/%d · bag %d · seed %d", rep.Round, rep.Rounds, m.s().BagCount(), m.sh.Seed())
	if rep.Practice {
		info += " · practice"
	}
	l := styleDFTitle.Render(" DICEFLICK ") + " " + styleFaint.Render(info)
	if m.s().ShiftBases {
		l += styleFaint.Render(" · sliding bases")
	}
	return l
}

// dfNoteName is the compact notepad's room for the turn mark and a name,
// so that ten rounds and the total fit beside the arena at 80 columns.
const dfNoteName = 8

// roundsShown are the notepad's columns, first to last round: every round,
// or in the compact layout as many as fit, the latest up to the current one.
func roundsShown(rep *diceflick.Report, lay dfLayout) (lo, hi int) {
	if !lay.compact {
		return 1, rep.Rounds
	}
	// The name (8) and the total (6) around 3 characters a round.
	n := min(rep.Rounds, max(1, (lay.panelW-dfNoteName-6)/3))
	hi = min(rep.Rounds, max(n, rep.Round))
	return hi - n + 1, hi
}

// panelLines is the right of the screen: the notepad, the hands, and the
// turn (aim, rolling die or scoring).
func (m *Diceflick) panelLines(rep *diceflick.Report, lay dfLayout) []string {
	var out []string
	lo, hi := roundsShown(rep, lay)
	nameW := 12 // mark and name
	if lay.compact {
		nameW = dfNoteName
	}
	head := fmt.Sprintf("%-*s", nameW, "NOTEPAD")
	if lo > 1 {
		head = fmt.Sprintf("%-*s", nameW, "NOTEPAD …")
	}
	for r := lo; r <= hi; r++ {
		head += fmt.Sprintf("%3d", r)
	}
	sep := " │ " // before the total; the compact notepad spares its spaces
	if lay.compact {
		sep = "│"
	}
	out = append(out, styleBold.Render(head+sep+"total"))
	for p, pr := range rep.Players {
		mark := "  "
		if !rep.Over && p == m.s().Current {
			mark = "▶ "
		}
		row := mark + fmt.Sprintf("%-*s", nameW-2, ansi.Truncate(pr.Name, nameW-2, "…"))
		fresh, isFresh := m.fresh[p]
		for r := lo - 1; r < hi; r++ {
			switch {
			case r < len(pr.Scores) && isFresh && r == fresh && (rep.Over || p != m.s().Current):
				row += " " + styleFresh.Render(fmt.Sprintf("%2d", pr.Scores[r]))
			case r < len(pr.Scores):
				row += fmt.Sprintf("%3d", pr.Scores[r])
			default:
				row += "  ·"
			}
		}
		row += fmt.Sprintf("%s%5d", sep, pr.Total)
		if !rep.Over && p == m.s().Current {
			row = styleTurn.Render(row)
		}
		out = append(out, row)
	}
	out = append(out, "")
	for p, pr := range rep.Players {
		line := fmt.Sprintf("%-10s", ansi.Truncate(pr.Name, 10, "…"))
		if len(pr.Hand) == 0 {
			line += styleFaint.Render(" no dice in hand")
		}
		for i, col := range pr.Hand {
			c, _ := diceflick.ParseColor(col)
			chip := dfChip(c)
			if p == m.s().Current && !rep.Over {
				lab := fmt.Sprintf(" %d", i+1)
				if m.choosingDie() && i == m.die {
					lab = " ▶"
				}
				chip = lab + chip
			} else {
				chip = " " + chip
			}
			line += chip
		}
		out = append(out, line)
	}
	out = append(out, "")
	if rep.Over {
		return fitPanel(append(out, m.endLines(rep)...), lay, 0)
	}
	sh := m.showing()
	if sh == nil {
		out = append(out, m.turnLine(rep, lay)...)
	}
	switch {
	case sh != nil:
		// A bot's score in view: the next turn shows once it has been read.
		out = append(out, m.showLines(sh, lay)...)
	case m.anim != nil:
		out = append(out, packSegs(lay,
			seg{text: fmt.Sprintf("the %s die is rolling…", m.anim.color), st: &styleYellow},
			seg{sep: " ", text: "(space: skip ahead)", st: &styleYellow})...)
	case m.scoring:
		out = append(out, m.scoreLines(lay)...)
	default:
		out = append(out, m.aimLines(rep)...)
	}
	legend := packSegs(lay,
		seg{text: "◎ centre ×2", st: &styleFaint}, seg{sep: " · ", text: "★ bonus flick", st: &styleFaint},
		seg{sep: " · ", text: "b y g upgrade +2", st: &styleFaint}, seg{sep: " · ", text: "✸ blast", st: &styleFaint})
	out = append(out, "")
	return fitPanel(append(out, legend...), lay, len(legend)+1)
}

// fitPanel fits the panel into the compact layout's room: a line too wide
// wraps, and a panel too tall loses its last spare lines (the legend, then
// blank lines). The full layout's panel is drawn as it is.
func fitPanel(lines []string, lay dfLayout, spare int) []string {
	if !lay.compact {
		return lines
	}
	var out []string
	for _, l := range lines {
		out = append(out, wrapLine(l, lay.panelW)...)
	}
	if len(out) > lay.panelH {
		out = out[:len(out)-spare]
	}
	for i := len(out) - 1; i >= 0 && len(out) > lay.panelH; i-- {
		if out[i] == "" {
			out = append(out[:i], out[i+1:]...)
		}
	}
	return out
}

// wrapLine breaks a line wider than w at spaces; the lines after the first
// are indented.
func wrapLine(l string, w int) []string {
	const indent = "  "
	if w <= 2*len(indent) || lipgloss.Width(l) <= w {
		return []string{l}
	}
	out := strings.Split(lipgloss.Wrap(l, w-len(indent), ""), "\n")
	for i := 1; i < len(out); i++ {
		out[i] = indent + out[i]
	}
	return out
}

// seg is a piece of a panel line: its separator from the piece before, its
// text, and its style (nil: plain).
type seg struct {
	sep, text string
	st        *lipgloss.Style
}

// packSegs joins segments into a line, each styled with its separator, or
// in the compact layout into lines no wider than the panel, breaking
// between segments (a new line drops the separator and is indented).
// Neighbours of one style are rendered together.
func packSegs(lay dfLayout, segs ...seg) []string {
	var out []string
	var line strings.Builder
	var run string
	var runSt *lipgloss.Style
	flush := func() {
		if runSt != nil {
			run = runSt.Render(run)
		}
		line.WriteString(run)
		run = ""
	}
	for i, sg := range segs {
		t := sg.sep + sg.text
		switch {
		case i == 0:
			t = sg.text
		case lay.compact && lipgloss.Width(line.String())+lipgloss.Width(run+t) > lay.panelW:
			flush()
			out = append(out, line.String())
			line.Reset()
			line.WriteString("  ")
			t, runSt = sg.text, sg.st
		case sg.st != runSt:
			flush()
		}
		run, runSt = run+t, sg.st
	}
	flush()
	return append(out, line.String())
}

// choosingDie: a person is aiming, so the chosen die is marked in the hand.
func (m *Diceflick) choosingDie() bool {
	return m.anim == nil && m.showing() == nil && !m.scoring && !m.botOnTurn() && m.s().Phase == diceflick.PhaseFlick
}

// turnLine says whose turn it is and what is left of it.
func (m *Diceflick) turnLine(rep *diceflick.Report, lay dfLayout) []string {
	st := m.s()
	turn := possessive(m.name(st.Current)) + " turn"
	if m.botOnTurn() && m.sh.Seats()[st.Current].IsBot() {
		turn += " (bot)"
	}
	segs := []seg{{text: turn, st: &styleTurn}, {sep: " · ", text: fmt.Sprintf("flicks left %d", rep.FlicksLeft)}}
	if rep.Bonus {
		segs = append(segs, seg{sep: " · ", text: "bonus flick granted", st: &styleGreenHd})
	}
	if rep.MayStop {
		segs = append(segs, seg{sep: " ", text: "(optional)", st: &styleFaint})
	}
	return packSegs(lay, segs...)
}

var baseNames = [4]string{"south", "west", "north", "east"}

// aimLines describe the aim and what a steady hand would do with it.
func (m *Diceflick) aimLines(rep *diceflick.Report) []string {
	f, ok := m.shownAim()
	if !ok {
		return []string{styleFaint.Render("waiting…")}
	}
	die := m.die
	if b := m.botAction(); b != nil {
		die = b.Die
	}
	hand := m.s().HandOf(m.s().Current)
	col := "?"
	if die < len(hand) {
		col = hand[die].String()
	}
	line := fmt.Sprintf("AIM die %d %s · base %d %s", die+1, col, f.Base, baseNames[f.Base])
	if m.s().ShiftBases {
		line += fmt.Sprintf(" · offset %+.1f", f.Offset)
	}
	out := []string{styleBold.Render(line), styleBold.Render(fmt.Sprintf("    angle %s · power %.2f", diceflick.Degrees(f.Angle), f.Power))}
	pv := m.Preview()
	var where string
	switch {
	case pv.Hole >= 0:
		where = "comes to rest in hole " + diceflick.HoleName(pv.Hole) + " ◆"
	case pv.Out:
		where = "jumps out of the box ✗"
	default:
		where = "drops into the trench ✗"
	}
	out = append(out, "a steady hand "+where, styleFaint.Render("(the real flick wobbles a little)"))
	if rep.MayStop && !m.botOnTurn() {
		out = append(out, styleGreenHd.Render("the bonus flick may be skipped: s scores now"))
	}
	if b := m.botAction(); b != nil {
		out = append(out, styleFaint.Render(says(m.name(m.s().Current), "takes")+" aim…"))
	}
	return out
}

// scoreLines list the parts that may be scored, the best offer, and what
// the current choice scores (or why the rules would refuse it).
func (m *Diceflick) scoreLines(lay dfLayout) []string {
	b := m.s().Board()
	best, _ := b.Solve()
	ch := m.Choice()
	head := fmt.Sprintf("SCORING · best offer %d", best)
	var verdict string
	if _, total, err := b.Evaluate(&ch); err != nil {
		verdict = styleError.Render("this choice is refused: " + ruleMessage(err))
	} else {
		verdict = fmt.Sprintf("this choice scores %d", total)
		if total == best {
			verdict = styleWin.Render(verdict + " (the best)")
		}
	}
	out := []string{styleBold.Render(head), verdict}
	if len(m.parts) == 0 {
		out = append(out, styleFaint.Render("nothing to score this turn: enter goes on"))
	}
	for i, p := range m.parts {
		mark := "  "
		if i == m.cursor && !m.botOnTurn() {
			mark = "▶ "
		}
		var box, what string
		switch p.kind {
		case "group":
			box = onOff(p.on)
			names := make([]string, len(p.holes))
			for k, h := range p.holes {
				names[k] = diceflick.HoleName(h)
			}
			group := " group" // the compact layout leaves the word out: the colour says it
			if lay.compact {
				group = ""
			}
			what = fmt.Sprintf("%s%s %s (%s)", p.color, group, strings.Join(names, " "), plural(b.Sum(maskOf(p.holes)), "pt", "pts"))
		case "centre":
			box = onOff(p.on)
			what = fmt.Sprintf("centre die %s alone (%s)", diceflick.HoleName(p.holes[0]), plural(b.Sum(maskOf(p.holes)), "pt", "pts"))
		case "blast":
			box = [3]string{"[ ]", "[r]", "[c]"}[p.line]
			what = fmt.Sprintf("blast die %s: %s", diceflick.HoleName(p.holes[0]), [3]string{"not scored", "its row", "its column"}[p.line])
		}
		line := mark + box + " " + what
		if i == m.cursor && !m.botOnTurn() {
			line = styleTurn.Render(line)
		}
		out = append(out, line)
	}
	if m.botOnTurn() {
		out = append(out, styleFaint.Render(says(m.name(m.s().Current), "scores")+" this…"))
	}
	return out
}

// showLines are a bot's score being shown: its total, each part with its
// holes and points, and what was on offer when it took less.
func (m *Diceflick) showLines(sh *scoreShow, lay dfLayout) []string {
	e := sh.ev
	out := packSegs(lay, seg{text: says(e.Player, "scores") + " " + plural(e.Total, "point", "points"), st: &styleFresh})
	if len(e.Parts) == 0 {
		out = append(out, styleFaint.Render("nothing scored this turn"))
	}
	for _, p := range e.Parts {
		var what string
		switch p.Kind {
		case "group":
			what = fmt.Sprintf("%s group %s", p.Color, strings.Join(p.Holes, " "))
		case "centre":
			what = "centre die " + strings.Join(p.Holes, " ")
		case "blast":
			what = fmt.Sprintf("blast die %s: its %s", p.At, p.Line)
		}
		out = append(out, packSegs(lay, seg{text: "  " + what}, seg{sep: " ", text: "+" + strconv.Itoa(p.Points), st: &styleBold})...)
	}
	if e.Total < e.Best {
		out = append(out, styleFaint.Render(fmt.Sprintf("(%s was on offer)", plural(e.Best, "point", "points"))))
	}
	if !m.match.Turn().Chance {
		out = append(out, styleFaint.Render("next: "+possessive(m.name(m.s().Current))+" turn"))
	}
	return out
}

func onOff(on bool) string {
	if on {
		return "[x]"
	}
	return "[ ]"
}

func maskOf(holes []int) uint32 {
	var m uint32
	for _, h := range holes {
		m |= 1 << h
	}
	return m
}

func (m *Diceflick) endLines(rep *diceflick.Report) []string {
	out := []string{styleWin.Render("GAME OVER")}
	if rep.Practice {
		out = append(out, fmt.Sprintf("practice total: %s", plural(rep.Players[0].Total, "point", "points")))
	} else {
		out = append(out, styleWin.Render(winnersText(rep.Winners)))
		// The ranking; the notepad above has every round.
		rows := make([]rankRow, len(rep.Players))
		for i, p := range rep.Players {
			rows[i] = rankRow{Name: p.Name, Total: p.Total}
		}
		out = append(out, rankTable(nil, rows, rep.Winners)...)
	}
	if saved, _ := m.sh.Saved(); saved != "" {
		out = append(out, styleFaint.Render("record: "+saved))
	}
	return out
}

// dfHelp is the key hints footer. A hint has a short form, used where the
// compact layout's screen is too narrow for the long ones.
func (m *Diceflick) dfHelp(lay dfLayout) string {
	var keys [][2]string // long, short ("": left out)
	// add takes "long|short" hints, or one form for both.
	add := func(k ...string) {
		for _, x := range k {
			long, short, cut := strings.Cut(x, "|")
			if !cut {
				short = long
			}
			keys = append(keys, [2]string{long, short})
		}
	}
	switch {
	case m.sh.Confirming():
		add("y quits", "any other key goes on")
	case m.s().Over() && m.sh.CanReview():
		add("r review the game|r review", "s save the record", "q quit")
	case m.s().Over():
		add("s save the record", "q quit")
	case m.anim != nil:
		add("space skip the animation", "q quit")
	case m.showing() != nil:
		add("any key goes on", "q quit")
	case m.botOnTurn():
		add("watching the bot", "q quit")
	case m.scoring:
		add("↑/↓ part", "space switch it|space switch", "r best offer|r best", "enter score")
		if m.s().Phase != diceflick.PhaseScore {
			add("esc back to the flick|esc back")
		}
		add("q quit")
	default:
		base := "b base"
		if m.s().ShiftBases {
			base += "|b [ ] base"
		}
		add("1-3 die", base, "←/→ angle", "↑/↓ power (shift: big)|↑/↓ power", "space flick")
		if m.s().ShiftBases {
			add("[ ] slide base|")
		}
		if m.s().MayStop() {
			add("s skip")
		}
		add("q quit")
	}
	join := func(short bool) string {
		var parts []string
		for _, k := range keys {
			if short {
				k[0] = k[1]
			}
			if k[0] != "" {
				parts = append(parts, k[0])
			}
		}
		return strings.Join(parts, " · ")
	}
	text := join(false)
	if lay.compact && lipgloss.Width(text) > lay.w {
		text = join(true)
	}
	return styleFaint.Render(text)
}

// Summary is printed on the normal screen after the game.
func (m *Diceflick) Summary() string {
	rep := m.match.Report()
	var b strings.Builder
	fmt.Fprintf(&b, "Diceflick, seed %d: ", m.sh.Seed())
	if rep.Over {
		if rep.Practice {
			fmt.Fprintf(&b, "practice total %d", rep.Players[0].Total)
		} else {
			fmt.Fprintf(&b, "%s won", strings.Join(rep.Winners, " and "))
		}
	} else {
		fmt.Fprintf(&b, "stopped in round %d", rep.Round)
	}
	var tot []string
	for _, p := range rep.Players {
		tot = append(tot, fmt.Sprintf("%s %d", p.Name, p.Total))
	}
	b.WriteString(" · " + strings.Join(tot, ", "))
	if saved, _ := m.sh.Saved(); saved != "" {
		b.WriteString(" · record " + saved)
	}
	return b.String()
}

// Help lists the keys of Diceflick.
func (m *Diceflick) Help() []string {
	return []string{
		"1-3        choose the die to flick from your hand",
		"b / B      next / previous base (0 south, 1 west, 2 north, 3 east)",
		"←/→        turn the aim 1° (shift: 5°)",
		"↑/↓        power ±0.02 (shift: ±0.1)",
		"[ ]        slide the base (children's variant, --shift-bases)",
		"space      flick; during a landing: skip ahead",
		"s          skip the bonus flick and score now",
		"scoring:   ↑/↓ choose a part, space switches it, r the best offer,",
		"           enter scores, esc back to the bonus flick",
	}
}
