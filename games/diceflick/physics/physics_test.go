package physics

import (
	"flag"
	"fmt"
	"math"
	"math/rand/v2"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"
)

// -diceflick.report prints the full hit-rate table for docs/performance.md
// (25 targets × 400 flicks per hand).
var report = flag.Bool("diceflick.report", false, "print the full Diceflick hit-rate table")

func deg(d float64) float64 { return d * math.Pi / 180 }

func randomFlick(r *rand.Rand, a *Arena) Flick {
	return Flick{
		Base:   r.IntN(4),
		Offset: 2*r.Float64() - 1,
		Angle:  (2*r.Float64() - 1) * a.MaxAngle,
		Power:  r.Float64(),
	}
}

func randomOccupied(r *rand.Rand, p float64) (occ [Holes]bool) {
	for h := range occ {
		occ[h] = r.Float64() < p
	}
	return occ
}

func handNoise(r *rand.Rand, sigmaAngle, sigmaPower float64) Noise {
	return Noise{Angle: r.NormFloat64() * sigmaAngle, Power: r.NormFloat64() * sigmaPower}
}

func TestDefaultArenaValid(t *testing.T) {
	if err := DefaultArena.Validate(); err != nil {
		t.Fatal(err)
	}
}

func TestValidateRejects(t *testing.T) {
	cases := map[string]func(*Arena){
		"no box":           func(a *Arena) { a.BoxSize = 0 },
		"NaN friction":     func(a *Arena) { a.DieFriction = math.NaN() },
		"never stops":      func(a *Arena) { a.RollDecel, a.TumbleDrag = 0, 0 },
		"bouncy":           func(a *Arena) { a.WallRestitution = 1.2 },
		"speeds reversed":  func(a *Arena) { a.MinSpeed = 3000 },
		"angle too wide":   func(a *Arena) { a.MaxAngle = math.Pi / 2 },
		"holes overlap":    func(a *Arena) { a.HoleRadius = 20 },
		"holes off insert": func(a *Arena) { a.TrenchWidth = 100 },
		"capture > hole":   func(a *Arena) { a.CaptureRadius = 11 },
		"base in wall":     func(a *Arena) { a.BaseInset = 5 },
		"base past corner": func(a *Arena) { a.BaseTravel = 120 },
		"no path step":     func(a *Arena) { a.PathStepMillis = 0 },
		"step too long":    func(a *Arena) { a.TimeStep = 0.01 },
	}
	for name, mut := range cases {
		a := DefaultArena
		mut(&a)
		if err := a.Validate(); err == nil {
			t.Errorf("%s: Validate accepted %+v", name, a)
		}
	}
}

func TestGeometry(t *testing.T) {
	a := DefaultArena
	if c := a.HoleCentre(12); c != (Point{}) {
		t.Errorf("centre hole at %v, want origin", c)
	}
	// Row 0 is the far side from base 0 (south), column 0 the west.
	if c := a.HoleCentre(0); c.X >= 0 || c.Y <= 0 {
		t.Errorf("hole 0 at %v, want north-west", c)
	}
	if c := a.HoleCentre(24); c.X <= 0 || c.Y >= 0 {
		t.Errorf("hole 24 at %v, want south-east", c)
	}
	want := [4]Point{{0, -113}, {-113, 0}, {0, 113}, {113, 0}}
	for b, w := range want {
		if p := a.BasePoint(Flick{Base: b}); p != w {
			t.Errorf("base %d at %v, want %v", b, p, w)
		}
	}
	// Positive offset slides the base to the player's left: west for base 0.
	if p := a.BasePoint(Flick{Base: 0, Offset: 1}); p != (Point{-80, -113}) {
		t.Errorf("base 0 offset 1 at %v", p)
	}
	if p := a.BasePoint(Flick{Base: 1, Offset: -0.5}); p != (Point{-113, -40}) {
		t.Errorf("base 1 offset -0.5 at %v", p)
	}
	if err := a.CheckFlick(Flick{Base: 4}); err == nil {
		t.Error("CheckFlick accepted base 4")
	}
	if err := a.CheckFlick(Flick{Power: math.NaN()}); err == nil {
		t.Error("CheckFlick accepted NaN power")
	}
	if err := a.CheckFlick(Flick{Base: 3, Offset: -1, Angle: a.MaxAngle, Power: 1}); err != nil {
		t.Error(err)
	}
}

