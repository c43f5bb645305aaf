package engine

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"sync"
)

// Analyst is implemented by games that can judge a decision: a review of a
// finished game asks it about every decision a seat made, a coach asks it
// what to do now. It sees only what the deciding seat saw (Decision.View),
// never the state behind it, so a review never blames a player for what
// they could not know.
type Analyst interface {
	// Judge values the choices open at d. With d.Chosen nil (a hint) it
	// still fills Best and says why in Notes. ErrForced means there was
	// nothing to decide (one sensible choice): reviews skip the decision.
	Judge(d Decision, o JudgeOptions) (Judgement, error)
}

// ErrForced is what Judge returns for a decision with nothing to choose.
var ErrForced = errors.New("nothing to decide")

// Decision is one choice a seat faced.
type Decision struct {
	Seat  Seat
	View  any      // the seat's view when it chose
	Legal []Action // its legal actions then
	// Chosen is the action played; nil when a coach asks for a hint.
	Chosen Action
	// Outcome is what the chosen action, and the chance that followed it
	// before anyone acted again, did: where a flicked die landed. Reviews
	// only; a game may ignore it.
	Outcome []Event
}

// JudgeOptions tunes a judgement.
type JudgeOptions struct {
	// Budget is the game's measure of effort (rollouts, samples); 0 takes
	// the game's default for reviews.
	Budget int
	// Seed fixes the analysis's own random choices: the same decision,
	// budget and seed always give the same judgement.
	Seed uint64
}

// Valued is one choice with its value for the deciding seat.
type Valued struct {
	// Action is the choice in its wire form (the game's action JSON).
	Action json.RawMessage `json:"action"`
	// Says names the choice in words ("draw 3 dice and keep the reserve").
	Says []Message `json:"says,omitempty"`
	// Points is what the choice is worth in the game's points: the
	// expected final score, or the points it brings now, as the game's
	// Judgement.Measure says.
	Points float64 `json:"points"`
	// Win is the chance of winning after the choice, 0..1; negative when
	// the game cannot tell (then only points rank the choices).
	Win float64 `json:"win"`
}

// Judgement is a game's answer about one decision.
type Judgement struct {
	// Chosen is the choice made (zero for a hint), Best the best one found.
	Chosen Valued `json:"chosen"`
	Best   Valued `json:"best"`
	// Others are the next best choices, best first (a few at most).
	Others []Valued `json:"others,omitempty"`
	// Measure is the message key of what Points measure ("expected final
	// score", "points this turn").
	Measure string `json:"measure,omitempty"`
	// Scale is the points lost that count as a blunder at this decision
	// when the game cannot give win chances; 0 takes 10% of Best.Points.
	Scale float64 `json:"scale,omitempty"`
	// Balance is every seat's chance of winning after the chosen action as
	// the deciding seat could estimate it; nil when the game cannot tell.
	Balance []float64 `json:"balance,omitempty"`
	// Notes say why, in words: a coach's reasons, example words, where a
	// die was aimed and where it landed.
	Notes []Message `json:"notes,omitempty"`
	// Data is extra for the game's own renderer (an aim and a landing
	// point to draw); JSON-encodable.
	Data any `json:"data,omitempty"`
}

// Verdicts of a reviewed decision, from best to worst.
const (
	VerdictBest       = "best"
	VerdictGood       = "good"
	VerdictInaccuracy = "inaccuracy"
	VerdictMistake    = "mistake"
	VerdictBlunder    = "blunder"
)

// Win chances lost that make each verdict; a review without win chances
// uses the same fractions of Judgement.Scale in points.
const (
	inaccuracyWin = 0.05
	mistakeWin    = 0.10
	blunderWin    = 0.20
	// bestEpsilon: a loss this small (points or win chance) is noise of
	// the estimate; the choice counts as best.
	bestEpsilon = 1e-9
)

