package tui

import (
	"fmt"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
)

var (
	styleBWTitle  = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#1e6b34")).Bold(true)
	styleWhiteDie = lipgloss.NewStyle().Foreground(lipgloss.Color("#1a1a1a")).Background(lipgloss.Color("#eeeeee"))
	styleGreenDie = lipgloss.NewStyle().Foreground(lipgloss.Color("#ffffff")).Background(lipgloss.Color("#1e8449"))
	styleSelected = lipgloss.NewStyle().Foreground(lipgloss.Color("#1a1a1a")).Background(lipgloss.Color("#f4d03f")).Bold(true)
	styleCount    = lipgloss.NewStyle().Foreground(lipgloss.Color("#ff5f5f")).Bold(true)
	// styleFresh marks what a bot just did (a die it took, its word).
	styleFresh = lipgloss.NewStyle().Foreground(lipgloss.Color("#1a1a1a")).Background(lipgloss.Color("#5dade2")).Bold(true)
)

// specialHelp explains each face of the Special die in a line.
var specialHelp = map[string]string{
	"turn":  "Turn: the Bookworm turns it to another face, which then holds",
	"a-z":   "A–Z: any word takes it from the display; it cannot be stolen; 0 points",
	"not":   "NOT: taken with a word on N, O or T; +2 with another die at the end, −2 alone",
	"dots":  "••: no word takes it; whoever takes the last white die gets it too; +2",
	"stack": "Stack: it stays put; dice pile up and only the top die of a pile can be stolen",
	"?":     "?: instead of a word, take it (key ?) and choose a category from a new card; 0 points",
}

// turnHelp says in a short line what each face the Bookworm may turn the
// Special die to does.
var turnHelp = map[string]string{
	"a-z":   "A–Z: any word takes it; it cannot be stolen; 0 points",
	"not":   "NOT: a word on N, O or T; +2 with other dice at the end, −2 alone",
	"dots":  "••: no word takes it; it goes with the last white die; +2",
	"stack": "Stack: dice pile up; only the top die of a pile can be stolen",
	"?":     "?: take it instead of a word, for a new card; 0 points",
}

// turnFaces are the faces the Bookworm may turn the Special die to, in
// the order of their keys 1-5.
var turnFaces = []string{"a-z", "not", "dots", "stack", "?"}

// bwDie shows a die with its number (its key), face and points; the chosen
// one is framed ▶ ◀ so it reads without colour too.
func bwDie(d bookworm.DieReport, selected bool) string {
	text := fmt.Sprintf("%d %s %dp", d.Die, bookworm.FaceLabel(d.Face), d.Points)
	if selected {
		return styleSelected.Render("▶" + text + "◀")
	}
	st := styleWhiteDie
	if d.Special {
		st = styleGreenDie
	}
	return st.Render("[" + text + "]")
}

func secs(ms int64) string { return fmt.Sprintf("%.1f s", float64(max(ms, 0))/1000) }

// Render draws the screen as text (with ANSI styles) at the current size.
func (m *Bookworm) Render(w, h int) string {
	v := m.match.SeatView(engine.Spectator)
	lines := []string{m.bwHeader(v, w)}
	if v.Over {
		// The end: the ranking and the rounds, not the last table.
		lines = append(lines, "")
		lines = append(lines, m.endLines(v, w)...)
		msg, isErr := m.sh.Message()
		return screenFooter(lines, msg, isErr, m.sh.Log(), m.bwHelp(w), w, h)
	}
	lines = append(lines, m.cardLines(v, w)...)
	lines = append(lines, "")
	lines = append(lines, m.displayLines(v, w)...)
	lines = append(lines, "")
	lines = append(lines, m.playerLines(v, w)...)
	lines = append(lines, m.wordsLines(v, w)...)
	lines = append(lines, "")
	switch {
	case m.pause:
		lines = append(lines, m.roundLines(v)...)
	default:
		lines = append(lines, m.statusLines(v, w)...)
	}
	msg, isErr := m.sh.Message()
	return screenFooter(lines, msg, isErr, m.sh.Log(), m.bwHelp(w), w, h)
}

