package sim

import (
	"fmt"
	"math"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
)

// Series is one named sample to plot.
type Series struct {
	Name   string
	Values []float64
}

// PlotDistributions draws the distribution of each series as a step
// histogram (share of games per bin, all series on the same bins so they
// compare directly) and saves it to path; the extension picks the format
// (png, svg, pdf...).
func PlotDistributions(path, title, xLabel string, series []Series, bins int) error {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, s := range series {
		for _, v := range s.Values {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if math.IsInf(lo, 0) {
		return fmt.Errorf("plot: no values")
	}
	if hi == lo {
		hi = lo + 1
	}
	width := (hi - lo) / float64(bins)

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "share of games"
	p.Add(plotter.NewGrid())
	for i, s := range series {
		if len(s.Values) == 0 {
			continue
		}
		counts := make([]float64, bins)
		for _, v := range s.Values {
			b := min(int((v-lo)/width), bins-1)
			counts[b]++
		}
		// Post-step line: one point per bin's left edge, plus the closing edge.
		pts := make(plotter.XYs, bins+1)
		for b := 0; b < bins; b++ {
			pts[b] = plotter.XY{X: lo + float64(b)*width, Y: counts[b] / float64(len(s.Values))}
		}
		pts[bins] = plotter.XY{X: hi, Y: pts[bins-1].Y}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return fmt.Errorf("plot %s: %w", s.Name, err)
		}
		l.StepStyle = plotter.PostStep
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.Name, l)
	}
	p.Legend.Top = true
	if err := p.Save(8*vg.Inch, 4.5*vg.Inch, path); err != nil {
		return fmt.Errorf("plot: save %s: %w", path, err)
	}
	return nil
}
