package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// Words of a review, common to every game (a game's own words, its
// choices and reasons, come from its catalogue).

// verdictLook is how a verdict shows: a mark that reads without colour
// (as chess writes ?! ? ??), its word and its colour.
type verdictLook struct {
	mark, word string
	style      lipgloss.Style
}

var (
	styleOrange  = lipgloss.NewStyle().Foreground(lipgloss.Color("#e67e22")).Bold(true)
	verdictLooks = map[string]verdictLook{
		engine.VerdictBest:       {"★", "best", styleWin},
		engine.VerdictGood:       {"✓", "good", lipgloss.NewStyle()},
		engine.VerdictInaccuracy: {"?!", "inaccuracy", styleYellowB},
		engine.VerdictMistake:    {"?", "mistake", styleOrange},
		engine.VerdictBlunder:    {"??", "blunder", styleError},
	}
)

// verdictMark is a verdict's coloured mark, two columns wide.
func verdictMark(v string) string {
	l := verdictLooks[v]
	return l.style.Render(fmt.Sprintf("%-2s", l.mark))
}

// verdictText is a verdict's mark and word, w columns wide.
func verdictText(v string, w int) string {
	l := verdictLooks[v]
	return l.style.Render(fmt.Sprintf("%-2s %-*s", l.mark, max(0, w-3), l.word))
}

// reviewWords renders a game's messages with its catalogue: several are
// one sentence each, joined.
func reviewWords(info engine.Info, msgs []engine.Message) string {
	parts := make([]string, 0, len(msgs))
	for _, m := range msgs {
		parts = append(parts, engine.Render(info.Messages, m))
	}
	return strings.Join(parts, "; ")
}

// choiceText is a judged choice in words: its sentence, else its wire form.
func choiceText(info engine.Info, v engine.Valued) string {
	if len(v.Says) > 0 {
		return reviewWords(info, v.Says)
	}
	return compactJSON(v.Action)
}

// compactJSON is an action's wire form without its layout (a review read
// back from indented JSON has it indented).
func compactJSON(b json.RawMessage) string {
	var out bytes.Buffer
	if json.Compact(&out, b) != nil {
		return string(b)
	}
	return out.String()
}

// sameAction reports whether two wire forms are one action.
func sameAction(a, b json.RawMessage) bool { return compactJSON(a) == compactJSON(b) }

// points writes a number of points with one decimal.
func points(v float64) string { return fmt.Sprintf("%.1f", v) }

// valueText is what a choice is worth: its points and, when known, its
// chance to win.
func valueText(v engine.Valued) string {
	s := points(v.Points)
	if v.Win >= 0 {
		s += " · " + pct(v.Win) + " to win"
	}
	return s
}

// hasWin reports whether a decision's judgement gave win chances.
func hasWin(d engine.Reviewed) bool { return d.Best.Win >= 0 && d.Chosen.Win >= 0 }

// anyWin reports whether the review gives win chances anywhere.
func (r *reviewScreen) anyWin() bool {
	for _, d := range r.rv.Decisions {
		if hasWin(d) {
			return true
		}
	}
	return false
}

// lostText is what a decision cost, short: "−2.0 −12%".
func lostText(d engine.Reviewed) (pts, win string) {
	if d.Verdict == engine.VerdictBest {
		return "", ""
	}
	pts = "−" + points(d.PointsLost)
	if hasWin(d) && d.WinLost >= 0.0005 {
		win = "−" + pct(d.WinLost)
	}
	return pts, win
}

// measure is what a decision's points measure, in the game's words.
func (r *reviewScreen) measure(d engine.Reviewed) string {
	if d.Measure == "" {
		return "points"
	}
	return engine.Render(r.info.Messages, engine.Message{Key: d.Measure})
}

// render draws the review at w×h.
func (r *reviewScreen) render(w, h int) string {
	switch {
	case w < 50 || h < 14:
		return fitScreen([]string{r.titleLine(w), "",
			fmt.Sprintf("The window is %d×%d: the review needs at least 50×14.", w, h),
			"Make it larger, or press q to quit."}, w, h)
	case r.help:
		return fitScreen(r.helpLines(), w, h)
	case r.open && len(r.rv.Decisions) > 0:
		return r.renderOpen(w, h)
	}
	return r.renderSummary(w, h)
}

// titleLine names the review and the game.
func (r *reviewScreen) titleLine(w int) string {
	info := fmt.Sprintf("seed %d · %s · %s judged", r.rec.Seed, plural(r.rv.Moves, "move", "moves"),
		plural(len(r.rv.Decisions), "decision", "decisions"))
	l := styleTitle.Render(" REVIEW · "+strings.ToUpper(r.info.Title)+" ") + " " + styleFaint.Render(info)
	return ansi.Truncate(l, w, "…")
}

