package diceflick

import (
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/diceflick/physics"
)

func TestActionText(t *testing.T) {
	for _, c := range []struct {
		a    Action
		want string
	}{
		{Action{Type: ActFlick, Die: 1, Flick: physics.Flick{Base: 0, Angle: 0.12, Power: 0.55}}, "flick die 1 from base 0 (south), angle +7°, power 0.55"},
		{Action{Type: ActFlick, Flick: physics.Flick{Base: 3, Angle: -0.2, Power: 0.6, Offset: -0.25}}, "flick die 0 from base 3 (east), angle -11°, power 0.60, offset -0.25"},
		{Action{Type: ActLand, Hole: 21, Face: 4, Path: []physics.Point{{X: 0, Y: -120.4}, {X: 3, Y: 5}, {X: 35.2, Y: 19.7}}}, "land in hole 4,1 showing 4 (rolled from (0, -120) to (35, 20), 3 points)"},
		{Action{Type: ActLand, Hole: physics.NoHole}, "land in the trench"},
		{Action{Type: ActLand, Hole: physics.NoHole, Out: true}, "land out of the box"},
	} {
		if got := c.a.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.a, got, c.want)
		}
		if strings.Contains(c.a.String(), "{") {
			t.Errorf("raw data in %q", c.a.String())
		}
	}
}
