package diceflick

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Reviews and hints (engine.Analyst). A flick is judged by the bots' own
// search (search.go) with a steady hand: the best aim it finds against the
// flick the player made, both weighed over the same draws of the table's
// noise; a scoring choice against the solver's best. Everything comes
// from the seat's view.

var _ engine.Analyst = Game{}

// reviewSamples is the default budget of a flick's judgement: imagined
// landings per candidate flick.
const reviewSamples = 32

// reviewLevel is the search a judgement runs: the strongest bot's, without
// its slip (the review values aims, not a bot's hand) and without its
// reluctance to leave pairs to the next player, so that the points are
// the turn's own.
func reviewLevel(samples int) botLevel {
	lv := botLevels["hard"]
	lv.Name, lv.SlipAngle, lv.SlipPower, lv.Samples, lv.Deny = "review", 0, 0, samples, 0
	return lv
}

// Measures of a judgement's points (message keys).
const (
	measureFlick = "diceflick.measure.flick"
	measureScore = "diceflick.measure.score"
)

// blunderPoints is what makes a blunder in a game without win chances
// (practice): about a third of what a good turn scores.
const blunderPoints = 5

// A turn's points as the win estimate sees them: the mean and spread of a
// strong player's turn (docs/performance.md: practice mean ≈ 135 over 10
// rounds, sd ≈ 13, so ≈ 13.5 a turn, sd ≈ 4.2 if turns are independent).
const (
	turnMean = 13.5
	turnSD   = 4.2
)

// Judge values the decision d from the seat's view.
func (g Game) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	v, err := viewOf(d.View)
	if err != nil {
		return engine.Judgement{}, err
	}
	p, err := botPosition(v)
	if err != nil {
		return engine.Judgement{}, fmt.Errorf("diceflick judge: %w", err)
	}
	var chosen *Action
	if d.Chosen != nil {
		a, ok := d.Chosen.(Action)
		if !ok {
			return engine.Judgement{}, fmt.Errorf("diceflick judge: a %T is not a diceflick action", d.Chosen)
		}
		chosen = &a
	}
	j := judge{v: v, p: p, chosen: chosen, outcome: d.Outcome, o: o, sim: g.Sim}
	if j.sim == nil {
		j.sim = ArenaSim(&physics.DefaultArena)
	}
	switch v.Phase {
	case PhaseScore.String():
		return j.score()
	case PhaseFlick.String():
		if len(p.hand) == 0 {
			return engine.Judgement{}, engine.ErrForced
		}
		return j.flick()
	}
	return engine.Judgement{}, engine.ErrForced
}

// viewOf reads a seat's view (View or *View, as Match.View gives).
func viewOf(view any) (*View, error) {
	switch x := view.(type) {
	case View:
		return &x, nil
	case *View:
		return x, nil
	}
	return nil, fmt.Errorf("diceflick: got a %T view", view)
}

// judge is one judgement in the making.
type judge struct {
	v       *View
	p       *position
	chosen  *Action
	outcome []engine.Event
	o       engine.JudgeOptions
	sim     Simulator
}

// score judges a scoring choice: its points against the best on offer.
func (j *judge) score() (engine.Judgement, error) {
	bd := j.p.s.Board()
	best, ch := bd.Solve()
	if best == 0 && j.chosen != nil {
		return engine.Judgement{}, engine.ErrForced // nothing scores: nothing to decide
	}
	out := engine.Judgement{Measure: measureScore, Scale: blunderPoints}
	bestA := Action{Type: ActScore, Choice: ch}
	out.Best = j.valued(bestA, float64(best), 0)
	out.Chosen = engine.Valued{Win: -1}
	if j.chosen != nil {
		c := j.chosen.Choice
		_, got, err := bd.Evaluate(&c)
		if err != nil {
			return engine.Judgement{}, fmt.Errorf("diceflick judge: the choice played: %w", err)
		}
		out.Chosen = j.valued(*j.chosen, float64(got), 0)
		out.Balance = j.balance(float64(got), 0)
		if got < best {
			out.Notes = append(out.Notes, engine.Message{Key: "diceflick.review.score.below",
				Args: map[string]any{"points": got, "best": best}})
		} else {
			out.Best = out.Chosen
		}
	}
	out.Notes = append(out.Notes, scoreReason(&bd, &ch, best))
	return out, nil
}