// nameWidth is the column the seats' names take.
func (r *reviewScreen) nameWidth() int {
	n := 6
	for _, name := range r.names {
		n = max(n, ansi.StringWidth(name))
	}
	return min(n, 14)
}

// seatLines are the per-seat sums: accuracy, what was lost, the counts of
// each costly verdict, the mean time per decision.
func (r *reviewScreen) seatLines() []string {
	nw := r.nameWidth()
	win := r.anyWin()
	head := fmt.Sprintf("  %-*s  accuracy  points lost  win lost/move  ?!   ?  ??     mean time", nw, "player")
	lines := []string{styleBold.Render(head)}
	for _, s := range r.rv.Seats {
		wl := "–"
		if win && s.Decisions > 0 {
			// The mean per decision: a sum over a game's decisions
			// easily passes 100% and reads as nonsense.
			wl = pct(s.WinLost / float64(s.Decisions))
		}
		name := ansi.Truncate(r.name(s.Seat), nw, "…")
		row := fmt.Sprintf("%s %s%s  %8s  %11s  %13s  %s %s %s  %12s", seatDot(int(s.Seat)),
			seatStyle(int(s.Seat)).Render(name), strings.Repeat(" ", nw-ansi.StringWidth(name)),
			pct(s.Accuracy), points(s.PointsLost), wl,
			count(s.Inaccuracies, engine.VerdictInaccuracy), count(s.Mistakes, engine.VerdictMistake),
			count(s.Blunders, engine.VerdictBlunder), secs(s.Thought))
		if s.Decisions == 0 {
			row = fmt.Sprintf("%s %s%s  %s", seatDot(int(s.Seat)), seatStyle(int(s.Seat)).Render(name),
				strings.Repeat(" ", nw-ansi.StringWidth(name)), styleFaint.Render("no decision judged"))
		}
		lines = append(lines, row)
	}
	return lines
}

// count is a verdict's count, coloured as the verdict when not zero.
func count(n int, v string) string {
	s := fmt.Sprintf("%3d", n)
	if n == 0 {
		return styleFaint.Render(s)
	}
	return verdictLooks[v].style.Render(s)
}

// graphLines are the balance graph with its legend and the caption of its
// marks, gh rows of plot; nil without a balance.
func (r *reviewScreen) graphLines(w, gh int) []string {
	g := balanceGraph(r.rv, r.names, w, gh, r.sel)
	if g == nil {
		return nil
	}
	legend := styleBold.Render("Chance to win")
	for p := range r.names {
		legend += "  " + seatDot(p) + " " + seatStyle(p).Render(r.name(engine.Seat(p)))
	}
	lines := append([]string{legend}, g...)
	sel := styleKey.Render(selMark) + " decision " + fmt.Sprint(r.sel+1)
	caption := sel
	if t := r.rv.Turning; t >= 0 && t < len(r.rv.Decisions) {
		d := r.rv.Decisions[t]
		turn := styleYellowB.Render(turnMark) + fmt.Sprintf(" turning point: decision %d", t+1)
		caption = turn + fmt.Sprintf(" (%s: %s)", r.name(d.Seat), choiceText(r.info, d.Chosen)) + "   " + sel
		if ansi.StringWidth(caption) > w {
			caption = turn + "   " + sel
		}
	}
	return append(lines, ansi.Truncate(caption, w, "…"))
}

// turnText says where the game turned: the decision, whose, what it was.
func (r *reviewScreen) turnText() string {
	t := r.rv.Turning
	d := r.rv.Decisions[t]
	return fmt.Sprintf("the game turned at decision %d, move %d: %s, %s (%s)", t+1, d.Move,
		r.name(d.Seat), choiceText(r.info, d.Chosen), verdictLooks[d.Verdict].word)
}

// renderSummary is the review's first screen: the seats, the balance and
// the list of decisions.
func (r *reviewScreen) renderSummary(w, h int) string {
	lines := []string{r.titleLine(w), ""}
	lines = append(lines, r.seatLines()...)
	// The graph takes what the list (a few rows at least) leaves.
	const minList = 5
	if room := h - len(lines) - 1 - 2 - minList - 4; room >= 3 {
		if g := r.graphLines(w, min(room, 10)); g != nil {
			lines = append(lines, "")
			lines = append(lines, g...)
		}
	}
	lines = append(lines, "", styleBold.Render(fmt.Sprintf("Decisions (%d)", len(r.rv.Decisions))))
	lines = append(lines, r.listLines(w, h-len(lines)-1)...)
	return fitScreen(append(padTo(lines, h-1), r.footer(w, h)), w, h)
}

