package main

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/tui"
)

// playWith runs `dicehall play ARGS` as far as the table it would open:
// the configuration, or why there is none. The help goes to out.
func playWith(t *testing.T, args ...string) (tui.Config, string, error) {
	t.Helper()
	var got tui.Config
	cmd := newPlayCmd(all.Registry, func(c tui.Config) error { got = c; return nil })
	var out bytes.Buffer
	cmd.SetArgs(args)
	cmd.SetOut(&out)
	cmd.SetErr(&out)
	cmd.SilenceUsage, cmd.SilenceErrors = true, true
	err := cmd.Execute()
	return got, out.String(), err
}

// TestPlayOptionsFromFlags: the options object holds the flags set on the
// command line and nothing else (the game's defaults stay its own); a
// bool flag flips its option's default.
func TestPlayOptionsFromFlags(t *testing.T) {
	for _, c := range []struct {
		args    []string
		options string
	}{
		{[]string{"dicestars"}, ""},
		{[]string{"dicestars", "--players", "me", "--solo-grid", "25"}, `{"soloGrid":25}`},
		{[]string{"bookworm", "--no-special", "--think", "20", "--countdown", "5"}, `{"countdownSeconds":5,"special":false,"thinkSeconds":20}`},
		{[]string{"bookworm", "--no-special=false"}, `{"special":true}`},
		{[]string{"diceflick", "--shift-bases", "--rounds", "3"}, `{"rounds":3,"shiftBases":true}`},
	} {
		cfg, _, err := playWith(t, c.args...)
		if err != nil {
			t.Errorf("%q: %v", c.args, err)
			continue
		}
		if string(cfg.Options) != c.options {
			t.Errorf("%q: options %s, want %s", c.args, cfg.Options, c.options)
		}
		if cfg.Game == nil || cfg.Game.Info().ID != c.args[0] {
			t.Errorf("%q: game %v", c.args, cfg.Game)
		}
		if _, err := cfg.Game.New(namesOf(cfg.Seats), cfg.Options); err != nil {
			t.Errorf("%q: the game refuses the options: %v", c.args, err)
		}
	}
}

func namesOf(seats []tui.Seat) []string {
	out := make([]string, len(seats))
	for i, s := range seats {
		out[i] = s.Name
	}
	return out
}

// TestPlayDefaults: without flags, you play the game's default bot, with
// the engine's bot delay, a random seed and no record file.
func TestPlayDefaults(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		if !tui.HasBoard(id) {
			continue
		}
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		cfg, _, err := playWith(t, id)
		if err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		if got, want := strings.Join(namesOf(cfg.Seats), ","), strings.ReplaceAll(tui.DefaultPlayers(info), "bot:", ""); got != want {
			t.Errorf("%s: players %s, want %s", id, got, want)
		}
		if cfg.BotDelay != engine.DefaultBotDelayMs*time.Millisecond || cfg.RecordPath != "" || cfg.Options != nil {
			t.Errorf("%s: %+v", id, cfg)
		}
	}
	cfg, _, err := playWith(t, "dicestars", "--players", "ann,bob=bot:expert", "--seed", "7", "--bot-delay", "300ms", "--record", "x.json")
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Seed != 7 || cfg.BotDelay != 300*time.Millisecond || cfg.RecordPath != "x.json" || len(cfg.Seats) != 2 || cfg.Seats[1].BotKind != "expert" {
		t.Fatalf("%+v", cfg)
	}
}

// TestPlayRefuses: another game's flag, an option out of its range, an
// unknown game, a bad player list, a negative bot delay.
func TestPlayRefuses(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"dicestars", "--no-special"}, "--no-special is an option of bookworm, not of dicestars; dicestars takes: --solo-grid"},
		{[]string{"bookworm", "--shift-bases"}, "--shift-bases is an option of diceflick, not of bookworm; bookworm takes: --lang, --no-special, --think, --countdown, --challenge, --known-challenge, --vote, --target"},
		{[]string{"diceflick", "--solo-grid", "20"}, "--solo-grid is an option of dicestars, not of diceflick; diceflick takes: --shift-bases, --rounds"},
		{[]string{"dicestars", "--players", "ann", "--solo-grid", "20", "--think", "3"}, "--think is an option of bookworm, not of dicestars"},
		{[]string{"bookworm", "--think", "700"}, "--think 700: bookworm takes 0 to 600"},
		{[]string{"diceflick", "--rounds", "0"}, "--rounds 0: diceflick takes 1 to"},
		{[]string{"chess"}, `unknown game "chess" (have bookworm, diceflick, dicestars)`},
		{[]string{"bookworm", "--players", "ann"}, "is for 2 to 6 players, not 1"},
		{[]string{"dicestars", "--players", "ann,bot:genius"}, `Dice Stars has no bot "genius"`},
		{[]string{"dicestars", "--bot-delay", "-1s"}, "--bot-delay -1s: must not be negative"},
	} {
		_, _, err := playWith(t, c.args...)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.args, err, c.want)
		}
	}
}