// scoreReason is the one sentence that says why the best choice is best.
func scoreReason(bd *Board, ch *Choice, total int) engine.Message {
	if total == 0 {
		return engine.Message{Key: "diceflick.reason.score.none"}
	}
	return engine.Message{Key: "diceflick.reason.score", Args: map[string]any{"total": total, "parts": choiceParts(bd, ch)}}
}

// choiceParts names each part of a choice with its points, as the
// narration of a score does.
func choiceParts(bd *Board, ch *Choice) []engine.Message {
	parts, _ := bd.Parts(ch)
	return partMessages(parts)
}

// flick judges a flick (or, when only the bonus flick is left, stopping):
// the best aims the search finds, the choice played weighed over the same
// draws, where it was aimed and where it came to rest.
func (j *judge) flick() (engine.Judgement, error) {
	p := j.p
	samples := j.o.Budget
	if samples <= 0 {
		samples = reviewSamples
	}
	fs := newFlickSearch(p, reviewLevel(samples), j.sim, &physics.DefaultArena)
	fs.drawNoise(engine.NewSource(j.o.Seed), samples)
	cands := fs.run(false)

	// Every option: the aims searched, stopping when allowed, the flick
	// played; each with its value and its value draw by draw.
	type option struct {
		a     Action
		c     candidate
		stop  bool
		total int // a stop's points
	}
	var opts []option
	for _, c := range cands {
		opts = append(opts, option{a: Action{Type: ActFlick, Die: c.die, Flick: c.flick}, c: c})
	}
	bd := p.s.Board()
	if p.mayStop {
		best, ch := bd.Solve()
		opts = append(opts, option{a: Action{Type: ActScore, Choice: ch}, c: fs.stopCandidate(&bd, &ch), stop: true, total: best})
	}
	played := -1
	var aim *Spot
	if j.chosen != nil {
		switch j.chosen.Type {
		case ActFlick:
			if j.chosen.Die < 0 || j.chosen.Die >= len(p.hand) {
				return engine.Judgement{}, fmt.Errorf("diceflick judge: die %d of a hand of %d", j.chosen.Die, len(p.hand))
			}
			l := j.sim.Simulate(fs.occupied, j.chosen.Flick, 0, 0)
			aim = spotOf(l.Hole, l.Out, 0, l.Path)
			opts = append(opts, option{a: *j.chosen, c: fs.weigh(j.chosen.Die, j.chosen.Flick, l.Hole)})
		case ActScore:
			ch := j.chosen.Choice
			_, got, err := bd.Evaluate(&ch)
			if err != nil {
				return engine.Judgement{}, fmt.Errorf("diceflick judge: the choice played: %w", err)
			}
			opts = append(opts, option{a: *j.chosen, c: fs.stopCandidate(&bd, &ch), stop: true, total: got})
		default:
			return engine.Judgement{}, fmt.Errorf("diceflick judge: a %s while flicking", j.chosen.Kind())
		}
		played = len(opts) - 1
	}
	if len(opts) == 0 {
		return engine.Judgement{}, errors.New("diceflick judge: no flick to weigh")
	}
	best := 0
	for i, op := range opts {
		if op.c.value > opts[best].c.value {
			best = i
		}
	}
	// A choice played that the draws cannot tell from the best is the best.
	if played >= 0 && played != best && indistinct(opts[played].c, opts[best].c) {
		best = played
	}
	val := func(op option) engine.Valued { return j.valued(op.a, op.c.value, op.c.variance()) }
	out := engine.Judgement{Measure: measureFlick, Scale: blunderPoints, Best: val(opts[best]), Chosen: engine.Valued{Win: -1}}
	if played >= 0 {
		out.Chosen = val(opts[played])
		out.Balance = j.balance(opts[played].c.value, opts[played].c.variance())
	}
	for i, op := range opts {
		if i != best && i != played && len(out.Others) < 3 {
			out.Others = append(out.Others, val(op))
		}
	}

	// Where the flick played was aimed and where it went, then the best
	// choice and why.
	fr := FlickReview{}
	bo := opts[best]
	if played >= 0 {
		if po := opts[played]; po.stop {
			if !bo.stop {
				out.Notes = append(out.Notes, engine.Message{Key: "diceflick.review.stopped", Args: map[string]any{"total": po.total}})
			}
			if offer, _ := bd.Solve(); po.total < offer {
				out.Notes = append(out.Notes, engine.Message{Key: "diceflick.review.score.below", Args: map[string]any{"points": po.total, "best": offer}})
			}
		} else {
			fr.Played = &PlayedFlick{Color: p.hand[po.c.die].String(), Flick: j.chosen.Flick, Aim: aim, Hit: float64(po.c.hits) / float64(len(fs.draws))}
			fr.Landed = landedSpot(j.outcome)
			out.Notes = append(out.Notes, aimNote(fr.Played), landedNote(fr.Landed))
		}
	}
	switch {
	case bo.stop:
		out.Notes = append(out.Notes, engine.Message{Key: "diceflick.reason.stop", Args: map[string]any{"total": bo.total}})
	case bo.c.target >= 0:
		fr.Best = j.bestAim(bo.c)
		if played == best {
			out.Notes = append(out.Notes, engine.Message{Key: "diceflick.review.best.same"})
		}
		out.Notes = append(out.Notes, j.flickReason(bo.c, fr.Best))
	}
	if fr.Best != nil || fr.Played != nil {
		out.Data = fr
	}
	return out, nil
}

