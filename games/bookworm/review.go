package bookworm

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// Reviews and hints: Bookworm is an engine.Analyst. Each decision is
// valued as the hard bot values it (its search, valuations and lookahead,
// bot.go), by an analyst that knows every everyday and common word of the
// table's lexicon, from the deciding seat's view only:
//
//   - naming a word: every die a word of the lexicon could take (the
//     display's or another player's), the ? die and giving up, by the
//     margin over the best other seat once the round is played out by hard
//     bots (Bot.ahead), with the reasons of the points it brings at once
//     (takeWorth: the die's points, a steal's cost to the robbed player,
//     ending the round or the game) and example words for the best;
//   - choosing a category: how much of the dice its words cover;
//   - turning the Special die: the hard bot's rough worth of each face;
//   - challenging, letting pass and voting: the lexicon's opinion
//     (words.Opine), worth the points of the die the word takes.
//
// Points rank the choices (Valued.Win is −1): the verdicts are in points.
// After every take, category and turn, rollouts of the rest of the game by
// hard bots without their lookahead in every seat estimate each seat's
// chance of winning (Judgement.Balance), the review's balance graph.
var _ engine.Analyst = Game{}

// DefaultReviewRollouts is the number of rollouts that estimate the
// balance after a decision when JudgeOptions.Budget is 0.
const DefaultReviewRollouts = 32

// Measures (message keys of what Points measure) and the points lost that
// make a blunder at each kind of decision.
const (
	measureMargin   = "bookworm.review.margin"
	measureCoverage = "bookworm.review.coverage"
	measureEstimate = "bookworm.review.estimate"
	measureStake    = "bookworm.review.stake"

	takeScale     = 3 // margin of a take: a 3-point die left for nothing
	categoryScale = 2 // dice covered: two dice fewer with words
	faceScale     = 2 // the hard bot's rough points of a Special face
	judgeScale    = 2 // points of a die won or lost by a wrong call
)

// examples is how many example words a review shows for a die.
const examples = 3

// analystLevel is the analyst's: every everyday and common word of the
// lexicon (vocab 1), its words kept in the order examples are shown.
var analystLevel = &botLevel{kind: "analyst", vocab: 1, tier: words.Common, tactics: true, examples: true}

// rolloutSeed seeds the rollouts' chance and bots: a constant, split by
// the round and the rollout, so every decision of a round is judged
// against the same futures (common random numbers: the balance moves by
// the decisions, not by the luck of the sample).
const rolloutSeed = 0x626f6f6b776f726d // "bookworm"

// Judge values the choices of the decision d (engine.Analyst). The view
// must be the deciding seat's *View. JudgeOptions.Budget is the number of
// rollouts for the balance (0: DefaultReviewRollouts); the rollouts' seeds
// are fixed by the round, so JudgeOptions.Seed changes nothing.
func (g Game) Judge(d engine.Decision, o engine.JudgeOptions) (engine.Judgement, error) {
	v, ok := d.View.(*View)
	if !ok || v == nil || v.State == nil {
		return engine.Judgement{}, fmt.Errorf("bookworm judge: got a %T view, want *bookworm.View", d.View)
	}
	s := v.State
	if d.Seat < 0 || int(d.Seat) >= int(s.NPlayers) || !s.isActor(int8(d.Seat)) {
		return engine.Judgement{}, engine.ErrForced
	}
	r := &reviewer{v: v, s: s, me: int8(d.Seat), an: &Bot{lvl: analystLevel, shared: true}, outcome: d.Outcome}
	if d.Chosen != nil {
		a, ok := d.Chosen.(Action)
		if !ok {
			return engine.Judgement{}, fmt.Errorf("bookworm judge: got a %T action", d.Chosen)
		}
		r.chosen = &a
	}
	var (
		j   engine.Judgement
		err error
	)
	switch s.Phase {
	case PhaseName:
		j, err = r.take()
	case PhaseCategory:
		j = r.category()
	case PhaseTurnTo:
		j = r.face()
	case PhaseChallenge, PhaseVote:
		return r.judging()
	default:
		return engine.Judgement{}, engine.ErrForced
	}
	if err != nil || r.chosen == nil {
		return j, err
	}
	n := o.Budget
	if n <= 0 {
		n = DefaultReviewRollouts
	}
	j.Balance, err = r.balance(*r.chosen, n)
	return j, err
}

