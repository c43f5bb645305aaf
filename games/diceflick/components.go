// Package diceflick is the rules of Diceflick: players flick dice from bases
// at the box's sides into a 5 × 5 grid of holes and score groups of one
// colour, the centre die and blast lines. Where a flicked die comes to rest
// is decided by a physics simulation (games/diceflick/physics) plus the
// player's hand noise and a face roll; the rules only see the outcome, as a
// chance move, so a replay never re-runs the simulation.
//
// The components (dice, marker positions, points) are data: Components, with
// DefaultComponents as the documented default (docs/rules/diceflick.md).
package diceflick

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Grid geometry, shared with the physics (hole = row*Cols + col).
const (
	Rows  = physics.Rows
	Cols  = physics.Cols
	Holes = physics.Holes
)

// Color is a die's colour. White dice are jokers for every colour but pink;
// pink dice are blast dice.
type Color uint8

const (
	White Color = iota
	Blue
	Yellow
	Green
	Pink
	NumColors
)

var colorNames = [NumColors]string{"white", "blue", "yellow", "green", "pink"}

func (c Color) String() string {
	if c < NumColors {
		return colorNames[c]
	}
	return "color(" + strconv.Itoa(int(c)) + ")"
}

// ParseColor reads a colour name.
func ParseColor(s string) (Color, error) {
	for c, n := range colorNames {
		if strings.EqualFold(s, n) {
			return Color(c), nil
		}
	}
	return 0, fmt.Errorf("unknown colour %q (white, blue, yellow, green or pink)", s)
}

// Limits that keep the state a small fixed-size value.
const (
	MaxPlayers = 4
	MaxRounds  = 20
	MaxHand    = 8  // hand size + the bonus die, with room for variants
	MaxWhites  = 6  // the solver enumerates 4^whites joker assignments
	maxDice    = 40 // all dice of every colour
)

// Components is the physical game as data. Hole positions are
// row*5 + col, (0,0) at the far-left corner seen from base 0.
type Components struct {
	// Dice counts the dice of each colour, in Color order: white, blue,
	// yellow, green, pink.
	Dice [NumColors]int `json:"dice"`
	// Centre is the hole of the centre marker: its die counts double and
	// may be scored alone.
	Centre int `json:"centre"`
	// Markers is the hole of each colour's upgrade marker (-1: none). Only
	// blue, yellow and green have one.
	Markers [NumColors]int `json:"markers"`
	// Bonus is the hole of the bonus marker (-1: none).
	Bonus int `json:"bonus"`
	// MarkerPoints is what an uncovered upgrade marker scores.
	MarkerPoints int `json:"markerPoints"`
	// BlastPoints is what a blast die scores (its faces carry no pips).
	BlastPoints int `json:"blastPoints"`
	// Rounds in a game; HandSize dice in front of a player at the start of
	// a turn; Flicks per turn (not counting the bonus flick).
	Rounds   int `json:"rounds"`
	HandSize int `json:"handSize"`
	Flicks   int `json:"flicks"`
	// MaxAngle bounds a flick's angle (radians either side of the base's
	// inward normal).
	MaxAngle float64 `json:"maxAngle"`
	// AngleNoise and PowerNoise are the largest deviations of a player's
	// hand: the chance move adds a bell-shaped deviation within ± these to
	// the angle and the power asked for.
	AngleNoise float64 `json:"angleNoise"`
	PowerNoise float64 `json:"powerNoise"`
}

