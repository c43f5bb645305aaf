// Package physics simulates Diceflick's arena seen from above: a die flicked
// from a base slides, bounces off the walls and off dice sitting in holes,
// and comes to rest in a free hole, in the trench around the grid, or out of
// the box. Height, tumbling and dropping into holes are modelled on top of a
// 2D rigid-body simulation. All dimensions and coefficients are data
// (Arena); DefaultArena is the documented default.
//
// The rules never re-run a simulation to replay a game: the landing of every
// flick is recorded as a chance outcome. The simulation only has to be
// deterministic for the table that runs it.
package physics

// Grid size of the arena's holes.
const (
	Rows  = 5
	Cols  = 5
	Holes = Rows * Cols
)

// Hole indices are row*Cols + col, row 0 being the far side from base 0.
// NoHole marks a die that ended in the trench or out of the box.
const NoHole = -1

// Flick is a player's continuous input.
type Flick struct {
	// Base is the flick base, 0..3 (0 = south side, then clockwise: west,
	// north, east).
	Base int `json:"base"`
	// Offset slides the base along its side (children's variant), in
	// [-1, 1] of the allowed travel; 0 = centred.
	Offset float64 `json:"offset"`
	// Angle is the direction in radians relative to the base's inward
	// normal, in [-MaxAngle, MaxAngle]; positive turns left (counter-clockwise).
	Angle float64 `json:"angle"`
	// Power is the strength in [0, 1].
	Power float64 `json:"power"`
}

// Point is a position in the arena in millimetres, origin at the centre of
// the box, x to the east, y to the north.
type Point struct {
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

// Landing is where a flicked die came to rest, and how it got there.
type Landing struct {
	// Hole is the hole the die settled in, or NoHole.
	Hole int `json:"hole"`
	// Out is true when the die left the box (Hole is then NoHole).
	Out bool `json:"out,omitempty"`
	// Path samples the die's centre over time for clients to animate
	// (a few dozen points at a fixed interval, PathStepMillis apart).
	Path []Point `json:"path,omitempty"`
}
