// Package dicestars implements Dice Stars (Cathala & Maublanc): rules,
// components as data, and bots. It does no I/O.
//
// The hot path (State, Action, LegalActions, Apply) works on compact values
// with fixed-size arrays so bots can copy and search states without
// allocating; Match wraps it in the engine.State interface for clients.
package dicestars

import (
	"fmt"
	"strings"
)

// Color is a die colour. The numbering is internal; the sheet's left-to-right
// column order is Layout.Columns.
type Color uint8

const (
	Black Color = iota
	Purple
	Blue
	Orange
	NumColors = 4
)

var colorNames = [NumColors]string{"black", "purple", "blue", "orange"}

func (c Color) String() string {
	if int(c) < NumColors {
		return colorNames[c]
	}
	return fmt.Sprintf("color(%d)", c)
}

// ParseColor reads a colour name. "yellow" is accepted for orange, as some
// printings of the sheet show it.
func ParseColor(s string) (Color, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "black":
		return Black, nil
	case "purple":
		return Purple, nil
	case "blue":
		return Blue, nil
	case "orange", "yellow":
		return Orange, nil
	}
	return 0, fmt.Errorf("unknown colour %q (black, purple, blue or orange)", s)
}

// Star is the face value of a star: it counts 0 in every sum.
const Star = 0

// Die is a rolled die: colour in the high bits, face in the low three
// (Star, or 2..6).
type Die uint8

// MakeDie packs a colour and a face.
func MakeDie(c Color, face int) Die { return Die(uint8(c)<<3 | uint8(face)) }

func (d Die) Color() Color { return Color(d >> 3) }
func (d Die) Face() int    { return int(d & 7) }
func (d Die) IsStar() bool { return d&7 == Star }

func (d Die) String() string {
	if d.IsStar() {
		return d.Color().String() + ":star"
	}
	return fmt.Sprintf("%s:%d", d.Color(), d.Face())
}

// ParseDie reads "colour:face", face being 2..6 or "star".
func ParseDie(s string) (Die, error) {
	col, face, ok := strings.Cut(s, ":")
	if !ok {
		return 0, fmt.Errorf("die %q: want colour:face, e.g. blue:5 or orange:star", s)
	}
	c, err := ParseColor(col)
	if err != nil {
		return 0, fmt.Errorf("die %q: %w", s, err)
	}
	switch f := strings.ToLower(strings.TrimSpace(face)); f {
	case "star", "*", "☆":
		return MakeDie(c, Star), nil
	case "2", "3", "4", "5", "6":
		return MakeDie(c, int(f[0]-'0')), nil
	}
	return 0, fmt.Errorf("die %q: face must be 2..6 or star", s)
}

// NumRows is the number of value rows on the sheet.
const NumRows = 5

// MaxRowCells bounds the cells of one row (white + green); the arrays of the
// sheet are sized by it.
const MaxRowCells = 8

// DiceSpec describes the dice of one colour.
type DiceSpec struct {
	Count int    `json:"count"`
	Faces [6]int `json:"faces"` // Star (0) or 2..6
}

// Layout is the component data: dice, and the score sheet the rulebook only
// shows in pictures. DefaultLayout is the documented default
// (docs/rules/dicestars.md); a variant sheet is another Layout value.
type Layout struct {
	Dice [NumColors]DiceSpec `json:"dice"`
	// Columns is the left-to-right order of the colour columns.
	Columns [NumColors]Color `json:"columns"`
	// RowValues is the value of each row, top to bottom.
	RowValues [NumRows]int `json:"rowValues"`
	// Green is the number of green bonus cells right of the white cells.
	Green [NumRows]int `json:"green"`
	// Multipliers is the number of yellow multiplier cells of each row.
	Multipliers [NumRows]int `json:"multipliers"`
	// SoloCells is the size of the solo grid; SoloPoints what each marked
	// cell scores for the virtual opponent; SoloGroup the points per mark.
	SoloCells  int `json:"soloCells"`
	SoloPoints int `json:"soloPoints"`
	SoloGroup  int `json:"soloGroup"`
}

