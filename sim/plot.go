package sim

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/plotutil"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
)

// Series is one named sample to plot.
type Series struct {
	Name   string
	Values []float64
}

// The size of a saved plot.
const (
	plotWidth  = 8 * vg.Inch
	plotHeight = 4.5 * vg.Inch
)

// CheckPlotPath reports, before any work is done, whether a plot can be
// saved to path: a format gonum knows by its extension (png, svg, pdf...),
// and a file that can be written there (an existing one is not changed, a
// new one is not left behind).
func CheckPlotPath(path string) error {
	ext := strings.TrimPrefix(strings.ToLower(filepath.Ext(path)), ".")
	if ext == "" {
		return fmt.Errorf("%s: no extension to choose the format by (.png, .svg, .pdf)", path)
	}
	if _, err := plot.New().WriterTo(plotWidth, plotHeight, ext); err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return fmt.Errorf("%s is a directory", path)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if errors.Is(err, os.ErrNotExist) {
		if f, err = os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644); err == nil {
			defer os.Remove(path)
		}
	}
	if err != nil {
		return err // it names the path
	}
	return f.Close()
}

// PlotDistributions draws the distribution of each series as a step
// histogram (share of games per bin, all series on the same bins so they
// compare directly) and saves it to path; the extension picks the format
// (png, svg, pdf...).
func PlotDistributions(path, title, xLabel string, series []Series, bins int) error {
	p, err := distributionPlot(title, xLabel, series, bins)
	if err != nil {
		return err
	}
	if err := p.Save(plotWidth, plotHeight, path); err != nil {
		return fmt.Errorf("plot: save %s: %w", path, err)
	}
	return nil
}

// binning chooses at most bins bins over [lo, hi]: the first bin's left
// edge, the width and the number of bins. Whole numbers (integer says all
// values are) get bins of a whole width centred on them, edges half-way
// between, so no bin holds a fraction of the values' steps.
func binning(lo, hi float64, integer bool, bins int) (start, width float64, n int) {
	bins = max(bins, 1)
	if integer {
		values := hi - lo + 1
		width = math.Ceil(values / float64(bins))
		n = int(math.Ceil(values / width))
		return lo - 0.5, width, n
	}
	if hi == lo {
		hi = lo + 1
	}
	return lo, (hi - lo) / float64(bins), bins
}

// distributionPlot builds the plot of PlotDistributions. The legend sits
// at the top left, above the curves: the y axis leaves room for it.
func distributionPlot(title, xLabel string, series []Series, bins int) (*plot.Plot, error) {
	lo, hi := math.Inf(1), math.Inf(-1)
	integer := true
	for _, s := range series {
		for _, v := range s.Values {
			lo, hi = min(lo, v), max(hi, v)
			integer = integer && v == math.Trunc(v)
		}
	}
	if math.IsInf(lo, 0) {
		return nil, fmt.Errorf("plot: no values")
	}
	start, width, n := binning(lo, hi, integer, bins)

	p := plot.New()
	p.Title.Text = title
	p.X.Label.Text = xLabel
	p.Y.Label.Text = "share of games"
	p.Add(plotter.NewGrid())
	top := 0.0
	for i, s := range series {
		if len(s.Values) == 0 {
			continue
		}
		counts := make([]float64, n)
		for _, v := range s.Values {
			b := min(int((v-start)/width), n-1)
			counts[b]++
		}
		// Post-step line: one point per bin's left edge, plus the closing edge.
		pts := make(plotter.XYs, n+1)
		for b := range n {
			pts[b] = plotter.XY{X: start + float64(b)*width, Y: counts[b] / float64(len(s.Values))}
			top = max(top, pts[b].Y)
		}
		pts[n] = plotter.XY{X: start + float64(n)*width, Y: pts[n-1].Y}
		l, err := plotter.NewLine(pts)
		if err != nil {
			return nil, fmt.Errorf("plot %s: %w", s.Name, err)
		}
		l.StepStyle = plotter.PostStep
		l.Color = plotutil.Color(i)
		l.Width = vg.Points(1.5)
		p.Add(l)
		p.Legend.Add(s.Name, l)
	}
	if integer {
		p.X.Tick.Marker = wholeTicks{}
	}
	p.Legend.Top, p.Legend.Left = true, true
	p.Legend.XOffs = vg.Points(6)
	p.Y.Min = 0
	// Room above the highest step for the legend: the data area's height
	// less the legend's (and a margin) holds the data.
	dc := p.DataCanvas(draw.New(vgimg.New(plotWidth, plotHeight)))
	area := dc.Max.Y - dc.Min.Y
	legend := p.Legend.Rectangle(dc)
	room := legend.Max.Y - legend.Min.Y + p.Legend.TextStyle.FontExtents().Descent + vg.Points(8)
	p.Y.Max = max(top, 1e-9) * float64(area/max(area-room, area/4))
	return p, nil
}

// wholeTicks marks whole numbers only, labelled without decimals: the
// default ticks' whole values (the others become minor ticks).
type wholeTicks struct{}

func (wholeTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i, t := range ticks {
		ticks[i].Label = ""
		if t.Value == math.Trunc(t.Value) && (t.Label != "" || len(ticks) < 8) {
			ticks[i].Label = strconv.FormatFloat(t.Value, 'f', 0, 64)
		}
	}
	return ticks
}
