package tui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"sync"

	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// Seat is one player at this terminal: a person at the shared keyboard
// (hot-seat) or a bot, for any game.
type Seat struct {
	Name string
	// BotKind and Bot are set for a bot seat ("random", "hard", ...).
	BotKind string
	Bot     engine.Controller
	// mu serialises the bot: an answer for an old version of the game may
	// still be running when the next question is asked, and a bot's own
	// state (its random stream) is not safe for concurrent use.
	mu *sync.Mutex
}

// IsBot reports whether the seat is played by a bot.
func (s Seat) IsBot() bool { return s.Bot != nil }

// botLabel is what follows a bot's name on screen: " (bot)", or
// " (bot KIND)" when the name does not say the kind.
func (s Seat) botLabel() string {
	switch {
	case !s.IsBot():
		return ""
	case strings.HasPrefix(strings.ToLower(s.Name), s.BotKind):
		return " (bot)"
	}
	return " (bot " + s.BotKind + ")"
}

// DefaultPlayers is the --players value when none is given: you against
// the game's default bot (you alone when it has none).
func DefaultPlayers(info engine.Info) string {
	if info.DefaultBot == "" {
		return "you"
	}
	return "you,bot:" + info.DefaultBot
}

// ParsePlayers reads a comma-separated player list for game g: plain names
// are people at the keyboard; "bot:KIND" (or "NAME=bot:KIND") seats one of
// the game's bots (Info.Bots), seeded with engine.SplitSeed(seed, seat).
// Unnamed bots are called after their kind ("greedy", "greedy 2"); names
// must be unique, case-insensitively.
func ParsePlayers(g engine.Game, list string, seed uint64) ([]Seat, error) {
	info := g.Info()
	if n := len(strings.Split(list, ",")); n < info.MinPlayers || n > info.MaxPlayers {
		if info.MinPlayers == info.MaxPlayers {
			return nil, fmt.Errorf("%s is for %d players, not %d", info.Title, info.MinPlayers, n)
		}
		return nil, fmt.Errorf("%s is for %d to %d players, not %d", info.Title, info.MinPlayers, info.MaxPlayers, n)
	}
	provider, _ := g.(engine.BotProvider)
	var seats []Seat
	used := map[string]bool{}
	for i, p := range strings.Split(list, ",") {
		p = strings.TrimSpace(p)
		s := Seat{Name: p}
		kind, isBot := "", false
		if n, k, ok := strings.Cut(p, "="); ok && strings.HasPrefix(strings.ToLower(strings.TrimSpace(k)), "bot:") {
			s.Name, kind, isBot = strings.TrimSpace(n), strings.TrimSpace(k)[len("bot:"):], true
		} else if strings.HasPrefix(strings.ToLower(p), "bot:") {
			s.Name, kind, isBot = "", p[len("bot:"):], true
		}
		if isBot {
			kind = strings.ToLower(strings.TrimSpace(kind))
			bot, err := newBot(info, provider, kind, engine.SplitSeed(seed, uint64(i)))
			if err != nil {
				return nil, fmt.Errorf("player %d (%q): %w", i+1, p, err)
			}
			s.BotKind, s.Bot, s.mu = kind, bot, &sync.Mutex{}
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
		seats = append(seats, s)
	}
	return seats, nil
}

// newBot seats a bot of a kind the game lists.
func newBot(info engine.Info, provider engine.BotProvider, kind string, seed uint64) (engine.Controller, error) {
	if provider == nil || len(info.Bots) == 0 {
		return nil, fmt.Errorf("%s has no bots", info.Title)
	}
	if !info.HasBot(kind) {
		return nil, fmt.Errorf("%s has no bot %q (bots: %s)", info.Title, kind, strings.Join(info.BotKinds(), ", "))
	}
	b, err := provider.NewBot(kind, seed)
	if err != nil {
		return nil, fmt.Errorf("%s bot %q: %w", info.Title, kind, err)
	}
	return b, nil
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
	// Too tall: blank spacer lines go first, so what to do stays in view.
	for i := len(lines) - 1; i > 0 && len(lines) > h-2; i-- {
		if lines[i] == "" {
			lines = append(lines[:i], lines[i+1:]...)
		}
	}
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