// Verdict classifies a decision by what it cost: win chances when the game
// gives them, points against the game's scale otherwise.
func Verdict(j Judgement) (verdict string, points, win float64) {
	points = math.Max(0, j.Best.Points-j.Chosen.Points)
	if j.Best.Win >= 0 && j.Chosen.Win >= 0 {
		win = math.Max(0, j.Best.Win-j.Chosen.Win)
	}
	same := string(j.Best.Action) == string(j.Chosen.Action)
	if same || (points <= bestEpsilon && win <= bestEpsilon) {
		return VerdictBest, 0, 0
	}
	frac := win / blunderWin
	if j.Best.Win < 0 || j.Chosen.Win < 0 {
		scale := j.Scale
		if scale <= 0 {
			scale = 0.1 * math.Abs(j.Best.Points)
		}
		if scale <= 0 {
			scale = 1
		}
		frac = points / scale
	}
	switch {
	case frac >= 1:
		return VerdictBlunder, points, win
	case frac >= mistakeWin/blunderWin:
		return VerdictMistake, points, win
	case frac >= inaccuracyWin/blunderWin:
		return VerdictInaccuracy, points, win
	}
	return VerdictGood, points, win
}

// ReviewOptions tunes a whole review.
type ReviewOptions struct {
	Budget int    // per decision; 0 = the game's default
	Seed   uint64 // each decision gets its own seed split from this one
	// Workers judge decisions at once (each decision is independent);
	// 0 = 1. A server reviewing in the background uses 1.
	Workers int
	// Progress, when set, is told each time a decision is judged.
	Progress func(done, total int)
}

// Reviewed is one judged decision of a review.
type Reviewed struct {
	// Move is the decision's index in the record's moves: a replay that
	// shows "after Move moves" shows the position the seat decided in.
	Move int    `json:"move"`
	Seat Seat   `json:"seat"`
	Kind string `json:"kind"`
	// Thought is the game time the seat took: since the move before.
	Thought int64 `json:"thought"`
	Judgement
	Verdict    string  `json:"verdict"`
	PointsLost float64 `json:"pointsLost"`
	WinLost    float64 `json:"winLost"`
}

// SeatReview sums up one seat's decisions.
type SeatReview struct {
	Seat      Seat   `json:"seat"`
	Name      string `json:"name"`
	Decisions int    `json:"decisions"`
	Best      int    `json:"best"`
	// Accuracy is the share of decisions judged best (1 without any).
	Accuracy   float64 `json:"accuracy"`
	PointsLost float64 `json:"pointsLost"`
	WinLost    float64 `json:"winLost"`
	// Counts of each verdict worse than good.
	Inaccuracies int `json:"inaccuracies"`
	Mistakes     int `json:"mistakes"`
	Blunders     int `json:"blunders"`
	// Worst are the indexes (into Review.Decisions) of the seat's three
	// costliest decisions, worst first; only ones that cost something.
	Worst []int `json:"worst"`
	// Thought is the seat's mean time per decision, in ms.
	Thought int64 `json:"thought"`
}

// Review is the analysis of a finished (or stopped) game.
type Review struct {
	Game      string       `json:"game"`
	Players   []string     `json:"players"`
	Moves     int          `json:"moves"` // the record's length when reviewed
	Budget    int          `json:"budget,omitempty"`
	Decisions []Reviewed   `json:"decisions"`
	Seats     []SeatReview `json:"seats"`
	// Turning is the index (into Decisions) where the game turned: the
	// decision after which the eventual winner's chance moved the most;
	// -1 when the game gives no win chances.
	Turning int `json:"turning"`
	// Balance is every seat's chance of winning over the game, one point
	// per judged decision (the same order as Decisions) that has one.
	Balance []BalancePoint `json:"balance,omitempty"`
}

// BalancePoint is the table's win chances after one decision.
type BalancePoint struct {
	Decision int       `json:"decision"` // index into Decisions
	Move     int       `json:"move"`
	Win      []float64 `json:"win"`
}

