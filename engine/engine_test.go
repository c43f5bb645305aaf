package engine_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

func TestRuleErrorIsMatchesByCode(t *testing.T) {
	e := engine.Refuse("column-full", "the blue column is full")
	cases := []struct {
		name   string
		err    error
		target error
		want   bool
	}{
		{"same code, other message", e, engine.Refuse("column-full", ""), true},
		{"other code", e, engine.Refuse("row-full", "the blue column is full"), false},
		{"wrapped", fmt.Errorf("move 3: %w", e), engine.Refuse("column-full", "x"), true},
		{"wrapped twice", fmt.Errorf("a: %w", fmt.Errorf("b: %w", engine.ErrGameOver)), engine.ErrGameOver, true},
		{"sentinel vs sentinel", engine.ErrNotYourTurn, engine.ErrGameOver, false},
		{"plain error target", e, errors.New("column-full"), false},
		{"plain error", errors.New("game-over"), engine.ErrGameOver, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := errors.Is(c.err, c.target); got != c.want {
				t.Fatalf("errors.Is(%v, %v) = %v, want %v", c.err, c.target, got, c.want)
			}
		})
	}
}

func TestRuleErrorAs(t *testing.T) {
	err := fmt.Errorf("replay move 7: %w", engine.Refuse("roll-face", "an orange die has no face 2"))
	r, ok := engine.AsRuleError(err)
	if !ok || r.Rule != "roll-face" || r.Error() != "an orange die has no face 2" {
		t.Fatalf("AsRuleError: %v %+v", ok, r)
	}
	var target *engine.RuleError
	if !errors.As(err, &target) || target != r {
		t.Fatal("errors.As does not find the RuleError")
	}
	if _, ok := engine.AsRuleError(errors.New("plain")); ok {
		t.Fatal("a plain error is not a RuleError")
	}
	if _, ok := engine.AsRuleError(nil); ok {
		t.Fatal("nil is not a RuleError")
	}
	data, _ := json.Marshal(r)
	if string(data) != `{"rule":"roll-face","message":"an orange die has no face 2"}` {
		t.Fatalf("wire form %s", data)
	}
}

type fakeGame struct{ id string }

func (g fakeGame) Info() engine.Info {
	return engine.Info{ID: g.id, Title: strings.ToUpper(g.id), MinPlayers: 1, MaxPlayers: 2}
}
func (fakeGame) New([]string, json.RawMessage) (engine.State, error) { return nil, errors.New("fake") }
func (fakeGame) DecodeAction([]byte) (engine.Action, error)          { return nil, errors.New("fake") }

func TestRegistry(t *testing.T) {
	var r engine.Registry // the zero value is ready to use
	if _, ok := r.Lookup("dicestars"); ok || len(r.IDs()) != 0 {
		t.Fatal("an empty registry finds games")
	}
	r.Register(fakeGame{"zeta"})
	r.Register(dicestars.Game{})
	r.Register(fakeGame{"alpha"})
	if got := r.IDs(); !reflect.DeepEqual(got, []string{"alpha", "dicestars", "zeta"}) {
		t.Fatalf("IDs %v, want sorted", got)
	}
	g, ok := r.Lookup("dicestars")
	if !ok || g.Info().Title != "Dice Stars" {
		t.Fatalf("lookup dicestars: %v %v", g, ok)
	}
	if _, ok := r.Lookup("DiceStars"); ok {
		t.Fatal("lookup is exact")
	}
	defer func() {
		if recover() == nil {
			t.Fatal("registering an ID twice must panic")
		}
	}()
	r.Register(fakeGame{"alpha"})
}

func TestSeatAndTurn(t *testing.T) {
	for s, want := range map[engine.Seat]string{0: "seat 0", 3: "seat 3", engine.ChanceSeat: "chance",
		engine.SystemSeat: "system", engine.Spectator: "spectator"} {
		if s.String() != want {
			t.Errorf("%d: %q, want %q", int(s), s.String(), want)
		}
	}
	turn := engine.Turn{Actors: []engine.Seat{1, 2}}
	if !turn.Has(1) || !turn.Has(2) || turn.Has(0) || turn.Has(engine.ChanceSeat) {
		t.Fatal("Has on actors")
	}
	if !(engine.Turn{Chance: true}).Has(engine.ChanceSeat) {
		t.Fatal("Has on chance")
	}
}

