package diceflick

import (
	"errors"
	"fmt"
	"math/bits"
	"testing"

	"pgregory.net/rapid"

	"github.com/dicehall/dicehall/engine"
)

// board builds the scoring picture of an arena given as hole → "colour:face"
// ("pink:blast" or "pink:0" for a blast die), with the default components.
func board(t testing.TB, cells map[string]string) (Board, *State) {
	t.Helper()
	s, err := NewState(&DefaultComponents, 1)
	if err != nil {
		t.Fatal(err)
	}
	place(t, &s, cells)
	return s.Board(), &s
}

func place(t testing.TB, s *State, cells map[string]string) {
	t.Helper()
	for at, d := range cells {
		h, err := ParseHole(at)
		if err != nil {
			t.Fatal(err)
		}
		face := 0
		col, rest, _ := cut(d)
		c, err := ParseColor(col)
		if err != nil {
			t.Fatal(err)
		}
		if c != Pink {
			if _, err := fmt.Sscanf(rest, "%d", &face); err != nil {
				t.Fatalf("die %q: %v", d, err)
			}
		}
		s.Arena[h] = MakeCell(c, face)
	}
}

func cut(s string) (string, string, bool) {
	for i := range len(s) {
		if s[i] == ':' {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

func mustChoice(t testing.TB, js ChoiceJSON) Choice {
	t.Helper()
	ch, err := js.Choice()
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestRulebookExamples rebuilds the rulebook's worked examples (the
// pictures are not in the text, so each arena is chosen to match the
// sentence and the stated total; see docs/rules/diceflick.md) and checks
// both the player's explicit choice and the solver's offer.
func TestRulebookExamples(t *testing.T) {
	cases := []struct {
		name   string
		cells  map[string]string
		choice ChoiceJSON
		want   int
		best   int
	}{
		{
			// 4 blue dice, the 3 on the centre marker: 3×2 + 2 + 2 + 4 = 14.
			name:   "four blue with the centre",
			cells:  map[string]string{"2,2": "blue:3", "2,3": "blue:2", "2,4": "blue:2", "3,2": "blue:4"},
			choice: ChoiceJSON{Groups: [][]string{{"2,2", "2,3", "2,4", "3,2"}}},
			want:   14, best: 14,
		},
		{
			// 2 green dice and the green marker (3,1) around a corner:
			// marker 2 + 4 + 3 = 9.
			name:   "two green and the green marker",
			cells:  map[string]string{"4,1": "green:4", "4,2": "green:3"},
			choice: ChoiceJSON{Groups: [][]string{{"3,1", "4,1", "4,2"}}},
			want:   9, best: 9,
		},
		{
			// 3 green dice in a line: 2 + 3 + 5 = 10.
			name:   "three green in a line",
			cells:  map[string]string{"0,0": "green:2", "0,1": "green:3", "0,2": "green:5"},
			choice: ChoiceJSON{Groups: [][]string{{"0,0", "0,1", "0,2"}}},
			want:   10, best: 10,
		},
		{
			// 3 green dice, the green marker and a white joker in a block:
			// 2 + 3 + 1 + marker 2 + white 4 = 12.
			name:   "three green, marker and joker",
			cells:  map[string]string{"3,0": "green:2", "4,0": "green:3", "4,1": "green:1", "4,2": "white:4"},
			choice: ChoiceJSON{Groups: [][]string{{"3,0", "3,1", "4,0", "4,1", "4,2"}}},
			want:   12, best: 12,
		},
		{
			// Blast die at (4,3). Row 4: blast 6 + blue 2 + yellow 3 = 11.
			name:   "blast row a",
			cells:  map[string]string{"4,3": "pink:blast", "4,0": "blue:2", "4,4": "yellow:3", "0,3": "green:5"},
			choice: ChoiceJSON{Blasts: []BlastJSON{{At: "4,3", Line: "row"}}},
			want:   11, best: 13,
		},
		{
			// Column 3: blast 6 + green 5 + the uncovered yellow marker
			// (1,3) 2 = 13; the bonus hole (3,3) scores nothing.
			name:   "blast row b",
			cells:  map[string]string{"4,3": "pink:blast", "4,0": "blue:2", "4,4": "yellow:3", "0,3": "green:5"},
			choice: ChoiceJSON{Blasts: []BlastJSON{{At: "4,3", Line: "column"}}},
			want:   13, best: 13,
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := board(t, c.cells)
			ch := mustChoice(t, c.choice)
			_, got, err := b.Evaluate(&ch)
			if err != nil {
				t.Fatal(err)
			}
			if got != c.want {
				t.Errorf("choice scores %d, want %d", got, c.want)
			}
			best, bch := b.Solve()
			if best != c.best {
				t.Errorf("best %d (%s), want %d", best, bch, c.best)
			}
			if best != bruteBest(&b) {
				t.Errorf("solver %d, brute force %d", best, bruteBest(&b))
			}
		})
	}
}

// TestScoringRulings checks each scoring rule and ruling on a small arena.
func TestScoringRulings(t *testing.T) {
	g := func(holes ...string) ChoiceJSON { return ChoiceJSON{Groups: [][]string{holes}} }
	cases := []struct {
		name   string
		cells  map[string]string
		choice ChoiceJSON
		want   int    // when rule is ""
		rule   string // expected refusal
		best   int
	}{
		{"blast die on the centre scores 12", map[string]string{"2,2": "pink:blast"},
			ChoiceJSON{Centre: true}, 12, "", 12},
		{"blast line through the centre doubles the centre die", map[string]string{"2,0": "pink:blast", "2,2": "yellow:5"},
			ChoiceJSON{Blasts: []BlastJSON{{"2,0", "row"}}}, 16, "", 16},
		{"centre die alone, doubled", map[string]string{"2,2": "yellow:5"},
			ChoiceJSON{Centre: true}, 10, "", 10},
		{"no centre die", map[string]string{"0,0": "yellow:5"},
			ChoiceJSON{Centre: true}, 0, RuleNoCentreDie, 0},
		{"two of a colour are no group", map[string]string{"0,0": "yellow:5", "0,1": "yellow:5"},
			g("0,0", "0,1"), 0, RuleGroupSize, 0},
		{"diagonal is not adjacent", map[string]string{"0,0": "yellow:5", "0,1": "yellow:5", "1,2": "yellow:5"},
			g("0,0", "0,1", "1,2"), 0, RuleGroupShape, 0},
		{"mixed colours", map[string]string{"0,0": "yellow:5", "0,1": "yellow:5", "0,2": "blue:5"},
			g("0,0", "0,1", "0,2"), 0, RuleGroupColor, 0},
		{"jokers stand in", map[string]string{"0,0": "yellow:5", "0,1": "white:1", "0,2": "yellow:5"},
			g("0,0", "0,1", "0,2"), 11, "", 11},
		{"three jokers are a group", map[string]string{"4,2": "white:1", "4,3": "white:2", "4,4": "white:3"},
			g("4,2", "4,3", "4,4"), 6, "", 6},
		{"jokers are never pink", map[string]string{"4,2": "pink:0", "4,3": "pink:0", "4,4": "white:3"},
			g("4,2", "4,3", "4,4"), 0, RuleGroupColor, 17},
		{"a marker of another colour breaks a group", map[string]string{"0,1": "blue:1", "1,2": "yellow:1", "1,0": "yellow:1"},
			g("1,0", "1,1", "1,2"), 0, RuleGroupColor, 0},
		{"a covered marker does not count", map[string]string{"1,1": "yellow:4", "1,2": "blue:1", "0,1": "blue:1"},
			g("0,1", "1,1", "1,2"), 0, RuleGroupColor, 0},
		{"an empty hole without marker is no member", map[string]string{"0,0": "green:1", "0,1": "green:1"},
			g("0,0", "0,1", "0,2"), 0, RuleNotScorable, 0},
		{"a die counts once: two groups sharing a die", map[string]string{"0,0": "green:1", "0,1": "green:1", "0,2": "green:1", "0,3": "green:1", "0,4": "green:1"},
			ChoiceJSON{Groups: [][]string{{"0,0", "0,1", "0,2"}, {"0,2", "0,3", "0,4"}}}, 0, RuleUsedTwice, 5},
		{"the marker counts once, in a group and a blast line", map[string]string{"0,1": "blue:1", "1,0": "blue:1", "1,4": "pink:0"},
			ChoiceJSON{Groups: [][]string{{"0,1", "1,0", "1,1"}}, Blasts: []BlastJSON{{"1,4", "row"}}}, 1 + 1 + 2 + 6 + 2, "", 12},
		{"one line per blast die", map[string]string{"0,0": "pink:0"},
			ChoiceJSON{Blasts: []BlastJSON{{"0,0", "row"}, {"0,0", "column"}}}, 0, RuleBlastTwice, 6},
		{"a blast line needs a blast die", map[string]string{"0,0": "green:3"},
			ChoiceJSON{Blasts: []BlastJSON{{"0,0", "row"}}}, 0, RuleNotBlast, 0},
		{"centre alone and in a group", map[string]string{"2,2": "green:3", "2,3": "green:3", "2,4": "green:3"},
			ChoiceJSON{Groups: [][]string{{"2,2", "2,3", "2,4"}}, Centre: true}, 0, RuleUsedTwice, 12},
		{"scoring nothing is allowed", map[string]string{"2,2": "green:3"},
			ChoiceJSON{}, 0, "", 6},
		{"a joker joins the richer colour", map[string]string{"4,0": "blue:6", "4,1": "blue:6", "4,2": "white:1", "4,3": "yellow:1", "4,4": "yellow:1"},
			g("4,0", "4,1", "4,2"), 13, "", 13},
		{"two blast dice, both lines", map[string]string{"0,0": "pink:0", "4,4": "pink:0", "0,4": "green:5"},
			ChoiceJSON{Blasts: []BlastJSON{{"0,0", "row"}, {"4,4", "column"}}}, 17, "", 17},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b, _ := board(t, c.cells)
			ch := mustChoice(t, c.choice)
			_, got, err := b.Evaluate(&ch)
			if c.rule != "" {
				if !errors.Is(err, engine.Refuse(c.rule, "")) {
					t.Fatalf("got %v (total %d), want refusal %s", err, got, c.rule)
				}
			} else if err != nil || got != c.want {
				t.Fatalf("got %d, %v; want %d", got, err, c.want)
			}
			best, bch := b.Solve()
			if best != c.best {
				t.Errorf("best %d (%s), want %d", best, bch, c.best)
			}
			if _, v, err := b.Evaluate(&bch); err != nil || v != best {
				t.Errorf("the solver's choice %s evaluates to %d, %v; it claimed %d", bch, v, err, best)
			}
		})
	}
}

// randomBoard draws an arena of up to maxDice dice on random holes, with the
// markers and the centre on random distinct holes.
func randomBoard(t *rapid.T, maxDice int) Board {
	c := DefaultComponents
	perm := rapid.Permutation([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24}).Draw(t, "spots")
	c.Centre = perm[0]
	c.Markers = [NumColors]int{-1, perm[1], perm[2], perm[3], -1}
	if rapid.Bool().Draw(t, "noBonus") {
		c.Bonus = -1
	} else {
		c.Bonus = perm[4]
	}
	s, err := NewState(&c, 1)
	if err != nil {
		t.Fatal(err)
	}
	n := rapid.IntRange(0, maxDice).Draw(t, "dice")
	holes := rapid.Permutation(perm).Draw(t, "holes")[:n]
	pinks, whites := 0, 0
	for _, h := range holes {
		col := Color(rapid.IntRange(0, int(NumColors)-1).Draw(t, "color"))
		if col == Pink && pinks == 2 || col == White && whites == 3 {
			col = Blue + Color(h%3)
		}
		switch col {
		case Pink:
			pinks++
			s.Arena[h] = MakeCell(Pink, 0)
			continue
		case White:
			whites++
		}
		s.Arena[h] = MakeCell(col, rapid.IntRange(1, 6).Draw(t, "face"))
	}
	return s.Board()
}

// TestSolverMatchesBruteForce is the property test: on random small arenas
// the solver's total equals an exhaustive search over every packing of
// disjoint valid groups and every centre and blast-line choice, and the
// solver's choice is valid and scores that total.
func TestSolverMatchesBruteForce(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := randomBoard(t, 10)
		best, ch := b.Solve()
		if want := bruteBest(&b); best != want {
			t.Fatalf("solver %d (%s), brute force %d", best, ch, want)
		}
		if _, v, err := b.Evaluate(&ch); err != nil || v != best {
			t.Fatalf("solver's choice %s evaluates to %d, %v; claimed %d", ch, v, err, best)
		}
	})
}