// stopCandidate values scoring ch now instead of the optional bonus flick,
// draw by draw (the same value in every draw: nothing is left to chance).
func (fs *flickSearch) stopCandidate(bd *Board, ch *Choice) candidate {
	scored, total, _ := bd.Evaluate(ch)
	v := fs.worth(bd, scored, total, 0, false)
	c := candidate{die: -1, target: -1, value: v, vals: make([]float64, len(fs.draws))}
	for i := range c.vals {
		c.vals[i] = v
	}
	return c
}

// indistinct tells whether a is within two standard errors of b, paired
// draw by draw.
func indistinct(a, b candidate) bool {
	n := min(len(a.vals), len(b.vals))
	if n < 2 {
		return a.value >= b.value
	}
	var sum, sq float64
	for i := range n {
		d := b.vals[i] - a.vals[i]
		sum += d
		sq += d * d
	}
	mean := sum / float64(n)
	sd := math.Sqrt(math.Max(0, sq/float64(n)-mean*mean) * float64(n) / float64(n-1))
	return mean <= 2*sd/math.Sqrt(float64(n))
}

// FlickReview is a judged flick's Data, for the game's renderer: the flick
// played (where a steady hand would have sent it, and where it came to
// rest) and the best aim found. Points are the physics' (millimetres from
// the box's centre, x east, y north).
type FlickReview struct {
	Played *PlayedFlick `json:"played,omitempty"`
	Landed *Spot        `json:"landed,omitempty"`
	Best   *BestAim     `json:"best,omitempty"`
}

// PlayedFlick is the flick a player made.
type PlayedFlick struct {
	Color string        `json:"color"`
	Flick physics.Flick `json:"flick"`
	// Aim is where the flick comes to rest without the table's noise.
	Aim *Spot `json:"aim"`
	// Hit is the share of the imagined flicks (the table's noise) that
	// come to rest there.
	Hit float64 `json:"hit"`
}

