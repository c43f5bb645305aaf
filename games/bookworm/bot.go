package bookworm

import (
	"cmp"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// BotKinds lists the Bookworm bots, weakest first.
var BotKinds = info.BotKinds()

// botLevel is what tells the bots apart. Reaction times are milliseconds for
// a turn of the default length (think 10 s + countdown 5 s). They shrink with
// a shorter turn; only the easy bot's also stretch with a longer one, so it
// runs out as often at any table speed while the others stay quick at a
// table that gives people minutes.
type botLevel struct {
	kind string
	// vocab is the share of the lexicon's words of a category the bot knows.
	vocab float64
	// reactLo, reactHi bound the time to name a word (uniform). An easy bot's
	// upper bound lies past the default 15 s: it sometimes runs out.
	reactLo, reactHi float64
	// stretch: the reaction time grows with a turn longer than the default.
	stretch bool
	// judgeLo, judgeHi bound the time to challenge, allow or vote (ms), for
	// a window of at least the default challenge time; they shrink with a
	// shorter one.
	judgeLo, judgeHi float64
	// noise is the spread (standard deviation, in points) added to the value
	// of each option before choosing: 0 plays the best.
	noise float64
	// firstFound is the chance of playing the first word that comes to
	// mind instead of weighing the options.
	firstFound float64
	// tier is the rarest word the bot names (words.Everyday, Common):
	// people name everyday words, so a bot is strong by speed and tactics,
	// not by obscure words.
	tier int
	// tactics: whether the category and the Special face are chosen by
	// their value (else at random).
	tactics bool
	// lookahead: each take is weighed by playing the rest of the round out
	// (roundAhead) with the level's base (lookahead off) in every seat.
	lookahead bool
	// examples: each letter's words are kept in the order a review shows
	// them (exampleOrder: the most common and shortest first), not the
	// lexicon's.
	examples bool
}

var botLevels = map[string]*botLevel{
	"easy": {kind: "easy", vocab: 0.30, tier: words.Common, reactLo: 5000, reactHi: 15800, stretch: true,
		judgeLo: 1500, judgeHi: 3500, noise: 2.5, firstFound: 0.6},
	"medium": {kind: "medium", vocab: 0.50, tier: words.Common, reactLo: 3000, reactHi: 8000,
		judgeLo: 800, judgeHi: 2000, noise: 1.2, tactics: true},
	"hard": {kind: "hard", vocab: 0.90, tier: words.Common, reactLo: 1000, reactHi: 3000,
		judgeLo: 400, judgeHi: 1200, tactics: true, lookahead: true},
}

// hardBase is the hard bot without its lookahead: the players of its
// rollouts and of a review's.
var hardBase = botLevels["hard"].base()

// base is the level without lookahead.
func (l *botLevel) base() *botLevel {
	b := *l
	b.lookahead = false
	return &b
}

// defaultTurnMs and defaultJudgeMs are the clock lengths the reaction
// times are given for.
const (
	defaultTurnMs  = 15000
	defaultJudgeMs = 4000
)

// Bot plays one seat of Bookworm from the seat's View and a lexicon. It is
// an engine.Controller and an engine.Pacer. A bot plans once per decision
// point and remembers the plan, so ThinkMillis and Choose agree whichever
// the table calls first, and asking twice does not draw new chances. A Bot
// serves one seat and is not safe for concurrent use.
type Bot struct {
	lvl  *botLevel
	seed uint64
	rng  *rand.Rand
	// lex is the bot's own lexicon; nil: the table's (its language's).
	lex words.Lexicon

	// known caches the vocabulary by category.
	known map[string]*vocabulary
	// shared: the vocabularies are kept for every bot of the same level
	// and seed (sharedVocab), for the review's analysts and rollouts,
	// which are many short-lived bots with a handful of seeds.
	shared bool

	planned bool
	key     planKey
	act     *Action
	at      int64 // game time at which the planned action is played
}

// planKey identifies a decision point: a new one starts whenever the
// phase, the words named, the card, the category or the clock change.
type planKey struct {
	seat     engine.Seat
	phase    Phase
	round    int16
	named    int
	card     int16
	category int8
	current  int8
	deadline int64
	rolled   bool
}

// NewBot returns a seeded Bookworm bot of the given kind that draws its
// vocabulary from lex (nil: the table's lexicon, in the table's word
// language).
func NewBot(kind string, seed uint64, lex words.Lexicon) (*Bot, error) {
	lvl, ok := botLevels[strings.ToLower(strings.TrimSpace(kind))]
	if !ok {
		return nil, fmt.Errorf("unknown bookworm bot %q (have %s)", kind, strings.Join(BotKinds, ", "))
	}
	return &Bot{lvl: lvl, seed: seed, rng: engine.NewSource(seed), lex: lex}, nil
}

// NewBot returns a bot as an engine.Controller that is also an
// engine.Pacer (engine.BotProvider). It knows the table's words: those of
// its word language.
func (g Game) NewBot(kind string, seed uint64) (engine.Controller, error) {
	b, err := NewBot(kind, seed, nil)
	if err != nil {
		return nil, err
	}
	return b, nil
}

var (
	_ engine.BotProvider = Game{}
	_ engine.Controller  = (*Bot)(nil)
	_ engine.Pacer       = (*Bot)(nil)
)

// Name is the bot's kind.
func (b *Bot) Name() string { return b.lvl.kind }

// Choose returns the planned action for the view, or nil: nothing now
// (no word comes to mind and the clock is left to run out, no challenge,
// an abstention, or the seat is not to act).
func (b *Bot) Choose(view any, _ []engine.Action) (engine.Action, error) {
	v, err := botView(view)
	if err != nil {
		return nil, err
	}
	b.plan(v)
	if b.act == nil {
		return nil, nil
	}
	return *b.act, nil
}

// ThinkMillis is how long after the view's latest move the planned action
// is played. When the bot has nothing to play it is the time left on the
// clock plus one: it lets the deadline pass.
func (b *Bot) ThinkMillis(view any) int64 {
	v, err := botView(view)
	if err != nil {
		return 0
	}
	b.plan(v)
	return max(0, b.at-v.State.Now)
}

func botView(view any) (*View, error) {
	v, ok := view.(*View)
	if !ok || v == nil || v.State == nil {
		return nil, fmt.Errorf("bookworm bot: got a %T view, want *bookworm.View", view)
	}
	return v, nil
}

// plan decides once per decision point what to play and when.
func (b *Bot) plan(v *View) {
	s := v.State
	k := planKey{seat: v.Seat, phase: s.Phase, round: s.Round, named: len(s.Named), card: s.Card,
		category: s.Category, current: s.Current, deadline: s.Deadline, rolled: s.Rolled}
	if b.planned && b.key == k {
		return
	}
	b.planned, b.key, b.act, b.at = true, k, nil, s.Now
	if v.Seat < 0 || int(v.Seat) >= int(s.NPlayers) || !s.isActor(int8(v.Seat)) {
		return
	}
	me := int8(v.Seat)
	l := b.lvl
	switch s.Phase {
	case PhaseCategory:
		a := ChooseCategory(b.chooseCategory(s, me))
		b.act, b.at = &a, s.Now+b.uniform(2*l.judgeLo, 2*l.judgeHi)
	case PhaseTurnTo:
		a := TurnTo(b.chooseFace(s, me))
		b.act, b.at = &a, s.Now+b.uniform(2*l.judgeLo, 2*l.judgeHi)
	case PhaseName:
		scale := float64(s.Deadline-s.Now) / defaultTurnMs
		if !l.stretch {
			scale = min(scale, 1)
		}
		react := float64(b.uniform(l.reactLo, l.reactHi)) * scale
		if a, ok := b.chooseWord(s, me, v.Takeable); ok {
			b.act, b.at = &a, s.Now+int64(react)
		} else {
			b.at = s.Deadline + 1
		}
	case PhaseChallenge:
		// Challenge what the bot would vote down, let the rest pass (a
		// word it is unsure of half the time aloud, else in silence).
		var a Action
		switch b.opinion(s) {
		case words.Reject:
			a = Challenge()
		case words.Accept:
			a = Allow()
		default:
			if b.rng.IntN(2) == 0 {
				b.at = s.Deadline + 1 // silent: the window runs out, the word stands
				return
			}
			a = Allow()
		}
		b.act, b.at = &a, s.Now+b.judge(s)
	case PhaseVote:
		switch b.opinion(s) {
		case words.Accept:
			a := Vote(true)
			b.act, b.at = &a, s.Now+b.judge(s)
		case words.Reject:
			a := Vote(false)
			b.act, b.at = &a, s.Now+b.judge(s)
		default:
			b.at = s.Deadline + 1 // abstain
		}
	}
}

// opinion is how the bot judges the word under judgement: as words.Opine
// (the lexicon, the dictionary, then the word's place in WordNet).
func (b *Bot) opinion(s *State) words.Opinion {
	cat, ok := s.CategoryInPlay()
	if !ok {
		return words.Abstain
	}
	return words.Opine(b.lexicon(s), cat.ID, s.Named[s.Pending].Word, english(s))
}

// lexicon is the bot's lexicon: its own, else the table's.
func (b *Bot) lexicon(s *State) words.Lexicon {
	if b.lex != nil {
		return b.lex
	}
	if s.cfg.Lex != nil {
		return s.cfg.Lex
	}
	return words.Default()
}

// english reports whether the table plays in English, the language whose
// words WordNet places and whose tiers say how common a word is: in
// another language a bot judges only "is it a word" and names any word of
// its vocabulary.
func english(s *State) bool { return s.cfg.Set.Language == "" || s.cfg.Set.Language == "en" }

// judge draws the time to challenge, allow or vote.
func (b *Bot) judge(s *State) int64 {
	scale := min(1, float64(s.Deadline-s.Now)/defaultJudgeMs)
	return int64(float64(b.uniform(b.lvl.judgeLo, b.lvl.judgeHi)) * scale)
}

// uniform draws a time in [lo, hi) ms.
func (b *Bot) uniform(lo, hi float64) int64 {
	return int64(lo + (hi-lo)*b.rng.Float64())
}

// inVocab reports whether the bot's vocabulary holds word of category cat:
// a seeded hash decides, so the vocabulary is a fixed random subset of the
// lexicon for the bot's whole life, without storing it.
func (b *Bot) inVocab(cat, word string) bool {
	// FNV-1a of cat, a zero byte and word, written out: no allocation.
	h := uint64(14695981039346656037)
	for i := 0; i < len(cat); i++ {
		h = (h ^ uint64(cat[i])) * 1099511628211
	}
	h *= 1099511628211
	for i := 0; i < len(word); i++ {
		h = (h ^ uint64(word[i])) * 1099511628211
	}
	x := engine.SplitSeed(b.seed, h)
	return float64(x>>11)/(1<<53) < b.lvl.vocab
}

// vocabulary is a bot's words of a category, by first letter, in the
// rules' form (WordKey; words the rules would refuse left out), and the
// set of them (to count the words said this round without a scan).
type vocabulary struct {
	words [26][]string
	has   map[string]bool
}

// unsaid counts, per letter, the words not said yet this round (said:
// namedKeys).
func (v *vocabulary) unsaid(said map[string]bool) (n [26]int) {
	for l, ws := range v.words {
		n[l] = len(ws)
	}
	for w := range said {
		if v.has[w] {
			n[w[0]-'a']--
		}
	}
	return n
}

// nth is the i-th word starting with letter not said yet (i below the
// letter's unsaid count).
func (v *vocabulary) nth(letter byte, said map[string]bool, i int) string {
	for _, w := range v.words[letter-'a'] {
		if said[w] {
			continue
		}
		if i == 0 {
			return w
		}
		i--
	}
	return ""
}

// first lists the first k words starting with letter not said yet.
func (v *vocabulary) first(letter byte, said map[string]bool, k int) []string {
	var out []string
	for _, w := range v.words[letter-'a'] {
		if len(out) == k {
			break
		}
		if !said[w] {
			out = append(out, w)
		}
	}
	return out
}

// vocabulary is the bot's words of cat, built once per category.
func (b *Bot) vocabulary(s *State, cat string) *vocabulary {
	if v, ok := b.known[cat]; ok {
		return v
	}
	list := b.lexicon(s).Words(cat)
	tiers := english(s)
	var key vocabKey
	if b.shared {
		key = vocabKey{lvl: b.lvl, seed: b.seed, tiers: tiers, n: len(list)}
		if len(list) > 0 {
			key.list = &list[0]
		}
		if v, ok := sharedVocab.Load(key); ok {
			return b.keep(cat, v.(*vocabulary))
		}
	}
	v := &vocabulary{has: map[string]bool{}}
	for _, w := range list {
		if !b.inVocab(cat, w) || tiers && words.Tier(cat, w) > b.lvl.tier {
			continue
		}
		if key, ok := fastKey(w); ok && !v.has[key] {
			v.has[key] = true
			v.words[key[0]-'a'] = append(v.words[key[0]-'a'], key)
		}
	}
	if b.lvl.examples {
		for l := range v.words {
			exampleOrder(cat, v.words[l], tiers)
		}
	}
	if b.shared && sharedCount.Add(1) <= maxShared {
		sharedVocab.Store(key, v)
	}
	return b.keep(cat, v)
}

// keep caches v as the bot's vocabulary of cat.
func (b *Bot) keep(cat string, v *vocabulary) *vocabulary {
	if b.known == nil {
		b.known = map[string]*vocabulary{}
	}
	b.known[cat] = v
	return v
}

// vocabKey identifies a shared vocabulary: the bot's level and seed (its
// share of the words), and the lexicon's list for the category (by its
// first element's address: the lexicon's lists are never copied), with or
// without tiers.
type vocabKey struct {
	lvl   *botLevel
	seed  uint64
	list  *string
	n     int
	tiers bool
}

// sharedVocab holds the vocabularies of shared bots (vocabKey → *vocabulary).
// Their seeds are a handful of constants, so it stays small: a few levels ×
// the deck's categories × the languages. maxShared bounds it all the same
// (a lexicon that made a new list at every call would fill it).
var (
	sharedVocab sync.Map
	sharedCount atomic.Int64
)

const maxShared = 1 << 13

// exampleOrder sorts words of cat as a review shows them: everyday words
// before common ones (with tiers), then the shortest, then alphabetically.
func exampleOrder(cat string, ws []string, tiers bool) {
	tier := make(map[string]int, len(ws))
	for _, w := range ws {
		tier[w] = 0
		if tiers {
			tier[w] = words.Tier(cat, w)
		}
	}
	slices.SortFunc(ws, func(a, b string) int {
		return cmp.Or(cmp.Compare(tier[a], tier[b]), cmp.Compare(len(a), len(b)), strings.Compare(a, b))
	})
}

// fastKey is WordKey, skipping the normalization of words already in the
// rules' form (the lexicon's are): it is most of the cost of a vocabulary.
func fastKey(w string) (string, bool) {
	if len(w) == 0 || len(w) > MaxWordRunes || w[0] == ' ' || w[len(w)-1] == ' ' {
		return WordKey(w)
	}
	for i := 0; i < len(w); i++ {
		if c := w[i]; (c < 'a' || c > 'z') && (c != ' ' || w[i-1] == ' ') {
			return WordKey(w)
		}
	}
	return w, true
}

// namedKeys is the set of words said this round.
func namedKeys(s *State) map[string]bool {
	set := make(map[string]bool, len(s.Named))
	for _, w := range s.Named {
		set[w.Key] = true
	}
	return set
}

// letterCounts counts, per letter, the words of cat the bot could say now.
func (b *Bot) letterCounts(s *State, cat string) [26]int {
	return b.vocabulary(s, cat).unsaid(namedKeys(s))
}

// coverage scores how well a vocabulary (letter counts) serves dice: for
// each die, the share of its faces (the face it shows once rolled) with a
// word, a face counting fully from three words up.
func coverage(s *State, me int8, n *[26]int) float64 {
	wordsFor := func(letters string) float64 {
		c := 0
		for i := 0; i < len(letters); i++ {
			c += n[letters[i]|0x20-'a']
		}
		return min(float64(c), 3) / 3
	}
	total := 0.0
	for d, die := range s.cfg.C.LetterDice {
		if s.Rolled {
			if s.Owner[d] != me {
				total += wordsFor(die.Faces[s.Faces[d]].Letters)
			}
			continue
		}
		for _, f := range die.Faces {
			total += wordsFor(f.Letters) / NumFaces
		}
	}
	return total
}

// chooseCategory picks the category whose words (as far as the bot knows
// them) cover the most dice letters (categoryWorth). Easy picks at random.
func (b *Bot) chooseCategory(s *State, me int8) int {
	card, ok := s.CardInPlay()
	if !ok || !b.lvl.tactics {
		return b.rng.IntN(3)
	}
	best, bestV := 0, math.Inf(-1)
	for i, c := range card.Categories {
		v := b.categoryWorth(s, me, c.ID) + b.lvl.noise*0.3*b.rng.NormFloat64()
		if v > bestV {
			best, bestV = i, v
		}
	}
	return best
}

// categoryWorth is how well the bot's words of cat cover the dice
// (coverage): the dice in play when the ? die was taken, else every face
// of the white dice.
func (b *Bot) categoryWorth(s *State, me int8, cat string) float64 {
	n := b.letterCounts(s, cat)
	return coverage(s, me, &n)
}

// chooseFace turns the Special die to the face faceWorth values most. Easy
// turns at random.
func (b *Bot) chooseFace(s *State, me int8) Special {
	if !b.lvl.tactics {
		return SpecialAZ + Special(b.rng.IntN(int(NumSpecial-SpecialAZ)))
	}
	vals := b.faceWorth(s, me)
	best, bestV := SpecialAZ, math.Inf(-1)
	for f := SpecialAZ; f < NumSpecial; f++ {
		v := vals[f] + b.lvl.noise*0.3*b.rng.NormFloat64()
		if v > bestV {
			best, bestV = f, v
		}
	}
	return best
}

// faceWorth values each face the Special die may be turned to. Heuristic
// (values in points, rough):
//   - NOT is worth its +2 to whoever takes it with an N, O or T word: 1.5 if
//     the bot knows such a word (it may get there first), else 0.3;
//   - •• gives +2 to whoever ends the round: 1, a coin toss;
//   - Stack protects piles: 1.2 to the game's leader, 0.6 otherwise;
//   - ? is an escape from a category the bot knows badly: 2.5 × the share
//     of white dice it has no word for;
//   - A–Z is a safe take with any word: 0.2 + 1.5 × that share.
func (b *Bot) faceWorth(s *State, me int8) [NumSpecial]float64 {
	cat, _ := s.CategoryInPlay()
	n := b.letterCounts(s, cat.ID)
	white := float64(len(s.cfg.C.LetterDice))
	thin := 1 - coverage(s, me, &n)/white
	not := 0.3
	if n['n'-'a']+n['o'-'a']+n['t'-'a'] > 0 {
		not = 1.5
	}
	stack := 0.6
	if leader(s, me) == me {
		stack = 1.2
	}
	return [NumSpecial]float64{SpecialAZ: 0.2 + 1.5*thin, SpecialNot: not, SpecialDots: 1,
		SpecialStack: stack, SpecialQuestion: 2.5 * thin}
}

// roundPoints is what p's dice and Bookworm cards are worth now.
func roundPoints(s *State, p int8) int {
	n := int(s.Cards[p])
	for _, d := range s.DiceOf(p) {
		n += s.Points(d)
	}
	return n
}

// leader is the seat with the most points (totals plus this round's so
// far), the lowest seat on a tie.
func leader(s *State, me int8) int8 {
	best, bestV := me, math.MinInt
	for p := int8(0); p < s.NPlayers; p++ {
		if v := s.Totals[p] + roundPoints(s, p); v > bestV {
			best, bestV = p, v
		}
	}
	return best
}

// option is a die the bot can take with a word it knows.
type option struct {
	die    int
	letter byte // the letter it knows most words for
	n      int  // how many, not said yet
	worth  takeWorth
	value  float64 // worth.total()
}

// options is the bot's search: for every takeable die, the letter it
// knows most words for (of the die's letters, not said yet) and what
// taking the die is worth (takeWorth). Dice it knows no word for are left
// out. It returns the vocabulary and the words said, to find the words.
func (b *Bot) options(s *State, me int8, takeable []TakeOption) ([]option, *vocabulary, map[string]bool) {
	cat, ok := s.CategoryInPlay()
	if !ok {
		return nil, nil, nil
	}
	if takeable == nil {
		takeable = s.Takeable(me)
	}
	said := namedKeys(s)
	v := b.vocabulary(s, cat.ID)
	n := v.unsaid(said)
	opts := make([]option, 0, len(takeable))
	for _, t := range takeable {
		// Use the letter it knows most words for: scarce letters stay
		// for later turns.
		var bestL byte
		bestN := 0
		for i := 0; i < len(t.Letters); i++ {
			if l := t.Letters[i]; n[l-'a'] > bestN {
				bestL, bestN = l, n[l-'a']
			}
		}
		if bestN == 0 {
			continue
		}
		w := b.takeWorth(s, me, t.Die)
		opts = append(opts, option{die: t.Die, letter: bestL, n: bestN, worth: w, value: w.total()})
	}
	return opts, v, said
}

// chooseWord finds the words the bot knows for the takeable dice, values
// each take (takeWorth) and picks one by its level. Without a word it
// takes the ? die when it can; else it has nothing (ok false).
func (b *Bot) chooseWord(s *State, me int8, takeable []TakeOption) (Action, bool) {
	opts, v, said := b.options(s, me, takeable)
	if len(opts) == 0 {
		if questionOpen(s) {
			return TakeQuestion(), true
		}
		return Action{}, false
	}
	// The word for each die comes to mind at random (drawn for every die,
	// found for the one said).
	word := make([]int, len(opts))
	for i := range opts {
		word[i] = b.rng.IntN(opts[i].n)
	}
	// The order words come to mind in.
	b.rng.Shuffle(len(opts), func(i, j int) {
		opts[i], opts[j] = opts[j], opts[i]
		word[i], word[j] = word[j], word[i]
	})
	if b.lvl.lookahead && len(opts) > 1 {
		seed := b.rng.Uint64()
		for i, o := range opts {
			opts[i].value = b.ahead(s, me, Name(v.nth(o.letter, said, word[i]), o.die), o.value, seed, nil)
		}
	}
	pick := 0
	if b.rng.Float64() >= b.lvl.firstFound {
		bestV := math.Inf(-1)
		for i, o := range opts {
			if v := o.value + b.lvl.noise*b.rng.NormFloat64(); v > bestV {
				pick, bestV = i, v
			}
		}
	}
	o := opts[pick]
	return Name(v.nth(o.letter, said, word[pick]), o.die), true
}

// ahead is the lookahead's value of seat me playing a, worth now points
// (takeWorth): the margin the round ends with (roundAhead), the worth a
// tenth on top (it breaks the ties of rounds that play out alike).
// observe (may be nil) sees every move of the round played out.
func (b *Bot) ahead(s *State, me int8, a Action, now float64, seed uint64, observe engine.Played) float64 {
	return b.roundAhead(s, me, a, seed, observe) + now/10
}

// roundAhead plays the rest of the round out after seat me plays a, with
// the bot's level without lookahead in every seat, every seat knowing the
// bot's words, and returns me's margin over the best other seat once the
// round is scored (20 more when the game ends then and me wins it, 20
// less when it loses, 5 more when first place is shared). The round holds
// no chance but a ? die's card, so one rollout tells the most. observe
// (may be nil) sees a and every move after it.
func (b *Bot) roundAhead(s *State, me int8, a Action, seed uint64, observe engine.Played) float64 {
	t := s.clone()
	ev, err := t.Apply(engine.Seat(me), t.Now, a)
	if err != nil {
		return math.Inf(-1)
	}
	if observe != nil {
		observe(engine.Move{Seat: engine.Seat(me), At: t.Now, Action: a}, ev, nil)
	}
	// The rollout's clock starts at 0 as engine.PlayBots's does.
	t.Deadline -= t.Now
	t.CountdownAt -= t.Now
	t.Now = 0
	if t.Round == s.Round && !t.Over() {
		base := b.lvl.base()
		bots := make([]engine.Controller, t.NPlayers)
		for p := range bots {
			bots[p] = &Bot{lvl: base, seed: b.seed, lex: b.lex, known: b.known,
				rng: engine.NewSource(engine.SplitSeed(seed, uint64(p)))}
		}
		u := &rollout{Match: &Match{S: t, Names: make([]string, t.NPlayers)}, last: s.Round}
		if err := engine.PlayBots(u, bots, engine.NewSource(seed), observe); err != nil {
			return math.Inf(-1)
		}
	}
	best := math.MinInt
	for p := int8(0); p < t.NPlayers; p++ {
		if p != me {
			best = max(best, t.Totals[p])
		}
	}
	v := float64(t.Totals[me] - best)
	if t.Over() {
		switch w := t.Winners(); {
		case !slices.Contains(w, int(me)):
			v -= 20
		case len(w) == 1:
			v += 20
		default:
			v += 5
		}
	}
	return v
}

// questionOpen reports whether the ? die lies in the display, to be taken
// instead of a word.
func questionOpen(s *State) bool {
	f, ok := s.SpecialFace()
	return ok && f == SpecialQuestion && s.Owner[s.special()] == Display
}

// takeWorth is what taking a die is worth to the bot, in points, part by
// part (total adds them up):
//   - Points: the die's points (NOT: +2 when the bot holds another die,
//     else 0 as it may still get one; A–Z: 0.2, a safe take that scores
//     nothing);
//   - Steal: a steal also costs the robbed player the die but gives them a
//     Bookworm card: their loss counts fully when they lead, half otherwise;
//   - End: taking the last white die ends the round: •• comes with it
//     (Bonus); if the game then ends, winning it is worth 20 and losing it
//     −20 (Ends); else the bot's lead in this round's points counts a third
//     (ending a round it is losing is bad);
//   - Stack: under Stack the new die covers the old top (safe from steals
//     now) and is itself exposed.
type takeWorth struct {
	Points, Steal, End, Stack float64
	// From is Display or the seat robbed; Leader: that seat leads.
	From   int8
	Leader bool
	// Last: the die is the display's last white one; Bonus the •• points
	// that come with it; Ends: the game ends then, Won (+1), shared (0) or
	// lost (−1).
	Last  bool
	Bonus int
	Ends  bool
	Won   int8
	// cover and expose make up Stack, kept apart so total adds in the
	// order the bot always has (its choices do not move by a rounding).
	cover, expose float64
}

func (w takeWorth) total() float64 { return w.Points + w.Steal + w.End + w.cover - w.expose }

// takeWorth values taking die d for seat me (see takeWorth).
func (b *Bot) takeWorth(s *State, me int8, d int) takeWorth {
	c := s.cfg.C
	face, _ := s.SpecialFace()
	w := takeWorth{From: s.Owner[d]}
	switch {
	case !s.IsSpecial(d):
		w.Points = float64(s.Points(d))
	case face == SpecialNot:
		if len(s.DiceOf(me)) > 0 {
			w.Points = float64(c.NotWithOther)
		}
	case face == SpecialAZ:
		w.Points = 0.2
	}
	if w.From != Display {
		loss := float64(s.Points(d)) - 1
		k := 0.5
		if leader(s, me) == w.From {
			k, w.Leader = 1, true
		}
		w.Steal = k * loss
	} else if !s.IsSpecial(d) && s.WhiteInDisplay() == 1 {
		w.Last = true
		w.End, w.Bonus, w.Ends, w.Won = b.endValue(s, me, d)
	}
	if face == SpecialStack && s.CardsLeft > 0 {
		if t := s.StackTop(me); t >= 0 {
			w.cover = 0.3 * float64(s.Points(t))
		}
		w.expose = 0.3 * w.Points
		w.Stack = w.cover - w.expose
	}
	return w
}

// endValue is the worth of ending the round by taking d, the last white
// die of the display, with the •• points that come with it and, when the
// game ends then (ends), whether the bot wins it (+1), shares it (0) or
// loses it (−1).
func (b *Bot) endValue(s *State, me int8, d int) (v float64, bonus int, ends bool, won int8) {
	if f, ok := s.SpecialFace(); ok && f == SpecialDots && s.Owner[s.special()] == Display {
		bonus = s.cfg.C.DotsPoints
	}
	t := s.clone()
	t.give(me, d)
	if bonus > 0 {
		t.give(me, t.special())
	}
	var proj [MaxPlayers]int
	reached, best, others := false, math.MinInt, math.MinInt
	for p := int8(0); p < t.NPlayers; p++ {
		rp := roundPoints(t, p)
		proj[p] = t.Totals[p] + rp
		reached = reached || proj[p] >= t.cfg.Set.Target
		best = max(best, proj[p])
		if p != me {
			others = max(others, rp)
		}
	}
	v = float64(bonus)
	if reached {
		switch {
		case proj[me] < best:
			v, won = v-20, -1
		case countEq(proj[:t.NPlayers], best) == 1:
			v, won = v+20, 1
		default:
			v += 5
		}
		return v, bonus, true, won
	}
	return v + float64(roundPoints(t, me)-others)/3, bonus, false, 0
}

func countEq(xs []int, x int) int {
	n := 0
	for _, y := range xs {
		if y == x {
			n++
		}
	}
	return n
}
