package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/script"
)

func init() { rootCmd.AddCommand(newReplayCmd()) }

// newReplayCmd is `dicehall replay`: rebuild a recorded game.
func newReplayCmd() *cobra.Command {
	var steps bool
	var at int
	cmd := &cobra.Command{
		Use:   "replay FILE",
		Short: "Replay a game record and print the final state (or every move with --steps)",
		Long: `Replay a game record (FILE, or - for standard input), as written by
"dicehall script --record" or by the clients, and print the state it ends in
as JSON. --at N prints the state after the first N moves; --steps prints each
move and what it caused as lines of text. Exit codes as for dicehall script:
2 the record is malformed, 3 a recorded move is refused by the rules.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if at < -1 {
				return &exitError{script.ExitMalformed, fmt.Errorf("--at %d: want a number of moves, 0 or more", at)}
			}
			input, err := scriptReadInput(cmd, args[0])
			if err != nil {
				return &exitError{script.ExitIO, err}
			}
			out := script.Replay(input, script.ReplayOptions{Steps: steps, At: at})
			if _, err := cmd.OutOrStdout().Write(out.Stdout); err != nil {
				return &exitError{script.ExitIO, fmt.Errorf("write output: %w", err)}
			}
			if out.Code != script.ExitOK {
				return &exitError{out.Code, out.Err}
			}
			return nil
		},
	}
	cmd.Flags().BoolVar(&steps, "steps", false, "print every move and its events as lines of text")
	cmd.Flags().IntVar(&at, "at", -1, "stop after this many moves (default: the whole record)")
	return cmd
}