// playTable plays a whole Dice Stars game on a Table with random bots.
func playTable(t *testing.T, players []string, seed uint64) *engine.Runner {
	t.Helper()
	tb, err := engine.NewRunner(dicestars.Game{}, players, nil, seed, nil)
	if err != nil {
		t.Fatal(err)
	}
	bots := make([]dicestars.Controller, len(players))
	for i := range bots {
		b, err := dicestars.NewBot("random", engine.SplitSeed(seed, uint64(i)))
		if err != nil {
			t.Fatal(err)
		}
		bots[i] = dicestars.Controller{Bot: b}
	}
	for steps := 0; !tb.State.Turn().Over; steps++ {
		if steps > 5000 {
			t.Fatal("no end")
		}
		if tb.State.Turn().Chance {
			if _, err := tb.ResolveChance(int64(steps), nil); err != nil {
				t.Fatal(err)
			}
			continue
		}
		seat := tb.State.Turn().Actors[0]
		a, err := bots[seat].Choose(tb.State.View(seat), tb.State.Legal(seat))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tb.Play(engine.Move{Seat: seat, At: int64(steps), Action: a}); err != nil {
			t.Fatal(err)
		}
	}
	return tb
}

func TestRecordReplay(t *testing.T) {
	for n := 1; n <= 4; n++ {
		players := []string{"ada", "bo", "cy", "di"}[:n]
		tb := playTable(t, players, uint64(100+n))
		data, err := json.Marshal(tb.Record)
		if err != nil {
			t.Fatal(err)
		}
		var rec engine.Record
		if err := json.Unmarshal(data, &rec); err != nil {
			t.Fatal(err)
		}
		st, err := engine.Replay(dicestars.Game{}, rec)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(st.Result(), tb.State.Result()) || !reflect.DeepEqual(st.View(engine.Spectator), tb.State.View(engine.Spectator)) {
			t.Fatalf("%d players: the replay differs", n)
		}
		// A replay stops at the first move that fails, naming it.
		bad := rec
		bad.Moves = append([]engine.LoggedMove(nil), rec.Moves...)
		bad.Moves[2].Action = json.RawMessage(`{"take":"value","value":9}`)
		if _, err := engine.Replay(dicestars.Game{}, bad); err == nil || !strings.Contains(err.Error(), "move 2") {
			t.Fatalf("tampered record: %v", err)
		}
		bad.Moves[2] = rec.Moves[2]
		bad.Moves[1].Seat = 3 // a chance outcome logged as a player's move
		if _, err := engine.Replay(dicestars.Game{}, bad); err == nil || !strings.Contains(err.Error(), "move 1") {
			t.Fatalf("record with a wrong seat: %v", err)
		}
	}
	if _, err := engine.Replay(dicestars.Game{}, engine.Record{Game: "dicestars"}); err == nil {
		t.Fatal("a record without players replays")
	}
}