// Spot is where a die comes to rest: a hole, the trench, or out.
type Spot struct {
	Hole  string        `json:"hole,omitempty"`
	Where string        `json:"where"` // "hole", "trench" or "out"
	Face  int           `json:"face,omitempty"`
	At    physics.Point `json:"at"`
}

// BestAim is the best flick found: the die, the hole aimed at and the
// flick that aims there with a steady hand.
type BestAim struct {
	Die   int           `json:"die"`
	Color string        `json:"color"`
	Hole  string        `json:"hole"`
	At    physics.Point `json:"at"`
	Flick physics.Flick `json:"flick"`
	Hit   float64       `json:"hit"`
}

func spotOf(hole int, out bool, face int, path []physics.Point) *Spot {
	s := &Spot{Where: landTrench}
	if n := len(path); n > 0 {
		s.At = path[n-1]
	}
	switch {
	case hole >= 0:
		s.Hole, s.Where, s.Face = HoleName(hole), "hole", face
	case out:
		s.Where = landOut
	}
	return s
}

// landedSpot reads where the flicked die came to rest off the outcome.
func landedSpot(outcome []engine.Event) *Spot {
	for _, e := range outcome {
		var le LandEvent
		switch d := e.Data.(type) {
		case LandEvent:
			le = d
		case *LandEvent:
			le = *d
		default:
			continue
		}
		hole := physics.NoHole
		if le.Hole != "" {
			if h, err := ParseHole(le.Hole); err == nil {
				hole = h
			}
		}
		return spotOf(hole, le.Where == landOut, le.Face, le.Path)
	}
	return nil
}

func (j *judge) bestAim(c candidate) *BestAim {
	return &BestAim{Die: c.die, Color: j.p.hand[c.die].String(), Hole: HoleName(c.target),
		At: physics.DefaultArena.HoleCentre(c.target), Flick: c.flick, Hit: float64(c.hits) / float64(max(1, len(c.vals)))}
}

func percent(x float64) int { return int(math.Round(100 * x)) }

// aimNote says where the flick played was aimed.
func aimNote(pf *PlayedFlick) engine.Message {
	if pf.Aim.Where != "hole" {
		return engine.Message{Key: "diceflick.review.aim." + pf.Aim.Where, Args: map[string]any{"color": pf.Color}}
	}
	return engine.Message{Key: "diceflick.review.aim", Args: map[string]any{"color": pf.Color, "hole": pf.Aim.Hole, "pct": percent(pf.Hit)}}
}

// landedNote says where it came to rest (reviews; nil outcome: a hint).
func landedNote(s *Spot) engine.Message {
	if s == nil {
		return engine.Message{Key: "diceflick.review.landed.unknown"}
	}
	if s.Where != "hole" {
		return engine.Message{Key: "diceflick.review.landed." + s.Where}
	}
	return engine.Message{Key: "diceflick.review.landed", Args: map[string]any{"hole": s.Hole}}
}

// flickReason is the one sentence that says why the best aim is best:
// what the die does in the hole aimed at, and how often it gets there.
func (j *judge) flickReason(c candidate, ba *BestAim) engine.Message {
	p := j.p
	col := p.hand[c.die]
	args := map[string]any{"color": col.String(), "hole": ba.Hole, "base": c.flick.Base, "pct": percent(ba.Hit),
		"points": math.Round(c.value*10) / 10}
	key := "diceflick.reason.build"
	h := c.target
	bd0 := p.s.Board()
	before, _ := bd0.Solve()
	s := withDie(&p.s, col, h, 4)
	bd := s.Board()
	after, ch := bd.Solve()
	scored, _, _ := bd.Evaluate(&ch)
	group := ""
	for _, g := range ch.Groups {
		if slices.Contains(g, h) {
			var gm uint32
			for _, x := range g {
				gm |= 1 << x
			}
			c, _ := bd.groupColor(gm)
			group = c.String()
		}
	}
	switch {
	case h == p.comp.Bonus && !p.bagEmpty:
		key = "diceflick.reason.bonus"
	case col == Pink && after > before:
		key = "diceflick.reason.blast"
	case h == p.comp.Centre:
		key = "diceflick.reason.centre"
	case group != "":
		key = "diceflick.reason.group"
		args["group"] = group
	case scored&(1<<h) != 0:
		key = "diceflick.reason.line"
	}
	return engine.Message{Key: key, Args: args}
}