// reviewer judges one decision of seat me.
type reviewer struct {
	v       *View
	s       *State
	me      int8
	an      *Bot           // the analyst
	chosen  *Action        // nil for a hint
	outcome []engine.Event // what the chosen action did
}

// msg is a message of the game's catalogue.
func msg(key string, args map[string]any) engine.Message {
	return engine.Message{Key: key, Args: args}
}

// valued is a choice with its points (no win chance: Win −1).
func valued(a Action, points float64, says ...engine.Message) engine.Valued {
	raw, err := json.Marshal(a)
	if err != nil {
		// Every action a reviewer builds or replays encodes.
		panic(fmt.Sprintf("bookworm review: %v does not encode: %v", a, err))
	}
	return engine.Valued{Action: raw, Says: says, Points: round2(points), Win: -1}
}

// round2 keeps two decimals: the hard bot's thirds and tenths read well,
// and a loss of 1e-16 is no loss.
func round2(x float64) float64 { return math.Round(x*100) / 100 }

// name is seat p's name as the view gives it.
func (r *reviewer) name(p int8) string {
	if int(p) < len(r.v.Players) {
		return r.v.Players[p].Name
	}
	return engine.Seat(p).String()
}

// choice is one valued choice of a decision, with what explains it.
type choice struct {
	val   engine.Valued
	notes []engine.Message // why, when it is the best
	group string           // choices of the same group read alike (two dice showing D in the display)
	data  *DieChoice
}

// DieChoice is a die in a review's Data: the die, its face, where it was
// (-1 the display, else the seat robbed), its points, example words the
// lexicon knew for it, and who stole it before the round played out ended
// (-1: nobody).
type DieChoice struct {
	Die      int      `json:"die"`
	Face     string   `json:"face"`
	From     int      `json:"from"`
	Dots     int      `json:"dots"`
	Words    []string `json:"words,omitempty"`
	StolenBy int      `json:"stolenBy"`
}

// TakeData is the Data of a word decision, for the game's renderer: the
// best die and the chosen one (nil for a hint, a ? die or giving up).
type TakeData struct {
	Best   *DieChoice `json:"best,omitempty"`
	Chosen *DieChoice `json:"chosen,omitempty"`
}

// rank sorts choices best first (stable: the dice in their order) and
// fills the judgement: Best, Chosen (the chosen choice, or the best for a
// hint) and up to three Others of other groups.
func rank(j *engine.Judgement, cs []choice, chosen *choice) *choice {
	slices.SortStableFunc(cs, func(a, b choice) int {
		switch {
		case a.val.Points > b.val.Points:
			return -1
		case a.val.Points < b.val.Points:
			return 1
		}
		return 0
	})
	best := &cs[0]
	if chosen != nil && chosen.val.Points >= best.val.Points {
		// The choice made was as good as any (or better: a word the
		// analyst does not know for a die worth more): it is the best.
		best = chosen
	}
	j.Best = best.val
	if chosen != nil {
		j.Chosen = chosen.val
	}
	j.Notes = append(j.Notes, best.notes...)
	seen := map[string]bool{best.group: true}
	for _, c := range cs {
		if len(j.Others) < 3 && !seen[c.group] {
			seen[c.group] = true
			j.Others = append(j.Others, c.val)
		}
	}
	return best
}