// TestStraightLine checks the basic behaviour along base 0's normal: a weak
// flick stays in the trench, stronger ones walk up the centre column, full
// power jumps the far wall, and the path starts at the base and ends on the
// hole's centre.
func TestStraightLine(t *testing.T) {
	a := DefaultArena
	var empty [Holes]bool
	if l := a.Simulate(empty, Flick{Power: 0}, Noise{}); l.Hole != NoHole || l.Out {
		t.Errorf("power 0: %+v, want the trench", l)
	}
	if l := a.Simulate(empty, Flick{Power: 1}, Noise{}); !l.Out || l.Hole != NoHole {
		t.Errorf("power 1: hole %d out %v, want out", l.Hole, l.Out)
	} else if last := l.Path[len(l.Path)-1]; last.Y <= a.BoxSize/2 {
		t.Errorf("out path ends at %v, inside the box", last)
	}
	seen := map[int]bool{}
	for p := 0.0; p <= 0.46; p += 0.01 {
		l := a.Simulate(empty, Flick{Power: p}, Noise{})
		if l.Hole == NoHole {
			continue
		}
		if l.Hole%Cols != 2 {
			t.Errorf("power %.2f straight ahead landed in column %d", p, l.Hole%Cols)
		}
		seen[l.Hole] = true
		if l.Path[0] != a.BasePoint(Flick{}) {
			t.Errorf("path starts at %v", l.Path[0])
		}
		if last := l.Path[len(l.Path)-1]; last != a.HoleCentre(l.Hole) {
			t.Errorf("path ends at %v, not on hole %d", last, l.Hole)
		}
	}
	if len(seen) != Rows {
		t.Errorf("direct flicks reached holes %v, want the whole centre column", seen)
	}
}

func TestPathSampling(t *testing.T) {
	a := DefaultArena
	var empty [Holes]bool
	f, _ := a.Aim(0, 0)
	l := a.Simulate(empty, f, Noise{})
	// Samples are PathStepMillis apart: no jump longer than launch speed × step.
	maxJump := a.LaunchSpeed(f.Power) * float64(a.PathStepMillis) / 1000 * 1.01
	for i := 1; i < len(l.Path)-1; i++ {
		if d := math.Hypot(l.Path[i].X-l.Path[i-1].X, l.Path[i].Y-l.Path[i-1].Y); d > maxJump {
			t.Fatalf("path jumps %.1f mm between samples %d and %d", d, i-1, i)
		}
	}
	if len(l.Path) < 10 || len(l.Path) > 200 {
		t.Errorf("path has %d points", len(l.Path))
	}
}

