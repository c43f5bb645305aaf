package physics

import (
	"errors"
	"fmt"
	"math"
)

// Arena is the box and everything the simulation needs to know about it. All
// lengths are in millimetres, speeds in mm/s, times in seconds unless the
// name says otherwise. Arena holds only comparable values so that caches (the
// aiming table, the pool of prepared physics spaces) can be keyed by the
// arena itself: changing any field gives a fresh cache.
//
// # Physical model
//
// What is 2D. The box is seen from above and simulated with Chipmunk2D
// (github.com/jakecoffman/cp/v2): four walls (static segments whose inner
// faces are BoxSize apart), one static square per occupied hole (the die
// sitting in it sticks out of the insert, so a flicked die bounces off it),
// and the flicked die as a circle of radius DieRadius that does not spin (a
// tumbling cube's footprint averages to a disc, and a spinning disc would only
// add noise that no hand controls).
//
// What is modelled on top. The third dimension never enters the solver:
//   - Rolling and tumbling on the felt slow the die by RollDecel (Coulomb-like,
//     independent of speed) plus TumbleDrag·speed (a fast die tumbles and
//     loses a share of its speed on every face impact), applied every step.
//   - Dropping into a hole: a die whose centre is within CaptureRadius of a
//     free hole's centre while its speed is under CaptureSpeed falls in. A
//     faster die hops over the opening: fast dice skip holes.
//   - The trench: a die whose centre is over the trench (the band between the
//     insert and the walls) while its speed is under TrenchSpeed drops into it
//     and goes back to the bag. Faster dice cross the trench (a flick starts
//     there: the base bridges it).
//   - Out of the box: a die that hits a wall with a speed along the wall's
//     normal above OutSpeed jumps the wall. This is a deterministic threshold:
//     the chance in it comes from the hand (Noise), not from the box.
//   - Settling ("shake the box"): a die that comes to rest on the insert is
//     tilted on a hole's lip or lies on the flat between holes. The insert is
//     modelled as dished (its surface slopes gently into every hole), so
//     shaking the box always moves such a die into the nearest free hole
//     (ties: lowest index). With no free hole left it is shaken off into the
//     trench.
//
// Every die ends in exactly one of: a free hole, the trench, out. The
// simulation is deterministic: the same arena, occupied holes, flick and
// noise give the same Landing, bit for bit, in one binary. The face the die
// shows is not the physics' business: the rules draw it from the chance
// source.
//
// # Defaults (DefaultArena)
//
//	BoxSize          250     inner width of the square box
//	TrenchWidth       30     band between insert and walls (insert is 190 square)
//	HolePitch         38     distance between neighbouring hole centres
//	HoleRadius        10     radius of a hole's opening (drawing, validation)
//	DieSize           16     edge of a die (static squares in occupied holes)
//	DieRadius        8.5     collision radius of the flicked die
//	DieMass          3.5     grams; only the die moves, so it scales nothing
//	RollDecel       3400     mm/s², μ ≈ 0.35 of g on felt
//	TumbleDrag       1.5     1/s, extra loss proportional to speed
//	DieRestitution  0.45     die against die
//	DieFriction      0.3     die against die
//	WallRestitution  0.5     die against wall
//	WallFriction     0.3     die against wall
//	CaptureRadius      7     centre distance under which a slow die drops into a hole
//	CaptureSpeed     350     speed under which a die over a hole drops in
//	TrenchSpeed      250     speed under which a die over the trench drops in
//	OutSpeed        1800     normal speed at a wall above which a die leaves the box
//	RestSpeed          2     speed under which the die counts as at rest
//	BaseInset         12     launch point's distance from its wall
//	BaseTravel        80     children's variant: how far a base slides (Offset ±1)
//	MinSpeed         300     launch speed at Power 0
//	MaxSpeed        2600     launch speed at Power 1 (linear in between)
//	MaxAngle         75°     widest angle off a base's normal
//	TimeStep       0.002     solver step
//	MaxTime            6     a flick is cut off (and settled where it is) after this
//	PathStepMillis    20     interval between Landing.Path samples
type Arena struct {
	BoxSize     float64 // inner width of the square box, wall face to wall face
	TrenchWidth float64 // width of the trench between the insert's edge and the walls
	HolePitch   float64 // distance between neighbouring hole centres
	HoleRadius  float64 // radius of a hole's opening

	DieSize   float64 // edge of a die; dice in holes are static squares this wide
	DieRadius float64 // collision radius of the flicked die
	DieMass   float64 // mass of a die, grams

	RollDecel  float64 // speed-independent deceleration on the insert, mm/s²
	TumbleDrag float64 // speed-proportional deceleration, 1/s

	DieRestitution  float64 // bounciness of die against die
	DieFriction     float64 // friction of die against die
	WallRestitution float64 // bounciness of die against wall
	WallFriction    float64 // friction of die against wall

	CaptureRadius float64 // a slow die whose centre is this close to a free hole's centre drops in
	CaptureSpeed  float64 // a die over a hole drops in only under this speed
	TrenchSpeed   float64 // a die over the trench drops in under this speed
	OutSpeed      float64 // normal speed at a wall above which the die leaves the box
	RestSpeed     float64 // under this speed the die is at rest

	BaseInset  float64 // launch point's distance from its wall
	BaseTravel float64 // how far a base slides along its side at Offset ±1
	MinSpeed   float64 // launch speed at Power 0
	MaxSpeed   float64 // launch speed at Power 1
	MaxAngle   float64 // widest angle off the base's inward normal, radians

	TimeStep       float64 // solver step, seconds
	MaxTime        float64 // simulated time after which the die is settled where it is, seconds
	PathStepMillis int     // interval between samples of Landing.Path, milliseconds
}

