package physics

import (
	"math"
	"sync"

	"github.com/jakecoffman/cp/v2"
)

// Noise is the hand's error on one flick, drawn by the caller from the game's
// chance source so that the simulation itself stays deterministic.
type Noise struct {
	// Angle is added to the flick's (clamped) angle, in radians. It may push
	// the direction past MaxAngle: the base guides the intent, not the error.
	Angle float64 `json:"angle"`
	// Power is a relative error on the launch speed: the die leaves at
	// LaunchSpeed(Power)·(1+Noise.Power). 0.03 is a 3% harder flick.
	Power float64 `json:"power"`
}

// Collision types of the shapes in a space.
const (
	typeDie cp.CollisionType = iota + 1
	typeWall
	typeHoleDie
)

// world is one prepared physics space for an arena: walls, a static die for
// every hole (switched on only for occupied holes), and the flicked die.
// Building a cp.Space allocates over a thousand pooled arbiters, far more
// than a flick costs, so worlds are pooled per arena and reset between
// flicks (see reset).
type world struct {
	a        Arena
	space    *cp.Space
	die      *cp.Body
	holeDice [Holes]*cp.Shape

	// Per flick: set by the wall handler when the die jumps a wall.
	out      bool
	outPoint cp.Vector
}

// worldPools maps an Arena (by value) to its *sync.Pool of worlds.
var worldPools sync.Map

func (a *Arena) getWorld() *world {
	p, ok := worldPools.Load(*a)
	if !ok {
		arena := *a
		p, _ = worldPools.LoadOrStore(arena, &sync.Pool{New: func() any { return newWorld(arena) }})
	}
	return p.(*sync.Pool).Get().(*world)
}

func (a *Arena) putWorld(w *world) {
	if p, ok := worldPools.Load(*a); ok {
		p.(*sync.Pool).Put(w)
	}
}

// parked is where the die waits between flicks, far from every shape.
var parked = cp.Vector{X: 1e6, Y: 1e6}

// buildMu serialises building worlds: cp numbers bodies with an unguarded
// package counter (used only for printing), so concurrent NewBody calls race.
var buildMu sync.Mutex

func newWorld(a Arena) *world {
	buildMu.Lock()
	defer buildMu.Unlock()
	w := &world{a: a, space: cp.NewSpace()}
	s := w.space
	// The die is alone among static shapes: no need for more solver passes.
	s.Iterations = 10

	// Walls: thick segments whose inner faces lie on ±BoxSize/2. They run
	// past the corners so the die cannot slip between two walls.
	const thick = 10.0
	h := a.BoxSize/2 + thick
	for _, seg := range [4][2]cp.Vector{
		{{X: -h, Y: -h}, {X: h, Y: -h}},
		{{X: h, Y: -h}, {X: h, Y: h}},
		{{X: h, Y: h}, {X: -h, Y: h}},
		{{X: -h, Y: h}, {X: -h, Y: -h}},
	} {
		sh := cp.NewSegment(s.StaticBody, seg[0], seg[1], thick)
		sh.SetElasticity(a.WallRestitution)
		sh.SetFriction(a.WallFriction)
		sh.SetCollisionType(typeWall)
		s.AddShape(sh)
	}

	// One square per hole for the die that sits in it. Its own static body
	// carries the position, so the shape is an axis-aligned box at the origin.
	for i := range Holes {
		c := a.HoleCentre(i)
		b := cp.NewStaticBody()
		b.SetPosition(cp.Vector{X: c.X, Y: c.Y})
		s.AddBody(b)
		sh := cp.NewBox(b, a.DieSize, a.DieSize, 0)
		sh.SetElasticity(a.DieRestitution)
		sh.SetFriction(a.DieFriction)
		sh.SetCollisionType(typeHoleDie)
		sh.Filter = cp.SHAPE_FILTER_NONE
		s.AddShape(sh)
		w.holeDice[i] = sh
	}

	// The flicked die: a disc with infinite moment, so it never spins (see
	// Arena's model notes).
	w.die = cp.NewBody(a.DieMass, math.Inf(1))
	s.AddBody(w.die)
	sh := cp.NewCircle(w.die, a.DieRadius, cp.Vector{})
	sh.SetElasticity(1) // the other shape's value is what counts: elasticity multiplies
	sh.SetFriction(1)
	sh.SetCollisionType(typeDie)
	s.AddShape(sh)
	w.die.SetPosition(parked)

	// Rolling and tumbling losses, applied inside the solver's velocity step.
	roll, drag := a.RollDecel, a.TumbleDrag
	w.die.SetVelocityUpdateFunc(func(b *cp.Body, _ cp.Vector, _ float64, dt float64) {
		v := b.Velocity()
		sp := v.Length()
		if sp == 0 {
			return
		}
		ns := sp - (roll+drag*sp)*dt
		if ns <= 0 {
			b.SetVelocity(0, 0)
			return
		}
		b.SetVelocityVector(v.Mult(ns / sp))
	})

	// Jumping the wall: a hit whose normal speed exceeds OutSpeed is not
	// resolved; the die is marked out where it met the wall.
	hd := s.NewCollisionHandler(typeDie, typeWall)
	hd.BeginFunc = func(arb *cp.Arbiter, _ *cp.Space, _ any) bool {
		vn := math.Abs(w.die.Velocity().Dot(arb.Normal()))
		if vn > w.a.OutSpeed {
			w.out = true
			w.outPoint = w.die.Position()
			return false
		}
		return true
	}
	return w
}

