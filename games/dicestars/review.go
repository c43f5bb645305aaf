package dicestars

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/dicehall/dicehall/engine"
)

// Reviews and hints: Dice Stars is an engine.Analyst. A decision (a draw
// or a take) is judged from the deciding seat's view by evaluate: every
// candidate the master would weigh (the chosen one too) is played out to
// the end of the game many times by the master's rollout policy, on the same
// sampled futures, and valued by the seat's chance of winning (solo:
// beating the virtual opponent) and its expected final score. The notes
// say what a take writes and where, which rows then gamble on their
// multipliers, and (solo) what it leaves for the virtual opponent.
var _ engine.Analyst = Game{}

// DefaultReviewBudget is the rollouts of a judged decision when
// JudgeOptions.Budget is 0: four times the in-game expert's, spent as
// evaluate says rather than by halving (docs/performance.md).
const DefaultReviewBudget = 4 * ExpertBudget

// Message keys of what a judgement's points measure, and the points lost
// that make a blunder when the chances cannot tell (Judgement.Scale).
const (
	measureScore = "dicestars.review.measure"
	reviewScale  = 10
)

// actionValue is one candidate of a decision as evaluate values it.
type actionValue struct {
	a     Action
	win   float64             // the deciding seat's win share, 0..1
	score float64             // the deciding seat's expected final score
	share [MaxPlayers]float64 // every seat's win share (the balance)
	// gap is the standard error of the win share's shortfall to the best
	// candidate, paired on their common futures (0 for the best): a
	// shortfall within two of it is noise of the estimate.
	gap float64
}

// key ranks candidates: the win share first, the expected score breaking
// near-ties (the expert's own weighing of a point of margin).
func (v *actionValue) key() float64 { return v.win + defaultWeights.margin*v.score }

// reviewFinalists are the candidates that get the second half of a
// decision's rollouts (with the actions given to evaluate).
const reviewFinalists = 3

// evaluate values the choices of seat (to act in s) with budget rollouts
// in all: the candidates the master shortlists, and also the actions
// given (a choice played outside the shortlist). Every candidate is
// played out on the same futures (rollout j of each uses the stream
// (seed, j): common random numbers). Half the budget goes to every
// candidate, the other half to the best few and the actions given, so the
// choices that matter are the most precise. The values come best first.
//
// It is the one entry point of the analysis: a stronger search can take
// its place behind this signature.
func evaluate(s *State, seat, budget int, seed uint64, also ...Action) []actionValue {
	var m searcher
	m.init(masterWeights, &masterTakes2, &masterTakes1)
	m.legal = s.LegalActions(m.legal)
	m.shortlist(s, masterShortlist)
	type tally struct {
		v     actionValue
		final bool
		wins  []float64 // the seat's win share, rollout by rollout
	}
	ts := make([]tally, 0, len(m.cands)+len(also))
	for _, c := range m.cands {
		ts = append(ts, tally{v: actionValue{a: c.a}})
	}
	for _, a := range also {
		i := slices.IndexFunc(ts, func(t tally) bool { return t.v.a == a })
		if i < 0 {
			i = len(ts)
			ts = append(ts, tally{v: actionValue{a: a}})
		}
		ts[i].final = true
	}
	play := func(t *tally, n int) {
		for range n {
			m.pcg.Seed(seed, uint64(len(t.wins)))
			u := *s
			u.ApplyUnchecked(t.v.a)
			m.finish(&u)
			t.v.score += float64(u.Score(seat))
			w := u.Winners()
			for _, p := range w {
				t.v.share[p] += 1 / float64(len(w))
			}
			t.wins = append(t.wins, t.v.share[seat]-t.v.win)
			t.v.win = t.v.share[seat]
		}
	}
	first := max(budget/2/len(ts), 1)
	for i := range ts {
		play(&ts[i], first)
	}
	rank := func(key func(t *tally) float64) {
		slices.SortStableFunc(ts, func(x, y tally) int {
			switch kx, ky := key(&x), key(&y); {
			case kx > ky:
				return -1
			case kx < ky:
				return 1
			}
			return 0
		})
	}
	mean := func(t *tally) float64 {
		v := t.v
		return (v.win + defaultWeights.margin*v.score) / float64(len(t.wins))
	}
	// Stable: the legal order on equal values, for the same judgement.
	rank(mean)
	finalists := 0
	for i := range ts {
		if i < reviewFinalists || ts[i].final {
			ts[i].final = true
			finalists++
		}
	}
	if rest := budget - first*len(ts); rest > 0 && len(ts) > 1 {
		for i := range ts {
			if ts[i].final {
				play(&ts[i], rest/finalists)
			}
		}
	}
	rank(mean)
	out := make([]actionValue, len(ts))
	for i := range ts {
		t := &ts[i]
		n := float64(len(t.wins))
		t.v.score /= n
		for p := range t.v.share {
			t.v.share[p] /= n
		}
		t.v.win = t.v.share[seat]
		t.v.gap = pairedSE(ts[0].wins, t.wins)
		out[i] = t.v
	}
	return out
}

