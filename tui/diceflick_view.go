package tui

import (
	"fmt"
	"math"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// The arena is drawn at 6 characters and 3 lines per hole pitch: terminal
// cells are about twice as tall as wide, so the box stays square and every
// hole falls on a whole character.
const (
	pitchCols = 6
	pitchRows = 3
)

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

func newCanvas(a *physics.Arena) *canvas {
	sx, sy := pitchCols/a.HolePitch, pitchRows/a.HolePitch
	wx, wy := int(math.Round(a.BoxSize/2*sx)), int(math.Round(a.BoxSize/2*sy))
	c := &canvas{w: 2*wx + 1, h: 2*wy + 1, sx: sx, sy: sy}
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
			case math.Abs(mx) > half || math.Abs(my) > half:
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
func (m *Diceflick) arenaLines(rep *diceflick.Report) []string {
	a := m.arena
	c := newCanvas(a)
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
	if m.anim != nil || m.s().Over() {
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

// Render draws the screen as text (with ANSI styles) at the current size.
func (m *Diceflick) Render(w, h int) string {
	rep := m.match.Report()
	shown := &rep
	if m.anim != nil {
		shown = &m.anim.before
	}
	left := m.arenaLines(shown)
	right := m.panelLines(&rep)
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
	return screenFooter(lines, msg, isErr, m.sh.Log(), m.dfHelp(), w, h)
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

// panelLines is the right of the screen: the notepad, the hands, and the
// turn (aim, rolling die or scoring).
func (m *Diceflick) panelLines(rep *diceflick.Report) []string {
	var out []string
	head := fmt.Sprintf("%-12s", "NOTEPAD")
	for r := 1; r <= rep.Rounds; r++ {
		head += fmt.Sprintf("%3d", r)
	}
	out = append(out, styleBold.Render(head+" │ total"))
	for p, pr := range rep.Players {
		mark := "  "
		if !rep.Over && p == m.s().Current {
			mark = "▶ "
		}
		row := mark + fmt.Sprintf("%-10s", ansi.Truncate(pr.Name, 10, "…"))
		for r := range rep.Rounds {
			if r < len(pr.Scores) {
				row += fmt.Sprintf("%3d", pr.Scores[r])
			} else {
				row += "  ·"
			}
		}
		row += fmt.Sprintf(" │ %5d", pr.Total)
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
		return append(out, m.endLines(rep)...)
	}
	out = append(out, m.turnLine(rep))
	switch {
	case m.anim != nil:
		out = append(out, styleYellow.Render(fmt.Sprintf("the %s die is rolling… (space: skip ahead)", m.anim.color)))
	case m.scoring:
		out = append(out, m.scoreLines()...)
	default:
		out = append(out, m.aimLines(rep)...)
	}
	out = append(out, "", styleFaint.Render("◎ centre ×2 · ★ bonus flick · b y g upgrade +2 · ✸ blast"))
	return out
}

// choosingDie: a person is aiming, so the chosen die is marked in the hand.
func (m *Diceflick) choosingDie() bool {
	return m.anim == nil && !m.scoring && !m.botOnTurn() && m.s().Phase == diceflick.PhaseFlick
}

func (m *Diceflick) turnLine(rep *diceflick.Report) string {
	st := m.s()
	who := m.name(st.Current)
	if m.botOnTurn() {
		who += " (bot)"
	}
	t := styleTurn.Render(who+"'s turn") + fmt.Sprintf(" · flicks left %d", rep.FlicksLeft)
	if rep.Bonus {
		t += styleGreenHd.Render(" · bonus flick granted")
	}
	if rep.MayStop {
		t += styleFaint.Render(" (optional)")
	}
	return t
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
		out = append(out, styleFaint.Render(m.name(m.s().Current)+" takes aim…"))
	}
	return out
}

// scoreLines list the parts that may be scored, the best offer, and what
// the current choice scores (or why the rules would refuse it).
func (m *Diceflick) scoreLines() []string {
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
			what = fmt.Sprintf("%s group %s (%d pts)", p.color, strings.Join(names, " "), b.Sum(maskOf(p.holes)))
		case "centre":
			box = onOff(p.on)
			what = fmt.Sprintf("centre die %s alone (%d pts)", diceflick.HoleName(p.holes[0]), b.Sum(maskOf(p.holes)))
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
		out = append(out, styleFaint.Render(m.name(m.s().Current)+" scores this…"))
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
		out = append(out, fmt.Sprintf("practice total: %d", rep.Players[0].Total))
	} else {
		out = append(out, styleWin.Render("winner: "+strings.Join(rep.Winners, " and ")))
	}
	if saved, _ := m.sh.Saved(); saved != "" {
		out = append(out, styleFaint.Render("record: "+saved))
	}
	return out
}

func (m *Diceflick) dfHelp() string {
	var keys string
	switch {
	case m.sh.Confirming():
		keys = "y quits · any other key goes on"
	case m.s().Over():
		keys = "s save the record · q quit"
	case m.anim != nil:
		keys = "space skip the animation · q quit"
	case m.botOnTurn():
		keys = "watching the bot · q quit"
	case m.scoring:
		keys = "↑/↓ part · space switch it · r best offer · enter score"
		if m.s().Phase != diceflick.PhaseScore {
			keys += " · esc back to the flick"
		}
		keys += " · q quit"
	default:
		keys = "1-3 die · b base · ←/→ angle · ↑/↓ power (shift: big) · space flick"
		if m.s().ShiftBases {
			keys += " · [ ] slide base"
		}
		if m.s().MayStop() {
			keys += " · s skip"
		}
		keys += " · q quit"
	}
	return styleFaint.Render(keys)
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