// take judges naming a word: which die to take, if any. Each choice is
// valued as the hard bot's lookahead values it (Bot.ahead): the margin
// over the best other seat once the round is played out by hard bots that
// know every everyday and common word, and a tenth of the points it brings
// at once (takeWorth; the ? die 0, giving up its penalty).
func (r *reviewer) take() (engine.Judgement, error) {
	s, me := r.s, r.me
	j := engine.Judgement{Measure: measureMargin, Scale: takeScale}
	seed := engine.SplitSeed(rolloutSeed, uint64(s.Round))
	var cs []choice
	opts, vocab, said := r.an.options(s, me, r.v.Takeable)
	for _, o := range opts {
		ex := vocab.first(o.letter, said, examples)
		c := r.takeChoice(Name(ex[0], o.die), o.worth, seed)
		c.data.Words = ex
		c.notes = append(c.notes, msg("bookworm.review.words", map[string]any{"words": c.data.Words}))
		cs = append(cs, c)
	}
	if questionOpen(s) {
		cs = append(cs, choice{val: valued(TakeQuestion(), r.an.ahead(s, me, TakeQuestion(), 0, seed, nil), msg("bookworm.review.say-question", nil)),
			group: "?", notes: []engine.Message{msg("bookworm.review.why-question", nil)}})
	}
	penalty := float64(s.cfg.C.FailPenalty)
	giveUp := choice{val: valued(GiveUp(), r.an.ahead(s, me, GiveUp(), -penalty, seed, nil), msg("bookworm.review.say-give-up", nil)),
		group: "give-up", notes: []engine.Message{msg("bookworm.review.why-give-up", map[string]any{"n": s.cfg.C.FailPenalty})}}
	var chosen *choice
	if a := r.chosen; a != nil {
		switch a.Type {
		case ActName:
			c := r.takeChoice(*a, r.an.takeWorth(s, me, a.Die), seed)
			for _, o := range cs {
				if o.data != nil && o.data.Die == a.Die {
					// The words the lexicon knew for the die taken.
					c.data.Words = o.data.Words
					c.notes = o.notes
				}
			}
			chosen = &c
		case ActQuestion:
			chosen = &choice{val: valued(*a, r.an.ahead(s, me, *a, 0, seed, nil), msg("bookworm.review.say-question", nil)), group: "?",
				notes: []engine.Message{msg("bookworm.review.why-question", nil)}}
		case ActGiveUp:
			chosen = &giveUp
		default:
			return j, fmt.Errorf("bookworm judge: %v while a word is to be named", a)
		}
	}
	if len(cs) == 0 {
		if chosen != nil && chosen.group == giveUp.group {
			return j, engine.ErrForced // no word for any die: nothing else to do
		}
		giveUp.notes = []engine.Message{msg("bookworm.review.no-word", nil)}
	}
	cs = append(cs, giveUp)
	best := rank(&j, cs, chosen)
	if chosen != nil && chosen != best && chosen.data != nil && chosen.data.StolenBy >= 0 {
		j.Notes = append(j.Notes, msg("bookworm.review.stolen", map[string]any{"face": chosen.data.Face, "who": r.name(int8(chosen.data.StolenBy))}))
	}
	if at, ok := r.answered(); ok {
		j.Notes = append(j.Notes, msg("bookworm.review.clock", map[string]any{"seconds": max(0, (s.Deadline-at+500)/1000)}))
	}
	data := TakeData{Best: best.data}
	if chosen != nil {
		data.Chosen = chosen.data
	}
	if data.Best != nil || data.Chosen != nil {
		j.Data = data
	}
	return j, nil
}

// answered finds when the chosen word was said, from what followed it: a
// challenge window opened then, or the next turn started then.
func (r *reviewer) answered() (int64, bool) {
	set := r.s.cfg.Set
	for _, e := range r.outcome {
		switch d := e.Data.(type) {
		case WindowEvent:
			if d.Known {
				return d.Deadline - set.KnownChallengeMs, true
			}
			return d.Deadline - set.ChallengeMs, true
		case TurnEvent:
			return d.CountdownAt - set.ThinkMs, true
		}
	}
	return 0, false
}

