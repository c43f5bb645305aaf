package tui

import (
	"fmt"
	"image/color"
	"math"
	"math/bits"
	"sort"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// The balance graph: every seat's chance of winning over the game, drawn
// with braille dots (a cell holds 2×4 of them), one colour per seat, the
// turning point and the decision in view marked under it.

// seatColors colour the seats in the graph and the review's tables.
var seatColors = []color.Color{
	lipgloss.Color("#5dade2"), // blue
	lipgloss.Color("#f4d03f"), // yellow
	lipgloss.Color("#3ecf5a"), // green
	lipgloss.Color("#ff7fbf"), // pink
	lipgloss.Color("#e67e22"), // orange
	lipgloss.Color("#af7ac5"), // purple
}

// seatStyle is the colour of seat p.
func seatStyle(p int) lipgloss.Style {
	return lipgloss.NewStyle().Foreground(seatColors[p%len(seatColors)])
}

// seatDot is the seat's coloured bullet, its mark in the graph's legend.
func seatDot(p int) string { return seatStyle(p).Render("●") }

// Marks under the graph.
const (
	turnMark = "▲"
	selMark  = "◆"
)

// brailleBit is the dot of braille cell column x (0-1), row y (0-3).
var brailleBit = [2][4]uint8{{0x01, 0x02, 0x04, 0x40}, {0x08, 0x10, 0x20, 0x80}}

// balanceGraph draws the review's balance w columns wide (the axis and the
// seats' last chances at the right included) with h rows of plot, then a
// row of marks: the turning point, and sel (a decision index; -1: none).
// nil when the review has no balance or the room is too small.
func balanceGraph(rv *engine.Review, names []string, w, h, sel int) []string {
	n := len(names)
	if len(rv.Balance) == 0 || n == 0 || h < 2 {
		return nil
	}
	const axisW = 6 // "100% ┤"
	labelW := 0
	for p := range n {
		labelW = max(labelW, ansi.StringWidth(names[p]))
	}
	labelW = min(labelW, 12) + len(" ● 100%")
	pw := w - axisW - labelW - 1
	if pw < 8 {
		return nil
	}
	// The series: an even game at the start, then after each decision.
	m := len(rv.Balance) + 1
	at := func(i, p int) float64 {
		if i == 0 {
			return 1 / float64(n)
		}
		if win := rv.Balance[i-1].Win; p < len(win) {
			return math.Max(0, math.Min(1, win[p]))
		}
		return 0
	}
	dx, dy := 2*pw, 4*h
	xOf := func(i int) int { return int(math.Round(float64(i) * float64(dx-1) / float64(m-1))) }
	yOf := func(v float64) int { return int(math.Round((1 - v) * float64(dy-1))) }
	// dots[p][row][col] are seat p's dots in a cell.
	dots := make([][][]uint8, n)
	for p := range n {
		dots[p] = make([][]uint8, h)
		for r := range h {
			dots[p][r] = make([]uint8, pw)
		}
		set := func(x, y int) { dots[p][y/4][x/2] |= brailleBit[x%2][y%4] }
		for i := 0; i+1 < m; i++ {
			line(xOf(i), yOf(at(i, p)), xOf(i+1), yOf(at(i+1, p)), set)
		}
	}
	// Labels at the right: each seat's last chance, in the order of the
	// chances, each on its line's row or as near as the others let it.
	order := make([]int, n)
	for p := range order {
		order[p] = p
	}
	sort.SliceStable(order, func(a, b int) bool { return at(m-1, order[a]) > at(m-1, order[b]) })
	order = order[:min(n, h)]
	rows := make([]int, len(order))
	for i, p := range order {
		rows[i] = yOf(at(m-1, p)) / 4
		if i > 0 {
			rows[i] = max(rows[i], rows[i-1]+1)
		}
	}
	for i := len(rows) - 1; i >= 0; i-- {
		rows[i] = min(rows[i], h-len(rows)+i)
		if i+1 < len(rows) {
			rows[i] = min(rows[i], rows[i+1]-1)
		}
	}
	labels := make([]string, h)
	for i, p := range order {
		labels[rows[i]] = seatStyle(p).Render("● "+ansi.Truncate(names[p], 12, "…")) + " " + pct(at(m-1, p))
	}
	half := yOf(0.5) / 4
	out := make([]string, 0, h+1)
	for r := range h {
		axis := "     │"
		switch {
		case r == 0:
			axis = "100% ┤"
		case r == h-1:
			axis = "  0% ┤"
		case r == half && h >= 3:
			axis = " 50% ┤"
		}
		var b strings.Builder
		b.WriteString(styleFaint.Render(axis))
		for c := range pw {
			var mask uint8
			owner, most := -1, 0
			for p := range n {
				d := dots[p][r][c]
				mask |= d
				if k := bits.OnesCount8(d); k > most {
					owner, most = p, k
				}
			}
			ch := " "
			if mask != 0 {
				ch = string(rune(0x2800 + int(mask)))
			}
			if owner >= 0 {
				ch = seatStyle(owner).Render(ch)
			}
			b.WriteString(ch)
		}
		if labels[r] != "" {
			b.WriteString(" " + labels[r])
		}
		out = append(out, b.String())
	}
	// The marks row.
	marks := []rune(strings.Repeat("─", pw))
	col := func(d int) int {
		i := 0 // the start, before any decision
		for k, b := range rv.Balance {
			if b.Decision <= d {
				i = k + 1
			}
		}
		return min(pw-1, xOf(i)/2)
	}
	if rv.Turning >= 0 {
		marks[col(rv.Turning)] = []rune(turnMark)[0]
	}
	if sel >= 0 {
		marks[col(sel)] = []rune(selMark)[0]
	}
	row := strings.ReplaceAll(string(marks), turnMark, styleYellowB.Render(turnMark))
	row = strings.ReplaceAll(row, selMark, styleKey.Render(selMark))
	out = append(out, styleFaint.Render("     ╰")+row)
	return out
}

// line calls set for every dot from (x0, y0) to (x1, y1) (Bresenham).
func line(x0, y0, x1, y1 int, set func(x, y int)) {
	dx, dy := abs(x1-x0), -abs(y1-y0)
	sx, sy := 1, 1
	if x0 > x1 {
		sx = -1
	}
	if y0 > y1 {
		sy = -1
	}
	e := dx + dy
	for {
		set(x0, y0)
		if x0 == x1 && y0 == y1 {
			return
		}
		e2 := 2 * e
		if e2 >= dy {
			e += dy
			x0 += sx
		}
		if e2 <= dx {
			e += dx
			y0 += sy
		}
	}
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}

// pct writes a chance (0..1) as a percentage: a decimal below 10%.
func pct(v float64) string {
	v *= 100
	if v < 9.95 && v != 0 {
		return fmt.Sprintf("%.1f%%", v)
	}
	return fmt.Sprintf("%.0f%%", v)
}
