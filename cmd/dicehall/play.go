package main

import (
	"crypto/rand"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/tui"
)

func init() { rootCmd.AddCommand(newPlayCmd(all.Registry, runScreen)) }

// newPlayCmd is `dicehall play GAME` for the games of reg: one path for
// every game, its table options as flags built from each game's Info. run
// plays the configured game (tests pass their own).
func newPlayCmd(reg *engine.Registry, run func(tui.Config) error) *cobra.Command {
	infos := gameInfos(reg)
	opts, err := optionFlags(infos)
	if err != nil {
		// Two games give one flag different types: a bug in their Info,
		// which the tests of this command catch.
		panic(err)
	}
	var fl struct {
		players  string
		seed     uint64
		botDelay time.Duration
		record   string
	}
	cmd := &cobra.Command{
		Use:   "play GAME",
		Short: "Play a game full-screen in the terminal: hot-seat, with bots in any seat",
		Long: `Play a game full-screen in the terminal.

Several people share the keyboard (hot-seat); any seat can be a bot.
--players lists the seats in turn order: plain names are people, bot:KIND
seats one of the game's bots, NAME=bot:KIND names it. Without --players you
play against the game's default bot. dicehall games lists each game's seats,
bots and options.

The table options are flags; each says in brackets which game takes it, and
a flag of another game is refused. Keys are listed on screen (? or f1: all
of them, then the rules); q quits (after asking).`,
		Example:   examplesText(infos),
		Args:      cobra.ExactArgs(1),
		ValidArgs: reg.IDs(),
		RunE: func(cmd *cobra.Command, args []string) error {
			id := strings.ToLower(args[0])
			g, ok := reg.Lookup(id)
			if !ok {
				return fmt.Errorf("unknown game %q (have %s)", args[0], strings.Join(reg.IDs(), ", "))
			}
			info := g.Info()
			if !tui.HasBoard(info.ID) {
				return fmt.Errorf("no terminal client for %s yet", info.Title)
			}
			options, err := optionsJSON(cmd.Flags(), opts, info)
			if err != nil {
				return err
			}
			if fl.botDelay < 0 {
				return fmt.Errorf("--bot-delay %v: must not be negative", fl.botDelay)
			}
			seed, err := playSeed(cmd.Flags().Changed("seed"), fl.seed)
			if err != nil {
				return err
			}
			players := fl.players
			if !cmd.Flags().Changed("players") {
				players = tui.DefaultPlayers(info)
			}
			seats, err := tui.ParsePlayers(g, players, seed)
			if err != nil {
				return err
			}
			return run(tui.Config{Game: g, Seats: seats, Options: options, Seed: seed,
				BotDelay: fl.botDelay, RecordPath: fl.record})
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.players, "players", "", "seats in turn order: names, bot:KIND, NAME=bot:KIND (default: you against the game's default bot)")
	f.Uint64Var(&fl.seed, "seed", 0, "seed of the dice, for a reproducible game (default: random, shown on screen)")
	f.DurationVar(&fl.botDelay, "bot-delay", engine.DefaultBotDelayMs*time.Millisecond, "game time a bot takes before each step, unless it paces itself")
	f.StringVar(&fl.record, "record", "", "write the game record as JSON to this file at the end (for dicehall replay)")
	for _, o := range opts {
		o.register(f)
	}
	return cmd
}

// gameInfos describes the games of reg, in the registry's order.
func gameInfos(reg *engine.Registry) []engine.Info {
	var infos []engine.Info
	for _, id := range reg.IDs() {
		g, _ := reg.Lookup(id)
		infos = append(infos, g.Info())
	}
	return infos
}

// runScreen plays a game full-screen and, back on the normal screen, leaves
// its result where the player sees it.
func runScreen(cfg tui.Config) error {
	sh, err := tui.New(cfg)
	if err != nil {
		return err
	}
	if _, err := tea.NewProgram(sh).Run(); err != nil {
		return fmt.Errorf("terminal: %w", err)
	}
	fmt.Fprintln(os.Stdout, sh.Summary())
	return nil
}

// playSeed is --seed when given, else a random seed.
func playSeed(given bool, seed uint64) (uint64, error) {
	if given {
		return seed, nil
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return 0, fmt.Errorf("random seed: %w", err)
	}
	return binary.LittleEndian.Uint64(b[:]) >> 1, nil // keep it readable as a positive int64 too
}

// optionFlag is one command-line flag of table options and the games that
// take it. Flags are parsed before the game is known, so `play` offers the
// union of every game's flags and refuses those of another game afterwards.
type optionFlag struct {
	name   string
	typ    engine.OptionType
	owners []flagOwner
}

// flagOwner is a game that takes a flag, and the option the flag sets.
type flagOwner struct {
	game string
	spec engine.OptionSpec
}

// optionFlags gathers the option flags of every game, in the games' order.
// A flag two games share must have one type.
func optionFlags(infos []engine.Info) ([]*optionFlag, error) {
	var out []*optionFlag
	byName := map[string]*optionFlag{}
	for _, info := range infos {
		for _, spec := range info.Options {
			if spec.Flag == "" {
				continue
			}
			o := byName[spec.Flag]
			if o == nil {
				o = &optionFlag{name: spec.Flag, typ: spec.Type}
				byName[spec.Flag] = o
				out = append(out, o)
			}
			if o.typ != spec.Type {
				return nil, fmt.Errorf("--%s has two types: %s in %s, %s in %s",
					spec.Flag, o.typ, o.owners[0].game, spec.Type, info.ID)
			}
			o.owners = append(o.owners, flagOwner{game: info.ID, spec: spec})
		}
	}
	return out, nil
}

// games lists the ids of the games that take the flag.
func (o *optionFlag) games() []string {
	ids := make([]string, len(o.owners))
	for i, w := range o.owners {
		ids[i] = w.game
	}
	return ids
}

func (o *optionFlag) owner(game string) (engine.OptionSpec, bool) {
	for _, w := range o.owners {
		if w.game == game {
			return w.spec, true
		}
	}
	return engine.OptionSpec{}, false
}

// register adds the flag to f. Its help is the first game's, followed by
// the games that take it; an int shows its default when they agree on it.
func (o *optionFlag) register(f *pflag.FlagSet) {
	first := o.owners[0].spec
	usage := first.Help + " [" + strings.Join(o.games(), ", ") + "]"
	switch o.typ {
	case engine.OptionBool:
		f.Bool(o.name, false, usage)
	case engine.OptionInt:
		def := intDefault(first)
		for _, w := range o.owners[1:] {
			if intDefault(w.spec) != def {
				def = 0
			}
		}
		f.Int(o.name, def, usage)
	case engine.OptionChoice:
		f.String(o.name, "", usage+" (one of "+strings.Join(first.ValueNames(), ", ")+")")
	}
}

func intDefault(spec engine.OptionSpec) int {
	n, _ := strconv.Atoi(string(spec.Default))
	return n
}

// optionsJSON is the options object of the flags set on the command line
// for the game of info: defaults stay the game's. A set flag that the game
// does not take is refused, naming the games that do and the flags this
// one takes. nil means no option was set.
func optionsJSON(f *pflag.FlagSet, flags []*optionFlag, info engine.Info) (json.RawMessage, error) {
	opts := map[string]any{}
	for _, o := range flags {
		if !f.Changed(o.name) {
			continue
		}
		spec, ok := o.owner(info.ID)
		if !ok {
			return nil, fmt.Errorf("--%s is an option of %s, not of %s; %s %s",
				o.name, strings.Join(o.games(), " and "), info.ID, info.ID, takesText(flags, info.ID))
		}
		switch spec.Type {
		case engine.OptionBool:
			set, _ := f.GetBool(o.name)
			var def bool
			if err := json.Unmarshal(spec.Default, &def); err != nil {
				return nil, fmt.Errorf("--%s: the default of %s: %w", o.name, spec.Name, err)
			}
			// The flag flips the default (--no-special turns special off).
			opts[spec.Name] = def != set
		case engine.OptionInt:
			n, _ := f.GetInt(o.name)
			if n < spec.Min || n > spec.Max {
				return nil, fmt.Errorf("--%s %d: %s takes %d to %d", o.name, n, info.ID, spec.Min, spec.Max)
			}
			opts[spec.Name] = n
		case engine.OptionChoice:
			v, _ := f.GetString(o.name)
			if !spec.HasValue(v) {
				return nil, fmt.Errorf("--%s %q: %s takes one of %s", o.name, v, info.ID, strings.Join(spec.ValueNames(), ", "))
			}
			opts[spec.Name] = v
		}
	}
	if len(opts) == 0 {
		return nil, nil
	}
	b, err := json.Marshal(opts)
	if err != nil {
		return nil, fmt.Errorf("encode the options: %w", err)
	}
	return b, nil
}

// takesText lists the option flags of a game.
func takesText(flags []*optionFlag, game string) string {
	var names []string
	for _, o := range flags {
		if slices.Contains(o.games(), game) {
			names = append(names, "--"+o.name)
		}
	}
	if len(names) == 0 {
		return "takes no option flags"
	}
	return "takes: " + strings.Join(names, ", ")
}

// examplesText shows each game started plainly, then with a seed, its
// first option flag and the players that option is for (a one-player
// option alone, else against the default bot).
func examplesText(infos []engine.Info) string {
	var lines []string
	for _, info := range infos {
		if !tui.HasBoard(info.ID) {
			continue
		}
		lines = append(lines, "  dicehall play "+info.ID)
		players, flag := "ann,bob", ""
		if info.DefaultBot != "" {
			players = "ann,bot:" + info.DefaultBot
		}
		for _, spec := range info.Options {
			if spec.Flag == "" {
				continue
			}
			flag = " --" + spec.Flag
			switch spec.Type {
			case engine.OptionInt:
				flag += " " + string(spec.Default)
			case engine.OptionChoice:
				// A choice flag needs a value: show one other than the default.
				for _, v := range spec.Values {
					if `"`+v.Value+`"` != string(spec.Default) {
						flag += " " + v.Value
						break
					}
				}
			}
			if spec.OnePlayerOnly {
				players = "ann"
			}
			break
		}
		lines = append(lines, "  dicehall play "+info.ID+" --players "+players+" --seed 7"+flag+" --record game.json")
	}
	return strings.Join(lines, "\n")
}