// DefaultArena is the documented default box (see Arena).
var DefaultArena = Arena{
	BoxSize:     250,
	TrenchWidth: 30,
	HolePitch:   38,
	HoleRadius:  10,

	DieSize:   16,
	DieRadius: 8.5,
	DieMass:   3.5,

	RollDecel:  3400,
	TumbleDrag: 1.5,

	DieRestitution:  0.45,
	DieFriction:     0.3,
	WallRestitution: 0.5,
	WallFriction:    0.3,

	CaptureRadius: 7,
	CaptureSpeed:  350,
	TrenchSpeed:   250,
	OutSpeed:      1800,
	RestSpeed:     2,

	BaseInset:  12,
	BaseTravel: 80,
	MinSpeed:   300,
	MaxSpeed:   2600,
	MaxAngle:   75 * math.Pi / 180,

	TimeStep:       0.002,
	MaxTime:        6,
	PathStepMillis: 20,
}

// InsertHalf is half the insert's width: the insert spans
// [-InsertHalf, InsertHalf] on both axes; the trench lies beyond it.
func (a *Arena) InsertHalf() float64 { return a.BoxSize/2 - a.TrenchWidth }

// Validate reports the first inconsistency in the arena's data.
func (a *Arena) Validate() error {
	fields := []struct {
		name string
		v    float64
	}{
		{"BoxSize", a.BoxSize}, {"TrenchWidth", a.TrenchWidth}, {"HolePitch", a.HolePitch},
		{"HoleRadius", a.HoleRadius}, {"DieSize", a.DieSize}, {"DieRadius", a.DieRadius},
		{"DieMass", a.DieMass}, {"CaptureRadius", a.CaptureRadius}, {"CaptureSpeed", a.CaptureSpeed},
		{"TrenchSpeed", a.TrenchSpeed}, {"OutSpeed", a.OutSpeed}, {"RestSpeed", a.RestSpeed},
		{"BaseInset", a.BaseInset}, {"MaxSpeed", a.MaxSpeed}, {"MaxAngle", a.MaxAngle},
		{"TimeStep", a.TimeStep}, {"MaxTime", a.MaxTime},
	}
	for _, f := range fields {
		if !(f.v > 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("physics: %s must be positive and finite, is %v", f.name, f.v)
		}
	}
	nonNeg := []struct {
		name string
		v    float64
	}{
		{"RollDecel", a.RollDecel}, {"TumbleDrag", a.TumbleDrag}, {"DieFriction", a.DieFriction},
		{"WallFriction", a.WallFriction}, {"BaseTravel", a.BaseTravel}, {"MinSpeed", a.MinSpeed},
		{"DieRestitution", a.DieRestitution}, {"WallRestitution", a.WallRestitution},
	}
	for _, f := range nonNeg {
		if !(f.v >= 0) || math.IsInf(f.v, 0) {
			return fmt.Errorf("physics: %s must be non-negative and finite, is %v", f.name, f.v)
		}
	}
	// Without any deceleration a die would only stop by MaxTime.
	if a.RollDecel == 0 && a.TumbleDrag == 0 {
		return errors.New("physics: RollDecel and TumbleDrag are both zero: a die would never stop")
	}
	if a.DieRestitution > 1 || a.WallRestitution > 1 {
		return errors.New("physics: restitution above 1 adds energy")
	}
	if a.MinSpeed > a.MaxSpeed {
		return fmt.Errorf("physics: MinSpeed %v exceeds MaxSpeed %v", a.MinSpeed, a.MaxSpeed)
	}
	if a.MaxAngle >= math.Pi/2 {
		return fmt.Errorf("physics: MaxAngle %v must be under π/2 (a flick goes into the box)", a.MaxAngle)
	}
	half := a.InsertHalf()
	if half <= 0 {
		return fmt.Errorf("physics: TrenchWidth %v leaves no insert in a %v box", a.TrenchWidth, a.BoxSize)
	}
	// Holes must not overlap each other nor the insert's edge.
	if 2*a.HoleRadius >= a.HolePitch {
		return fmt.Errorf("physics: holes of radius %v overlap at pitch %v", a.HoleRadius, a.HolePitch)
	}
	if outer := float64(Cols/2)*a.HolePitch + a.HoleRadius; outer >= half {
		return fmt.Errorf("physics: outer holes reach %v, beyond the insert's edge %v", outer, half)
	}
	if a.CaptureRadius > a.HoleRadius {
		return fmt.Errorf("physics: CaptureRadius %v exceeds HoleRadius %v", a.CaptureRadius, a.HoleRadius)
	}
	if a.DieSize >= a.HolePitch {
		return fmt.Errorf("physics: dice of %v mm do not fit side by side at pitch %v", a.DieSize, a.HolePitch)
	}
	if a.BaseInset < a.DieRadius || a.BaseInset >= a.TrenchWidth+a.DieRadius {
		return fmt.Errorf("physics: BaseInset %v must keep the die off its wall and over the trench", a.BaseInset)
	}
	if a.BaseTravel+a.DieRadius >= a.BoxSize/2 {
		return fmt.Errorf("physics: BaseTravel %v slides the base past the corner", a.BaseTravel)
	}
	if a.PathStepMillis <= 0 {
		return fmt.Errorf("physics: PathStepMillis must be positive, is %d", a.PathStepMillis)
	}
	if a.TimeStep > a.MaxTime || a.TimeStep*a.MaxSpeed > a.DieRadius {
		return fmt.Errorf("physics: TimeStep %v is too long (a die moves more than its radius per step)", a.TimeStep)
	}
	return nil
}