// valued is one option in the engine's terms: the action, its words, its
// points, and the seat's win chance after it.
func (j *judge) valued(a Action, points, variance float64) engine.Valued {
	raw, _ := json.Marshal(a)
	w := -1.0
	if b := j.balance(points, variance); b != nil {
		w = b[j.v.Seat]
	}
	return engine.Valued{Action: raw, Says: []engine.Message{j.says(a)}, Points: points, Win: w}
}

// says is an action in words.
func (j *judge) says(a Action) engine.Message {
	if a.Type == ActScore {
		bd := j.p.s.Board()
		_, total, _ := bd.Evaluate(&a.Choice)
		if total == 0 {
			return engine.Message{Key: "diceflick.says.score.none"}
		}
		return engine.Message{Key: "diceflick.says.score", Args: map[string]any{"total": total, "parts": choiceParts(&bd, &a.Choice)}}
	}
	col := ""
	if a.Die >= 0 && a.Die < len(j.p.hand) {
		col = j.p.hand[a.Die].String()
	}
	args := map[string]any{"color": col, "base": a.Flick.Base, "angle": Degrees(a.Flick.Angle), "power": fmt.Sprintf("%.2f", a.Flick.Power)}
	key := "diceflick.says.flick"
	if a.Flick.Offset != 0 {
		key += ".offset"
		args["offset"] = fmt.Sprintf("%+.2f", a.Flick.Offset)
	}
	return engine.Message{Key: key, Args: args}
}

// balance estimates every seat's chance of winning when the deciding seat
// expects points more this turn (with that variance): each seat's final
// total as a normal, its turns still to play at a strong player's mean and
// spread. Nil in practice (one seat: no one to beat).
func (j *judge) balance(points, variance float64) []float64 {
	v := j.v
	n := len(v.Players)
	if n < 2 || v.Practice {
		return nil
	}
	mean := make([]float64, n)
	sd := make([]float64, n)
	for q, pl := range v.Players {
		left := float64(max(0, v.Rounds-len(pl.Scores)))
		m, va := float64(pl.Total), 0.0
		if engine.Seat(q) == v.Seat {
			left = math.Max(0, left-1)
			m += points
			va += variance
		}
		mean[q] = m + turnMean*left
		sd[q] = math.Sqrt(va + turnSD*turnSD*left)
	}
	return winChances(mean, sd)
}

// winChances is each of independent normals' chance of being the highest.
// Totals are whole points: a spread under half a point is taken as half a
// point, so equal totals share the win.
func winChances(mean, sd []float64) []float64 {
	n := len(mean)
	lo, hi := math.Inf(1), math.Inf(-1)
	for i := range mean {
		sd[i] = math.Max(sd[i], 0.5)
		lo = math.Min(lo, mean[i]-7*sd[i])
		hi = math.Max(hi, mean[i]+7*sd[i])
	}
	const steps = 800
	dx := (hi - lo) / steps
	w := make([]float64, n)
	sum := 0.0
	for k := range steps {
		x := lo + (float64(k)+0.5)*dx
		for p := range n {
			z := (x - mean[p]) / sd[p]
			f := math.Exp(-z*z/2) / (sd[p] * math.Sqrt(2*math.Pi)) * dx
			for q := range n {
				if q != p {
					f *= 0.5 * math.Erfc(-(x-mean[q])/(sd[q]*math.Sqrt2))
				}
			}
			w[p] += f
		}
	}
	for _, x := range w {
		sum += x
	}
	for p := range w {
		w[p] /= sum
	}
	return w
}
