package tui

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// English on screen: one place for plurals, for sentences that name a
// player (a player called "you", the default name, is spoken to in the
// second person: "you draw", "your turn"), for key hints that must fit the
// width, and for the final ranking every end screen shows.

// plural is "1 die", "2 dice".
func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// isYou reports whether a player's name is "you": sentences about them
// take the second person.
func isYou(name string) bool { return strings.EqualFold(strings.TrimSpace(name), "you") }

// says is "who verb" with the verb agreeing: third is the verb's form after
// a name ("draws", "is"); "you" takes the plain form ("draw", "are").
func says(who, third string) string { return who + " " + verbFor(who, third) }

// verbFor is the form of a verb (given as after a name: "draws") for who.
func verbFor(who, third string) string {
	if isYou(who) {
		return plainVerb(third)
	}
	return third
}

// possessive is "ann's", "james'", or "your".
func possessive(who string) string {
	switch {
	case isYou(who):
		return "your"
	case strings.HasSuffix(who, "s"):
		return who + "'"
	}
	return who + "'s"
}

// plainVerb turns a verb's third person singular ("draws", "is",
// "catches", "tries") into its plain form; words that are not such a
// form (past tenses: "took", "drew") stay as they are.
func plainVerb(v string) string {
	switch v {
	case "is":
		return "are"
	case "has":
		return "have"
	case "was":
		return "were"
	case "does":
		return "do"
	case "goes":
		return "go"
	}
	switch {
	case len(v) > 4 && strings.HasSuffix(v, "ies"):
		return v[:len(v)-3] + "y"
	case strings.HasSuffix(v, "ches"), strings.HasSuffix(v, "shes"), strings.HasSuffix(v, "sses"),
		strings.HasSuffix(v, "xes"), strings.HasSuffix(v, "zzes"):
		return v[:len(v)-2]
	case len(v) > 2 && strings.HasSuffix(v, "s") && !strings.HasSuffix(v, "ss") && !strings.HasSuffix(v, "us"):
		return v[:len(v)-1]
	}
	return v
}

// secondPerson rewrites a catalogue template whose subject {who} is "you":
// the verb after {who} (or after "{who} also") takes its plain form.
func secondPerson(tmpl string) string {
	const subj = "{who} "
	var out strings.Builder
	for {
		i := strings.Index(tmpl, subj)
		if i < 0 {
			out.WriteString(tmpl)
			return out.String()
		}
		out.WriteString(tmpl[:i+len(subj)])
		tmpl = tmpl[i+len(subj):]
		if rest, ok := strings.CutPrefix(tmpl, "also "); ok {
			out.WriteString("also ")
			tmpl = rest
		}
		end := strings.IndexFunc(tmpl, func(r rune) bool { return r < 'a' || r > 'z' })
		if end < 0 {
			end = len(tmpl)
		}
		out.WriteString(plainVerb(tmpl[:end]))
		tmpl = tmpl[end:]
	}
}

// narrate is the English lines of an event, as engine.Describe writes
// them, but a sentence about a player called "you" in the second person.
func narrate(g engine.Game, e engine.Event, names []string) []string {
	cat := g.Info().Messages
	var lines []string
	for _, m := range engine.Narrate(g, e, names) {
		if who, ok := m.Args["who"].(string); ok && isYou(who) {
			if tmpl, ok := cat[m.Key]; ok {
				// The whole catalogue still: the sentence's parts are
				// messages too ("blue 3").
				you := maps.Clone(cat)
				you[m.Key] = secondPerson(tmpl)
				lines = append(lines, engine.Render(you, m))
				continue
			}
		}
		lines = append(lines, engine.Render(cat, m))
	}
	return lines
}

// fitKeys joins key hints into a line no wider than w: two spaces apart,
// else one, else leaving out hints from the first on (the first say what
// the screen shows anyway); the last one, quitting, always shows.
func fitKeys(parts []string, w int) string {
	for _, sep := range []string{"  ", " "} {
		if l := strings.Join(parts, sep); ansi.StringWidth(l) <= w {
			return l
		}
	}
	for drop := 1; drop < len(parts)-1; drop++ {
		if l := strings.Join(parts[drop:], "  "); ansi.StringWidth(l) <= w {
			return l
		}
	}
	return strings.Join(parts[len(parts)-1:], "")
}

// rankRow is one player in a final ranking: the parts of the score (a
// round's, a row's) and the total.
type rankRow struct {
	Name  string
	Cells []string
	Total int
}

// rankTable is an end screen's final ranking: a line per player, highest
// total first, with the place ("1st"; a tie shares it: "=2nd"), the name,
// the breakdown under heads, and the total; the winners are marked ★
// (nil winners: the top total wins).
func rankTable(heads []string, rows []rankRow, winners []string) []string {
	order := slices.Clone(rows)
	slices.SortStableFunc(order, func(a, b rankRow) int { return b.Total - a.Total })
	nameW := 4
	for _, r := range order {
		nameW = max(nameW, ansi.StringWidth(r.Name))
	}
	colW := make([]int, len(heads))
	for i, h := range heads {
		colW[i] = ansi.StringWidth(h)
		for _, r := range order {
			if i < len(r.Cells) {
				colW[i] = max(colW[i], ansi.StringWidth(r.Cells[i]))
			}
		}
	}
	line := func(mark, place, name string, cells []string, total string) string {
		l := fmt.Sprintf("%s%-5s %-*s ", mark, place, nameW, name)
		for i := range heads {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			l += fmt.Sprintf(" %*s", colW[i], c)
		}
		return l + fmt.Sprintf(" │ %5s", total)
	}
	out := []string{styleFaint.Render(line("  ", "place", "", heads, "total"))}
	for i, r := range order {
		place := i
		for place > 0 && order[place-1].Total == r.Total {
			place--
		}
		pl := ordinal(place + 1)
		if (place+1 < len(order) && order[place+1].Total == r.Total) || place < i {
			pl = "=" + pl
		}
		won := slices.Contains(winners, r.Name) || winners == nil && place == 0
		if won {
			out = append(out, styleWin.Render(line("★ ", pl, r.Name, r.Cells, fmt.Sprint(r.Total))))
		} else {
			out = append(out, line("  ", pl, r.Name, r.Cells, fmt.Sprint(r.Total)))
		}
	}
	return out
}

// ordinal is "1st", "2nd", "3rd", "4th"...
func ordinal(n int) string {
	suffix := "th"
	switch {
	case n%100 >= 11 && n%100 <= 13:
	case n%10 == 1:
		suffix = "st"
	case n%10 == 2:
		suffix = "nd"
	case n%10 == 3:
		suffix = "rd"
	}
	return fmt.Sprintf("%d%s", n, suffix)
}

// winnersText names the winners: "ann wins", "you win", "ann and bob
// share the win".
func winnersText(w []string) string {
	switch len(w) {
	case 0:
		return "nobody wins"
	case 1:
		return says(w[0], "wins")
	}
	return strings.Join(w, " and ") + " share the win"
}