// HoleCentre is the centre of hole h (row*Cols + col; row 0 is the north side,
// far from base 0; col 0 is the west side).
func (a *Arena) HoleCentre(h int) Point {
	r, c := h/Cols, h%Cols
	return Point{
		X: float64(c-Cols/2) * a.HolePitch,
		Y: float64(Rows/2-r) * a.HolePitch,
	}
}

// baseFrame is base b's inward normal and its left (the normal turned a
// quarter counter-clockwise): positive Angle and positive Offset both go left
// as seen by a player behind the base.
func baseFrame(b int) (normal, left Point) {
	switch b {
	case 0: // south
		return Point{0, 1}, Point{-1, 0}
	case 1: // west
		return Point{1, 0}, Point{0, 1}
	case 2: // north
		return Point{0, -1}, Point{1, 0}
	default: // east
		return Point{-1, 0}, Point{0, -1}
	}
}

// CheckFlick reports whether f is an input a player may give: a base in
// 0..3, finite numbers, Offset in [-1, 1], Angle in [-MaxAngle, MaxAngle],
// Power in [0, 1]. Simulate clamps rather than refuses, so rules should check
// with this first.
func (a *Arena) CheckFlick(f Flick) error {
	if f.Base < 0 || f.Base > 3 {
		return fmt.Errorf("physics: base %d is not 0..3", f.Base)
	}
	for _, v := range []float64{f.Offset, f.Angle, f.Power} {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return errors.New("physics: flick has a non-finite number")
		}
	}
	if f.Offset < -1 || f.Offset > 1 {
		return fmt.Errorf("physics: offset %v is outside [-1, 1]", f.Offset)
	}
	if f.Angle < -a.MaxAngle || f.Angle > a.MaxAngle {
		return fmt.Errorf("physics: angle %v is outside ±%v", f.Angle, a.MaxAngle)
	}
	if f.Power < 0 || f.Power > 1 {
		return fmt.Errorf("physics: power %v is outside [0, 1]", f.Power)
	}
	return nil
}

// clampFlick brings f into the allowed ranges (NaN counts as 0) so Simulate
// never feeds the solver a position outside the box.
func (a *Arena) clampFlick(f Flick) Flick {
	f.Base = ((f.Base % 4) + 4) % 4
	f.Offset = clamp(f.Offset, -1, 1)
	f.Angle = clamp(f.Angle, -a.MaxAngle, a.MaxAngle)
	f.Power = clamp(f.Power, 0, 1)
	return f
}

func clamp(v, lo, hi float64) float64 {
	switch {
	case math.IsNaN(v):
		return clamp(0, lo, hi)
	case v < lo:
		return lo
	case v > hi:
		return hi
	}
	return v
}

// BasePoint is where a die launched with f starts: BaseInset inside the
// base's wall, moved along the side by Offset·BaseTravel.
func (a *Arena) BasePoint(f Flick) Point {
	f = a.clampFlick(f)
	n, l := baseFrame(f.Base)
	d := a.BoxSize/2 - a.BaseInset
	s := f.Offset * a.BaseTravel
	return Point{X: -n.X*d + l.X*s, Y: -n.Y*d + l.Y*s}
}

// LaunchSpeed maps Power (clamped to [0, 1]) to the die's launch speed in
// mm/s: linear from MinSpeed to MaxSpeed. Linear in speed means the reach
// (about speed²) grows faster at high power, so near holes get the finer
// control, as with a real finger.
func (a *Arena) LaunchSpeed(power float64) float64 {
	return a.MinSpeed + (a.MaxSpeed-a.MinSpeed)*clamp(power, 0, 1)
}
