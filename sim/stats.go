package sim

import (
	"math"
	"slices"
)

// Z95 is the standard normal quantile of a two-sided 95% interval.
const Z95 = 1.959963984540054

// Wilson returns the Wilson score interval for a proportion of successes
// out of n trials at normal quantile z (Z95 for 95%). successes may be
// fractional (a tie counted as half a win). It is well behaved near 0 and 1
// and for small n, unlike the plain normal interval.
func Wilson(successes float64, n int, z float64) (lo, hi float64) {
	if n <= 0 {
		return 0, 1
	}
	nf := float64(n)
	p := successes / nf
	z2 := z * z
	den := 1 + z2/nf
	centre := (p + z2/(2*nf)) / den
	half := z / den * math.Sqrt(p*(1-p)/nf+z2/(4*nf*nf))
	lo, hi = max(0, centre-half), min(1, centre+half)
	// At the extremes the bound is exactly 0 or 1; rounding may miss it.
	if successes <= 0 {
		lo = 0
	}
	if successes >= nf {
		hi = 1
	}
	return lo, hi
}

// Summary describes a sample of numbers.
type Summary struct {
	N      int     `json:"n"`
	Mean   float64 `json:"mean"`
	Median float64 `json:"median"`
	Stdev  float64 `json:"stdev"` // sample standard deviation (n-1)
	Min    float64 `json:"min"`
	Max    float64 `json:"max"`
}

// Summarize computes the summary of xs (which it does not modify).
func Summarize(xs []float64) Summary {
	s := Summary{N: len(xs)}
	if len(xs) == 0 {
		return s
	}
	sorted := slices.Clone(xs)
	slices.Sort(sorted)
	s.Min, s.Max = sorted[0], sorted[len(sorted)-1]
	if m := len(sorted) / 2; len(sorted)%2 == 1 {
		s.Median = sorted[m]
	} else {
		s.Median = (sorted[m-1] + sorted[m]) / 2
	}
	// Welford: stable for long runs of similar scores.
	mean, m2 := 0.0, 0.0
	for i, x := range xs {
		d := x - mean
		mean += d / float64(i+1)
		m2 += d * (x - mean)
	}
	s.Mean = mean
	if len(xs) > 1 {
		s.Stdev = math.Sqrt(m2 / float64(len(xs)-1))
	}
	return s
}

// Rate is a win rate with its 95% Wilson interval.
type Rate struct {
	Rate float64 `json:"rate"`
	Lo   float64 `json:"lo"`
	Hi   float64 `json:"hi"`
}

// NewRate builds the rate of successes out of n with its 95% interval.
func NewRate(successes float64, n int) Rate {
	r := Rate{}
	if n > 0 {
		r.Rate = successes / float64(n)
	}
	r.Lo, r.Hi = Wilson(successes, n, Z95)
	return r
}