// DefaultComponents is the published game with the project's defaults for
// what the rulebook leaves open (COMPONENTS.md): markers blue (1,1), yellow
// (1,3), green (3,1), bonus (3,3); a blast die scores 6.
var DefaultComponents = Components{
	Dice:         [NumColors]int{White: 3, Blue: 5, Yellow: 5, Green: 5, Pink: 2},
	Centre:       2*Cols + 2,
	Markers:      [NumColors]int{White: -1, Blue: 1*Cols + 1, Yellow: 1*Cols + 3, Green: 3*Cols + 1, Pink: -1},
	Bonus:        3*Cols + 3,
	MarkerPoints: 2,
	BlastPoints:  6,
	Rounds:       10,
	HandSize:     3,
	Flicks:       2,
	MaxAngle:     75 * math.Pi / 180, // the physics default (physics.DefaultArena)
	AngleNoise:   0.05,
	PowerNoise:   0.05,
}

// Validate checks that the components make a playable game within the
// state's fixed limits.
func (c *Components) Validate() error {
	total := 0
	for col, n := range c.Dice {
		if n < 0 {
			return fmt.Errorf("components: %d %s dice", n, Color(col))
		}
		total += n
	}
	if total > maxDice {
		return fmt.Errorf("components: %d dice, at most %d", total, maxDice)
	}
	if c.Dice[White] > MaxWhites {
		return fmt.Errorf("components: %d white dice, at most %d", c.Dice[White], MaxWhites)
	}
	used := map[int]string{}
	place := func(h int, what string, optional bool) error {
		if h == -1 && optional {
			return nil
		}
		if h < 0 || h >= Holes {
			return fmt.Errorf("components: %s on hole %d, want 0..%d", what, h, Holes-1)
		}
		if u, dup := used[h]; dup {
			return fmt.Errorf("components: %s and %s share hole %s", u, what, HoleName(h))
		}
		used[h] = what
		return nil
	}
	if err := place(c.Centre, "the centre marker", false); err != nil {
		return err
	}
	for col, h := range c.Markers {
		if (Color(col) == White || Color(col) == Pink) && h != -1 {
			return fmt.Errorf("components: %s has no upgrade marker", Color(col))
		}
		if err := place(h, Color(col).String()+" marker", true); err != nil {
			return err
		}
	}
	if err := place(c.Bonus, "the bonus marker", true); err != nil {
		return err
	}
	switch {
	case c.MarkerPoints < 0 || c.MarkerPoints > 50 || c.BlastPoints < 0 || c.BlastPoints > 50:
		return fmt.Errorf("components: marker and blast points must be 0..50")
	case c.Rounds < 1 || c.Rounds > MaxRounds:
		return fmt.Errorf("components: %d rounds, want 1..%d", c.Rounds, MaxRounds)
	case c.HandSize < 1 || c.HandSize >= MaxHand:
		return fmt.Errorf("components: hand of %d, want 1..%d", c.HandSize, MaxHand-1)
	case c.Flicks < 1 || c.Flicks > c.HandSize:
		return fmt.Errorf("components: %d flicks, want 1..hand size", c.Flicks)
	case !(c.MaxAngle > 0 && c.MaxAngle < math.Pi/2):
		return fmt.Errorf("components: max angle must be in (0, π/2)")
	case !(c.AngleNoise >= 0 && c.AngleNoise <= 1 && c.PowerNoise >= 0 && c.PowerNoise <= 1):
		return fmt.Errorf("components: noise must be in [0, 1]")
	}
	return nil
}

// HoleName is "row,col", the form scripts and views use.
func HoleName(h int) string { return strconv.Itoa(h/Cols) + "," + strconv.Itoa(h%Cols) }

// ParseHole reads "row,col" (0-based).
func ParseHole(s string) (int, error) {
	r, c, ok := strings.Cut(strings.TrimSpace(s), ",")
	if ok {
		ri, e1 := strconv.Atoi(strings.TrimSpace(r))
		ci, e2 := strconv.Atoi(strings.TrimSpace(c))
		if e1 == nil && e2 == nil && ri >= 0 && ri < Rows && ci >= 0 && ci < Cols {
			return ri*Cols + ci, nil
		}
	}
	return 0, fmt.Errorf("hole %q: want \"row,col\" with row and col 0..4", s)
}