// DefaultLayout is the sheet and dice of the published game, as recorded in
// shared/rules/COMPONENTS.md (confirmed counts; inferred column order and green
// placement; the 30-cell solo grid is a default).
var DefaultLayout = Layout{
	Dice: [NumColors]DiceSpec{
		Black:  {Count: 2, Faces: [6]int{Star, 2, 3, 4, 5, 6}},
		Purple: {Count: 3, Faces: [6]int{Star, 2, 3, 4, 5, 6}},
		Blue:   {Count: 4, Faces: [6]int{Star, 2, 3, 4, 5, 6}},
		Orange: {Count: 5, Faces: [6]int{Star, Star, 3, 4, 5, 6}},
	},
	Columns:     [NumColors]Color{Black, Purple, Blue, Orange},
	RowValues:   [NumRows]int{2, 3, 4, 5, 6},
	Green:       [NumRows]int{4, 3, 2, 1, 0},
	Multipliers: [NumRows]int{2, 3, 4, 5, 6},
	SoloCells:   30,
	SoloPoints:  5,
	SoloGroup:   5,
}

// Validate checks that a layout fits the fixed-size state.
func (l *Layout) Validate() error {
	seen := [NumColors]bool{}
	for _, c := range l.Columns {
		if int(c) >= NumColors || seen[c] {
			return fmt.Errorf("layout: columns must name each colour once")
		}
		seen[c] = true
	}
	total := 0
	for c, d := range l.Dice {
		if d.Count < 0 {
			return fmt.Errorf("layout: %s dice count negative", Color(c))
		}
		total += d.Count
		for _, f := range d.Faces {
			if f != Star && (f < 2 || f > 6) {
				return fmt.Errorf("layout: %s die face %d not star or 2..6", Color(c), f)
			}
		}
	}
	if total == 0 || total > MaxDice {
		return fmt.Errorf("layout: %d dice, want 1..%d", total, MaxDice)
	}
	vals := map[int]bool{}
	for r := 0; r < NumRows; r++ {
		v := l.RowValues[r]
		if v < 2 || v > 6 || vals[v] {
			return fmt.Errorf("layout: row values must be 2..6, each once")
		}
		vals[v] = true
		if l.Green[r] < 0 || NumColors+l.Green[r] > MaxRowCells {
			return fmt.Errorf("layout: row %d has too many green cells", v)
		}
		if l.Multipliers[r] < 1 || l.Multipliers[r] > 7 {
			return fmt.Errorf("layout: row %d multipliers must be 1..7", v)
		}
	}
	if l.SoloCells < 1 || l.SoloCells > 255 || l.SoloPoints < 0 || l.SoloGroup < 1 {
		return fmt.Errorf("layout: bad solo grid")
	}
	return nil
}

// MaxDice bounds the dice in play (the arrays of the reserve).
const MaxDice = 16

// RowCells is the number of fillable cells of row r (white then green).
func (l *Layout) RowCells(r int) int { return NumColors + l.Green[r] }

// RowOf returns the row index of a value, or -1.
func (l *Layout) RowOf(value int) int {
	for r, v := range l.RowValues {
		if v == value {
			return r
		}
	}
	return -1
}

// ColumnOf returns the column index (0 = leftmost) of a colour.
func (l *Layout) ColumnOf(c Color) int {
	for i, cc := range l.Columns {
		if cc == c {
			return i
		}
	}
	return -1
}

// TotalDice is the number of dice in the game.
func (l *Layout) TotalDice() int {
	n := 0
	for _, d := range l.Dice {
		n += d.Count
	}
	return n
}

// HasFace reports whether a die of colour c has face f.
func (l *Layout) HasFace(c Color, f int) bool {
	for _, x := range l.Dice[c].Faces {
		if x == f {
			return true
		}
	}
	return false
}
