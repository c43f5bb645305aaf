package main

import (
	"crypto/rand"
	"encoding/binary"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/tui"
)

var playFlags struct {
	players  string
	seed     uint64
	soloGrid int
	botDelay time.Duration
	record   string
}

var playCmd = &cobra.Command{
	Use:   "play GAME",
	Short: "Play a game full-screen in the terminal: hot-seat, with bots in any seat",
	Long: `Play a game full-screen in the terminal.

Several people share the keyboard (hot-seat); any seat can be a bot.
--players lists the seats in turn order: plain names are people, bot:KIND
seats a bot (random, greedy, expert), NAME=bot:KIND names it. One player is
the solo variant.

Keys are listed on screen; q quits (after asking).`,
	Example: `  dicehall play dicestars
  dicehall play dicestars --players ann,bob,bot:expert --seed 42
  dicehall play dicestars --players ann --solo-grid 25
  dicehall play dicestars --players bot:random,bot:greedy --bot-delay 300ms --record game.json`,
	Args:      cobra.ExactArgs(1),
	ValidArgs: []string{"dicestars"},
	RunE:      runPlay,
}

func init() {
	f := playCmd.Flags()
	f.StringVar(&playFlags.players, "players", tui.DefaultPlayers, "seats in turn order: names, bot:KIND, NAME=bot:KIND (one player: solo)")
	f.Uint64Var(&playFlags.seed, "seed", 0, "seed of the dice, for a reproducible game (default: random, shown on screen)")
	f.IntVar(&playFlags.soloGrid, "solo-grid", 0, "cells of the solo grid (solo variant; default: the layout's 30)")
	f.DurationVar(&playFlags.botDelay, "bot-delay", 700*time.Millisecond, "pause before each bot step (draw, roll, take)")
	f.StringVar(&playFlags.record, "record", "", "write the game record as JSON to this file at the end (for dicehall replay)")
	rootCmd.AddCommand(playCmd)
}

func runPlay(cmd *cobra.Command, args []string) error {
	game := strings.ToLower(args[0])
	if game != "dicestars" {
		if _, ok := all.Registry.Lookup(game); ok {
			return fmt.Errorf("no terminal client for %s yet (dicestars has one)", game)
		}
		return fmt.Errorf("unknown game %q (have %s)", args[0], strings.Join(all.Registry.IDs(), ", "))
	}
	seed := playFlags.seed
	if !cmd.Flags().Changed("seed") {
		var b [8]byte
		if _, err := rand.Read(b[:]); err != nil {
			return err
		}
		seed = binary.LittleEndian.Uint64(b[:]) >> 1 // keep it readable as a positive int64 too
	}
	if playFlags.botDelay < 0 {
		return fmt.Errorf("--bot-delay must not be negative")
	}
	seats, err := tui.ParsePlayers(playFlags.players, seed)
	if err != nil {
		return err
	}
	m, err := tui.NewDiceStars(tui.Config{
		Seats: seats, Seed: seed, SoloGrid: playFlags.soloGrid,
		BotDelay: playFlags.botDelay, RecordPath: playFlags.record,
	})
	if err != nil {
		return err
	}
	if _, err := tea.NewProgram(m).Run(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	// Back on the normal screen: leave the result where the player sees it.
	fmt.Fprintln(os.Stdout, m.Summary())
	return nil
}
