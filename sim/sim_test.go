package sim

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Newcombe (1998), "Two-sided confidence intervals for the single
// proportion", table I, method 3 (score interval without continuity
// correction), to four decimals.
func TestWilsonKnownValues(t *testing.T) {
	cases := []struct {
		x, n   int
		lo, hi float64
	}{
		{81, 263, 0.2553, 0.3662},
		{15, 148, 0.0624, 0.1605},
		{0, 20, 0.0000, 0.1611},
		{1, 29, 0.0061, 0.1718},
	}
	for _, c := range cases {
		lo, hi := Wilson(float64(c.x), c.n, Z95)
		if math.Abs(lo-c.lo) > 0.00005 || math.Abs(hi-c.hi) > 0.00005 {
			t.Errorf("Wilson(%d/%d) = [%.4f, %.4f], want [%.4f, %.4f]", c.x, c.n, lo, hi, c.lo, c.hi)
		}
	}
}

func TestWilsonSymmetricAndBounded(t *testing.T) {
	for n := 1; n <= 50; n++ {
		for x := 0; x <= n; x++ {
			lo, hi := Wilson(float64(x), n, Z95)
			lo2, hi2 := Wilson(float64(n-x), n, Z95)
			if lo < 0 || hi > 1 || lo > float64(x)/float64(n) || hi < float64(x)/float64(n) {
				t.Fatalf("%d/%d: [%v, %v] does not hold the proportion within [0,1]", x, n, lo, hi)
			}
			if math.Abs(lo-(1-hi2)) > 1e-12 || math.Abs(hi-(1-lo2)) > 1e-12 {
				t.Fatalf("%d/%d: interval not mirrored by %d/%d", x, n, n-x, n)
			}
		}
	}
	if lo, hi := Wilson(0, 0, Z95); lo != 0 || hi != 1 {
		t.Fatalf("no trials: [%v, %v], want [0, 1]", lo, hi)
	}
}

func TestSummarize(t *testing.T) {
	s := Summarize([]float64{2, 4, 4, 4, 5, 5, 7, 9})
	if s.N != 8 || s.Mean != 5 || s.Median != 4.5 || s.Min != 2 || s.Max != 9 {
		t.Fatalf("summary %+v", s)
	}
	// Sample variance: sum of squared deviations 32 over 7.
	if want := math.Sqrt(32.0 / 7); math.Abs(s.Stdev-want) > 1e-12 {
		t.Fatalf("stdev %v, want %v", s.Stdev, want)
	}
	if s := Summarize([]float64{3, 1, 2}); s.Median != 2 || s.Stdev != 1 {
		t.Fatalf("odd sample: %+v", s)
	}
	if s := Summarize(nil); s.N != 0 || s.Mean != 0 {
		t.Fatalf("empty sample: %+v", s)
	}
}

func TestRunOrderIndependentOfWorkers(t *testing.T) {
	play := func(i int) (int, error) {
		// Uneven work so workers finish out of order.
		time.Sleep(time.Duration(i%3) * time.Millisecond)
		return i * i, nil
	}
	for _, w := range []int{1, 2, 7, 0} {
		calls := 0
		res, err := Run(context.Background(), 40, w, play, func(done int) {
			calls++
			if done != calls {
				t.Errorf("progress %d after %d calls", done, calls)
			}
		})
		if err != nil {
			t.Fatal(err)
		}
		if calls != 40 {
			t.Fatalf("workers=%d: %d progress calls, want 40", w, calls)
		}
		for i, r := range res {
			if r != i*i {
				t.Fatalf("workers=%d: result %d = %d, want %d", w, i, r, i*i)
			}
		}
	}
}

func TestRunStopsOnError(t *testing.T) {
	boom := errors.New("boom")
	_, err := Run(context.Background(), 100, 3, func(i int) (int, error) {
		if i == 17 {
			return 0, boom
		}
		return i, nil
	}, nil)
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "game 17") {
		t.Fatalf("error %v, want game 17: boom", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Run(ctx, 10, 2, func(i int) (int, error) { return i, nil }, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run: %v", err)
	}
}

func TestBar(t *testing.T) {
	got := Bar(5, 10, 10, 10*time.Second)
	if want := "[#####.....] 5/10  50.0% eta 10s"; got != want {
		t.Fatalf("bar %q, want %q", got, want)
	}
}

func TestPlotDistributions(t *testing.T) {
	path := filepath.Join(t.TempDir(), "scores.png")
	err := PlotDistributions(path, "scores", "score", []Series{
		{Name: "a", Values: []float64{100, 110, 120, 120, 130}},
		{Name: "b", Values: []float64{90, 95, 140}},
	}, 10)
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 8 || string(data[1:4]) != "PNG" {
		t.Fatalf("%s is not a PNG (%d bytes)", path, len(data))
	}
	if err := PlotDistributions(path, "x", "y", nil, 10); err == nil {
		t.Fatal("plot of no values: want an error")
	}
}
