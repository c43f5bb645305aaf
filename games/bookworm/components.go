package bookworm

import (
	"fmt"
	"strings"
)

// Limits of the compact state: arrays are sized by them.
const (
	MaxPlayers = 6
	MinPlayers = 2
	MaxDice    = 8 // 7 white letter dice and the green Special die
	NumFaces   = 6
)

// LetterFace is one face of a white die: the letters it shows (two for the
// C/K and X/Y faces, where the player picks) and its points (dots).
type LetterFace struct {
	Letters string `json:"letters"` // upper case, e.g. "D" or "CK"
	Points  int    `json:"points"`
}

// Name is the face as people write it: "D", "C/K".
func (f LetterFace) Name() string {
	if len(f.Letters) < 2 {
		return f.Letters
	}
	return strings.Join(strings.Split(f.Letters, ""), "/")
}

// Has reports whether the face shows letter (a lower-case a–z byte).
func (f LetterFace) Has(letter byte) bool {
	return strings.IndexByte(f.Letters, letter-'a'+'A') >= 0
}

// LetterDie is a white die: its six faces.
type LetterDie struct {
	Name  string               `json:"name"`
	Faces [NumFaces]LetterFace `json:"faces"`
}

// Special is a face of the green Special die.
type Special uint8

const (
	SpecialTurn     Special = iota // the Bookworm turns it to another face
	SpecialAZ                      // counts as every letter
	SpecialNot                     // taken with a word starting N, O or T
	SpecialDots                    // goes with the last white die
	SpecialStack                   // dice pile up; only the top one can be stolen
	SpecialQuestion                // taken instead of a word: the category changes
	NumSpecial
)

var specialNames = [NumSpecial]string{"turn", "a-z", "not", "dots", "stack", "?"}

func (f Special) String() string {
	if f < NumSpecial {
		return specialNames[f]
	}
	return "special?"
}

// ParseSpecial reads a Special face name ("turn", "a-z", "not", "dots" or
// "••", "stack", "?"), in any case.
func ParseSpecial(s string) (Special, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "turn":
		return SpecialTurn, nil
	case "a-z", "az", "a–z":
		return SpecialAZ, nil
	case "not":
		return SpecialNot, nil
	case "dots", "••", "..":
		return SpecialDots, nil
	case "stack":
		return SpecialStack, nil
	case "?", "question":
		return SpecialQuestion, nil
	}
	return 0, fmt.Errorf("unknown special face %q (turn, a-z, not, dots, stack or ?)", s)
}

// Components are the dice and the scoring constants. The letters are
// confirmed; most points and the Special die's values are the documented
// defaults (docs/rules/bookworm.md), so they are data, not code.
type Components struct {
	// LetterDice are the white dice, in die order (die i of the state).
	LetterDice []LetterDie `json:"letterDice"`
	// BookwormCards in the centre: one per steal, 1 point each.
	BookwormCards int `json:"bookwormCards"`
	// FailPenalty is subtracted from the round score of a player who failed.
	FailPenalty int `json:"failPenalty"`
	// NotWithOther and NotAlone score the NOT face: with another die, alone.
	NotWithOther int `json:"notWithOther"`
	NotAlone     int `json:"notAlone"`
	// DotsPoints scores the •• face for whoever took the last white die.
	DotsPoints int `json:"dotsPoints"`
}

func lf(letters string, points int) LetterFace { return LetterFace{letters, points} }

// DefaultComponents are the published dice (letters confirmed; points S 1,
// D 1, M 1, L 2, H 2, Q 3 confirmed, the others defaults).
var DefaultComponents = Components{
	LetterDice: []LetterDie{
		{"L1", [NumFaces]LetterFace{lf("CK", 1), lf("D", 1), lf("S", 1), lf("E", 2), lf("G", 1), lf("W", 1)}},
		{"L1", [NumFaces]LetterFace{lf("CK", 1), lf("D", 1), lf("S", 1), lf("E", 2), lf("G", 1), lf("W", 1)}},
		{"L2", [NumFaces]LetterFace{lf("M", 1), lf("P", 1), lf("U", 2), lf("F", 1), lf("R", 1), lf("I", 2)}},
		{"L2", [NumFaces]LetterFace{lf("M", 1), lf("P", 1), lf("U", 2), lf("F", 1), lf("R", 1), lf("I", 2)}},
		{"L3", [NumFaces]LetterFace{lf("A", 2), lf("B", 1), lf("T", 2), lf("H", 2), lf("L", 2), lf("Z", 3)}},
		{"L3", [NumFaces]LetterFace{lf("A", 2), lf("B", 1), lf("T", 2), lf("H", 2), lf("L", 2), lf("Z", 3)}},
		{"L4", [NumFaces]LetterFace{lf("N", 1), lf("V", 3), lf("J", 3), lf("O", 2), lf("Q", 3), lf("XY", 3)}},
	},
	BookwormCards: 6,
	FailPenalty:   2,
	NotWithOther:  2,
	NotAlone:      -2,
	DotsPoints:    2,
}

// Validate checks that the components fit the compact state.
func (c *Components) Validate() error {
	if n := len(c.LetterDice); n < 1 || n > MaxDice-1 {
		return fmt.Errorf("components: %d letter dice, want 1 to %d", n, MaxDice-1)
	}
	for i, d := range c.LetterDice {
		for j, f := range d.Faces {
			if f.Letters == "" || len(f.Letters) > 2 {
				return fmt.Errorf("components: die %d face %d shows %q, want 1 or 2 letters", i, j, f.Letters)
			}
			for k := 0; k < len(f.Letters); k++ {
				if f.Letters[k] < 'A' || f.Letters[k] > 'Z' {
					return fmt.Errorf("components: die %d face %d: %q is not an upper-case letter A–Z", i, j, f.Letters)
				}
			}
			if f.Points < 0 || f.Points > 9 {
				return fmt.Errorf("components: die %d face %d: %d points, want 0 to 9", i, j, f.Points)
			}
		}
	}
	if c.BookwormCards < 0 || c.BookwormCards > 255 {
		return fmt.Errorf("components: %d bookworm cards, want 0 to 255", c.BookwormCards)
	}
	for _, v := range []int{c.FailPenalty, c.NotWithOther, c.NotAlone, c.DotsPoints} {
		if v < -99 || v > 99 {
			return fmt.Errorf("components: a score constant of %d, want -99 to 99", v)
		}
	}
	return nil
}

// faceName is the name of face f of die d under these components ("D",
// "C/K", or a Special face name for the green die).
func (c *Components) faceName(d int, f uint8) string {
	if d == len(c.LetterDice) {
		return Special(f).String()
	}
	return c.LetterDice[d].Faces[f].Name()
}

// parseFace finds which face of die d the name denotes ("C/K", "ck", "not").
func (c *Components) parseFace(d int, name string) (uint8, bool) {
	if d == len(c.LetterDice) {
		f, err := ParseSpecial(name)
		return uint8(f), err == nil
	}
	up := strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(name), "/", ""))
	for i, f := range c.LetterDice[d].Faces {
		if f.Letters == up {
			return uint8(i), true
		}
	}
	return 0, false
}
