package physics

import (
	"math"
	"sync"
)

// aimScan is how many powers the coarse search tries along the line to a
// hole; aimRefine is how many bisections sharpen each end of the window.
const (
	aimScan   = 64
	aimRefine = 12
)

// aimEntry is the cached aim at one hole from one base.
type aimEntry struct {
	once  sync.Once
	flick Flick
	ok    bool
	// window is the width of the power interval that lands in the hole
	// (with the aimed angle): the wider, the more forgiving the shot.
	window float64
}

type aimTable [Holes][4]aimEntry

// aimTables maps an Arena (by value) to its *aimTable, filled lazily.
var aimTables sync.Map

func (a *Arena) aimEntry(target, base int) *aimEntry {
	t, ok := aimTables.Load(*a)
	if !ok {
		t, _ = aimTables.LoadOrStore(*a, new(aimTable))
	}
	e := &t.(*aimTable)[target][base]
	e.once.Do(func() { e.flick, e.window, e.ok = a.aim(target, base) })
	return e
}

// Aim is a perfect hand's flick at target from base (centred: Offset 0) on an
// empty board: the angle points the launch straight at the hole's centre,
// and the power is the middle of the widest power interval that lands in the
// hole. ok is false when the hole lies beyond MaxAngle from that base or no
// power lands there. Results are cached per arena value.
func (a *Arena) Aim(target, base int) (Flick, bool) {
	if target < 0 || target >= Holes || base < 0 || base > 3 {
		return Flick{}, false
	}
	e := a.aimEntry(target, base)
	return e.flick, e.ok
}

// AimBest is Aim from the base with the widest power window for target: the
// base an expert would turn the box to.
func (a *Arena) AimBest(target int) (Flick, bool) {
	if target < 0 || target >= Holes {
		return Flick{}, false
	}
	var best *aimEntry
	for b := range 4 {
		if e := a.aimEntry(target, b); e.ok && (best == nil || e.window > best.window) {
			best = e
		}
	}
	if best == nil {
		return Flick{}, false
	}
	return best.flick, true
}

func (a *Arena) aim(target, base int) (Flick, float64, bool) {
	f := Flick{Base: base}
	from := a.BasePoint(f)
	to := a.HoleCentre(target)
	n, l := baseFrame(base)
	dx, dy := to.X-from.X, to.Y-from.Y
	f.Angle = math.Atan2(dx*l.X+dy*l.Y, dx*n.X+dy*n.Y)
	if math.Abs(f.Angle) > a.MaxAngle {
		return Flick{}, 0, false
	}
	var empty [Holes]bool
	hits := func(p float64) bool {
		g := f
		g.Power = p
		return a.Simulate(empty, g, Noise{}).Hole == target
	}
	// Coarse scan: the widest run of consecutive hitting powers.
	bestLo, bestHi := -1, -1
	for i := 0; i <= aimScan; {
		if !hits(float64(i) / aimScan) {
			i++
			continue
		}
		j := i
		for j+1 <= aimScan && hits(float64(j+1)/aimScan) {
			j++
		}
		if bestLo < 0 || j-i > bestHi-bestLo {
			bestLo, bestHi = i, j
		}
		i = j + 1
	}
	if bestLo < 0 {
		return Flick{}, 0, false
	}
	// Refine both ends between the last miss and the first hit.
	lo := float64(bestLo) / aimScan
	if bestLo > 0 {
		miss, hit := float64(bestLo-1)/aimScan, lo
		for range aimRefine {
			if m := (miss + hit) / 2; hits(m) {
				hit = m
			} else {
				miss = m
			}
		}
		lo = hit
	}
	hi := float64(bestHi) / aimScan
	if bestHi < aimScan {
		hit, miss := hi, float64(bestHi+1)/aimScan
		for range aimRefine {
			if m := (miss + hit) / 2; hits(m) {
				hit = m
			} else {
				miss = m
			}
		}
		hi = hit
	}
	f.Power = (lo + hi) / 2
	return f, hi - lo, true
}