// padTo adds blank lines up to n.
func padTo(lines []string, n int) []string {
	for len(lines) < n {
		lines = append(lines, "")
	}
	return lines
}

// listLines are rows of the decision list, the chosen one in view.
func (r *reviewScreen) listLines(w, rows int) []string {
	n := len(r.rv.Decisions)
	if rows <= 0 {
		return nil
	}
	if n == 0 {
		return []string{styleFaint.Render("  no decision to judge: every move was forced")}
	}
	if r.sel < r.top {
		r.top = r.sel
	}
	if r.sel >= r.top+rows {
		r.top = r.sel - rows + 1
	}
	r.top = max(0, min(r.top, n-rows))
	var out []string
	for k := r.top; k < n && k < r.top+rows; k++ {
		out = append(out, r.rowText(k, w))
	}
	return out
}

// rowText is one decision in the list: its number, seat, verdict, cost,
// and the choice made (and the best, when it was not).
func (r *reviewScreen) rowText(k, w int) string {
	d := r.rv.Decisions[k]
	nw := min(r.nameWidth(), 10)
	name := ansi.Truncate(r.name(d.Seat), nw, "…")
	pts, win := lostText(d)
	text := choiceText(r.info, d.Chosen)
	if d.Verdict != engine.VerdictBest {
		text += styleFaint.Render("  ▸ best: ") + choiceText(r.info, d.Best)
	}
	row := fmt.Sprintf("%4d %s%s %s %6s %6s  %s", k+1, seatStyle(int(d.Seat)).Render(name),
		strings.Repeat(" ", nw-ansi.StringWidth(name)), verdictText(d.Verdict, 13), pts, win, text)
	if k == r.sel {
		return styleKey.Render("▶") + row
	}
	return " " + row
}

// footer is the keys of the screen in view.
func (r *reviewScreen) footer(w, h int) string {
	var parts []string
	if r.open {
		parts = []string{"←→ decisions", "n/N next/previous mistake"}
		if r.rv.Turning >= 0 {
			parts = append(parts, "t turning point")
		}
		if r.small(w, h) {
			if r.words {
				parts = append(parts, "tab board")
			} else {
				parts = append(parts, "tab words")
			}
		}
		parts = append(parts, "esc list", "? keys", "q quit")
	} else {
		parts = []string{"↑↓ choose", "enter position", "n next mistake"}
		if r.rv.Turning >= 0 {
			parts = append(parts, "t turning point")
		}
		parts = append(parts, "? keys", "q quit")
	}
	return styleFaint.Render(fitKeys(parts, w))
}

// helpLines list the review's keys and marks.
func (r *reviewScreen) helpLines() []string {
	lines := []string{styleTitle.Render(" KEYS · REVIEW "), ""}
	for _, l := range []string{
		"↑ ↓ ← →   the previous / next decision (k j h l too)",
		"pgup pgdn a page of decisions; home end: the first, the last",
		"n N       the next / previous inaccuracy, mistake or blunder",
		"t         the decision where the game turned",
		"enter     show the position of the decision, and why (again: the list)",
		"tab       small windows: the position's board, or its words",
		"esc       back to the list; from the list, leave the review",
		"q         quit",
	} {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "", styleBold.Render("  Marks"))
	for _, v := range []string{engine.VerdictBest, engine.VerdictGood, engine.VerdictInaccuracy, engine.VerdictMistake, engine.VerdictBlunder} {
		lines = append(lines, "  "+verdictText(v, 14)+verdictMeaning[v])
	}
	lines = append(lines, "  Without win chances, the points lost against the game's own scale decide.",
		"", "  Each decision is judged from what its player could see then.",
		"  "+styleFaint.Render("any key closes this help"))
	return lines
}

// verdictMeaning says what each verdict means.
var verdictMeaning = map[string]string{
	engine.VerdictBest:       "the best choice the analysis found",
	engine.VerdictGood:       "close to the best: within the noise",
	engine.VerdictInaccuracy: "cost a little (5% chance to win or more)",
	engine.VerdictMistake:    "cost clearly (10% or more)",
	engine.VerdictBlunder:    "cost a lot (20% or more)",
}

// small reports whether the board and the decision's words do not fit
// one above the other.
func (r *reviewScreen) small(w, h int) bool {
	pos, err := r.position()
	if err != nil {
		return false
	}
	return w < pos.spec.MinWidth || h-len(r.detailLines(w, 12))-1 < pos.spec.MinHeight-1
}