func (m *Bookworm) bwHeader(v *bookworm.View, w int) string {
	info := fmt.Sprintf("round %d · Bookworm: %s · seed %d", v.Round, v.Bookworm, m.sh.Seed())
	left := styleBWTitle.Render(" BOOKWORM ") + " " + styleFaint.Render(info)
	right := styleFaint.Render(fmt.Sprintf("game time %d:%02d", m.sh.Now()/60000, m.sh.Now()/1000%60))
	gap := max(1, w-lipgloss.Width(left)-lipgloss.Width(right))
	return left + strings.Repeat(" ", gap) + right
}

// cardLines shows the category card (the chosen category highlighted) and
// the Special die's face.
func (m *Bookworm) cardLines(v *bookworm.View, w int) []string {
	var out []string
	if v.Card == nil {
		out = []string{styleBold.Render("Category ") + styleFaint.Render("no card yet")}
	} else {
		var parts []string
		for i, c := range v.Card.Categories {
			t := fmt.Sprintf("%d %s (%s)", i+1, c.Name, c.Level)
			if v.Category != nil && v.Category.Index == i {
				t = styleTurn.Render("▶ " + t + " ◀")
			} else if v.Category != nil {
				t = styleFaint.Render(t)
			}
			parts = append(parts, t)
		}
		if v.Category != nil && lipgloss.Width(strings.Join(parts, "   "))+9 > w {
			// Too narrow for the whole card: the category in play alone.
			parts = []string{parts[v.Category.Index]}
		}
		out = flowLine(styleBold.Render("Category"), parts, "   ", w)
	}
	if v.Special != "" {
		out = append(out, flowLine(styleBold.Render("Special"), strings.Fields(specialHelp[v.Special]), " ", w)...)
	} else if m.s().NDice > 7 {
		out = append(out, styleBold.Render("Special ")+styleFaint.Render("not rolled yet"))
	} else {
		out = append(out, styleBold.Render("Special ")+styleFaint.Render("played without the Special die"))
	}
	return out
}

func (m *Bookworm) displayLines(v *bookworm.View, w int) []string {
	if len(v.Display) == 0 {
		return []string{styleBold.Render("Display ") + styleFaint.Render("empty")}
	}
	chips := make([]string, len(v.Display))
	for i, d := range v.Display {
		chips[i] = m.chip(d)
	}
	return flowLine(styleBold.Render("Display"), chips, " ", w)
}

// chip is a die as drawn on the table: chosen, or just taken by a bot
// (framed « » so it reads without colour too).
func (m *Bookworm) chip(d bookworm.DieReport) string {
	if m.isFresh(d.Die) {
		return styleFresh.Render(fmt.Sprintf("«%d %s %dp»", d.Die, bookworm.FaceLabel(d.Face), d.Points))
	}
	return bwDie(d, m.choosing() && m.sel == d.Die)
}

// flowLine lays out a labelled list of parts across as many lines as the
// width needs, the lines after the first indented under the first part.
func flowLine(label string, parts []string, sep string, w int) []string {
	indent := strings.Repeat(" ", lipgloss.Width(label)+1)
	var out []string
	line := label
	first := true
	for _, p := range parts {
		switch {
		case first:
			line += " " + p
			first = false
		case lipgloss.Width(line)+lipgloss.Width(sep)+lipgloss.Width(p) > w:
			out = append(out, line)
			line = indent + p
		default:
			line += sep + p
		}
	}
	return append(out, line)
}

// choosing reports whether the player on turn is choosing a die.
func (m *Bookworm) choosing() bool { return m.isHumanTurn() && m.stage == stageDie && !m.pause }