// takeChoice is the choice of a (a word for a die) worth w at once, said
// in words, valued by the lookahead (seed: its rollout's), with the
// reasons it is worth that; its data tell who holds the die when the round
// played out ends, if not the seat.
func (r *reviewer) takeChoice(a Action, w takeWorth, seed uint64) choice {
	s, d := r.s, a.Die
	face := s.FaceName(d)
	args := map[string]any{"word": a.Word, "face": face}
	say := msg("bookworm.review.say-take", args)
	if w.From != Display {
		args["from"] = r.name(w.From)
		say = msg("bookworm.review.say-steal", args)
	}
	holder, had := -1, false
	follow := func(_ engine.Move, ev []engine.Event, _ []engine.Move) {
		for _, e := range ev {
			if t, ok := e.Data.(TakeEvent); ok && t.Die == d {
				holder = t.To
				had = had || holder == int(r.me)
			}
		}
	}
	v := r.an.ahead(s, r.me, a, w.total(), seed, follow)
	data := &DieChoice{Die: d, Face: face, From: int(w.From), Dots: s.Points(d), StolenBy: -1}
	if had && holder != int(r.me) {
		data.StolenBy = holder
	}
	c := choice{val: valued(a, v, say), group: fmt.Sprintf("%s/%d", face, w.From), data: data}
	c.notes = r.worthNotes(d, w)
	return c
}

// worthNotes explain a take's worth part by part (takeWorth).
func (r *reviewer) worthNotes(d int, w takeWorth) []engine.Message {
	s := r.s
	face := s.FaceName(d)
	var out []engine.Message
	sf, _ := s.SpecialFace()
	switch {
	case !s.IsSpecial(d):
		out = append(out, msg("bookworm.review.why-points", map[string]any{"face": face, "n": s.Points(d)}))
	case sf == SpecialAZ:
		out = append(out, msg("bookworm.review.why-az", nil))
	case sf == SpecialNot && w.Points > 0:
		out = append(out, msg("bookworm.review.why-not", map[string]any{"n": s.cfg.C.NotWithOther}))
	case sf == SpecialNot:
		out = append(out, msg("bookworm.review.why-not-alone", map[string]any{"alone": s.cfg.C.NotAlone, "n": s.cfg.C.NotWithOther}))
	}
	if w.From != Display {
		args := map[string]any{"from": r.name(w.From), "n": s.Points(d) - 1}
		switch {
		case s.Points(d)-1 <= 0:
			out = append(out, msg("bookworm.review.why-steal-card", args))
		case w.Leader:
			out = append(out, msg("bookworm.review.why-steal-leader", args))
		default:
			out = append(out, msg("bookworm.review.why-steal", args))
		}
	}
	if w.Last {
		out = append(out, msg("bookworm.review.why-last", nil))
		if w.Bonus > 0 {
			out = append(out, msg("bookworm.review.why-bonus", map[string]any{"n": w.Bonus}))
		}
		switch {
		case !w.Ends && w.End-float64(w.Bonus) < 0:
			out = append(out, msg("bookworm.review.why-end-behind", nil))
		case !w.Ends && w.End-float64(w.Bonus) > 0:
			out = append(out, msg("bookworm.review.why-end-ahead", nil))
		case !w.Ends:
		case w.Won > 0:
			out = append(out, msg("bookworm.review.why-ends-won", nil))
		case w.Won < 0:
			out = append(out, msg("bookworm.review.why-ends-lost", nil))
		default:
			out = append(out, msg("bookworm.review.why-ends-shared", nil))
		}
	}
	if w.Stack > 0 {
		out = append(out, msg("bookworm.review.why-cover", nil))
	}
	return out
}

// category judges choosing a category: how much of the dice its words
// cover (the hard bot's categoryWorth, with every everyday and common
// word).
func (r *reviewer) category() engine.Judgement {
	s, me := r.s, r.me
	j := engine.Judgement{Measure: measureCoverage, Scale: categoryScale}
	card, _ := s.CardInPlay()
	var cs []choice
	dice := 0
	for d := range s.cfg.C.LetterDice {
		if !s.Rolled || s.Owner[d] != me {
			dice++
		}
	}
	for i, c := range card.Categories {
		w := r.an.categoryWorth(s, me, c.ID)
		ch := choice{val: valued(ChooseCategory(i), w, msg("bookworm.review.say-category", map[string]any{"category": categoryWords(c)})),
			group: c.ID}
		ch.notes = []engine.Message{msg("bookworm.review.why-category", map[string]any{"cover": fmt.Sprintf("%.1f", w), "dice": dice})}
		if gaps := r.gaps(c.ID); len(gaps) > 0 {
			ch.notes = append(ch.notes, msg("bookworm.review.why-gaps", map[string]any{"letters": gaps}))
		}
		cs = append(cs, ch)
	}
	var chosen *choice
	if a := r.chosen; a != nil && a.Category >= 0 && a.Category < len(cs) {
		c := cs[a.Category]
		chosen = &c
	}
	rank(&j, cs, chosen)
	return j
}