// TestSolverBeatsRandomChoices fills the arena (too big for brute force)
// and checks that no valid random choice scores more than the solver.
func TestSolverBeatsRandomChoices(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		b := randomBoard(t, 25)
		best, ch := b.Solve()
		if _, v, err := b.Evaluate(&ch); err != nil || v != best {
			t.Fatalf("solver's choice %s evaluates to %d, %v; claimed %d", ch, v, err, best)
		}
		items := holesOf(b.Items())
		if len(items) == 0 {
			return
		}
		var rc Choice
		for range rapid.IntRange(0, 4).Draw(t, "groups") {
			start := rapid.SampledFrom(items).Draw(t, "start")
			// Grow a connected group from start by random neighbours.
			m := uint32(1) << start
			for range rapid.IntRange(2, 6).Draw(t, "size") {
				nb := holesOf(neighbours(m) & b.Items() &^ m)
				if len(nb) == 0 {
					break
				}
				m |= 1 << rapid.SampledFrom(nb).Draw(t, "grow")
			}
			rc.Groups = append(rc.Groups, holesOf(m))
		}
		rc.Centre = rapid.Bool().Draw(t, "centre")
		for _, h := range holesOf(b.Die[Pink]) {
			if rapid.Bool().Draw(t, "blast") {
				rc.Blasts = append(rc.Blasts, Blast{Hole: h, Column: rapid.Bool().Draw(t, "col")})
			}
		}
		if _, v, err := b.Evaluate(&rc); err == nil && v > best {
			t.Fatalf("random choice %s scores %d > solver's %d (%s)", rc, v, best, ch)
		}
	})
}