// playerLines is the table of players: dice in the order taken (the top of
// the pile last, marked), Bookworm cards, points this round, the total.
// The dice column gives up room first, so long names (a bot's label) do
// not push the totals off a narrow screen.
func (m *Bookworm) playerLines(v *bookworm.View, w int) []string {
	nameW := 6
	for i, p := range v.Players {
		nameW = max(nameW, len([]rune(m.seatLabel(i, p.Name))))
	}
	diceW := min(44, max(24, w-nameW-25))
	out := []string{styleFaint.Render(fmt.Sprintf("  %-*s  %-*s %5s %6s %6s", nameW, "player", diceW, "dice (first taken → top)", "cards", "round", "total"))}
	for i, p := range v.Players {
		mark := "  "
		if !v.Over && slices.Contains(v.Next, p.Name) {
			mark = styleTurn.Render("▶ ")
		}
		var chips []string
		pts := p.BookwormCards
		for j, d := range p.Dice {
			c := m.chip(d)
			if j == len(p.Dice)-1 {
				c += "▲"
			}
			chips = append(chips, c)
			pts += d.Points
		}
		// The dice wrap within their column, so the numbers stay in view.
		rows := []string{""}
		for _, c := range chips {
			r := &rows[len(rows)-1]
			switch {
			case *r == "":
				*r = c
			case lipgloss.Width(*r)+1+lipgloss.Width(c) > diceW:
				rows = append(rows, c)
			default:
				*r += " " + c
			}
		}
		if len(chips) == 0 {
			rows[0] = styleFaint.Render("—")
		}
		pad := func(s string) string { return s + strings.Repeat(" ", max(0, diceW-lipgloss.Width(s))) }
		out = append(out, fmt.Sprintf("%s%-*s  %s %5d %6d %6d", mark, nameW, m.seatLabel(i, p.Name), pad(rows[0]), p.BookwormCards, pts, p.Total))
		for _, r := range rows[1:] {
			out = append(out, fmt.Sprintf("  %-*s  %s", nameW, "", r))
		}
	}
	return out
}

func (m *Bookworm) seatLabel(i int, name string) string {
	return fmt.Sprintf("%d %s", i+1, name) + m.sh.Seats()[i].botLabel()
}

// wordsLines lists the words named this round with their fate.
func (m *Bookworm) wordsLines(v *bookworm.View, w int) []string {
	if len(v.Words) == 0 {
		return []string{styleBold.Render("Words ") + styleFaint.Render("none named yet this round")}
	}
	var parts []string
	for _, wd := range v.Words {
		mark := map[string]string{bookworm.WordAccepted: "✓", bookworm.WordRejected: "✗", bookworm.WordPending: "…"}[wd.Status]
		t := fmt.Sprintf("%s %s (%s)", mark, wd.Word, wd.By)
		switch {
		case wd.Status == bookworm.WordRejected:
			t = styleFaint.Render(t)
		case m.freshWord == wd.Word+"\x00"+wd.By && m.sh.Now() < m.freshUntil:
			t = styleFresh.Render("«" + t + "»")
		}
		parts = append(parts, t)
	}
	var out []string
	line := styleBold.Render("Words")
	for _, p := range parts {
		if lipgloss.Width(line)+3+lipgloss.Width(p) > w && lipgloss.Width(line) > 6 {
			out = append(out, line)
			line = "     "
		}
		line += "   " + p
	}
	return append(out, line)
}

// statusLines say who acts now and how much time is left, and, for the
// person on turn, the word field.
func (m *Bookworm) statusLines(v *bookworm.View, w int) []string {
	s := m.s()
	var out []string
	switch s.Phase {
	case bookworm.PhaseCategory:
		who := m.name(int(s.Current))
		what := verbFor(who, "is") + " the Bookworm and " + verbFor(who, "chooses") + " the category"
		if s.MidRound {
			what = "took the ? die and " + verbFor(who, "chooses") + " a category on the new card"
		}
		line := styleTurn.Render("▶ "+who) + " " + what
		if m.isBot(engine.Seat(s.Current)) {
			line += styleFaint.Render(" (thinking…)")
		} else {
			line += ": " + keyHint("1") + " " + keyHint("2") + " " + keyHint("3")
		}
		out = append(out, line)
	case bookworm.PhaseTurnTo:
		who := m.name(int(s.Bookworm))
		line := styleTurn.Render("▶ "+who) + " " + verbFor(who, "turns") + " the Special die (it rolled Turn)"
		out = append(out, line)
		if !m.isBot(engine.Seat(s.Bookworm)) {
			// What each face does, where the choice is made.
			for i, f := range turnFaces {
				out = append(out, ansi.Truncate("  "+keyHint(fmt.Sprint(i+1))+" "+turnHelp[f], w, "…"))
			}
		}
	case bookworm.PhaseName:
		who := m.name(int(s.Current))
		out = append(out, styleTurn.Render("▶ "+who)+" "+verbFor(who, "names")+" a word · "+m.clockText(v))
		if m.isHumanTurn() {
			out = append(out, m.inputLine())
		}
	case bookworm.PhaseChallenge, bookworm.PhaseVote:
		for _, l := range m.judgingLines(v) {
			out = append(out, wrapLine(l, w)...)
		}
	}
	return out
}

