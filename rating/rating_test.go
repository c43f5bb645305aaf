package rating

import (
	"errors"
	"math"
	"slices"
	"testing"

	"pgregory.net/rapid"
)

const tolerance = 1e-9

func near(a, b, tol float64) bool {
	return math.Abs(a-b) <= tol*max(1, math.Abs(a), math.Abs(b))
}

// The published vectors (issue 12, and OpenSkill's Plackett–Luce with the
// default parameters and no τ).
func TestRateVectors(t *testing.T) {
	m := DefaultModel()
	tests := []struct {
		name   string
		places []int
		want   []Rating
	}{
		{"two players", []int{0, 1}, []Rating{
			{27.63523138347365, 8.065506316323548},
			{22.36476861652635, 8.065506316323548},
		}},
		{"two players, given loser first", []int{1, 0}, []Rating{
			{22.36476861652635, 8.065506316323548},
			{27.63523138347365, 8.065506316323548},
		}},
		{"places need not be contiguous", []int{3, 7}, []Rating{
			{27.63523138347365, 8.065506316323548},
			{22.36476861652635, 8.065506316323548},
		}},
		{"three players", []int{0, 1, 2}, []Rating{
			{27.868876552746237, 8.204837030780652},
			{25.717219138186557, 8.057829747583874},
			{21.413904309067206, 8.057829747583874},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			players := make([]Rating, len(tt.places))
			for i := range players {
				players[i] = m.New()
			}
			got, err := m.Rate(players, tt.places)
			if err != nil {
				t.Fatal(err)
			}
			for i := range got {
				if !near(got[i].Mu, tt.want[i].Mu, tolerance) || !near(got[i].Sigma, tt.want[i].Sigma, tolerance) {
					t.Errorf("player %d: got %v, want %v", i, got[i], tt.want[i])
				}
			}
		})
	}
}

func TestTieKeepsMu(t *testing.T) {
	m := DefaultModel()
	got, err := m.Rate([]Rating{m.New(), m.New()}, []int{0, 0})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if !near(r.Mu, 25, tolerance) {
			t.Errorf("player %d: μ = %v after a tie, want 25", i, r.Mu)
		}
		if r.Sigma >= m.Sigma {
			t.Errorf("player %d: σ = %v after a tie, want less than %v", i, r.Sigma, m.Sigma)
		}
	}
}