// Reviewable tells whether g can review its games.
func Reviewable(g Game) bool {
	_, ok := g.(Analyst)
	return ok
}

// Hint asks g what seat should do in st now, from the seat's view only.
func Hint(g Game, st State, seat Seat, o JudgeOptions) (Judgement, error) {
	an, ok := g.(Analyst)
	if !ok {
		return Judgement{}, fmt.Errorf("%s gives no hints", g.Info().Title)
	}
	if !st.Turn().Has(seat) || seat < 0 {
		return Judgement{}, Refuse("hint-not-your-turn", "a hint is for the seat whose turn it is")
	}
	return judge(an, Decision{Seat: seat, View: st.View(seat), Legal: st.Legal(seat)}, o)
}

// judge asks an, turning a panic into an error: an analysis is an extra,
// and a bug in one must not take down what runs beside it (a server's
// live tables).
func judge(an Analyst, d Decision, o JudgeOptions) (j Judgement, err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("analysis panicked: %v\n%s", p, debug.Stack())
		}
	}()
	return an.Judge(d, o)
}

// ReviewRecord replays rec and judges every decision a seat made, each from
// the view that seat had then. Decisions are judged independently (in
// parallel with o.Workers), each with its own seed, so the review depends
// only on the record, the budget and the seed.
func ReviewRecord(ctx context.Context, g Game, rec Record, o ReviewOptions) (*Review, error) {
	an, ok := g.(Analyst)
	if !ok {
		return nil, fmt.Errorf("%s has no review", g.Info().Title)
	}
	st, err := g.New(rec.Players, rec.Options)
	if err != nil {
		return nil, fmt.Errorf("review setup: %w", err)
	}
	type job struct {
		at  int // the decision's index in rec.Moves
		d   Decision
		out *Reviewed
	}
	var jobs []job
	var prevAt int64
	for i := 0; i < len(rec.Moves); i++ {
		lm := rec.Moves[i]
		a, err := g.DecodeAction(lm.Action)
		if err != nil {
			return nil, fmt.Errorf("review move %d: %w", i, err)
		}
		m := Move{Seat: lm.Seat, At: lm.At, Action: a}
		var d Decision
		at := i
		person := lm.Seat >= 0
		if person {
			d = Decision{Seat: lm.Seat, View: st.View(lm.Seat), Legal: st.Legal(lm.Seat), Chosen: a}
		}
		ev, err := st.Apply(m)
		if err != nil {
			return nil, fmt.Errorf("review move %d: %w", i, err)
		}
		if person {
			d.Outcome = append(d.Outcome, ev...)
			// The chance that follows belongs to this decision's outcome.
			for i+1 < len(rec.Moves) && rec.Moves[i+1].Seat == ChanceSeat {
				i++
				ca, err := g.DecodeAction(rec.Moves[i].Action)
				if err != nil {
					return nil, fmt.Errorf("review move %d: %w", i, err)
				}
				cev, err := st.Apply(Move{Seat: ChanceSeat, At: rec.Moves[i].At, Action: ca})
				if err != nil {
					return nil, fmt.Errorf("review move %d: %w", i, err)
				}
				d.Outcome = append(d.Outcome, cev...)
			}
			jobs = append(jobs, job{at: at, d: d, out: &Reviewed{
				Seat: lm.Seat, Kind: a.Kind(), Thought: max(0, lm.At-prevAt),
			}})
		}
		prevAt = rec.Moves[i].At
	}
	// Judge.
	workers := max(1, o.Workers)
	var (
		mu    sync.Mutex
		done  int
		first error
		skip  = make([]bool, len(jobs))
		next  = make(chan int)
		wg    sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := range next {
				jb := jobs[k]
				j, err := judge(an, jb.d, JudgeOptions{Budget: o.Budget, Seed: SplitSeed(o.Seed, uint64(jb.at))})
				mu.Lock()
				switch {
				case errors.Is(err, ErrForced):
					skip[k] = true
				case err != nil:
					if first == nil {
						first = fmt.Errorf("judge move %d: %w", jb.at, err)
					}
				default:
					r := jb.out
					r.Move = jb.at
					r.Judgement = j
					r.Verdict, r.PointsLost, r.WinLost = Verdict(j)
				}
				done++
				if o.Progress != nil {
					o.Progress(done, len(jobs))
				}
				mu.Unlock()
			}
		}()
	}
