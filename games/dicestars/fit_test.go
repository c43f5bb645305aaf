package dicestars

import (
	"encoding/json"
	"math"
	"math/bits"
	"os"
	"testing"
)

func saveJSON(t *testing.T, path string, v any) {
	b, _ := json.Marshal(v)
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func loadJSON(t *testing.T, path string, v any) {
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatal(err)
	}
}

// regretStats measures, over labelled decisions (draws or takes), how much
// objective a chooser loses against the best candidate.
func regretStats(data []dsGame, choose func(s *State, cands []Action) int, draws bool) (mean float64, agree float64, n int) {
	for gi := range data {
		g := &data[gi]
		for _, d := range g.Decs {
			s := g.replay(d.Ply)
			if (s.Phase == PhaseDraw) != draws {
				continue
			}
			best := 0
			for i := range d.Q {
				if d.Q[i] > d.Q[best] {
					best = i
				}
			}
			c := choose(&s, d.Cands)
			mean += d.Q[best] - d.Q[c]
			if c == best {
				agree++
			}
			n++
		}
	}
	return mean / float64(n), agree / float64(n), n
}

func TestRegretBaseline(t *testing.T) {
	tuning(t)
	for _, n := range []int{2, 1} {
		data := loadData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+".gob")
		w := defaultWeights
		pick := func(s *State, cands []Action) int {
			a := w.bestTake(s, cands)
			for i, c := range cands {
				if c == a {
					return i
				}
			}
			return -1
		}
		m, ag, k := regretStats(data, pick, false)
		t.Logf("%dp takes: default policy regret %.4f agree %.3f over %d", n, m, ag, k)
		pickDraw := func(s *State, cands []Action) int {
			a := w.draw(s)
			for i, c := range cands {
				if c == a {
					return i
				}
			}
			return -1
		}
		m, ag, k = regretStats(data, pickDraw, true)
		t.Logf("%dp draws: default policy regret %.4f agree %.3f over %d", n, m, ag, k)
	}
}

// decSet is a fitting set: per decision, each candidate's features and
// its labelled value.
type decSet struct {
	dim   int
	feats [][][]float64
	q     [][]float64
}

func buildSet(data []dsGame, draws bool) *decSet {
	return buildSetWith(data, draws, nTakeFeat, func(s *State, a Action, tl float64) []float64 {
		var f [nTakeFeat]float64
		takeFeat(s, a, tl, &f)
		return f[:]
	})
}

func buildSetWith(data []dsGame, draws bool, dim int, feat func(s *State, a Action, tl float64) []float64) *decSet {
	ds := &decSet{dim: dim}
	if draws {
		ds.dim = nDrawFeat
	}
	for gi := range data {
		g := &data[gi]
		for _, d := range g.Decs {
			s := g.replay(d.Ply)
			if (s.Phase == PhaseDraw) != draws {
				continue
			}
			tl := timeLeft(&s)
			fs := make([][]float64, len(d.Cands))
			for i, a := range d.Cands {
				if draws {
					var f [nDrawFeat]float64
					drawFeat(&s, a, &f)
					fs[i] = f[:]
				} else {
					fs[i] = feat(&s, a, tl)
				}
			}
			ds.feats = append(ds.feats, fs)
			ds.q = append(ds.q, d.Q)
		}
	}
	return ds
}

// loss is the mean expected regret of a softmax over w·φ, and its gradient.
func (ds *decSet) loss(w, grad []float64, idx []int) float64 {
	clear(grad)
	total := 0.0
	z := make([]float64, 0, 64)
	for _, k := range idx {
		fs, q := ds.feats[k], ds.q[k]
		z = z[:0]
		mx, qb := math.Inf(-1), math.Inf(-1)
		for i := range fs {
			v := 0.0
			for j, x := range fs[i] {
				v += w[j] * x
			}
			z = append(z, v)
			mx = max(mx, v)
			qb = max(qb, q[i])
		}
		sum := 0.0
		for i := range z {
			z[i] = math.Exp(z[i] - mx)
			sum += z[i]
		}
		L := 0.0
		for i := range z {
			z[i] /= sum
			L += z[i] * (qb - q[i])
		}
		total += L
		for i := range z {
			g := z[i] * ((qb - q[i]) - L)
			for j, x := range fs[i] {
				grad[j] += g * x
			}
		}
	}
	n := float64(len(idx))
	for j := range grad {
		grad[j] /= n
	}
	return total / n
}

