package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/server"
)

// The players' commands read a running server's JSON (docs/protocol.md,
// Ratings): `dicehall leaderboard` and `dicehall profile`, the terminal's
// versions of the /leaderboard and /u/<name> pages.

// defaultServer is where `dicehall serve` listens by default.
const defaultServer = "http://127.0.0.1:8080"

// leaderboardPage is the rows a page of `dicehall leaderboard` shows: with
// its heading and footer it fits a 24-line terminal.
const leaderboardPage = 20

// profileGames is the latest games `dicehall profile` lists.
const profileGames = 10

func init() {
	rootCmd.AddCommand(newLeaderboardCmd(), newProfileCmd())
}

func newLeaderboardCmd() *cobra.Command {
	var serverURL string
	var page int
	cmd := &cobra.Command{
		Use:   "leaderboard [GAME]",
		Short: "Show a game's leaderboard from a running server",
		Long: `Show a game's leaderboard: the rated players of a running dicehall
server (dicehall serve), best first, a page of 20 at a time. The rating is
mu - 3 sigma, a skill the player very probably has at least; the skill
column is the estimate itself. Without GAME it shows the board the
server's leaderboard page opens on: the busiest one.`,
		Example: fmt.Sprintf(`  dicehall leaderboard %[1]s
  dicehall leaderboard %[1]s --page 2 --server https://dice.example.org`, registry.IDs()[0]),
		Args: cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if page < 1 {
				return fmt.Errorf("--page %d: pages are numbered from 1", page)
			}
			c, err := newAPIClient(serverURL)
			if err != nil {
				return err
			}
			path := "/api/leaderboard"
			if len(args) == 1 {
				path += "/" + url.PathEscape(strings.ToLower(args[0]))
			}
			var lb server.Leaderboard
			err = c.get(cmd.Context(), fmt.Sprintf("%s?offset=%d&limit=%d", path, (page-1)*leaderboardPage, leaderboardPage), &lb)
			if apiCode(err) == "unknown-game" {
				return c.unknownGame(cmd.Context(), args[0])
			}
			if err != nil {
				return err
			}
			writeLeaderboard(cmd.OutOrStdout(), lb, c.gameTitle(cmd.Context(), lb.Game), page)
			return nil
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", defaultServer, "the dicehall server to ask")
	cmd.Flags().IntVar(&page, "page", 1, "the page to show, from 1")
	return cmd
}

func newProfileCmd() *cobra.Command {
	var serverURL string
	cmd := &cobra.Command{
		Use:   "profile NAME",
		Short: "Show a player's profile from a running server",
		Long: `Show a player's profile on a running dicehall server (dicehall serve):
per game the tables played, the wins, the mean and best score and the
rating, then the latest games with the address of each one's replay.`,
		Example: `  dicehall profile ann
  dicehall profile ann --server https://dice.example.org`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			c, err := newAPIClient(serverURL)
			if err != nil {
				return err
			}
			var p server.Profile
			err = c.get(cmd.Context(), fmt.Sprintf("/api/players/%s?limit=%d", url.PathEscape(args[0]), profileGames), &p)
			if apiCode(err) == "not-found" {
				return fmt.Errorf("no player called %q on %s", args[0], c.base)
			}
			if err != nil {
				return err
			}
			writeProfile(cmd.OutOrStdout(), p, c.base)
			return nil
		},
	}
	cmd.Flags().StringVar(&serverURL, "server", defaultServer, "the dicehall server to ask")
	return cmd
}

// ---- the server's JSON API

type apiClient struct {
	base string // scheme://host[/path], no trailing slash
	http *http.Client
}

func newAPIClient(raw string) (*apiClient, error) {
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--server %q: want an address such as %s", raw, defaultServer)
	}
	return &apiClient{base: strings.TrimRight(u.String(), "/"), http: &http.Client{Timeout: 15 * time.Second}}, nil
}

// apiError is the server's refusal: {"error": {"code", "message"}}.
type apiError struct {
	Status  int
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *apiError) Error() string {
	if e.Message == "" {
		return fmt.Sprintf("the server answered %d %s", e.Status, http.StatusText(e.Status))
	}
	return "the server says: " + e.Message
}

// apiCode is the code of the server's refusal err, "" for another error.
func apiCode(err error) string {
	var ae *apiError
	if errors.As(err, &ae) {
		return ae.Code
	}
	return ""
}

// get reads GET path's JSON answer into out.
func (c *apiClient) get(ctx context.Context, path string, out any) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, c.base+path, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Accept", "application/json")
	res, err := c.http.Do(req)
	if err != nil {
		return fmt.Errorf("cannot reach the server at %s (is dicehall serve running? --server picks another): %w", c.base, errors.Unwrap(err))
	}
	defer res.Body.Close()
	body, err := io.ReadAll(io.LimitReader(res.Body, 4<<20))
	if err != nil {
		return fmt.Errorf("read the answer of %s: %w", c.base, err)
	}
	if res.StatusCode != http.StatusOK {
		var e struct {
			Error apiError `json:"error"`
		}
		_ = json.Unmarshal(body, &e)
		e.Error.Status = res.StatusCode
		return &e.Error
	}
	if err := json.Unmarshal(body, out); err != nil {
		return fmt.Errorf("%s did not answer like a dicehall server: %w", c.base, err)
	}
	return nil
}