func TestTableLogsOnlyAcceptedMoves(t *testing.T) {
	tb, err := engine.NewRunner(dicestars.Game{}, []string{"ada", "bo"}, nil, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tb.Play(engine.Move{Seat: 0, Action: dicestars.Draw(1, false)}); err == nil {
		t.Fatal("draw 1 at the start accepted")
	}
	if len(tb.Record.Moves) != 0 {
		t.Fatal("a refused move was logged")
	}
	if _, err := tb.Play(engine.Move{Seat: 0, Action: dicestars.Draw(3, false)}); err != nil {
		t.Fatal(err)
	}
	fixed := dicestars.Roll(dicestars.MakeDie(dicestars.Blue, 5), dicestars.MakeDie(dicestars.Orange, 3), dicestars.MakeDie(dicestars.Black, 0))
	ev, err := tb.ResolveChance(0, fixed)
	if err != nil || len(ev) == 0 {
		t.Fatalf("resolve: %v %v", ev, err)
	}
	if len(tb.Record.Moves) != 2 || tb.Record.Moves[1].Seat != engine.ChanceSeat ||
		string(tb.Record.Moves[1].Action) != `{"roll":["blue:5","orange:3","black:star"]}` {
		t.Fatalf("log %+v", tb.Record.Moves)
	}
}

func TestSeedsAreDeterministic(t *testing.T) {
	draw := func(seed uint64) []int {
		src := engine.NewSource(seed)
		out := make([]int, 8)
		for i := range out {
			out[i] = src.IntN(1000)
		}
		return out
	}
	if a, b := draw(42), draw(42); !reflect.DeepEqual(a, b) {
		t.Fatalf("same seed, different streams: %v %v", a, b)
	}
	if reflect.DeepEqual(draw(42), draw(43)) {
		t.Fatal("different seeds, same stream")
	}
	// PCG's output is specified by the standard library: pin it, so a
	// change of generator (which would change every seeded game) is seen.
	if got, want := draw(1), pinnedDraw1; !reflect.DeepEqual(got, want) {
		t.Fatalf("NewSource(1) draws %v, pinned %v", got, want)
	}
	if engine.SplitSeed(1, 0) != engine.SplitSeed(1, 0) {
		t.Fatal("SplitSeed not deterministic")
	}
	if got := engine.SplitSeed(0, 0); got != pinnedSplit00 {
		t.Fatalf("SplitSeed(0, 0) = %#x, pinned %#x", got, uint64(pinnedSplit00))
	}
	seen := map[uint64]bool{}
	for seed := uint64(0); seed < 4; seed++ {
		for i := uint64(0); i < 1000; i++ {
			s := engine.SplitSeed(seed, i)
			if seen[s] {
				t.Fatalf("SplitSeed(%d, %d) repeats an earlier seed", seed, i)
			}
			seen[s] = true
		}
	}
	// Same seed, same whole game.
	a, b := playTable(t, []string{"ada", "bo"}, 9), playTable(t, []string{"ada", "bo"}, 9)
	ja, _ := json.Marshal(a.Record)
	jb, _ := json.Marshal(b.Record)
	if string(ja) != string(jb) {
		t.Fatal("the same seed played two different games")
	}
}

// pinnedDraw1 is NewSource(1)'s first eight IntN(1000).
var pinnedDraw1 = []int{527, 30, 683, 151, 913, 167, 644, 656}

// pinnedSplit00 is the first output of the reference splitmix64 from state
// 0 (0xe220a8397b1dcdaf, as published with the algorithm).
const pinnedSplit00 = 0xe220a8397b1dcdaf

// TestDecodeStrict: one JSON value and nothing after it but white space,
// with no field its target lacks.
func TestDecodeStrict(t *testing.T) {
	type target struct {
		A int `json:"a"`
	}
	cases := []struct {
		in string
		ok bool
	}{
		{`{"a":1}`, true},
		{" {\"a\":1} \n", true},
		{`{"a":1} {}`, false},
		{`{"a":1} 1`, false},
		{`{"a":1} x`, false},
		{`{"a":1} }`, false},
		{`{"a":1} ]`, false},
		{`{"a":1},`, false},
		{`{"b":1}`, false},
		{``, false},
		{`{"a":`, false},
	}
	for _, c := range cases {
		var v target
		if err := engine.DecodeStrict([]byte(c.in), &v); (err == nil) != c.ok {
			t.Errorf("DecodeStrict(%q): %v, want accepted %v", c.in, err, c.ok)
		}
	}
}

// TestSeedDomains: a table's bots and its chance moves draw from separate
// streams. A bot seed used to be SplitSeed(seed, 1000+seat), which is chance
// move 1000+seat's seed.
func TestSeedDomains(t *testing.T) {
	for seed := uint64(0); seed < 64; seed++ {
		chance := map[uint64]int{}
		for k := 0; k < 1<<13; k++ {
			chance[engine.ChanceSeed(seed, k)] = k
		}
		bots := map[uint64]engine.Seat{}
		for s := engine.Seat(0); s < 16; s++ {
			b := engine.BotSeed(seed, s)
			if k, ok := chance[b]; ok {
				t.Fatalf("seed %d: the bot of seat %d draws from chance move %d's stream", seed, s, k)
			}
			if o, ok := bots[b]; ok {
				t.Fatalf("seed %d: seats %d and %d have the same bot seed", seed, o, s)
			}
			bots[b] = s
			if b != engine.BotSeed(seed, s) {
				t.Fatal("BotSeed is not deterministic")
			}
		}
	}
	if engine.ChanceSeed(7, 3) != engine.SplitSeed(7, 3) {
		t.Fatal("ChanceSeed changed: chance move k has always drawn from SplitSeed(seed, k)")
	}
}