// fit runs Adam on the expected regret from w0.
func (ds *decSet) fit(w0 []float64, iters int, lr float64, train []int) []float64 {
	w := slicesClone(w0)
	m, v, g := make([]float64, ds.dim), make([]float64, ds.dim), make([]float64, ds.dim)
	b1, b2 := 0.9, 0.999
	for it := 1; it <= iters; it++ {
		ds.loss(w, g, train)
		for j := range w {
			m[j] = b1*m[j] + (1-b1)*g[j]
			v[j] = b2*v[j] + (1-b2)*g[j]*g[j]
			mh := m[j] / (1 - math.Pow(b1, float64(it)))
			vh := v[j] / (1 - math.Pow(b2, float64(it)))
			w[j] -= lr * mh / (math.Sqrt(vh) + 1e-8)
		}
	}
	return w
}

func slicesClone(x []float64) []float64 { return append([]float64(nil), x...) }

func (ds *decSet) argRegret(w []float64, idx []int) float64 {
	total := 0.0
	for _, k := range idx {
		fs, q := ds.feats[k], ds.q[k]
		bi, bv, qb := 0, math.Inf(-1), math.Inf(-1)
		for i := range fs {
			v := 0.0
			for j, x := range fs[i] {
				v += w[j] * x
			}
			if v > bv {
				bi, bv = i, v
			}
			qb = max(qb, q[i])
		}
		total += qb - q[bi]
	}
	return total / float64(len(idx))
}

func (ds *decSet) split() (train, test []int) {
	for k := range ds.q {
		if k%5 == 0 {
			test = append(test, k)
		} else {
			train = append(train, k)
		}
	}
	return
}

// formulaLike is a starting point close to the hand-written potential.
func formulaLike() []float64 {
	w := make([]float64, nTakeFeat)
	w[0], w[3] = 1, 0.55      // none marked: S + 0.55 E tl
	w[6], w[9] = 2, 1.1       // all marked: 2S + 1.1 E tl
	w[13], w[16] = 1, 0.55    // 1 missing: 2·0.5tl (S + 0.55 E tl)
	w[20], w[23] = 0.5, 0.275 // 2 missing: 0.5 tl² (...)
	w[26] = 0.1               // 3+ missing
	w[30] = 1
	return w
}

// drawStart mimics "draw 3" with a small lean.
func drawStart() []float64 {
	w := make([]float64, nDrawFeat)
	w[2*nDrawCtx] = 1
	return w
}

// fitPolicies fits take and draw policies of n players on data, logs
// their test regret and saves them under prefix.
func fitPolicies(t *testing.T, data []dsGame, n int, prefix string, startTake, startDraw []float64) {
	for _, draws := range []bool{false, true} {
		ds := buildSet(data, draws)
		train, test := ds.split()
		w0 := startTake
		if draws {
			w0 = startDraw
		}
		w0 = slicesClone(w0)
		g := make([]float64, ds.dim)
		t.Logf("%dp draws=%v: %d decisions; start loss %.4f/%.4f argmax regret %.4f", n, draws, len(ds.q), ds.loss(w0, g, train), ds.loss(w0, g, test), ds.argRegret(w0, test))
		w := ds.fit(w0, 800, 0.02, train)
		t.Logf("%dp draws=%v: fitted loss %.4f/%.4f argmax regret %.4f", n, draws, ds.loss(w, g, train), ds.loss(w, g, test), ds.argRegret(w, test))
		kind := "take"
		if draws {
			kind = "draw"
		}
		saveJSON(t, prefix+kind+string(rune('0'+n))+".json", w)
	}
}

