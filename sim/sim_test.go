package sim

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
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

func TestRunReturnsWhatFinishedWhenInterrupted(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got, err := Run(ctx, 1000, 1, func(i int) (int, error) { return i, nil }, func(done int) {
		if done == 7 {
			cancel()
		}
	})
	if !errors.Is(err, context.Canceled) || !strings.Contains(err.Error(), "7 of 1000") {
		t.Fatalf("interrupted run: %v", err)
	}
	if want := []int{0, 1, 2, 3, 4, 5, 6}; !slices.Equal(got, want) {
		t.Fatalf("results of an interrupted run: %v, want %v", got, want)
	}
}

func TestProgressClearsTheLine(t *testing.T) {
	var b strings.Builder
	p := NewProgress(&b, true, 10, nil, time.Second)
	p.Update(10)
	p.Finish()
	out := b.String()
	if strings.Count(out, "\r") != 2 || strings.Count(out, clearLine) != 2 {
		t.Fatalf("each redraw must clear the rest of the line: %q", out)
	}
	for _, line := range strings.Split(out, "\r")[1:] {
		if !strings.HasSuffix(strings.TrimSuffix(line, "\n"), "eta 0s"+clearLine) {
			t.Fatalf("the clear must follow the bar: %q", line)
		}
	}
}

func TestBinning(t *testing.T) {
	for _, c := range []struct {
		lo, hi  float64
		integer bool
		bins    int
		start   float64
		width   float64
		n       int
	}{
		{-5, 30, true, 40, -5.5, 1, 36},   // few values: one bin each
		{0, 170, true, 40, -0.5, 5, 35},   // many: whole widths
		{3, 3, true, 40, 2.5, 1, 1},       // one value
		{0, 1, false, 4, 0, 0.25, 4},      // fractions: as asked
		{2.5, 2.5, false, 2, 2.5, 0.5, 2}, // one fraction
	} {
		start, width, n := binning(c.lo, c.hi, c.integer, c.bins)
		if start != c.start || width != c.width || n != c.n {
			t.Errorf("binning(%v, %v, %v, %d) = %v, %v, %d; want %v, %v, %d", c.lo, c.hi, c.integer, c.bins, start, width, n, c.start, c.width, c.n)
		}
		if c.integer && (n > c.bins || c.start+float64(n)*width < c.hi+0.5) {
			t.Errorf("binning(%v, %v): %d bins of %v do not cover the values", c.lo, c.hi, n, width)
		}
	}
	for _, tk := range (wholeTicks{}).Ticks(-5.5, 30.5) {
		if tk.Label != "" && strings.ContainsAny(tk.Label, ".") {
			t.Fatalf("a whole-number axis labelled %q", tk.Label)
		}
	}
}

// The legend (top left) covers no curve, wherever the data is highest.
func TestLegendCoversNoData(t *testing.T) {
	for _, values := range [][]float64{
		{0, 0, 0, 0, 0, 0, 1, 2, 3, 40}, // peak at the far left, under the legend
		{0, 38, 39, 40, 40, 40, 40},     // peak at the right
	} {
		series := []Series{{Name: "a bot with a long name", Values: values}, {Name: "b", Values: values[1:]}, {Name: "c", Values: values[2:]}}
		p, err := distributionPlot("t", "x", series, 40)
		if err != nil {
			t.Fatal(err)
		}
		c := draw.New(vgimg.New(plotWidth, plotHeight))
		dc := p.DataCanvas(c)
		_, trY := p.Transforms(&dc)
		top := vg.Length(0)
		for _, s := range series {
			start, width, n := binning(0, 40, true, 40)
			for b := range n {
				count := 0
				for _, v := range s.Values {
					if min(int((v-start)/width), n-1) == b {
						count++
					}
				}
				top = max(top, trY(float64(count)/float64(len(s.Values))))
			}
		}
		legend := p.Legend.Rectangle(dc)
		if bottom := dc.Max.Y - (legend.Max.Y - legend.Min.Y) - p.Legend.TextStyle.FontExtents().Descent; top >= bottom {
			t.Fatalf("the highest step is at %v, the legend comes down to %v", top, bottom)
		}
	}
}

func TestCheckPlotPath(t *testing.T) {
	dir := t.TempDir()
	for _, bad := range []string{filepath.Join(dir, "no", "such", "dir", "p.png"), filepath.Join(dir, "p.xyz"), filepath.Join(dir, "noext"), dir + "/"} {
		if err := CheckPlotPath(bad); err == nil {
			t.Errorf("CheckPlotPath(%q) accepted", bad)
		}
	}
	sub := filepath.Join(dir, "sub.png")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := CheckPlotPath(sub); err == nil || !strings.Contains(err.Error(), "directory") {
		t.Errorf("a directory: %v", err)
	}
	fresh := filepath.Join(dir, "fresh.svg")
	if err := CheckPlotPath(fresh); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(fresh); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the check left %s behind: %v", fresh, err)
	}
	old := filepath.Join(dir, "old.png")
	if err := os.WriteFile(old, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := CheckPlotPath(old); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(old); string(b) != "keep" {
		t.Fatalf("the check changed an existing file: %q", b)
	}
	if os.Getuid() != 0 {
		ro := filepath.Join(dir, "ro")
		if err := os.Mkdir(ro, 0o555); err != nil {
			t.Fatal(err)
		}
		if err := CheckPlotPath(filepath.Join(ro, "p.png")); err == nil {
			t.Error("a directory nobody may write to: accepted")
		}
	}
}