// games is the server's games (GET /api/games); nil if it cannot say.
func (c *apiClient) games(ctx context.Context) []struct{ ID, Title string } {
	var out []struct{ ID, Title string }
	if c.get(ctx, "/api/games", &out) != nil {
		return nil
	}
	return out
}

func (c *apiClient) gameTitle(ctx context.Context, id string) string {
	for _, g := range c.games(ctx) {
		if g.ID == id {
			return g.Title
		}
	}
	return id
}

func (c *apiClient) unknownGame(ctx context.Context, name string) error {
	var ids []string
	for _, g := range c.games(ctx) {
		ids = append(ids, g.ID)
	}
	if len(ids) == 0 {
		return fmt.Errorf("unknown game %q", name)
	}
	return fmt.Errorf("unknown game %q (have %s)", name, strings.Join(ids, ", "))
}

// ---- tables for people, 80 columns wide

// printable is s without the control characters a name from the network
// could use to drive the terminal.
func printable(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return '?'
		}
		return r
	}, s)
}

// cell is s cut to width columns (… marks a cut) and padded to them.
func cell(s string, width int) string {
	s = ansi.Truncate(printable(s), width, "…")
	return s + strings.Repeat(" ", max(0, width-ansi.StringWidth(s)))
}

func writeLeaderboard(w io.Writer, lb server.Leaderboard, title string, page int) {
	fmt.Fprintf(w, "%s leaderboard\n\n", printable(title))
	if len(lb.Rows) == 0 {
		if lb.Total > 0 {
			fmt.Fprintf(w, "Page %d is past the end: the board has %d %s.\n", page, lb.Total, plural(lb.Total, "player", "players"))
		} else {
			fmt.Fprintln(w, "Nobody is on this leaderboard yet: finish a rated game between signed-in players.")
		}
		return
	}
	fmt.Fprintf(w, "%4s  %s  %6s  %s  %5s\n", "rank", cell("player", 28), "rating", cell("skill (μ ± σ)", 15), "games")
	for _, r := range lb.Rows {
		name := r.Name
		if r.You {
			name += " (you)"
		}
		fmt.Fprintf(w, "%4d  %s  %6d  %s  %5d\n", r.Rank, cell(name, 28), r.Rating, cell(fmt.Sprintf("%.1f ± %.1f", r.Mu, r.Sigma), 15), r.Games)
	}
	pages := (lb.Total + lb.Limit - 1) / max(1, lb.Limit)
	fmt.Fprintf(w, "\n%d–%d of %d %s (at least %d rated %s each).", lb.Offset+1, lb.Offset+len(lb.Rows), lb.Total,
		plural(lb.Total, "player", "players"), lb.MinGames, plural(lb.MinGames, "game", "games"))
	if page < pages {
		fmt.Fprintf(w, " More: --page %d.", page+1)
	}
	fmt.Fprintln(w)
}

func writeProfile(w io.Writer, p server.Profile, base string) {
	fmt.Fprintf(w, "%s, playing since %s\n", printable(p.Name), p.Since.Local().Format("2 January 2006"))
	if len(p.Stats) == 0 {
		fmt.Fprintln(w, "\nNo finished games yet.")
		return
	}
	fmt.Fprintf(w, "\n%s  %6s  %5s  %6s  %5s  %s\n", cell("game", 20), "played", "wins", "mean", "best", "rating")
	for _, s := range p.Stats {
		rating := "unrated"
		if s.Rating != nil {
			rating = fmt.Sprintf("%d (%s)", s.Rating.Rating, countOf(s.Rating.Games, "rated game", "rated games"))
		}
		fmt.Fprintf(w, "%s  %6d  %5d  %6.1f  %5d  %s\n", cell(s.Title, 20), s.Played, s.Wins, s.Mean, s.Best, rating)
	}
	fmt.Fprintf(w, "\nLatest games (%d of %d):\n", len(p.Games), p.Total)
	for _, g := range p.Games {
		place := "—"
		if g.Seat >= 0 && g.Seat < len(g.Places) {
			place = fmt.Sprintf("%d/%d", g.Places[g.Seat]+1, len(g.Seats))
		}
		result := place
		if g.Seat >= 0 && slices.Contains(g.Result.Winners, engine.Seat(g.Seat)) {
			result += " won"
		}
		if g.Seat >= 0 && g.Seat < len(g.Result.Scores) {
			result += fmt.Sprintf(", %d pts", g.Result.Scores[g.Seat])
		}
		var others []string
		for i, s := range g.Seats {
			if i != g.Seat {
				others = append(others, s.Name)
			}
		}
		rated := ""
		if g.Rated {
			rated = " rated"
		}
		line := fmt.Sprintf("  %s  %s  %s  %s", g.Updated.Local().Format("2006-01-02"), cell(g.Title, 14)+rated+strings.Repeat(" ", 6-len(rated)),
			cell(result, 17), cell("vs "+strings.Join(others, ", "), 24))
		fmt.Fprintln(w, strings.TrimRight(line, " "))
		fmt.Fprintf(w, "              %s/t/%s\n", base, url.PathEscape(g.ID))
	}
	if p.Total > len(p.Games) {
		fmt.Fprintf(w, "All of them: %s/u/%s\n", base, url.PathEscape(p.Name))
	}
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

func countOf(n int, one, many string) string { return fmt.Sprintf("%d %s", n, plural(n, one, many)) }