// TestTieModel pins the paper's treatment of ties: the A_q players on a place
// count as one event, "one of us is ahead of all below", each with a 1/A_q
// share of it, and no event among themselves.
func TestTieModel(t *testing.T) {
	m := DefaultModel()
	players := []Rating{m.New(), m.New(), m.New(), m.New(), m.New()}
	got, err := m.Rate(players, []int{0, 0, 0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	c := math.Sqrt(5 * (m.Sigma*m.Sigma + m.Beta*m.Beta))
	step := m.Sigma * m.Sigma / c
	want := []float64{ // μ + σ²/c · Σ_q (δ_iq − p̂_iq)/A_q
		25 + step*(1.0/3-1.0/5),
		25 + step*(1.0/3-1.0/5),
		25 + step*(1.0/3-1.0/5),
		25 + step*(1-1.0/5-1.0/2),
		25 + step*(1-1.0/5-1.0/2-1),
	}
	for i := range got {
		if !near(got[i].Mu, want[i], tolerance) {
			t.Errorf("player %d: μ = %v, want %v", i, got[i].Mu, want[i])
		}
	}
}

func TestNewAndDisplay(t *testing.T) {
	m := DefaultModel()
	if r := m.New(); r != (Rating{25, 25.0 / 3}) {
		t.Errorf("New() = %v", r)
	}
	if d := m.New().Display(); !near(d, 0, tolerance) {
		t.Errorf("a new player displays %v, want 0", d)
	}
	if d := (Rating{Mu: 30, Sigma: 2}).Display(); d != 24 {
		t.Errorf("Display() = %v, want 24", d)
	}
}

func TestTauWidensSigma(t *testing.T) {
	m := DefaultModel()
	m.Tau = 25.0 / 300
	// A player with a tiny σ gains about τ² of variance and almost nothing
	// from the game.
	got, err := m.Rate([]Rating{{25, 1e-6}, {25, 1e-6}}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range got {
		if r.Sigma <= 1e-6 || r.Sigma > m.Tau {
			t.Errorf("player %d: σ = %v, want in (1e-6, τ]", i, r.Sigma)
		}
	}
}

func TestKappaFloor(t *testing.T) {
	m := DefaultModel()
	m.Kappa = 0.99
	got, err := m.Rate([]Rating{m.New(), m.New()}, []int{0, 1})
	if err != nil {
		t.Fatal(err)
	}
	want := m.Sigma * math.Sqrt(0.99)
	for i, r := range got {
		if !near(r.Sigma, want, tolerance) {
			t.Errorf("player %d: σ = %v, want the floor %v", i, r.Sigma, want)
		}
	}
}

func TestRateErrors(t *testing.T) {
	m := DefaultModel()
	r := m.New()
	bad := func(f func(*Model)) Model { c := m; f(&c); return c }
	tests := []struct {
		name    string
		model   Model
		players []Rating
		places  []int
	}{
		{"lengths differ", m, []Rating{r, r}, []int{0}},
		{"one player", m, []Rating{r}, []int{0}},
		{"no player", m, nil, nil},
		{"NaN sigma", m, []Rating{r, {25, math.NaN()}}, []int{0, 1}},
		{"negative sigma", m, []Rating{r, {25, -1}}, []int{0, 1}},
		{"infinite sigma", m, []Rating{r, {25, math.Inf(1)}}, []int{0, 1}},
		{"NaN mu", m, []Rating{{math.NaN(), 1}, r}, []int{0, 1}},
		{"infinite mu", m, []Rating{{math.Inf(-1), 1}, r}, []int{0, 1}},
		{"sigma too large", m, []Rating{{25, 1.5e308}, {25, 1.5e308}}, []int{0, 1}},
		{"zero beta", bad(func(m *Model) { m.Beta = 0 }), []Rating{r, r}, []int{0, 1}},
		{"kappa above 1", bad(func(m *Model) { m.Kappa = 2 }), []Rating{r, r}, []int{0, 1}},
		{"NaN kappa", bad(func(m *Model) { m.Kappa = math.NaN() }), []Rating{r, r}, []int{0, 1}},
		{"negative tau", bad(func(m *Model) { m.Tau = -1 }), []Rating{r, r}, []int{0, 1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := tt.model.Rate(tt.players, tt.places)
			if !errors.Is(err, ErrInput) {
				t.Errorf("Rate = %v, %v; want an ErrInput", got, err)
			}
		})
	}
}

func TestRateLeavesInputs(t *testing.T) {
	m := DefaultModel()
	players := []Rating{m.New(), {30, 2}, {20, 5}}
	places := []int{2, 0, 1}
	p0, q0 := slices.Clone(players), slices.Clone(places)
	if _, err := m.Rate(players, places); err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(players, p0) || !slices.Equal(places, q0) {
		t.Errorf("Rate changed its inputs: %v %v", players, places)
	}
}

// game draws a valid game: 2 to 8 players with ratings in a plausible range
// and places that may tie.
func game(t *rapid.T) ([]Rating, []int) {
	n := rapid.IntRange(2, 8).Draw(t, "n")
	players := make([]Rating, n)
	places := make([]int, n)
	for i := range players {
		players[i] = Rating{
			Mu:    rapid.Float64Range(-50, 100).Draw(t, "mu"),
			Sigma: rapid.Float64Range(0, 20).Draw(t, "sigma"),
		}
		places[i] = rapid.IntRange(0, n-1).Draw(t, "place")
	}
	return players, places
}

func rate(t *rapid.T, players []Rating, places []int) []Rating {
	got, err := DefaultModel().Rate(players, places)
	if err != nil {
		t.Fatalf("Rate(%v, %v): %v", players, places, err)
	}
	return got
}

func TestPropertyFinite(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players, places := game(t)
		for i, r := range rate(t, players, places) {
			if !finite(r.Mu) || !finite(r.Sigma) || r.Sigma < 0 {
				t.Fatalf("player %d: %v", i, r)
			}
		}
	})
}

// Whatever the ratings, a player alone in first place never loses μ and a
// player alone in last place never gains it.
func TestPropertyFirstGainsLastLoses(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players, places := game(t)
		got := rate(t, players, places)
		best, worst := slices.Min(places), slices.Max(places)
		single := alone(places)
		for i, r := range got {
			if single[i] && places[i] == best && r.Mu < players[i].Mu {
				t.Fatalf("the winner %d lost μ: %v → %v", i, players[i], r)
			}
			if single[i] && places[i] == worst && r.Mu > players[i].Mu {
				t.Fatalf("the last %d gained μ: %v → %v", i, players[i], r)
			}
		}
	})
}

// alone reports which players are the only ones on their place.
func alone(places []int) []bool {
	on := map[int]int{}
	for _, p := range places {
		on[p]++
	}
	out := make([]bool, len(places))
	for i, p := range places {
		out[i] = on[p] == 1
	}
	return out
}