// renderOpen shows the chosen decision: its position on the game's board
// and its words, one above the other where they fit; on a small screen
// the board with a short account (tab: the words in full).
func (r *reviewScreen) renderOpen(w, h int) string {
	pos, err := r.position()
	if err != nil {
		lines := []string{r.titleLine(w), "", styleFaint.Render("The position cannot be shown here: " + err.Error()), ""}
		lines = append(lines, r.detailLines(w, h-len(lines)-1)...)
		return fitScreen(append(padTo(lines, h-1), r.footer(w, h)), w, h)
	}
	spec := pos.spec
	if !r.small(w, h) {
		words := r.detailLines(w, 12)
		hb := h - len(words) - 1
		board := strings.Split(pos.board.Render(w, hb+1), "\n")
		board = board[:min(len(board), hb)]
		// The words right under what the board shows.
		for len(board) > 1 && strings.TrimSpace(ansi.Strip(board[len(board)-1])) == "" {
			board = board[:len(board)-1]
		}
		lines := append(board, "")
		lines = append(lines, words...)
		// Room to spare: the decisions around this one.
		if rows := h - len(lines) - 2; rows >= 3 {
			lines = append(lines, "")
			lines = append(lines, r.listLines(w, rows)...)
		}
		return fitScreen(append(padTo(lines, h-1), r.footer(w, h)), w, h)
	}
	if r.words || w < spec.MinWidth || h < spec.MinHeight {
		lines := []string{r.titleLine(w), ""}
		lines = append(lines, r.detailLines(w, h-len(lines)-1-6)...)
		if rows := h - len(lines) - 2; rows > 0 {
			lines = append(lines, "")
			lines = append(lines, r.listLines(w, rows)...)
		}
		return fitScreen(append(padTo(lines, h-1), r.footer(w, h)), w, h)
	}
	board := strings.Split(pos.board.Render(w, h), "\n")
	short := r.shortLines(w)
	lines := append(board[:max(0, h-1-len(short))], short...)
	return fitScreen(append(lines, r.footer(w, h)), w, h)
}

// ruleLine is a heading rule: text on the left, right at the right end.
func ruleLine(left, right string, w int) string {
	fill := max(1, w-ansi.StringWidth(left)-ansi.StringWidth(right)-2)
	return left + " " + styleFaint.Render(strings.Repeat("─", fill)) + " " + right
}

// decisionHead is the heading of a decision: which one, whose, when, how
// long its player thought, and its verdict.
func (r *reviewScreen) decisionHead(d engine.Reviewed, w int) string {
	left := styleFaint.Render("──") + " " + styleBold.Render(fmt.Sprintf("decision %d of %d", r.sel+1, len(r.rv.Decisions))) +
		" · " + seatStyle(int(d.Seat)).Render(r.name(d.Seat)) + fmt.Sprintf(" · move %d · %s to decide", d.Move, secs(d.Thought))
	return ruleLine(left, verdictText(d.Verdict, 3+len(verdictLooks[d.Verdict].word)), w)
}

// detailLines are the chosen decision's words, at most max lines: the
// choice made and the best (with what each is worth), the next best, what
// was lost, and the game's notes on why.
func (r *reviewScreen) detailLines(w, most int) []string {
	if len(r.rv.Decisions) == 0 {
		return nil
	}
	d := r.rv.Decisions[r.sel]
	lines := []string{r.decisionHead(d, w)}
	const lead = 8 // "  chose "
	vw := 0
	for _, v := range append([]engine.Valued{d.Chosen, d.Best}, d.Others...) {
		vw = max(vw, ansi.StringWidth(valueText(v)))
	}
	row := func(label string, v engine.Valued, style lipgloss.Style) []string {
		text := choiceText(r.info, v)
		val := valueText(v)
		tw := w - lead - vw - 2
		if tw < 20 {
			// Too narrow for a column of values: after the words.
			return wrapLead(style.Render(label), text+styleFaint.Render(" ("+val+")"), w)
		}
		parts := strings.Split(ansi.Wrap(text, tw, ""), "\n")
		out := make([]string, len(parts))
		for i, p := range parts {
			l := fmt.Sprintf("  %-6s", label)
			if i > 0 {
				l = strings.Repeat(" ", lead)
			}
			l = style.Render(l) + p
			if i == 0 {
				l += strings.Repeat(" ", max(1, tw-ansi.StringWidth(p)+2)) + styleFaint.Render(fmt.Sprintf("%*s", vw, val))
			}
			out[i] = l
		}
		return out
	}
	best := d.Verdict == engine.VerdictBest
	lines = append(lines, row("chose", d.Chosen, verdictLooks[d.Verdict].style)...)
	if !best {
		lines = append(lines, row("best", d.Best, styleWin)...)
	}
	shown := 0
	for _, o := range d.Others {
		if shown == 2 || sameAction(o.Action, d.Chosen.Action) || sameAction(o.Action, d.Best.Action) {
			continue
		}
		lines = append(lines, row("also", o, styleFaint)...)
		shown++
	}
	lost := "nothing: the best choice found"
	if !best {
		lost = fmt.Sprintf("%s (%s)", points(d.PointsLost), r.measure(d))
		if hasWin(d) {
			lost += " · " + pct(d.WinLost) + " chance to win"
		}
	}
	lines = append(lines, wrapLead("lost", lost, w)...)
	for i, n := range d.Notes {
		label := ""
		if i == 0 {
			label = "why"
		}
		lines = append(lines, wrapLead(label, "• "+engine.Render(r.info.Messages, n), w)...)
	}
	if len(lines) > most {
		lines = append(lines[:max(1, most-1)], styleFaint.Render("        … (a larger window shows the rest)"))
	}
	return lines
}