// gaps are the letters of the dice in play (before the roll: of every
// face) that the category has fewer than three words for.
func (r *reviewer) gaps(cat string) []string {
	s := r.s
	n := r.an.letterCounts(s, cat)
	var out []string
	add := func(f LetterFace) {
		c := 0
		for i := 0; i < len(f.Letters); i++ {
			c += n[f.Letters[i]|0x20-'a']
		}
		if c < 3 && !slices.Contains(out, f.Name()) {
			out = append(out, f.Name())
		}
	}
	for d, die := range s.cfg.C.LetterDice {
		switch {
		case !s.Rolled:
			for _, f := range die.Faces {
				add(f)
			}
		case s.Owner[d] != r.me:
			add(die.Faces[s.Faces[d]])
		}
	}
	return out
}

// face judges turning the Special die: the hard bot's faceWorth.
func (r *reviewer) face() engine.Judgement {
	j := engine.Judgement{Measure: measureEstimate, Scale: faceScale}
	vals := r.an.faceWorth(r.s, r.me)
	why := [NumSpecial]string{SpecialAZ: "bookworm.review.why-face-az", SpecialNot: "bookworm.review.why-face-not",
		SpecialDots: "bookworm.review.why-face-dots", SpecialStack: "bookworm.review.why-face-stack",
		SpecialQuestion: "bookworm.review.why-face-question"}
	var cs []choice
	var chosen *choice
	for f := SpecialAZ; f < NumSpecial; f++ {
		c := choice{val: valued(TurnTo(f), vals[f], msg("bookworm.review.say-turn", map[string]any{"face": f.String()})),
			group: f.String(), notes: []engine.Message{msg(why[f], nil)}}
		if r.chosen != nil && r.chosen.Face == f {
			cc := c
			chosen = &cc
		}
		cs = append(cs, c)
	}
	rank(&j, cs, chosen)
	return j
}

// judging judges a challenge, a let-pass or a vote by the lexicon's
// opinion of the word (words.Opine, as the bots judge). A word the
// lexicon has no firm opinion on is the table's to decide: nothing to
// review. Letting pass a word the lexicon knows in its short window is
// no decision either (the lexicon settled it); disputing it is.
func (r *reviewer) judging() (engine.Judgement, error) {
	s := r.s
	cat, ok := s.CategoryInPlay()
	if !ok || s.Pending < 0 {
		return engine.Judgement{}, engine.ErrForced
	}
	w := s.Named[s.Pending]
	lex := r.an.lexicon(s)
	op := words.Opine(lex, cat.ID, w.Word, english(s))
	if op == words.Abstain {
		return engine.Judgement{}, engine.ErrForced
	}
	vote := s.Phase == PhaseVote
	if !vote && w.Known && op == words.Accept && r.chosen != nil && r.chosen.Type == ActAllow {
		return engine.Judgement{}, engine.ErrForced
	}
	stake := math.Max(1, float64(s.Points(int(w.Die))))
	args := map[string]any{"word": w.Word}
	right, wrong := valued(Allow(), 0, msg("bookworm.review.say-allow", args)), valued(Challenge(), -stake, msg("bookworm.review.say-challenge", args))
	switch {
	case vote && op == words.Accept:
		right, wrong = valued(Vote(true), 0, msg("bookworm.review.say-accept", args)), valued(Vote(false), -stake, msg("bookworm.review.say-reject", args))
	case vote:
		right, wrong = valued(Vote(false), 0, msg("bookworm.review.say-reject", args)), valued(Vote(true), -stake, msg("bookworm.review.say-accept", args))
	case op == words.Reject:
		right, wrong = valued(Challenge(), 0, msg("bookworm.review.say-challenge", args)), valued(Allow(), -stake, msg("bookworm.review.say-allow", args))
	}
	j := engine.Judgement{Measure: measureStake, Scale: judgeScale, Best: right, Others: []engine.Valued{wrong}}
	why := "bookworm.review.fits"
	if op == words.Reject {
		why = "bookworm.review.far"
		if words.Judge(lex, cat.ID, w.Word) == words.NotAWord {
			why = "bookworm.review.not-a-word"
		}
	}
	j.Notes = []engine.Message{msg(why, map[string]any{"word": w.Word, "category": categoryWords(cat)})}
	if r.chosen != nil {
		switch string(valued(*r.chosen, 0).Action) {
		case string(right.Action):
			j.Chosen = right
		case string(wrong.Action):
			j.Chosen = wrong
		default:
			return engine.Judgement{}, fmt.Errorf("bookworm judge: %v while a word is judged", *r.chosen)
		}
	}
	return j, nil
}