// clockText is the turn clock: the quiet think time, then the visible
// countdown 5-4-3-2-1.
func (m *Bookworm) clockText(v *bookworm.View) string {
	if m.sh.Now() < v.CountdownAt {
		return styleFaint.Render("think time: the countdown starts in " + secs(v.CountdownAt-m.sh.Now()))
	}
	left := v.Deadline - m.sh.Now()
	n := int((v.Deadline - v.CountdownAt + 999) / 1000)
	cur := int((left + 999) / 1000)
	var parts []string
	for i := n; i >= 1; i-- {
		t := fmt.Sprint(i)
		switch {
		case i == cur:
			t = styleCount.Render("[" + t + "]")
		case i > cur:
			t = styleFaint.Render(t)
		}
		parts = append(parts, t)
	}
	return "COUNTDOWN " + strings.Join(parts, " ")
}

// inputLine is the word field and the die chosen.
func (m *Bookworm) inputLine() string {
	me := m.name(int(m.s().Current))
	field := m.word
	if m.stage == stageWord {
		field += "▌"
	}
	line := fmt.Sprintf("%s, your word: %s", me, styleBold.Render(field))
	if m.stage == stageDie && m.sel >= 0 {
		g := m.group(m.sel)
		from := "from the display"
		if g != int(bookworm.Display) {
			from = "stolen from " + m.name(g)
		}
		line += fmt.Sprintf("   die %d %s %s", m.sel, bookworm.FaceLabel(m.s().FaceName(m.sel)), from)
		if a := m.nameAction(); a.Letter != 0 {
			line += fmt.Sprintf(" (as %c)", a.Letter-'a'+'A')
		}
		line += " · enter names it"
	}
	return line
}

// judgingLines show the word under judgement: who may still challenge or
// vote, what they did, the time left, and the keys.
func (m *Bookworm) judgingLines(v *bookworm.View) []string {
	j := v.Judging
	if j == nil {
		return nil
	}
	s := m.s()
	var waiting []string
	for _, a := range m.match.Turn().Actors {
		l := fmt.Sprintf("%d %s", int(a)+1, m.name(int(a)))
		if a >= 0 && int(a) < len(m.sh.Seats()) && m.sh.Seats()[a].IsBot() {
			l += " (bot)"
		}
		waiting = append(waiting, l)
	}
	face := bookworm.FaceLabel(s.FaceName(j.Die))
	var out []string
	if s.Phase == bookworm.PhaseChallenge {
		verdict := "not in the word list: challenge it?"
		if j.Known {
			verdict = "in the word list: dispute it?"
		}
		out = append(out, fmt.Sprintf("%s %q by %s for die %d %s — %s %s left",
			styleTurn.Render("▶ Judging"), j.Word, j.Speaker, j.Die, face, verdict, secs(v.Deadline-m.sh.Now())))
		line := "may challenge: " + strings.Join(waiting, ", ")
		if len(j.Allowed) > 0 {
			line += " · let it pass: " + strings.Join(j.Allowed, ", ")
		}
		out = append(out, line)
		if hs := m.humanActors(); len(hs) > 0 {
			out = append(out, m.whoPrompt(hs, "c challenges", "a lets it pass", "challenge", "allow"))
		}
		return out
	}
	out = append(out, fmt.Sprintf("%s on %q by %s (challenged by %s) — %s left",
		styleTurn.Render("▶ Vote"), j.Word, j.Speaker, j.Challenger, secs(v.Deadline-m.sh.Now())))
	var acc, rej []string
	for _, p := range v.Players {
		switch j.Votes[p.Name] {
		case "accept":
			acc = append(acc, p.Name)
		case "reject":
			rej = append(rej, p.Name)
		}
	}
	none := func(x []string) string {
		if len(x) == 0 {
			return "—"
		}
		return strings.Join(x, ", ")
	}
	out = append(out, fmt.Sprintf("accept: %s · reject: %s · still to vote: %s", none(acc), none(rej), none(waiting)))
	if hs := m.humanActors(); len(hs) > 0 {
		out = append(out, m.whoPrompt(hs, "y accepts", "n rejects", "accept", "reject"))
	}
	return out
}

