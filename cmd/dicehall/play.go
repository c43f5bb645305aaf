package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
	"github.com/dicehall/dicehall/tui"
)

var playFlags struct {
	players  string
	seed     uint64
	soloGrid int
	botDelay time.Duration
	record   string
	// Bookworm only.
	noSpecial bool
	think     int
	countdown int
	// Diceflick only.
	shiftBases bool
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
  dicehall play dicestars --players bot:random,bot:greedy --bot-delay 300ms --record game.json
  dicehall play bookworm --players ann,bot:hard,bot:easy --seed 7
  dicehall play bookworm --players ann,bob --no-special --think 20 --countdown 5 --record words.json
  dicehall play diceflick --players ann,bot:hard --seed 3 --record flick.json`,
	Args:      cobra.ExactArgs(1),
	ValidArgs: []string{"dicestars", "bookworm", "diceflick"},
	RunE:      runPlay,
}

func init() {
	f := playCmd.Flags()
	f.StringVar(&playFlags.players, "players", tui.DefaultPlayers, "seats in turn order: names, bot:KIND, NAME=bot:KIND (one player: solo)")
	f.Uint64Var(&playFlags.seed, "seed", 0, "seed of the dice, for a reproducible game (default: random, shown on screen)")
	f.IntVar(&playFlags.soloGrid, "solo-grid", 0, "cells of the solo grid (solo variant; default: the layout's 30)")
	f.DurationVar(&playFlags.botDelay, "bot-delay", 700*time.Millisecond, "pause before each bot step (draw, roll, take)")
	f.StringVar(&playFlags.record, "record", "", "write the game record as JSON to this file at the end (for dicehall replay)")
	f.BoolVar(&playFlags.noSpecial, "no-special", false, "bookworm: play without the green Special die")
	f.IntVar(&playFlags.think, "think", 10, "bookworm: seconds of quiet think time at the start of a turn")
	f.IntVar(&playFlags.countdown, "countdown", 5, "bookworm: seconds of the visible countdown after the think time")
	f.BoolVar(&playFlags.shiftBases, "shift-bases", false, "diceflick: the children's variant, bases slide along their side")
	rootCmd.AddCommand(playCmd)
}

func runPlay(cmd *cobra.Command, args []string) error {
	game := strings.ToLower(args[0])
	switch game {
	case "bookworm":
		return runPlayBookworm(cmd)
	case "diceflick":
		return runPlayDiceflick(cmd)
	}
	if game != "dicestars" {
		if _, ok := all.Registry.Lookup(game); ok {
			return fmt.Errorf("no terminal client for %s yet (dicestars, bookworm and diceflick have one)", game)
		}
		return fmt.Errorf("unknown game %q (have %s)", args[0], strings.Join(all.Registry.IDs(), ", "))
	}
	seed, err := playSeed(cmd)
	if err != nil {
		return err
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
	return runScreen(m)
}

// runScreen runs a full-screen game and, back on the normal screen, leaves
// its result where the player sees it.
func runScreen(m interface {
	tea.Model
	Summary() string
}) error {
	if _, err := tea.NewProgram(m).Run(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	fmt.Fprintln(os.Stdout, m.Summary())
	return nil
}

// playSeed is --seed, or a random seed when none is given.
func playSeed(cmd *cobra.Command) (uint64, error) {
	if cmd.Flags().Changed("seed") {
		return playFlags.seed, nil
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, err
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1, nil // keep it readable as a positive int64 too
}

// runPlayBookworm is `dicehall play bookworm`: the registry's Bookworm (its
// deck, lexicon and, when it has them, bots) at a real-time terminal table.
func runPlayBookworm(cmd *cobra.Command) error {
	g, ok := all.Registry.Lookup("bookworm")
	if !ok {
		return fmt.Errorf("bookworm is not registered")
	}
	bw, ok := g.(bookworm.Game)
	if !ok {
		return fmt.Errorf("bookworm is registered as %T, not bookworm.Game", g)
	}
	seed, err := playSeed(cmd)
	if err != nil {
		return err
	}
	spec := playFlags.players
	if !cmd.Flags().Changed("players") {
		spec = tui.DefaultBookwormPlayers
	}
	// The bots come with the game when it provides them; without, only
	// people can play.
	bots, _ := g.(engine.BotProvider)
	seats, err := tui.ParseBookwormPlayers(spec, seed, bots)
	if err != nil {
		return err
	}
	special := !playFlags.noSpecial
	opts, err := json.Marshal(bookworm.Options{Special: &special, ThinkSeconds: &playFlags.think, CountdownSeconds: &playFlags.countdown})
	if err != nil {
		return err
	}
	cfg := tui.BookwormConfig{Seats: seats, Seed: seed, Game: bw, Options: opts,
		RecordPath: playFlags.record, Tick: 100 * time.Millisecond}
	if cmd.Flags().Changed("bot-delay") {
		if playFlags.botDelay < 0 {
			return fmt.Errorf("--bot-delay must not be negative")
		}
		cfg.BotDelay = playFlags.botDelay
	}
	m, err := tui.NewBookworm(cfg)
	if err != nil {
		return err
	}
	return runScreen(m)
}

// runPlayDiceflick is `dicehall play diceflick`: the registry's Diceflick
// (its arena simulator and, when it has them, bots) at a terminal table.
func runPlayDiceflick(cmd *cobra.Command) error {
	g, ok := all.Registry.Lookup("diceflick")
	if !ok {
		return fmt.Errorf("diceflick is not registered")
	}
	df, ok := g.(diceflick.Game)
	if !ok {
		return fmt.Errorf("diceflick is registered as %T, not diceflick.Game", g)
	}
	seed, err := playSeed(cmd)
	if err != nil {
		return err
	}
	if playFlags.botDelay < 0 {
		return fmt.Errorf("--bot-delay must not be negative")
	}
	spec := playFlags.players
	if !cmd.Flags().Changed("players") {
		spec = tui.DefaultDiceflickPlayers
	}
	// Without bots from the game, only people can play.
	bots, _ := g.(engine.BotProvider)
	seats, err := tui.ParseDiceflickPlayers(spec, seed, bots)
	if err != nil {
		return err
	}
	opts, err := json.Marshal(diceflick.Options{ShiftBases: playFlags.shiftBases})
	if err != nil {
		return err
	}
	m, err := tui.NewDiceflick(tui.DiceflickConfig{Seats: seats, Seed: seed, Game: df, Arena: &physics.DefaultArena,
		Options: opts, RecordPath: playFlags.record, BotDelay: playFlags.botDelay})
	if err != nil {
		return err
	}
	return runScreen(m)
}
