package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// playerSpec is one entry of a --players list: a person's name, or a bot
// kind with the name it plays under.
type playerSpec struct {
	Name    string
	BotKind string // "" for a person
}

// parsePlayerList reads "ann,bot:expert,bob=bot:greedy" for any game: names,
// bot:KIND, or NAME=bot:KIND. Unnamed bots are called after their kind
// ("greedy", "greedy 2"); names must be unique, case-insensitively.
// newBot is called for every bot entry (index, kind) so the game can build
// it and refuse unknown kinds.
func parsePlayerList(list string, newBot func(i int, kind string) error) ([]playerSpec, error) {
	var specs []playerSpec
	used := map[string]bool{}
	for i, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		s := playerSpec{Name: p}
		kind, isBot := "", false
		if n, k, ok := strings.Cut(p, "="); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(k)), "bot:") {
			s.Name, kind, isBot = strings.TrimSpace(n), strings.TrimSpace(k)[len("bot:"):], true
		} else if strings.HasPrefix(strings.ToLower(p), "bot:") {
			s.Name, kind, isBot = "", p[len("bot:"):], true
		}
		if isBot {
			kind = strings.ToLower(strings.TrimSpace(kind))
			if err := newBot(i, kind); err != nil {
				return nil, fmt.Errorf("player %d (%q): %w", i+1, p, err)
			}
			s.BotKind = kind
			if s.Name == "" {
				s.Name = kind
				for k := 2; used[strings.ToLower(s.Name)]; k++ {
					s.Name = fmt.Sprintf("%s %d", kind, k)
				}
			}
		}
		if s.Name == "" {
			return nil, fmt.Errorf("player %d has no name (players are comma-separated names or bot:KIND)", i+1)
		}
		if used[strings.ToLower(s.Name)] {
			return nil, fmt.Errorf("two players are named %q", s.Name)
		}
		used[strings.ToLower(s.Name)] = true
		specs = append(specs, s)
	}
	return specs, nil
}

// writeRecord saves a game record as indented JSON, the form `dicehall
// replay` reads.
func writeRecord(path string, rec engine.Record) error {
	data, err := json.MarshalIndent(rec, "", "  ")
	if err != nil {
		return fmt.Errorf("encode the record: %w", err)
	}
	return os.WriteFile(path, append(data, '\n'), 0o644)
}

// screenFooter finishes a w×h screen the same way for every game: the
// message line (errors marked), as much of the log as fits under a rule,
// blank lines down to the help line, and every line cut to the width.
func screenFooter(lines []string, message string, isError bool, log []string, help string, w, h int) string {
	if message != "" {
		if isError {
			lines = append(lines, styleError.Render("✗ "+message))
		} else {
			lines = append(lines, styleYellow.Render(message))
		}
	}
	if room := h - 1 - len(lines) - 1; room > 0 && len(log) > 0 {
		lines = append(lines, styleFaint.Render("── what happened "+strings.Repeat("─", max(0, min(w, 60)-17))))
		lines = append(lines, log[max(0, len(log)-room):]...)
	}
	for len(lines) < h-1 {
		lines = append(lines, "")
	}
	lines = append(lines[:h-1], help)
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