// pairedSE is the standard error of the mean of a−b over their common
// rollouts.
func pairedSE(a, b []float64) float64 {
	n := min(len(a), len(b))
	if n < 2 {
		return 0
	}
	var sum, sq float64
	for j := range n {
		d := a[j] - b[j]
		sum += d
		sq += d * d
	}
	m := sum / float64(n)
	return math.Sqrt(max(0, sq/float64(n)-m*m) / float64(n-1))
}

// Judge values the decision d from the seat's view (engine.Analyst).
// JudgeOptions.Budget is the rollouts of the decision (0:
// DefaultReviewBudget); JudgeOptions.Seed picks the futures.
func (Game) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	v, ok := d.View.(*View)
	if !ok || v == nil || v.State.L == nil {
		return engine.Judgement{}, fmt.Errorf("dice stars judge: got a %T view, want *dicestars.View", d.View)
	}
	s := v.State
	if d.Seat < 0 || int(d.Seat) != int(s.Current) || (s.Phase != PhaseDraw && s.Phase != PhaseTake) {
		return engine.Judgement{}, engine.ErrForced
	}
	var also []Action
	if d.Chosen != nil {
		a, ok := d.Chosen.(Action)
		if !ok {
			return engine.Judgement{}, fmt.Errorf("dice stars judge: got a %T action", d.Chosen)
		}
		if err := s.Check(a); err != nil {
			return engine.Judgement{}, fmt.Errorf("dice stars judge: the move played: %w", err)
		}
		if len(s.LegalActions(nil)) == 1 {
			return engine.Judgement{}, engine.ErrForced
		}
		also = append(also, a)
	}
	budget := o.Budget
	if budget <= 0 {
		budget = DefaultReviewBudget
	}
	seat := int(d.Seat)
	vals := evaluate(&s, seat, budget, o.Seed, also...)
	r := reviewer{s: &s}
	best, played := &vals[0], -1
	for i := range vals {
		if also != nil && vals[i].a == also[0] {
			played = i
		}
	}
	if played >= 0 && (vals[played].key() >= best.key() || (vals[played].gap > 0 && best.win-vals[played].win <= 2*vals[played].gap)) {
		// As good as any, or not worse than the noise of the estimate:
		// the move played is the best.
		best = &vals[played]
	}
	j := engine.Judgement{Measure: measureScore, Scale: reviewScale, Best: r.valued(best), Chosen: engine.Valued{Win: -1}}
	j.Notes = r.reasons(best, true)
	if played >= 0 {
		ch := &vals[played]
		j.Chosen = r.valued(ch)
		j.Balance = make([]float64, s.NPlayers)
		for p := range j.Balance {
			j.Balance[p] = round(ch.share[p], 1000)
		}
		if ch != best {
			j.Notes = append(j.Notes, msg("dicestars.review.played", map[string]any{"move": j.Chosen.Says}))
			j.Notes = append(j.Notes, r.reasons(ch, false)...)
		}
	}
	j.Data = Moves{Best: j.Best.Action, Played: j.Chosen.Action}
	for i := range vals {
		if c := &vals[i]; c != best && i != played && len(j.Others) < 3 {
			j.Others = append(j.Others, r.valued(c))
		}
	}
	return j, nil
}

// reviewer explains the choices of one decision in s.
type reviewer struct {
	s *State
}

// msg is a message of the game's catalogue.
func msg(key string, args map[string]any) engine.Message {
	return engine.Message{Key: key, Args: args}
}

// round keeps 1/unit precision: a loss of 1e-16 is no loss.
func round(x, unit float64) float64 { return math.Round(x*unit) / unit }