// reset clears everything a flick left in the space: the die's motion, and
// the contacts the solver caches between steps (a cached contact would warm
// start the next flick's first collision differently). Parking the die far
// away and stepping past the space's contact persistence (3 steps) flushes
// them, so every flick starts from the same state whatever ran before.
func (w *world) reset(occupied *[Holes]bool) {
	w.die.SetVelocity(0, 0)
	w.die.SetAngularVelocity(0)
	w.die.SetAngle(0)
	w.die.SetPosition(parked)
	for range 5 {
		w.space.Step(w.a.TimeStep)
	}
	for i, sh := range w.holeDice {
		if occupied[i] {
			sh.Filter = cp.SHAPE_FILTER_ALL
		} else {
			sh.Filter = cp.SHAPE_FILTER_NONE
		}
	}
	w.out = false
	w.outPoint = cp.Vector{}
}

// Simulate flicks a die with f (clamped to its ranges; check it with
// CheckFlick first), perturbed by noise, into the arena whose holes in
// occupied hold dice. See Arena for the model. The result is deterministic:
// the same arguments give the same Landing, bit for bit.
func (a *Arena) Simulate(occupied [Holes]bool, f Flick, noise Noise) Landing {
	w := a.getWorld()
	defer a.putWorld(w)
	return a.simulateIn(w, &occupied, f, noise)
}

// simulateIn runs one flick in w, a world built for a (pooled or fresh: the
// tests check both give the same result).
func (a *Arena) simulateIn(w *world, occupied *[Holes]bool, f Flick, noise Noise) Landing {
	f = a.clampFlick(f)
	w.reset(occupied)

	start := a.BasePoint(f)
	n, l := baseFrame(f.Base)
	ang := f.Angle + clamp(noise.Angle, -math.Pi/2, math.Pi/2)
	cs, sn := math.Cos(ang), math.Sin(ang)
	dir := Point{X: n.X*cs + l.X*sn, Y: n.Y*cs + l.Y*sn}
	speed := math.Max(0, a.LaunchSpeed(f.Power)*(1+clamp(noise.Power, -1, 1)))

	w.die.SetPosition(cp.Vector{X: start.X, Y: start.Y})
	w.die.SetVelocity(dir.X*speed, dir.Y*speed)

	dt := a.TimeStep
	steps := int(math.Ceil(a.MaxTime / dt))
	sample := float64(a.PathStepMillis) / 1000
	path := make([]Point, 1, 64)
	path[0] = start
	nextSample := sample
	half := a.InsertHalf()

	land := Landing{Hole: NoHole}
	for i := 1; i <= steps; i++ {
		w.space.Step(dt)
		t := float64(i) * dt
		p := w.die.Position()
		if w.out {
			// Show the die crossing the wall's top, then gone.
			path = append(path, Point{w.outPoint.X, w.outPoint.Y}, a.beyondWall(w.outPoint))
			land.Out = true
			break
		}
		if t >= nextSample-dt/2 {
			path = append(path, Point{p.X, p.Y})
			nextSample += sample
		}
		v := w.die.Velocity().Length()
		onInsert := math.Abs(p.X) <= half && math.Abs(p.Y) <= half
		if !onInsert {
			if v < a.TrenchSpeed {
				break // in the trench
			}
			continue
		}
		if v < a.CaptureSpeed {
			if h := a.nearestHole(p); h != NoHole && !occupied[h] {
				c := a.HoleCentre(h)
				if math.Hypot(p.X-c.X, p.Y-c.Y) < a.CaptureRadius {
					land.Hole = h
					break
				}
			}
		}
		if v < a.RestSpeed || i == steps {
			land.Hole = a.settle(Point{p.X, p.Y}, occupied)
			break
		}
	}

	// The last sample is where the die stopped; a die that dropped into or
	// was shaken into a hole ends on the hole's centre.
	p := w.die.Position()
	if !land.Out {
		if last := path[len(path)-1]; last.X != p.X || last.Y != p.Y {
			path = append(path, Point{p.X, p.Y})
		}
		if land.Hole != NoHole {
			path = append(path, a.HoleCentre(land.Hole))
		}
	}
	land.Path = path
	return land
}

// nearestHole is the hole whose centre is nearest p, or NoHole off the grid's
// cells.
func (a *Arena) nearestHole(p cp.Vector) int {
	c := int(math.Round(p.X/a.HolePitch)) + Cols/2
	r := Rows/2 - int(math.Round(p.Y/a.HolePitch))
	if c < 0 || c >= Cols || r < 0 || r >= Rows {
		return NoHole
	}
	return r*Cols + c
}

// settle is the "shake the box" rule for a die at rest on the insert: the
// nearest free hole (lowest index on a tie), or NoHole (shaken into the
// trench) when every hole is taken.
func (a *Arena) settle(p Point, occupied *[Holes]bool) int {
	best, bestD := NoHole, math.Inf(1)
	for h := range Holes {
		if occupied[h] {
			continue
		}
		c := a.HoleCentre(h)
		if d := (p.X-c.X)*(p.X-c.X) + (p.Y-c.Y)*(p.Y-c.Y); d < bestD {
			best, bestD = h, d
		}
	}
	return best
}

// beyondWall is a point just outside the wall nearest p, for the last frame
// of a die that left the box.
func (a *Arena) beyondWall(p cp.Vector) Point {
	out := a.BoxSize/2 + 2*a.DieSize
	if math.Abs(p.X) >= math.Abs(p.Y) {
		return Point{X: math.Copysign(out, p.X), Y: p.Y}
	}
	return Point{X: p.X, Y: math.Copysign(out, p.Y)}
}
