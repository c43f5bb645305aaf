package diceflick

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// baseNames name the flick bases as people see the box (physics.Flick.Base).
var baseNames = [4]string{"south", "west", "north", "east"}

// String is the action for people (dicehall replay --steps): angles in
// degrees, holes by name, a landing's path by where it went rather than
// its points.
func (a Action) String() string {
	switch a.Type {
	case ActDraw:
		names := make([]string, len(a.Dice))
		for i, c := range a.Dice {
			names[i] = c.String()
		}
		return "draw " + strings.Join(names, ", ")
	case ActFlick:
		f := a.Flick
		base := fmt.Sprint(f.Base)
		if f.Base >= 0 && f.Base < len(baseNames) {
			base = fmt.Sprintf("%d (%s)", f.Base, baseNames[f.Base])
		}
		s := fmt.Sprintf("flick die %d from base %s, angle %s, power %.2f", a.Die, base, Degrees(f.Angle), f.Power)
		if f.Offset != 0 {
			s += fmt.Sprintf(", offset %+.2f", f.Offset)
		}
		return s
	case ActLand:
		var s string
		switch {
		case a.Hole == physics.NoHole && a.Out:
			s = "land out of the box"
		case a.Hole == physics.NoHole:
			s = "land in the trench"
		default:
			s = "land in hole " + HoleName(a.Hole)
		}
		if a.Face != 0 {
			s += fmt.Sprintf(" showing %d", a.Face)
		}
		if n := len(a.Path); n > 0 {
			s += fmt.Sprintf(" (rolled from %s to %s, %d points)", pointText(a.Path[0]), pointText(a.Path[n-1]), n)
		}
		return s
	case ActScore:
		return "score " + a.Choice.String()
	}
	return a.Kind()
}

// pointText is a position on the box in whole units.
func pointText(p physics.Point) string { return fmt.Sprintf("(%.0f, %.0f)", p.X, p.Y) }