// whoPrompt tells the people at the keyboard how to act: the verb key
// alone when one person may act, else the verb key then the seat number.
func (m *Bookworm) whoPrompt(hs []engine.Seat, k1, k2, v1, v2 string) string {
	if len(hs) == 1 {
		return fmt.Sprintf("%s: %s, %s", m.name(int(hs[0])), k1, k2)
	}
	if m.verb == v1 || m.verb == v2 {
		var seats []string
		for _, h := range hs {
			seats = append(seats, fmt.Sprintf("%d %s", int(h)+1, m.name(int(h))))
		}
		return styleYellowB.Render(fmt.Sprintf("who %ss? press the seat number: %s (esc cancels)", m.verb, strings.Join(seats, " · ")))
	}
	var seats []string
	for _, h := range hs {
		seats = append(seats, fmt.Sprintf("%s %d", m.name(int(h)), int(h)+1))
	}
	return fmt.Sprintf("%s or %s, then the seat number (%s)", k1, k2, strings.Join(seats, ", "))
}

// roundLines is the summary of the round just over.
func (m *Bookworm) roundLines(v *bookworm.View) []string {
	lr := v.LastRound
	if lr == nil {
		return nil
	}
	how := lr.Ender + " took the last white die from the display"
	if lr.Failer != "" {
		how = lr.Failer + " found no word in time"
	}
	out := []string{styleTurn.Render(fmt.Sprintf("Round %d is over: %s.", lr.Round, how))}
	out = append(out, m.scoreLines(v, lr)...)
	if len(m.sh.People()) > 0 {
		out = append(out, fmt.Sprintf("%s round %d as the Bookworm · press %s", says(v.Bookworm, "starts"), v.Round, keyHint("enter")))
	} else {
		out = append(out, fmt.Sprintf("%s round %d as the Bookworm in a moment", says(v.Bookworm, "starts"), v.Round))
	}
	return out
}

func (m *Bookworm) scoreLines(v *bookworm.View, lr *bookworm.RoundReport) []string {
	var out []string
	for i, sc := range lr.Scores {
		line := fmt.Sprintf("  %-12s dice %2d  cards %d  special %+d", v.Players[i].Name, sc.Dots, sc.Cards, sc.Special)
		if sc.Penalty != 0 {
			line += fmt.Sprintf("  penalty %d", sc.Penalty)
		}
		out = append(out, fmt.Sprintf("%-58s round %+3d   total %3d", line, sc.Total, v.Players[i].Total))
	}
	return out
}

// endLines show the final ranking with every round's points, and how the
// last round was scored.
func (m *Bookworm) endLines(v *bookworm.View, w int) []string {
	out := []string{styleWin.Render(fmt.Sprintf("Game over after %s: %s.", plural(len(v.Rounds), "round", "rounds"), winnersText(v.Winners))), ""}
	// Points per round; a long game shows its latest rounds.
	for first := 0; first < len(v.Rounds); first++ {
		var heads []string
		rows := make([]rankRow, len(v.Players))
		for i, p := range v.Players {
			rows[i] = rankRow{Name: p.Name, Total: p.Total}
		}
		for r := first; r < len(v.Rounds); r++ {
			heads = append(heads, fmt.Sprintf("r%d", r+1))
			for i := range rows {
				c := ""
				if i < len(v.Rounds[r]) {
					c = fmt.Sprint(v.Rounds[r][i])
				}
				rows[i].Cells = append(rows[i].Cells, c)
			}
		}
		table := rankTable(heads, rows, v.Winners)
		if lipgloss.Width(table[0]) <= w || first == len(v.Rounds)-1 {
			if first > 0 {
				out = append(out, styleFaint.Render(fmt.Sprintf("points per round (rounds %d to %d):", first+1, len(v.Rounds))))
			} else {
				out = append(out, styleFaint.Render("points per round:"))
			}
			out = append(out, table...)
			break
		}
	}
	if lr := v.LastRound; lr != nil {
		how := lr.Ender + " took the last white die from the display"
		if lr.Failer != "" {
			how = lr.Failer + " found no word in time"
		}
		out = append(out, "", styleFaint.Render(fmt.Sprintf("Round %d, the last: %s.", lr.Round, how)))
		out = append(out, m.scoreLines(v, lr)...)
	}
	if saved, _ := m.sh.Saved(); saved != "" {
		out = append(out, "record saved to "+saved)
	}
	return out
}

