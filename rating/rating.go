// Package rating estimates players' skill from the finishing orders of their
// games: the Bayesian online ranking of Weng and Lin with the Plackett–Luce
// model (R. C. Weng and C.-J. Lin, "A Bayesian Approximation Method for Online
// Ranking", Journal of Machine Learning Research 12 (2011) 267–300, Algorithm 4),
// the method OpenSkill implements.
//
// A player's skill is a normal belief N(μ, σ²). After a game, every player's
// belief moves by an approximate Bayesian update for the observed order. The
// choices this package makes, where the paper leaves a choice open:
//
//   - One player per team. A team's strength is its player's.
//   - Ties share a place: players with equal places are tied. As in the
//     paper, the A_q players on one place count as one event, "one of us is
//     ahead of everyone below", each with a 1/A_q share of it, and no event
//     among themselves. So two equal players who tie keep their μ, and a
//     lone second place can gain more μ than players tied for first.
//   - γ_q = σ_q / c, the damping the paper proposes, with
//     c² = Σ (σ_q² + β²) over the game's players.
//   - κ floors the factor σ² is multiplied by: σ² ← σ²·max(1 − Δ, κ), so σ
//     shrinks but never reaches zero.
//   - τ is additive dynamics: before a game every σ² grows by τ², so that a
//     player's skill can drift over time. The default, τ = 0, has no drift.
//
// The leaderboard's number is the conservative estimate μ − 3σ (Display).
package rating

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
)

// Rating is the belief about one player's skill: a normal distribution with
// mean Mu and standard deviation Sigma.
type Rating struct {
	Mu, Sigma float64
}

// Display is the number a leaderboard shows and sorts by: μ − 3σ, a skill the
// player very probably has at least, so a newcomer starts at 0 and climbs as
// games make the estimate surer.
func (r Rating) Display() float64 { return r.Mu - 3*r.Sigma }

// Model holds the parameters of the rating system.
type Model struct {
	// Mu is a new player's mean skill.
	Mu float64
	// Sigma is a new player's uncertainty (standard deviation of the skill).
	Sigma float64
	// Beta is the spread of one game's performance around the skill: the
	// larger, the more luck decides a game and the less one game moves μ.
	Beta float64
	// Kappa, in [0, 1], is the smallest factor σ² is multiplied by in one
	// game, which keeps σ positive.
	Kappa float64
	// Tau is the skill's drift per game: σ² grows by τ² before each update.
	Tau float64
}

// DefaultModel is the usual parametrisation: μ = 25, σ = 25/3 (so a new
// player displays 0), β = σ/2, κ = 0.0001 and no drift (τ = 0).
func DefaultModel() Model {
	return Model{Mu: 25, Sigma: 25.0 / 3, Beta: 25.0 / 6, Kappa: 0.0001, Tau: 0}
}

// New is the rating of a player who has not played yet.
func (m Model) New() Rating { return Rating{Mu: m.Mu, Sigma: m.Sigma} }

// ErrInput is wrapped by every error Rate returns.
var ErrInput = errors.New("rating: invalid input")

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

func (m Model) check() error {
	switch {
	case !finite(m.Beta) || m.Beta <= 0:
		return fmt.Errorf("%w: beta %v is not a positive number", ErrInput, m.Beta)
	case !(m.Kappa >= 0 && m.Kappa <= 1):
		return fmt.Errorf("%w: kappa %v is not in [0, 1]", ErrInput, m.Kappa)
	case !finite(m.Tau) || m.Tau < 0:
		return fmt.Errorf("%w: tau %v is not a non-negative number", ErrInput, m.Tau)
	}
	return nil
}

// Rate returns the players' ratings after a game in which players[i] finished
// at places[i]. A lower place is better (0 is first); only the order of the
// places counts, and equal places are ties. The inputs are not modified.
//
// Rate fails (with an error wrapping ErrInput) when the slices' lengths
// differ, when there are fewer than two players, when a μ is not finite or a
// σ is negative or not finite, when the model's parameters are out of range,
// or when the numbers are so large that the result would not be finite.
func (m Model) Rate(players []Rating, places []int) ([]Rating, error) {
	n := len(players)
	if n != len(places) {
		return nil, fmt.Errorf("%w: %d players but %d places", ErrInput, n, len(places))
	}
	if n < 2 {
		return nil, fmt.Errorf("%w: a rated game needs two players, not %d", ErrInput, n)
	}
	if err := m.check(); err != nil {
		return nil, err
	}
	for i, p := range players {
		if !finite(p.Mu) || !finite(p.Sigma) || p.Sigma < 0 {
			return nil, fmt.Errorf("%w: player %d has μ=%v σ=%v", ErrInput, i, p.Mu, p.Sigma)
		}
	}

	// Prior deviations, after the drift, and c = √Σ(σ² + β²); math.Hypot
	// keeps tiny and huge σ exact where squaring would not.
	sigma := make([]float64, n)
	c := 0.0
	for i, p := range players {
		sigma[i] = math.Hypot(p.Sigma, m.Tau)
		c = math.Hypot(c, math.Hypot(sigma[i], m.Beta))
	}
	if !finite(c) {
		return nil, fmt.Errorf("%w: the ratings are too large", ErrInput)
	}

	// The players from the last place to the first: every place's set C_q
	// (the players who did not finish ahead of q) is then a prefix.
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(places[b], places[a]) })

	// strength[i] = μ_i / c; for each place, the log of the normaliser
	// Σ_{s∈C_q} exp(μ_s/c), computed with the largest term factored out so
	// that large μ neither overflow nor underflow.
	strength := make([]float64, n)
	for i, p := range players {
		strength[i] = p.Mu / c
	}
	type place struct {
		rank int     // the place's value in places
		tied float64 // A_q: how many players share it
		logZ float64 // log Σ_{s∈C_q} exp(strength_s)
	}
	var groups []place
	for start := 0; start < n; {
		end := start + 1
		for end < n && places[order[end]] == places[order[start]] {
			end++
		}
		top := math.Inf(-1)
		for _, s := range order[:end] {
			top = max(top, strength[s])
		}
		sum := 0.0
		for _, s := range order[:end] {
			sum += math.Exp(strength[s] - top)
		}
		groups = append(groups, place{
			rank: places[order[start]], tied: float64(end - start),
			logZ: top + math.Log(sum),
		})
		start = end
	}

	out := make([]Rating, n)
	for i, p := range players {
		// Sum over the players q with i ∈ C_q, i.e. q placed at or ahead of i,
		// of (δ_iq − p̂_{i,q})/A_q and p̂_{i,q}(1 − p̂_{i,q})/A_q; the A_q
		// players on one place share C_q, hence p̂, and δ_iq is 1 only
		// for q = i.
		omega, delta := 0.0, 0.0
		for _, q := range groups {
			if q.rank > places[i] {
				continue
			}
			prob := math.Exp(strength[i] - q.logZ) // p̂_{i,q}
			omega -= prob
			delta += prob * (1 - prob)
			if q.rank == places[i] {
				omega += 1 / q.tied
			}
		}
		share := sigma[i] / c // σ_i/c ≤ 1; it is also γ_i
		out[i] = Rating{
			Mu:    p.Mu + sigma[i]*share*omega,
			Sigma: sigma[i] * math.Sqrt(max(1-share*share*share*delta, m.Kappa)),
		}
		if !finite(out[i].Mu) {
			return nil, fmt.Errorf("%w: the ratings are too large", ErrInput)
		}
	}
	return out, nil
}