// TestPlayRefusesEveryForeignFlag: for every game, each option flag of
// another game is refused, naming the game it belongs to.
func TestPlayRefusesEveryForeignFlag(t *testing.T) {
	flags, err := optionFlags(gameInfos(all.Registry))
	if err != nil {
		t.Fatal(err)
	}
	for _, id := range all.Registry.IDs() {
		if !tui.HasBoard(id) {
			continue
		}
		for _, o := range flags {
			if _, ok := o.owner(id); ok {
				continue
			}
			args := []string{id, "--" + o.name}
			switch o.typ {
			case engine.OptionInt:
				args = append(args, "1")
			case engine.OptionChoice:
				args = append(args, "fr")
			}
			_, _, err := playWith(t, args...)
			want := "--" + o.name + " is an option of " + strings.Join(o.games(), " and ") + ", not of " + id
			if err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("%q: error %v, want %q", args, err, want)
			}
		}
	}
}

// TestPlayHelpListsOptionFlags: --help lists every game's option flags
// with their help and the games that take them, and an example per game.
func TestPlayHelpListsOptionFlags(t *testing.T) {
	_, help, err := playWith(t, "--help")
	if err != nil {
		t.Fatal(err)
	}
	for _, info := range gameInfos(all.Registry) {
		if !strings.Contains(help, "dicehall play "+info.ID+"\n") {
			t.Errorf("no example for %s:\n%s", info.ID, help)
		}
		for _, o := range info.Options {
			if o.Flag == "" {
				continue
			}
			line := flagLine(help, o.Flag)
			if !strings.Contains(line, o.Help) || !strings.Contains(line, info.ID) {
				t.Errorf("--%s: help line %q, want its help and %s", o.Flag, line, info.ID)
			}
			if o.Type == engine.OptionInt && !strings.Contains(line, "(default "+string(o.Default)+")") {
				t.Errorf("--%s: help line %q lacks the default %s", o.Flag, line, o.Default)
			}
		}
	}
}

// flagLine is the line of help that describes --flag.
func flagLine(help, flag string) string {
	for _, l := range strings.Split(help, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "--"+flag+" ") {
			return l
		}
	}
	return ""
}

// TestOptionFlagsUnion: a flag two games share is one flag owned by both
// (its default shown only when they agree); one name with two types is
// refused.
func TestOptionFlagsUnion(t *testing.T) {
	opt := func(name, flag string, typ engine.OptionType, def string) engine.OptionSpec {
		return engine.OptionSpec{Name: name, Flag: flag, Type: typ, Default: []byte(def), Min: 1, Max: 9, Help: name + " help"}
	}
	a := engine.Info{ID: "a", Options: []engine.OptionSpec{opt("rounds", "rounds", engine.OptionInt, "3"), opt("fast", "fast", engine.OptionBool, "false")}}
	b := engine.Info{ID: "b", Options: []engine.OptionSpec{opt("turns", "rounds", engine.OptionInt, "5"), opt("layout", "", engine.OptionJSON, "null")}}
	flags, err := optionFlags([]engine.Info{a, b})
	if err != nil {
		t.Fatal(err)
	}
	if len(flags) != 2 || flags[0].name != "rounds" || strings.Join(flags[0].games(), ",") != "a,b" || strings.Join(flags[1].games(), ",") != "a" {
		t.Fatalf("flags %+v", flags)
	}
	if spec, ok := flags[0].owner("b"); !ok || spec.Name != "turns" {
		t.Fatalf("b's --rounds sets %q", spec.Name)
	}
	f := pflag.NewFlagSet("play", pflag.ContinueOnError)
	for _, o := range flags {
		o.register(f)
	}
	if r := f.Lookup("rounds"); r.DefValue != "0" || r.Usage != "rounds help [a, b]" {
		t.Fatalf("--rounds: default %s, usage %q", r.DefValue, r.Usage)
	}
	c := engine.Info{ID: "c", Options: []engine.OptionSpec{opt("fast", "fast", engine.OptionInt, "1")}}
	if _, err := optionFlags([]engine.Info{a, c}); err == nil || !strings.Contains(err.Error(), "--fast has two types: bool in a, int in c") {
		t.Fatalf("two types: %v", err)
	}
}
