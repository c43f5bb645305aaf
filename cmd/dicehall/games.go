package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
)

var gamesJSON bool

var gamesCmd = &cobra.Command{
	Use:   "games",
	Short: "List the games: seats, bots and table options",
	Long: `games lists every game dicehall knows, as each game describes itself: its
seats, its one-player mode, its bots (weakest first; * marks the one seated
when nobody says which) and its table options with their defaults, ranges
and the play flag that sets each. --json prints the same descriptions the
browser's lobby reads (GET /api/games).`,
	Args: cobra.NoArgs,
	RunE: func(cmd *cobra.Command, _ []string) error {
		infos := make([]engine.Info, 0, len(registry.IDs()))
		for _, id := range registry.IDs() {
			g, _ := registry.Lookup(id)
			infos = append(infos, g.Info())
		}
		if gamesJSON {
			enc := json.NewEncoder(cmd.OutOrStdout())
			enc.SetIndent("", "  ")
			return enc.Encode(infos)
		}
		for i, info := range infos {
			if i > 0 {
				fmt.Fprintln(cmd.OutOrStdout())
			}
			writeGameInfo(cmd.OutOrStdout(), info)
		}
		return nil
	},
}

func init() {
	gamesCmd.Flags().BoolVar(&gamesJSON, "json", false, "print the descriptions as JSON")
	rootCmd.AddCommand(gamesCmd)
}

// writeGameInfo prints one game's description for people, in English.
func writeGameInfo(w io.Writer, info engine.Info) {
	say := func(key string, args map[string]any) string {
		return engine.Render(info.Messages, engine.Message{Key: key, Args: args})
	}
	fmt.Fprintf(w, "%s (%s)\n", info.Title, info.ID)
	// The lobby's one line about the game, from the game's own catalogue.
	if pitch := info.Messages[info.ID+".pitch"]; pitch != "" {
		fmt.Fprintf(w, "  %s\n", pitch)
	}
	seats := fmt.Sprintf("%d to %d players", info.MinPlayers, info.MaxPlayers)
	if info.MinPlayers == info.MaxPlayers {
		seats = fmt.Sprintf("%d players", info.MinPlayers)
	}
	if info.OnePlayer != "" {
		seats += "; one player: " + say(info.OnePlayer, nil)
	}
	fmt.Fprintf(w, "  seats    %s\n", seats)
	if len(info.Bots) > 0 {
		kinds := make([]string, len(info.Bots))
		for i, b := range info.Bots {
			kinds[i] = b.Kind
			if b.Kind == info.DefaultBot {
				kinds[i] += "*"
			}
		}
		fmt.Fprintf(w, "  bots     %s\n", strings.Join(kinds, ", "))
	}
	for _, o := range info.Options {
		line := fmt.Sprintf("  option   %s (%s", o.Name, o.Type)
		if o.Type == engine.OptionInt {
			line += fmt.Sprintf(" %d..%d", o.Min, o.Max)
		}
		if o.Type == engine.OptionChoice {
			line += " " + strings.Join(o.ValueNames(), "|")
		}
		if d := string(o.Default); d != "" && d != "null" {
			line += ", default " + d
		}
		line += ")"
		if o.Flag != "" {
			line += fmt.Sprintf(": --%s", o.Flag)
		}
		if o.Help != "" {
			line += ", " + o.Help
		} else if o.Label != "" {
			line += ": " + strings.ToLower(say(o.Label, nil))
		}
		if o.OnePlayerOnly {
			line += " (one player only)"
		}
		fmt.Fprintln(w, line)
	}
}