// Among equally rated players, tied players move alike, and a player alone on
// a place never ends below a player placed after them. (A player who shares a
// place can: in the paper's tie model a lone second gains more than three
// players tied for first out of five, see TestTieModel.)
func TestPropertyEqualRatingsFollowPlaces(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		_, places := game(t)
		r := Rating{
			Mu:    rapid.Float64Range(-50, 100).Draw(t, "mu"),
			Sigma: rapid.Float64Range(0, 20).Draw(t, "sigma"),
		}
		players := make([]Rating, len(places))
		for i := range players {
			players[i] = r
		}
		got := rate(t, players, places)
		single := alone(places)
		for i := range got {
			for j := range got {
				if single[i] && places[i] < places[j] && got[i].Mu < got[j].Mu-1e-12 {
					t.Fatalf("place %d got μ %v, below place %d's %v", places[i], got[i].Mu, places[j], got[j].Mu)
				}
				if places[i] == places[j] && !near(got[i].Mu, got[j].Mu, 1e-12) {
					t.Fatalf("tied players got μ %v and %v", got[i].Mu, got[j].Mu)
				}
			}
		}
	})
}

func TestPropertySigmaNeverGrows(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players, places := game(t)
		for i, r := range rate(t, players, places) {
			if r.Sigma > players[i].Sigma {
				t.Fatalf("player %d: σ grew %v → %v", i, players[i].Sigma, r.Sigma)
			}
		}
	})
}

// With equal σ (any μ) the μ changes cancel out: skill moves from some players
// to others.
func TestPropertyMuChangesSumToZero(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players, places := game(t)
		sigma := rapid.Float64Range(0, 20).Draw(t, "sigma")
		for i := range players {
			players[i].Sigma = sigma
		}
		sum, scale := 0.0, 1.0
		for i, r := range rate(t, players, places) {
			sum += r.Mu - players[i].Mu
			scale = max(scale, math.Abs(r.Mu))
		}
		if math.Abs(sum) > 1e-12*scale*float64(len(players)) {
			t.Fatalf("the μ changes sum to %v", sum)
		}
	})
}

// Only the places count, not the order the players are given in.
func TestPropertyOrderDoesNotMatter(t *testing.T) {
	rapid.Check(t, func(t *rapid.T) {
		players, places := game(t)
		perm := rapid.Permutation(seq(len(players))).Draw(t, "perm")
		shuffled := make([]Rating, len(players))
		shuffledPlaces := make([]int, len(players))
		for i, j := range perm {
			shuffled[i], shuffledPlaces[i] = players[j], places[j]
		}
		want := rate(t, players, places)
		got := rate(t, shuffled, shuffledPlaces)
		for i, j := range perm {
			if !near(got[i].Mu, want[j].Mu, 1e-12) || !near(got[i].Sigma, want[j].Sigma, 1e-12) {
				t.Fatalf("player %d: %v given in order, %v shuffled", j, want[j], got[i])
			}
		}
	})
}

func seq(n int) []int {
	s := make([]int, n)
	for i := range s {
		s[i] = i
	}
	return s
}

func FuzzRate(f *testing.F) {
	f.Add(25.0, 25.0/3, 25.0, 25.0/3, 25.0, 25.0/3, 0, 1, 2)
	f.Add(25.0, 25.0/3, 25.0, 25.0/3, 0.0, 0.0, 0, 0, 1)
	f.Add(1e300, 1e150, -1e300, 0.0, 3.0, 1e-300, 5, -5, 5)
	f.Fuzz(func(t *testing.T, mu0, s0, mu1, s1, mu2, s2 float64, p0, p1, p2 int) {
		players := []Rating{{mu0, s0}, {mu1, s1}, {mu2, s2}}
		places := []int{p0, p1, p2}
		for _, n := range []int{2, 3} {
			got, err := DefaultModel().Rate(players[:n], places[:n])
			if err != nil {
				if !errors.Is(err, ErrInput) {
					t.Fatalf("error not wrapping ErrInput: %v", err)
				}
				continue
			}
			for i, r := range got {
				if !finite(r.Mu) || !finite(r.Sigma) || r.Sigma < 0 {
					t.Fatalf("player %d: %v → %v", i, players[i], r)
				}
			}
		}
	})
}

func BenchmarkRate6(b *testing.B) {
	m := DefaultModel()
	players := []Rating{m.New(), {30, 4}, {18, 6}, {27, 2.5}, m.New(), {22, 7}}
	places := []int{3, 0, 5, 1, 1, 2}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := m.Rate(players, places); err != nil {
			b.Fatal(err)
		}
	}
}
