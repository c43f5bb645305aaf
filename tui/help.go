package tui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// The help screen: the game's keys and the shell's, then the game's rules
// (its engine.Rulebook, in English) put into terminal lines. It scrolls;
// any key but the scrolling ones closes it.

// helpLines is the whole help text at width w, before scrolling.
func (s *Shell) helpLines(w int) []string {
	lines := []string{styleTitle.Render(" KEYS · " + strings.ToUpper(s.info.Title) + " "), ""}
	for _, l := range s.board.Help() {
		lines = append(lines, "  "+l)
	}
	lines = append(lines, "",
		"  q       quit (asks first; after the game, quits at once)",
		"  s       after the game: save the record to "+s.DefaultRecordPath(),
		"  ctrl+c  quit at once",
		"  f1      this help (? too, except while you type)")
	for _, l := range s.coachHelp() {
		lines = append(lines, "  "+l)
	}
	if book, ok := s.cfg.Game.(engine.Rulebook); ok {
		if text, ok := book.Rules("en"); ok {
			lines = append(lines, "", styleTitle.Render(" RULES · "+strings.ToUpper(s.info.Title)+" "))
			lines = append(lines, rulesLines(engine.ParseRules(text), w, s.info.ID)...)
		}
	}
	return lines
}

// rulesLines renders parsed rules for a terminal w columns wide: headings
// stand out, paragraphs and list items wrap (at most 78 columns, for
// reading), and an example is a one-line pointer to the rules page, where
// it is drawn.
func rulesLines(blocks []engine.RulesBlock, w int, id string) []string {
	width := min(w, 78) - 2
	text := func(spans []engine.Span) string {
		var b strings.Builder
		for _, sp := range spans {
			if sp.Bold {
				b.WriteString(styleBold.Render(sp.Text))
			} else {
				b.WriteString(sp.Text)
			}
		}
		return b.String()
	}
	wrap := func(first, rest, s string) []string {
		var out []string
		for i, l := range strings.Split(ansi.Wrap(s, width-ansi.StringWidth(first), ""), "\n") {
			lead := rest
			if i == 0 {
				lead = first
			}
			out = append(out, "  "+lead+strings.TrimRight(l, " "))
		}
		return out
	}
	var out []string
	for _, b := range blocks {
		switch b.Kind {
		case "h2":
			out = append(out, "", "  "+styleBold.Render(strings.ToUpper(b.Plain())))
		case "h3":
			out = append(out, "", "  "+styleBold.Render(b.Plain()))
		case "p":
			out = append(out, "")
			out = append(out, wrap("", "", text(b.Spans))...)
		case "ul", "ol":
			out = append(out, "")
			for i, it := range b.Items {
				mark := "• "
				if b.Kind == "ol" {
					mark = strconv.Itoa(i+1) + ". "
				}
				out = append(out, wrap(mark, strings.Repeat(" ", ansi.StringWidth(mark)), text(it))...)
			}
		case "example":
			out = append(out, "", "  "+styleFaint.Render(fmt.Sprintf("[a picture of this: the rules page /rules/%s in the browser]", id)))
		}
	}
	return out
}

// helpKey scrolls the help screen; false means the key closes it.
func (s *Shell) helpKey(key string) bool {
	_, h := s.size()
	page := max(1, h-3)
	switch key {
	case "up":
		s.helpTop--
	case "down":
		s.helpTop++
	case "pgup":
		s.helpTop -= page
	case "pgdown":
		s.helpTop += page
	case "home":
		s.helpTop = 0
	case "end":
		s.helpTop = 1 << 30
	default:
		return false
	}
	return true
}

// renderHelp draws the help screen at w×h from line helpTop, with a footer
// saying how to scroll and where the view is.
func (s *Shell) renderHelp(w, h int) string {
	lines := s.helpLines(w)
	body := h - 1
	s.helpTop = max(0, min(s.helpTop, len(lines)-body))
	end := min(len(lines), s.helpTop+body)
	shown := append([]string(nil), lines[s.helpTop:end]...)
	for len(shown) < body {
		shown = append(shown, "")
	}
	where := fmt.Sprintf("lines %d–%d of %d", s.helpTop+1, end, len(lines))
	foot := "↑↓ pgup pgdn scroll · any other key closes (the game waits) · " + where
	if ansi.StringWidth(foot) > w {
		foot = "↑↓ pgup pgdn scroll · other keys close · " + where
	}
	return fitScreen(append(shown, styleFaint.Render(foot)), w, h)
}