// bruteBest is the reference: it shares nothing with the solver but the
// board. Valid groups are found by checking every subset of items (colour
// with jokers, size, connectivity by breadth-first search over
// coordinates); every packing of disjoint groups is tried with every centre
// and blast-line choice, and the union's points kept.
func bruteBest(b *Board) int {
	var items []int
	for h := range Holes {
		if b.Items()&(1<<h) != 0 {
			items = append(items, h)
		}
	}
	colorAt := func(h int) (Color, bool) { // colour, is a marker
		for c := range NumColors {
			if b.Die[c]&(1<<h) != 0 {
				return c, false
			}
			if b.Marker[c]&(1<<h) != 0 {
				return c, true
			}
		}
		panic("no item")
	}
	valid := func(members []int) bool {
		if len(members) < 3 {
			return false
		}
		ok := false
		for want := Blue; want < NumColors; want++ {
			all := true
			for _, h := range members {
				c, _ := colorAt(h)
				if c != want && (c != White || want == Pink) {
					all = false
				}
			}
			ok = ok || all
		}
		if !ok {
			return false
		}
		in := map[int]bool{}
		for _, h := range members {
			in[h] = true
		}
		seen := map[int]bool{members[0]: true}
		queue := []int{members[0]}
		for len(queue) > 0 {
			h := queue[0]
			queue = queue[1:]
			r, c := h/Cols, h%Cols
			for _, d := range [][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				nr, nc := r+d[0], c+d[1]
				n := nr*Cols + nc
				if nr >= 0 && nr < Rows && nc >= 0 && nc < Cols && in[n] && !seen[n] {
					seen[n] = true
					queue = append(queue, n)
				}
			}
		}
		return len(seen) == len(members)
	}
	var groups []uint32
	for s := 1; s < 1<<len(items); s++ {
		var members []int
		var m uint32
		for i, h := range items {
			if s&(1<<i) != 0 {
				members = append(members, h)
				m |= 1 << h
			}
		}
		if valid(members) {
			groups = append(groups, m)
		}
	}
	// Extras: centre or not, and each blast die none / row / column.
	extras := []uint32{0}
	var dice uint32
	for c := range NumColors {
		dice |= b.Die[c]
	}
	if dice&(1<<b.Centre) != 0 {
		extras = append(extras, 1<<b.Centre)
	}
	for _, p := range items {
		if c, marker := colorAt(p); c != Pink || marker {
			continue
		}
		var next []uint32
		for _, e := range extras {
			var row, col uint32
			for _, h := range items {
				if h/Cols == p/Cols {
					row |= 1 << h
				}
				if h%Cols == p%Cols {
					col |= 1 << h
				}
			}
			next = append(next, e, e|row, e|col)
		}
		extras = next
	}
	sum := func(m uint32) int {
		t := 0
		for h := range Holes {
			if m&(1<<h) != 0 {
				t += int(b.Value[h])
			}
		}
		return t
	}
	best := 0
	var rec func(undecided, union uint32)
	rec = func(undecided, union uint32) {
		if undecided == 0 {
			for _, e := range extras {
				best = max(best, sum(union|e))
			}
			return
		}
		x := uint32(1) << bits.TrailingZeros32(undecided)
		rec(undecided&^x, union) // x in no group
		for _, g := range groups {
			if g&x != 0 && g&^undecided == 0 {
				rec(undecided&^g, union|g)
			}
		}
	}
	rec(b.Items(), 0)
	return best
}

// fullBoard is a full arena with 3 jokers, 2 blast dice and the default
// markers covered, for the benchmark.
func fullBoard(tb testing.TB) Board {
	cells := map[string]string{}
	colors := []string{"blue", "yellow", "green", "white", "blue", "green", "yellow", "blue", "pink", "green",
		"yellow", "white", "blue", "green", "yellow", "blue", "green", "pink", "yellow", "white",
		"green", "blue", "yellow", "green", "blue"}
	for h := range Holes {
		d := fmt.Sprintf("%s:%d", colors[h], 1+h%6)
		cells[HoleName(h)] = d
	}
	b, _ := board(tb, cells)
	return b
}

func BenchmarkSolveFullArena(b *testing.B) {
	bd := fullBoard(b)
	for b.Loop() {
		bd.Solve()
	}
}