func TestFitPolicies(t *testing.T) {
	tuning(t)
	for _, n := range []int{2, 1} {
		data := loadData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+".gob")
		w0 := formulaLike()
		for j := range w0 {
			w0[j] *= 2
		}
		if n == 1 {
			w0[36], w0[37] = -14, 2000
		}
		fitPolicies(t, data, n, "/work/notes/master-bot-", w0, drawStart())
	}
}

// takeFeatRows is takeFeat with the row terms per row rather than shared.
func takeFeatRows(s *State, a Action, tl float64) []float64 {
	var base [nTakeFeat]float64
	takeFeat(s, a, tl, &base)
	f := make([]float64, 0, 200)
	f = append(f, base[30:]...)
	var p takePreview
	s.preview(a, &p)
	l := s.L
	sh := &p.sh
	for r := 0; r < NumRows; r++ {
		var row [30]float64
		c := mcat(int(sh.Marked[r]), l.Multipliers[r])
		S := float64(sh.Sum[r])
		E := float64((l.RowCells(r) - bits.OnesCount8(sh.Filled[r])) * l.RowValues[r])
		o := c * 6
		row[o] = S
		row[o+1] = S * tl
		row[o+2] = S * tl * tl
		row[o+3] = E * tl
		row[o+4] = E * tl * tl
		row[o+5] = E * tl * tl * tl
		f = append(f, row[:]...)
	}
	return f
}

func TestFitRows(t *testing.T) {
	tuning(t)
	for _, n := range []int{2, 1} {
		data := loadData(t, "/work/notes/master-bot-data"+string(rune('0'+n))+".gob")
		ds := buildSetWith(data, false, 10+150, takeFeatRows)
		train, test := ds.split()
		base := formulaLike()
		w0 := make([]float64, ds.dim)
		copy(w0, base[30:])
		for r := 0; r < NumRows; r++ {
			copy(w0[10+30*r:], base[:30])
		}
		for j := range w0 {
			w0[j] *= 2
		}
		if n == 1 {
			w0[6], w0[7] = -14, 2000
		}
		g := make([]float64, ds.dim)
		t.Logf("%dp rows: start %.4f", n, ds.argRegret(w0, test))
		for _, it := range []int{400, 800, 1600} {
			w := ds.fit(w0, it, 0.02, train)
			t.Logf("%dp rows: %d iters: loss %.4f/%.4f argmax regret %.4f/%.4f", n, it, ds.loss(w, g, train), ds.loss(w, g, test), ds.argRegret(w, train), ds.argRegret(w, test))
		}
	}
}

func TestFitIter(t *testing.T) {
	tuning(t)
	in, out := os.Getenv("DS_IN"), os.Getenv("DS_OUT")
	data := loadData(t, "/work/notes/master-bot-data2"+in+".gob")
	var w0 linearTakes
	loadJSON(t, "/work/notes/master-bot-w2.json", &w0)
	ds := buildSet(data, false)
	train, test := ds.split()
	g := make([]float64, ds.dim)
	t.Logf("2p takes: %d decisions; pi1 regret %.4f", len(ds.q), ds.argRegret(w0[:], test))
	w := ds.fit(w0[:], 800, 0.02, train)
	t.Logf("fitted loss %.4f/%.4f regret %.4f", ds.loss(w, g, train), ds.loss(w, g, test), ds.argRegret(w, test))
	dflt := defaultWeights
	pick := func(s *State, cands []Action) int {
		a := dflt.bestTake(s, cands)
		for i, c := range cands {
			if c == a {
				return i
			}
		}
		return -1
	}
	m, _, _ := regretStats(data, pick, false)
	t.Logf("default policy regret on this data (all): %.4f", m)
	saveJSON(t, "/work/notes/master-bot-w2"+out+".json", w)
}