// wrapLead wraps text after a label in the review's left column; a
// bulleted text ("• ...") hangs under its first word.
func wrapLead(label, text string, w int) []string {
	bullet := ""
	if rest, ok := strings.CutPrefix(text, "• "); ok {
		bullet, text = "• ", rest
	}
	parts := strings.Split(ansi.Wrap(text, max(10, w-8-len(bullet)), ""), "\n")
	for i, p := range parts {
		lead := fmt.Sprintf("  %-6s", label) + bullet
		if i > 0 {
			lead = strings.Repeat(" ", 8+ansi.StringWidth(bullet))
		}
		parts[i] = styleBold.Render(lead) + p
	}
	return parts
}

// shortLines are the chosen decision in three lines, under its board on a
// small screen.
func (r *reviewScreen) shortLines(w int) []string {
	d := r.rv.Decisions[r.sel]
	pts, win := lostText(d)
	right := verdictText(d.Verdict, 3+len(verdictLooks[d.Verdict].word))
	if pts != "" {
		right += " " + strings.TrimSpace(pts+" "+win)
	}
	head := styleFaint.Render("──") + " " + styleBold.Render(fmt.Sprintf("%d/%d", r.sel+1, len(r.rv.Decisions))) +
		" · " + seatStyle(int(d.Seat)).Render(r.name(d.Seat)) + fmt.Sprintf(" · move %d", d.Move)
	lines := []string{ruleLine(head, right, w),
		styleBold.Render("  chose ") + choiceText(r.info, d.Chosen)}
	if d.Verdict != engine.VerdictBest {
		lines = append(lines, styleWin.Render("  best  ")+choiceText(r.info, d.Best))
	} else if len(d.Notes) > 0 {
		lines = append(lines, styleBold.Render("  why   ")+engine.Render(r.info.Messages, d.Notes[0]))
	}
	return lines
}

// ReviewReport writes rv, the review of the record rec of a game described
// by info, as plain text for a pipe or a file: each seat's sums, the
// balance of the game, and each seat's three costliest decisions with the
// game's words for them.
func ReviewReport(w io.Writer, info engine.Info, rec engine.Record, rv *engine.Review) error {
	const width = 80
	r := &reviewScreen{info: info, rec: rec, rv: rv, names: rv.Players, sel: -1}
	if len(r.names) == 0 {
		r.names = rec.Players
	}
	lines := []string{fmt.Sprintf("Review of %s · seed %d · %s · %s judged", info.Title, rec.Seed,
		plural(rv.Moves, "move", "moves"), plural(len(rv.Decisions), "decision", "decisions")), ""}
	lines = append(lines, r.seatLines()...)
	if g := balanceGraph(rv, r.names, width, 8, -1); g != nil {
		lines = append(lines, "", "Chance to win over the game, after each decision:")
		lines = append(lines, g...)
		if t := rv.Turning; t >= 0 && t < len(rv.Decisions) {
			lines = append(lines, turnMark+" "+r.turnText())
		}
	}
	for _, s := range rv.Seats {
		lines = append(lines, "", fmt.Sprintf("%s: the costliest decisions", r.name(s.Seat)))
		if len(s.Worst) == 0 {
			lines = append(lines, "  none: every decision judged was the best or close to it")
		}
		for _, k := range s.Worst {
			if k < 0 || k >= len(rv.Decisions) {
				continue
			}
			r.sel = k
			for _, l := range r.detailLines(width, 1<<20) {
				lines = append(lines, strings.TrimRight(l, " "))
			}
		}
	}
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimRight(ansi.Strip(l), " "))
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}