// valued is a candidate in the judgement's terms.
func (r *reviewer) valued(v *actionValue) engine.Valued {
	raw, err := json.Marshal(v.a)
	if err != nil {
		// Every legal action encodes.
		panic(fmt.Sprintf("dice stars review: %v does not encode: %v", v.a, err))
	}
	return engine.Valued{Action: raw, Says: []engine.Message{r.says(v.a)}, Points: round(v.score, 10), Win: round(v.win, 1000)}
}

// says puts an action into words.
func (r *reviewer) says(a Action) engine.Message {
	s := r.s
	if a.Type == ActDraw {
		if a.ReturnReserve {
			return msg("dicestars.say.draw.back", map[string]any{"n": int(a.N)})
		}
		return msg("dicestars.say.draw", map[string]any{"n": int(a.N)})
	}
	n, sum := s.takeCount(a)
	penalty := ""
	if !s.fits(&s.Sheets[s.Current], a, n) {
		penalty = ".penalty"
	}
	switch a.Type {
	case ActTakeColor:
		return msg("dicestars.say.color"+penalty, map[string]any{"n": n, "color": a.Color.String(), "sum": sum})
	case ActTakeValue:
		return msg("dicestars.say.value"+penalty, map[string]any{"n": n, "value": int(a.Value), "sum": sum})
	}
	return msg("dicestars.say.stars", map[string]any{"n": n, "rows": multWords(a.multRows())})
}

// reasons explain a candidate: its value played out (when told), what a
// take writes and where, the rows it leaves gambling on their
// multipliers, and in solo what it leaves for the virtual opponent.
func (r *reviewer) reasons(v *actionValue, value bool) []engine.Message {
	s := r.s
	var out []engine.Message
	if value {
		key := "dicestars.review.value"
		if s.Solo() {
			key = "dicestars.review.value.solo"
		}
		out = append(out, msg(key, map[string]any{"pct": int(math.Round(100 * v.win)), "score": int(math.Round(v.score))}))
	}
	if v.a.Type == ActDraw {
		if v.a.ReturnReserve {
			out = append(out, msg("dicestars.review.back", map[string]any{"n": int(s.NReserve)}))
		}
		return out
	}
	t := *s
	t.ApplyUnchecked(v.a)
	me := int(s.Current)
	before, after := &s.Sheets[me], &t.Sheets[me]
	n, sum := s.takeCount(v.a)
	l := s.L
	switch {
	case after.Penalized && !before.Penalized:
		out = append(out, msg("dicestars.review.penalty", map[string]any{"sum": sum}))
	case v.a.Type == ActTakeStars:
		out = append(out, msg("dicestars.review.stars", map[string]any{"rows": multWords(v.a.multRows())}))
	default:
		// A colour fills its column top down, a value its row: the sum
		// goes into the last cell filled.
		last := -1
		for row := range NumRows {
			if after.Filled[row] != before.Filled[row] {
				last = row
			}
		}
		if last >= 0 {
			args := map[string]any{"n": n, "sum": sum, "row": l.RowValues[last]}
			key := "dicestars.review.fill.value"
			if v.a.Type == ActTakeColor {
				key, args["color"] = "dicestars.review.fill.color", v.a.Color.String()
			}
			out = append(out, msg(key, args))
		}
	}
	// The rows the take touched, as their multipliers then stand.
	for row := range NumRows {
		if after.Filled[row] == before.Filled[row] && after.Marked[row] == before.Marked[row] {
			continue
		}
		m, full, rs := int(after.Marked[row]), l.Multipliers[row], int(after.Sum[row])
		args := map[string]any{"row": l.RowValues[row], "sum": rs, "marked": m, "full": full, "left": full - m}
		switch {
		case m == full:
			out = append(out, msg("dicestars.review.double", args))
		case m > 0:
			out = append(out, msg("dicestars.review.risk", args))
		}
	}
	if s.Solo() {
		args := map[string]any{"dice": int(t.NReserve), "marks": int(t.SoloMarked - s.SoloMarked),
			"marked": int(t.SoloMarked), "cells": l.SoloCells, "points": int(t.SoloMarked-s.SoloMarked) * l.SoloPoints}
		switch {
		case t.SoloLost:
			out = append(out, msg("dicestars.review.solo.full", args))
		case t.NReserve == 0:
			out = append(out, msg("dicestars.review.solo.clear", args))
		default:
			out = append(out, msg("dicestars.review.solo", args))
		}
	}
	return out
}