feed:
	for k := range jobs {
		select {
		case next <- k:
		case <-ctx.Done():
			break feed
		}
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if first != nil {
		return nil, first
	}
	rv := &Review{Game: rec.Game, Players: append([]string(nil), rec.Players...), Moves: len(rec.Moves), Budget: o.Budget, Turning: -1}
	for k, jb := range jobs {
		if !skip[k] {
			rv.Decisions = append(rv.Decisions, *jb.out)
		}
	}
	summarize(rv, st.Result())
	return rv, nil
}

// summarize fills the per-seat sums, the balance and the turning point.
func summarize(rv *Review, res Result) {
	n := len(rv.Players)
	rv.Seats = make([]SeatReview, n)
	var thought = make([]int64, n)
	for p := range rv.Seats {
		rv.Seats[p] = SeatReview{Seat: Seat(p), Name: rv.Players[p], Worst: []int{}}
	}
	for k, d := range rv.Decisions {
		if int(d.Seat) >= n {
			continue
		}
		s := &rv.Seats[d.Seat]
		s.Decisions++
		thought[d.Seat] += d.Thought
		s.PointsLost += d.PointsLost
		s.WinLost += d.WinLost
		switch d.Verdict {
		case VerdictBest:
			s.Best++
		case VerdictInaccuracy:
			s.Inaccuracies++
		case VerdictMistake:
			s.Mistakes++
		case VerdictBlunder:
			s.Blunders++
		}
		if len(d.Balance) == n {
			rv.Balance = append(rv.Balance, BalancePoint{Decision: k, Move: d.Move, Win: d.Balance})
		}
	}
	for p := range rv.Seats {
		s := &rv.Seats[p]
		s.Accuracy = 1
		if s.Decisions > 0 {
			s.Accuracy = float64(s.Best) / float64(s.Decisions)
			s.Thought = thought[p] / int64(s.Decisions)
		}
		var costly []int
		for k, d := range rv.Decisions {
			if int(d.Seat) == p && (d.PointsLost > bestEpsilon || d.WinLost > bestEpsilon) {
				costly = append(costly, k)
			}
		}
		sort.SliceStable(costly, func(a, b int) bool { return worse(rv.Decisions[costly[a]], rv.Decisions[costly[b]]) })
		if len(costly) > 3 {
			costly = costly[:3]
		}
		s.Worst = append(s.Worst, costly...)
	}
	rv.Turning = turning(rv, res)
}

// worse orders decisions by cost: win chances first, then points.
func worse(a, b Reviewed) bool {
	if a.WinLost != b.WinLost {
		return a.WinLost > b.WinLost
	}
	return a.PointsLost > b.PointsLost
}

// turning finds the decision after which the eventual winner's chance moved
// the most from the point before (the start counts as an even game).
func turning(rv *Review, res Result) int {
	if len(rv.Balance) == 0 || len(res.Winners) == 0 {
		return -1
	}
	w := int(res.Winners[0])
	n := len(rv.Players)
	prev := 1 / float64(n)
	best, at := -1.0, -1
	for _, b := range rv.Balance {
		if w >= len(b.Win) {
			continue
		}
		if d := math.Abs(b.Win[w] - prev); d > best {
			best, at = d, b.Decision
		}
		prev = b.Win[w]
	}
	return at
}
