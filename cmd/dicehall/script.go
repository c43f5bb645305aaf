package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/script"
)

func init() { rootCmd.AddCommand(newScriptCmd()) }

// newScriptCmd is `dicehall script`: the conformance interface. The work is
// in package script; this file only deals with files and exit codes.
func newScriptCmd() *cobra.Command {
	var recordPath string
	var events bool
	cmd := &cobra.Command{
		Use:   "script FILE",
		Short: "Play a game from a JSON script with fixed dice and print the resulting state as JSON",
		Long: `Play a game from a JSON script (FILE, or - for standard input) and print
the state it ends in as JSON. The format, the output and the exit codes are
described in docs/scripts.md: 0 the script ran, 2 the script is malformed,
3 the rules refused an action (the output then names it and shows the state
before it).`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			input, err := scriptReadInput(cmd, args[0])
			if err != nil {
				return &exitError{script.ExitIO, err}
			}
			out := script.Execute(input, script.Options{Events: events})
			if recordPath != "" && out.Record != nil {
				if err := scriptWriteJSON(recordPath, out.Record); err != nil {
					return &exitError{script.ExitIO, err}
				}
			}
			if _, err := cmd.OutOrStdout().Write(out.Stdout); err != nil {
				return &exitError{script.ExitIO, fmt.Errorf("write output: %w", err)}
			}
			if out.Code != script.ExitOK {
				return &exitError{out.Code, out.Err}
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&recordPath, "record", "", "write the game record (JSON, for dicehall replay) to this file")
	cmd.Flags().BoolVar(&events, "events", false, `add the events of every action to the output, under "events"`)
	return cmd
}

// scriptReadInput reads a named file, or standard input for "-".
func scriptReadInput(cmd *cobra.Command, name string) ([]byte, error) {
	if name == "-" {
		b, err := io.ReadAll(cmd.InOrStdin())
		if err != nil {
			return nil, fmt.Errorf("read standard input: %w", err)
		}
		return b, nil
	}
	b, err := os.ReadFile(name)
	if err != nil {
		return nil, fmt.Errorf("read input: %w", err)
	}
	return b, nil
}

// scriptWriteJSON writes v as indented JSON to a file.
func scriptWriteJSON(path string, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return fmt.Errorf("encode %s: %w", path, err)
	}
	if err := os.WriteFile(path, append(b, '\n'), 0o644); err != nil {
		return fmt.Errorf("write %s: %w", path, err)
	}
	return nil
}