func TestDeterministic(t *testing.T) {
	a := DefaultArena
	r := rand.New(rand.NewPCG(7, 7))
	type input struct {
		occ [Holes]bool
		f   Flick
		n   Noise
	}
	ins := make([]input, 300)
	for i := range ins {
		ins[i] = input{randomOccupied(r, 0.3), randomFlick(r, &a), handNoise(r, deg(2), 0.05)}
	}
	first := make([]Landing, len(ins))
	for i, in := range ins {
		first[i] = a.Simulate(in.occ, in.f, in.n)
	}
	// Again in reverse order: pooled worlds have a different history now.
	for i := len(ins) - 1; i >= 0; i-- {
		in := ins[i]
		if l := a.Simulate(in.occ, in.f, in.n); !reflect.DeepEqual(l, first[i]) {
			t.Fatalf("flick %d differs on rerun:\n%+v\n%+v", i, l, first[i])
		}
	}
	// A freshly built world gives the same as a pooled one.
	for i := 0; i < len(ins); i += 10 {
		in := ins[i]
		if l := a.simulateIn(newWorld(a), &in.occ, in.f, in.n); !reflect.DeepEqual(l, first[i]) {
			t.Fatalf("flick %d differs in a fresh world", i)
		}
	}
	// Concurrent callers share the pool safely.
	var wg sync.WaitGroup
	errs := make(chan string, len(ins))
	for g := range 4 {
		wg.Go(func() {
			for i := g; i < len(ins); i += 4 {
				in := ins[i]
				if l := a.Simulate(in.occ, in.f, in.n); !reflect.DeepEqual(l, first[i]) {
					errs <- fmt.Sprintf("flick %d differs under concurrency", i)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Fatal(e)
	}
}

// TestNeverOccupied: whatever the flick, a die ends in a free hole or nowhere,
// and a die that took a hole blocks the same flick from taking it again.
func TestNeverOccupied(t *testing.T) {
	a := DefaultArena
	r := rand.New(rand.NewPCG(3, 9))
	outs, trench, holes := 0, 0, 0
	for range 1500 {
		occ := randomOccupied(r, r.Float64())
		f := randomFlick(r, &a)
		l := a.Simulate(occ, f, Noise{})
		switch {
		case l.Hole < NoHole || l.Hole >= Holes:
			t.Fatalf("hole %d out of range", l.Hole)
		case l.Out && l.Hole != NoHole:
			t.Fatalf("out and in hole %d", l.Hole)
		case l.Hole != NoHole && occ[l.Hole]:
			t.Fatalf("%+v on %v landed in occupied hole %d", f, occ, l.Hole)
		case l.Out:
			outs++
		case l.Hole == NoHole:
			trench++
		default:
			holes++
			occ[l.Hole] = true
			if l2 := a.Simulate(occ, f, Noise{}); l2.Hole == l.Hole {
				t.Fatalf("%+v took hole %d twice", f, l.Hole)
			}
		}
	}
	// All three endings happen with random flicks.
	if outs == 0 || trench == 0 || holes == 0 {
		t.Errorf("outs %d, trench %d, holes %d", outs, trench, holes)
	}
	// A full board leaves no hole: everything ends in the trench or out.
	var full [Holes]bool
	for h := range full {
		full[h] = true
	}
	for range 50 {
		if l := a.Simulate(full, randomFlick(r, &a), Noise{}); l.Hole != NoHole {
			t.Fatalf("full board: landed in %d", l.Hole)
		}
	}
}

// TestBounceOffDice: a die sitting in the way turns a flick back.
func TestBounceOffDice(t *testing.T) {
	a := DefaultArena
	var empty, blocked [Holes]bool
	f, _ := a.Aim(12, 0) // straight up the centre column
	blocked[17] = true   // the hole just before the centre on that line
	if l := a.Simulate(empty, f, Noise{}); l.Hole != 12 {
		t.Fatalf("aimed flick landed in %d", l.Hole)
	}
	l := a.Simulate(blocked, f, Noise{})
	if l.Hole == 12 || l.Hole == 17 {
		t.Fatalf("flick passed through the die in 17: %d", l.Hole)
	}
	// The die came back towards the base after meeting the blocker.
	top, end := math.Inf(-1), l.Path[len(l.Path)-2]
	for _, p := range l.Path {
		top = math.Max(top, p.Y)
	}
	if top > a.HoleCentre(17).Y || end.Y >= top {
		t.Errorf("no rebound: highest y %.1f, rest y %.1f", top, end.Y)
	}
}

// aimFlicks is the perfect hand's flick at every hole (from its best base).
func aimFlicks(t testing.TB, a *Arena) [Holes]Flick {
	var fs [Holes]Flick
	for h := range Holes {
		f, ok := a.AimBest(h)
		if !ok {
			t.Fatalf("hole %d: no aim from any base", h)
		}
		fs[h] = f
	}
	return fs
}

// TestReachableAndPerfectHand: every hole is hit by Aim's flick from some
// base, and from every base that can aim at a hole at all, the perfect hand
// hits it in at least 90% of (hole, base) pairs.
func TestReachableAndPerfectHand(t *testing.T) {
	a := DefaultArena
	var empty [Holes]bool
	for h, f := range aimFlicks(t, &a) {
		if l := a.Simulate(empty, f, Noise{}); l.Hole != h {
			t.Errorf("hole %d: best aim %+v landed in %d", h, f, l.Hole)
		}
	}
	pairs, hits := 0, 0
	for h := range Holes {
		for b := range 4 {
			f, ok := a.Aim(h, b)
			if !ok {
				continue
			}
			pairs++
			if a.Simulate(empty, f, Noise{}).Hole == h {
				hits++
			}
		}
	}
	if pairs < 80 || hits*10 < pairs*9 {
		t.Errorf("perfect hand: %d of %d (hole, base) pairs hit", hits, pairs)
	}
}

type handRates struct {
	perfect, moderate, rough, random [Holes]float64
}

// measureHands flicks n times at every hole: a perfect hand (AimBest, no
// noise), a moderate hand (σ 1.5°, 3% speed), a rough hand (σ 3°, 8%), and a
// random flick (uniform base, offset, angle, power), which "hits" a hole when
// it happens to land there.
func measureHands(t testing.TB, a *Arena, n int, seed uint64) handRates {
	var rs handRates
	var empty [Holes]bool
	fs := aimFlicks(t, a)
	r := rand.New(rand.NewPCG(seed, 1))
	randomLand := make([]int, Holes)
	for h, f := range fs {
		if a.Simulate(empty, f, Noise{}).Hole == h {
			rs.perfect[h] = 1
		}
		mod, rough := 0, 0
		for range n {
			if a.Simulate(empty, f, handNoise(r, deg(1.5), 0.03)).Hole == h {
				mod++
			}
			if a.Simulate(empty, f, handNoise(r, deg(3), 0.08)).Hole == h {
				rough++
			}
			if l := a.Simulate(empty, randomFlick(r, a), Noise{}); l.Hole != NoHole {
				randomLand[l.Hole]++
			}
		}
		rs.moderate[h] = float64(mod) / float64(n)
		rs.rough[h] = float64(rough) / float64(n)
	}
	for h := range Holes {
		rs.random[h] = float64(randomLand[h]) / float64(n*Holes)
	}
	return rs
}

func mean(xs [Holes]float64) float64 {
	s := 0.0
	for _, x := range xs {
		s += x
	}
	return s / Holes
}

// TestSkill: noise lowers the hit rate, and even a rough hand hits its chosen
// hole far more often than a random flick lands there.
func TestSkill(t *testing.T) {
	a := DefaultArena
	rs := measureHands(t, &a, 40, 11)
	p, m, ro, rnd := mean(rs.perfect), mean(rs.moderate), mean(rs.rough), mean(rs.random)
	t.Logf("mean hit rate: perfect %.3f, moderate %.3f, rough %.3f, random %.3f", p, m, ro, rnd)
	if p < 0.9 {
		t.Errorf("perfect hand hits %.3f", p)
	}
	if !(m < p && ro < m) {
		t.Errorf("noise does not cost: perfect %.3f, moderate %.3f, rough %.3f", p, m, ro)
	}
	if ro < 5*rnd || m < 10*rnd {
		t.Errorf("skill barely beats chance: moderate %.3f, rough %.3f, random %.3f", m, ro, rnd)
	}
}

// TestSensitivity: small changes of angle or power move where the die stops,
// and sweeping either reaches many holes.
func TestSensitivity(t *testing.T) {
	a := DefaultArena
	var empty [Holes]bool
	restOf := func(f Flick) Point {
		l := a.Simulate(empty, f, Noise{})
		if l.Out {
			return l.Path[len(l.Path)-1]
		}
		if l.Hole != NoHole {
			return l.Path[len(l.Path)-2] // where it stopped or dropped
		}
		return l.Path[len(l.Path)-1]
	}
	for _, h := range []int{0, 7, 12, 18, 24} {
		f, _ := a.AimBest(h)
		base := restOf(f)
		for _, d := range []Flick{{Angle: deg(0.5)}, {Angle: -deg(0.5)}, {Power: 0.01}, {Power: -0.01}} {
			g := f
			g.Angle += d.Angle
			g.Power += d.Power
			if p := restOf(g); p == base {
				t.Errorf("hole %d: %+v did not move the die", h, d)
			}
		}
	}
	// Power sweep from base 0 and angle sweep at mid power: many holes.
	powers, angles := map[int]bool{}, map[int]bool{}
	for p := 0.0; p <= 1; p += 0.02 {
		powers[a.Simulate(empty, Flick{Angle: deg(10), Power: p}, Noise{}).Hole] = true
	}
	for d := -60.0; d <= 60; d += 2 {
		angles[a.Simulate(empty, Flick{Angle: deg(d), Power: 0.35}, Noise{}).Hole] = true
	}
	if len(powers) < 6 || len(angles) < 6 {
		t.Errorf("sweeps reach %d holes by power, %d by angle", len(powers)-1, len(angles)-1)
	}
}

// TestOffsetVariant: sliding the base shifts where a straight flick lands.
func TestOffsetVariant(t *testing.T) {
	a := DefaultArena
	var empty [Holes]bool
	f, _ := a.Aim(12, 0)
	cols := map[int]bool{}
	for _, off := range []float64{-1, -0.475, 0, 0.475, 1} {
		g := f
		g.Offset = off
		l := a.Simulate(empty, g, Noise{})
		if l.Hole == NoHole {
			t.Fatalf("offset %v: no hole", off)
		}
		cols[l.Hole%Cols] = true
	}
	if len(cols) != Cols {
		t.Errorf("sliding the base reached columns %v", cols)
	}
}

// TestReport prints the table in docs/performance.md when run with
// -diceflick.report (400 flicks per hole and hand, seed 1).
func TestReport(t *testing.T) {
	if !*report {
		t.Skip("run with -diceflick.report")
	}
	a := DefaultArena
	start := time.Now()
	rs := measureHands(t, &a, 400, 1)
	var b strings.Builder
	fmt.Fprintf(&b, "| hole | base | angle ° | power | perfect | moderate | rough | random |\n|---|---|---|---|---|---|---|---|\n")
	fs := aimFlicks(t, &a)
	for h := range Holes {
		fmt.Fprintf(&b, "| %d | %d | %+.1f | %.3f | %.0f%% | %.1f%% | %.1f%% | %.1f%% |\n", h, fs[h].Base,
			fs[h].Angle*180/math.Pi, fs[h].Power, 100*rs.perfect[h], 100*rs.moderate[h], 100*rs.rough[h], 100*rs.random[h])
	}
	fmt.Fprintf(&b, "| mean | | | | %.0f%% | %.1f%% | %.1f%% | %.1f%% |\n",
		100*mean(rs.perfect), 100*mean(rs.moderate), 100*mean(rs.rough), 100*mean(rs.random))
	t.Logf("(%v)\n%s", time.Since(start), b.String())
}

// BenchmarkSimulate flicks a mix of aimed and random flicks with noise onto
// boards with about a third of the holes taken, and reports the median time
// per flick besides the mean.
func BenchmarkSimulate(b *testing.B) {
	a := DefaultArena
	r := rand.New(rand.NewPCG(5, 5))
	fs := aimFlicks(b, &a)
	type input struct {
		occ [Holes]bool
		f   Flick
		n   Noise
	}
	ins := make([]input, 256)
	for i := range ins {
		f := randomFlick(r, &a)
		if i%2 == 0 {
			f = fs[r.IntN(Holes)]
		}
		ins[i] = input{randomOccupied(r, 0.33), f, handNoise(r, deg(1.5), 0.03)}
	}
	times := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		in := &ins[i%len(ins)]
		t0 := time.Now()
		a.Simulate(in.occ, in.f, in.n)
		times = append(times, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(times, func(i, j int) bool { return times[i] < times[j] })
	if len(times) > 0 {
		b.ReportMetric(float64(times[len(times)/2].Nanoseconds()), "median-ns")
	}
}