func (m *Bookworm) bwHelp(w int) string {
	k := keyHint
	var parts []string
	s := m.s()
	switch {
	case s.Over():
		parts = []string{k("s") + " save the record", k("q") + " quit"}
		if m.sh.CanReview() {
			parts = append([]string{k("r") + " review the game"}, parts...)
		}
	case m.pause:
		parts = []string{k("enter") + " next round", k("q") + " quit"}
	case m.isHumanTurn() && m.stage == stageWord:
		parts = []string{"type the word", k("0-7") + " choose the die", k("?") + " take ?", k("esc") + " clear", k("enter") + " name it", k("ctrl+g") + " give up", k("ctrl+c") + " quit"}
	case m.isHumanTurn():
		parts = []string{k("←/→") + " die", k("s") + " steal", k("0-7") + " die", k("enter") + " name it", k("esc") + " edit word", k("ctrl+c") + " quit"}
	case (s.Phase == bookworm.PhaseChallenge || s.Phase == bookworm.PhaseVote) && len(m.humanActors()) == 0:
		parts = []string{"the others judge the word", k("q") + " quit"}
	case s.Phase == bookworm.PhaseChallenge:
		parts = []string{k("c") + " challenge", k("a") + " let pass", "then " + k("seat number"), k("q") + " quit"}
	case s.Phase == bookworm.PhaseVote:
		parts = []string{k("y") + " accept", k("n") + " reject", "then " + k("seat number"), k("q") + " quit"}
	case s.Phase == bookworm.PhaseCategory && !m.isBot(engine.Seat(s.Current)):
		parts = []string{k("1") + " " + k("2") + " " + k("3") + " choose the category", k("q") + " quit"}
	case s.Phase == bookworm.PhaseTurnTo && !m.isBot(engine.Seat(s.Bookworm)):
		parts = []string{k("1-5") + " turn the Special die", k("q") + " quit"}
	default:
		parts = []string{k("q") + " quit"}
	}
	return fitKeys(parts, w)
}

// Summary is the line printed after the program ends.
func (m *Bookworm) Summary() string {
	v := m.match.SeatView(engine.Spectator)
	parts := make([]string, len(v.Players))
	for i, p := range v.Players {
		parts[i] = fmt.Sprintf("%s %d", p.Name, p.Total)
	}
	line := "Bookworm: " + strings.Join(parts, ", ")
	if v.Over {
		line += " — " + winnersText(v.Winners)
	} else {
		line += " (not finished)"
	}
	if saved, _ := m.sh.Saved(); saved != "" {
		line += "; record: " + saved
	}
	return line
}

// Help lists the keys of Bookworm.
func (m *Bookworm) Help() []string {
	return []string{
		"1 2 3     the Bookworm chooses the category (1-5 turns the Special die)",
		"letters   type your word; enter goes on to choosing its die",
		"0-7       choose a die by its number (one in front of a player steals it)",
		"←/→ s     choose among the display's dice; s steals from the next player",
		"enter     name the word with the chosen die; esc edits the word",
		"?         take the ? die instead of a word: a new card",
		"ctrl+g    give up the turn",
		"c a       judge an unknown word: challenge it, or let it pass",
		"y n       vote on a challenged word: accept, reject",
		"1-6       after c a y n: the seat number of who acts, when several may",
		"enter     close a round's summary",
	}
}