// balance estimates every seat's chance of winning after the seat plays a:
// n rollouts of the rest of the game, hard bots in every seat, chance
// drawn from streams fixed by the round (rolloutSeed). A win shared by k
// seats counts 1/k.
func (r *reviewer) balance(a Action, n int) ([]float64, error) {
	t := r.s.clone()
	if _, err := t.Apply(engine.Seat(r.me), t.Now, a); err != nil {
		return nil, fmt.Errorf("bookworm judge: %v: %w", a, err)
	}
	np := int(t.NPlayers)
	share := make([]float64, np)
	if t.Over() {
		n = 1
		addWin(share, t)
	}
	// The rollouts' clock starts at 0 as engine.PlayBots's does.
	t.Deadline -= t.Now
	t.CountdownAt -= t.Now
	t.Now = 0
	names := make([]string, np)
	for p := range names {
		names[p] = r.name(int8(p))
	}
	for k := 0; k < n && !t.Over(); k++ {
		seed := engine.SplitSeed(engine.SplitSeed(rolloutSeed, uint64(r.s.Round)), uint64(k))
		bots := make([]engine.Controller, np)
		for p := range bots {
			// One fixed bot seed: one vocabulary per category for every
			// seat of every rollout (shared, so a server keeps a few);
			// the choices draw from the rollout's stream.
			bots[p] = &Bot{lvl: hardBase, seed: rolloutSeed,
				rng: engine.NewSource(engine.SplitSeed(seed, uint64(p+1))), shared: true}
		}
		u := &rollout{Match: &Match{S: t.clone(), Names: names}, last: r.s.Round + rolloutRounds}
		if err := engine.PlayBots(u, bots, engine.NewSource(seed), nil); err != nil {
			return nil, fmt.Errorf("bookworm judge: rollout: %w", err)
		}
		addWin(share, u.S)
	}
	for p := range share {
		share[p] = round2(share[p] / float64(n))
	}
	return share, nil
}

// addWin adds each winner's share of the finished game s.
func addWin(share []float64, s *State) {
	w := s.Winners()
	for _, p := range w {
		share[p] += 1 / float64(len(w))
	}
}

// rollout is a Match whose views hold only what bots read (the state and
// the seat): a rollout needs no report of the table. A seat's view is made
// once: its state is the match's own, which the moves change in place.
type rollout struct {
	*Match
	views [MaxPlayers]*View
	last  int16 // the last round played: the totals then decide
}

// rolloutRounds bounds the rounds a rollout plays: a game of players who
// know no word never ends (every turn fails), and one that is this long
// has a clear leader.
const rolloutRounds = 40

// Legal lists nothing for the players: the bots read only their views.
// The table's clock keeps its timeouts.
func (m *rollout) Legal(seat engine.Seat) []engine.Action {
	if seat == engine.SystemSeat {
		return m.Match.Legal(seat)
	}
	return nil
}

// Turn ends the rollout after its last round.
func (m *rollout) Turn() engine.Turn {
	if m.S.Round > m.last {
		return engine.Turn{Over: true}
	}
	return m.Match.Turn()
}

func (m *rollout) View(seat engine.Seat) any {
	if seat < 0 || int(seat) >= len(m.views) {
		return &View{Seat: seat, State: m.S}
	}
	if m.views[seat] == nil {
		m.views[seat] = &View{Seat: seat, State: m.S}
	}
	return m.views[seat]
}
