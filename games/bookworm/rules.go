package bookworm

import (
	"fmt"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// Rule codes of Bookworm's refusals (engine.RuleError.Rule). They are stable:
// clients and tests match on them. The engine's shared codes (not-your-turn,
// wrong-action, game-over, chance-pending, bad-action) come on top.
const (
	RuleCardNotAvailable = "card-not-available"
	RuleRollCount        = "roll-count"
	RuleRollFace         = "roll-face"
	RuleBadCategory      = "bad-category"
	RuleBadFace          = "bad-face"
	RuleBadWord          = "bad-word"
	RuleWrongLetter      = "wrong-letter"
	RuleAlreadyNamed     = "already-named"
	RuleNoSuchDie        = "no-such-die"
	RuleOwnDie           = "own-die"
	RuleNoBookwormCards  = "no-bookworm-cards"
	RuleCannotSteal      = "cannot-steal"
	RuleStackTopOnly     = "stack-top-only"
	RuleStackNotTaken    = "stack-not-from-display"
	RuleSpecialNotByWord = "special-not-by-word"
	RuleNoQuestionDie    = "no-question-die"
	RuleTooLate          = "too-late"
	RuleNotYetTimedOut   = "not-yet-timed-out"
	RuleNoDeadline       = "no-deadline"
	RuleOwnWord          = "own-word"
	RuleAlreadyVoted     = "already-voted"
	RuleAlreadyAllowed   = "already-allowed"
	RuleRoundFull        = "round-full"
)

// MaxWordsPerRound bounds the words said in one round. Only rejections can
// make a round long (each gives the speaker a fresh countdown), so a table
// of real players never meets it; it keeps a player who names made-up
// words without end from growing the state without bound.
const MaxWordsPerRound = 500

func refuse(rule, format string, args ...any) error {
	return engine.Refuse(rule, fmt.Sprintf(format, args...))
}

func wrongAction(format string, args ...any) error {
	return refuse(engine.ErrWrongAction.Rule, format, args...)
}

// seatMask is the bit of seat p in Allowed.
func seatMask(p int8) uint8 { return 1 << uint(p) }

// speaker is the seat of the word under judgement.
func (s *State) speaker() int8 { return s.Named[s.Pending].Seat }

// Actors lists the seats that may act now (none in chance phases or once
// over).
func (s *State) Actors() []int8 {
	switch s.Phase {
	case PhaseCategory, PhaseName:
		return []int8{s.Current}
	case PhaseTurnTo:
		return []int8{s.Bookworm}
	case PhaseChallenge, PhaseVote:
		var out []int8
		sp := s.speaker()
		for p := int8(0); p < s.NPlayers; p++ {
			if p == sp || s.Phase == PhaseChallenge && s.Allowed&seatMask(p) != 0 || s.Phase == PhaseVote && s.Votes[p] != 0 {
				continue
			}
			out = append(out, p)
		}
		return out
	}
	return nil
}

func (s *State) isActor(p int8) bool {
	for _, a := range s.Actors() {
		if a == p {
			return true
		}
	}
	return false
}

// Timed reports whether a clock runs (PhaseName, PhaseChallenge, PhaseVote).
func (s *State) Timed() bool {
	return s.Phase == PhaseName || s.Phase == PhaseChallenge || s.Phase == PhaseVote
}

// Check tells whether seat may make action a at game time at, and why not.
// It changes nothing.
func (s *State) Check(seat engine.Seat, at int64, a Action) error {
	_, err := s.check(seat, at, a)
	return err
}

// checked is what a successful check found out, so Apply does not redo it.
type checked struct {
	roll   [MaxDice]uint8 // ActRoll: faces per die
	key    string         // ActName: the word's key
	letter byte           // ActName: the letter used
	from   int8           // ActName: Display or the robbed seat
}

func (s *State) check(seat engine.Seat, at int64, a Action) (checked, error) {
	var c checked
	t := max(at, s.Now)
	if s.Phase == PhaseOver {
		return c, engine.ErrGameOver
	}
	if a.Type == ActInvalid || a.Type > ActTimeout {
		return c, engine.ErrBadAction
	}
	chancePhase := s.Phase == PhaseCard || s.Phase == PhaseRoll
	switch {
	case chancePhase && seat != engine.ChanceSeat:
		return c, engine.ErrChancePending
	case !chancePhase && seat == engine.ChanceSeat:
		return c, wrongAction("nature has nothing to decide now")
	case a.Type == ActTimeout && seat != engine.SystemSeat:
		return c, wrongAction("only the table's clock sends timeouts")
	case seat == engine.SystemSeat && a.Type != ActTimeout:
		return c, wrongAction("the table's clock only sends timeouts")
	case seat != engine.ChanceSeat && seat != engine.SystemSeat && (seat < 0 || int(seat) >= int(s.NPlayers)):
		return c, refuse(engine.ErrNotYourTurn.Rule, "%s has no place at this table", seat)
	}
	switch s.Phase {
	case PhaseCard:
		if a.Type != ActCard {
			return c, wrongAction("a category card is to be drawn")
		}
		return c, s.checkCard(a.Card)
	case PhaseRoll:
		if a.Type != ActRoll {
			return c, wrongAction("the dice are to be rolled")
		}
		r, err := s.resolveRoll(a)
		c.roll = r
		return c, err
	}
	if a.Type == ActTimeout {
		if !s.Timed() {
			return c, refuse(RuleNoDeadline, "no clock is running")
		}
		if t < s.Deadline {
			return c, refuse(RuleNotYetTimedOut, "the time runs until %d ms, it is %d ms", s.Deadline, t)
		}
		return c, nil
	}
	p := int8(seat)
	if !s.isActor(p) {
		return c, s.notYourTurn(p, a)
	}
	switch s.Phase {
	case PhaseCategory:
		if a.Type != ActCategory {
			return c, wrongAction("choose one of the card's 3 categories first")
		}
		if a.Category < 0 || a.Category > 2 {
			return c, refuse(RuleBadCategory, "a card has categories 0, 1 and 2, not %d", a.Category)
		}
	case PhaseTurnTo:
		if a.Type != ActTurnTo {
			return c, wrongAction("the Bookworm must first turn the Special die to another face")
		}
		if a.Face == SpecialTurn || a.Face >= NumSpecial {
			return c, refuse(RuleBadFace, "the Special die must be turned to another face than turn (a-z, not, dots, stack or ?)")
		}
	case PhaseName:
		switch a.Type {
		case ActGiveUp:
			return c, nil
		case ActName, ActQuestion:
			if t > s.Deadline {
				return c, refuse(RuleTooLate, "the time to name a word ran out at %d ms", s.Deadline)
			}
			if a.Type == ActQuestion {
				if f, ok := s.SpecialFace(); !ok || f != SpecialQuestion || s.Owner[s.special()] != Display {
					return c, refuse(RuleNoQuestionDie, "there is no ? die in the display to take")
				}
				return c, nil
			}
			return s.checkName(p, a)
		default:
			return c, wrongAction("name a word (or take the ? die, or give up)")
		}
	case PhaseChallenge:
		switch a.Type {
		case ActChallenge, ActAllow:
			if t > s.Deadline {
				return c, refuse(RuleTooLate, "the time to challenge ran out at %d ms", s.Deadline)
			}
		default:
			return c, wrongAction("the word may be challenged or let pass, nothing else")
		}
	case PhaseVote:
		if a.Type != ActVote {
			return c, wrongAction("a vote is running: vote accept or reject")
		}
		if t > s.Deadline {
			return c, refuse(RuleTooLate, "the vote closed at %d ms", s.Deadline)
		}
	}
	return c, nil
}

// notYourTurn explains why seat p may not make action a now. While a word
// is judged, a judging action (challenge, allow, vote) is refused for what
// stops this player judging; any other action waits for the verdict, the
// speaker's new word included.
func (s *State) notYourTurn(p int8, a Action) error {
	switch s.Phase {
	case PhaseChallenge, PhaseVote:
		switch {
		case a.Type != ActChallenge && a.Type != ActAllow && a.Type != ActVote:
			if p == s.speaker() {
				return refuse(engine.ErrNotYourTurn.Rule, "your word is being judged: wait for the verdict")
			}
			return refuse(engine.ErrNotYourTurn.Rule, "a word is being judged: wait for the verdict")
		case p == s.speaker():
			return refuse(RuleOwnWord, "players do not judge their own words")
		case s.Phase == PhaseVote:
			return refuse(RuleAlreadyVoted, "each player votes once")
		}
		return refuse(RuleAlreadyAllowed, "you already let this word pass")
	case PhaseTurnTo:
		return refuse(engine.ErrNotYourTurn.Rule, "the Bookworm (seat %d) turns the Special die", s.Bookworm)
	}
	return refuse(engine.ErrNotYourTurn.Rule, "it is seat %d's turn, not yours", s.Current)
}

// available reports the deck indexes that may be drawn now: the cards not
// yet used, or, when none is left, every card but the one in play (the
// box is shuffled back into the stack).
func (s *State) available(i int) (ok, reshuffle bool) {
	anyLeft := false
	for j, u := range s.Used {
		if !u && j != int(s.Card) {
			anyLeft = true
			break
		}
	}
	if anyLeft {
		return !s.Used[i] && i != int(s.Card), false
	}
	return i != int(s.Card) || len(s.cfg.Deck) == 1, true
}

func (s *State) checkCard(id int) error {
	i, ok := s.cfg.cardIx[id]
	if !ok {
		return refuse(RuleCardNotAvailable, "the deck has no card %d", id)
	}
	if ok, _ := s.available(i); !ok {
		return refuse(RuleCardNotAvailable, "card %d is not in the stack: it was used already", id)
	}
	return nil
}

// resolveRoll matches a roll to the dice: face indexes as they are, or face
// names in any order, each matched to a die that has that face (dice of
// the same kind are interchangeable, so the first match is as good as any).
func (s *State) resolveRoll(a Action) ([MaxDice]uint8, error) {
	var faces [MaxDice]uint8
	if int(a.NDice) != int(s.NDice) {
		return faces, refuse(RuleRollCount, "%d dice are rolled, the roll lists %d", s.NDice, a.NDice)
	}
	if !a.rawRoll {
		for d := 0; d < int(s.NDice); d++ {
			if a.Faces[d] >= NumFaces || d == s.special() && Special(a.Faces[d]) >= NumSpecial {
				return faces, refuse(RuleRollFace, "die %d has no face %d", d, a.Faces[d])
			}
		}
		return a.Faces, nil
	}
	// Bipartite matching of names to dice (8 at most: augmenting paths).
	n := int(s.NDice)
	var owner [MaxDice]int // die → name index + 1
	var fits [MaxDice][MaxDice]int8
	for i := 0; i < n; i++ {
		found := false
		for d := 0; d < n; d++ {
			if f, ok := s.cfg.C.parseFace(d, a.raw[i]); ok {
				fits[i][d] = int8(f) + 1
				found = true
			}
		}
		if !found {
			return faces, refuse(RuleRollFace, "no die has a face %q", a.raw[i])
		}
	}
	var try func(i int, seen *[MaxDice]bool) bool
	try = func(i int, seen *[MaxDice]bool) bool {
		// A free die first, so faces listed in die order stay on their dice.
		for d := 0; d < n; d++ {
			if fits[i][d] != 0 && owner[d] == 0 {
				seen[d] = true
				owner[d] = i + 1
				return true
			}
		}
		for d := 0; d < n; d++ {
			if fits[i][d] == 0 || seen[d] {
				continue
			}
			seen[d] = true
			if owner[d] == 0 || try(owner[d]-1, seen) {
				owner[d] = i + 1
				return true
			}
		}
		return false
	}
	for i := 0; i < n; i++ {
		var seen [MaxDice]bool
		if !try(i, &seen) {
			return faces, refuse(RuleRollFace, "the dice cannot show these faces together (%s)", strings.Join(a.raw[:n], " "))
		}
	}
	for d := 0; d < n; d++ {
		faces[d] = uint8(fits[owner[d]-1][d] - 1)
	}
	return faces, nil
}

// checkName checks a word and the die it takes.
func (s *State) checkName(p int8, a Action) (checked, error) {
	c := checked{from: Display}
	key, ok := WordKey(a.Word)
	if !ok {
		return c, refuse(RuleBadWord, "a word is 1 to %d letters a–z (accents allowed), with single spaces, hyphens or apostrophes between letters", MaxWordRunes)
	}
	c.key, c.letter = key, key[0]
	if a.Letter != 0 && a.Letter != c.letter {
		return c, refuse(RuleWrongLetter, "%q starts with %c, not %c", a.Word, c.letter-'a'+'A', a.Letter-'a'+'A')
	}
	if len(s.Named) >= MaxWordsPerRound {
		return c, refuse(RuleRoundFull, "this round has had %d words, the most a round takes: take the ? die or give up", MaxWordsPerRound)
	}
	for _, w := range s.Named {
		if w.Key == key {
			return c, refuse(RuleAlreadyNamed, "%q was already named this round (as %q)", a.Word, w.Word)
		}
	}
	d := a.Die
	if d < 0 || d >= int(s.NDice) {
		return c, refuse(RuleNoSuchDie, "there is no die %d", a.Die)
	}
	c.from = s.Owner[d]
	return c, s.checkDie(p, d, c.letter, a.Word)
}

// checkDie tells whether seat p may take die d with a word starting with
// letter (word is only for messages): takeRule, explained.
func (s *State) checkDie(p int8, d int, letter byte, word string) error {
	rule := s.takeRule(p, d, letter)
	if rule == "" {
		return nil
	}
	face, _ := s.SpecialFace()
	switch rule {
	case RuleOwnDie:
		return refuse(rule, "die %d is already yours", d)
	case RuleCannotSteal:
		return refuse(rule, "the %s die cannot be taken from a player", face)
	case RuleStackNotTaken:
		return refuse(rule, "the Stack die cannot be taken from the display")
	case RuleSpecialNotByWord:
		if face == SpecialDots {
			return refuse(rule, "the •• die goes with the last white die; no word takes it")
		}
		return refuse(rule, "the ? die is taken instead of naming a word, never with one")
	case RuleWrongLetter:
		if d == s.special() {
			return refuse(rule, "the NOT die is taken with a word starting with N, O or T")
		}
		lf := s.cfg.C.LetterDice[d].Faces[s.Faces[d]]
		return refuse(rule, "%q does not start with %s, the letter of die %d", word, strings.Join(strings.Split(lf.Letters, ""), " or "), d)
	case RuleNoBookwormCards:
		return refuse(rule, "no Bookworm cards are left: dice are taken from the display only")
	case RuleStackTopOnly:
		return refuse(rule, "with the Stack die only the top die of a pile can be taken")
	}
	return refuse(rule, "die %d cannot be taken", d)
}

// takeRule is the rule that stops seat p taking die d with a word starting
// with letter, "" when none does. It formats nothing: Takeable asks it for
// every letter of every die.
func (s *State) takeRule(p int8, d int, letter byte) string {
	owner := s.Owner[d]
	if owner == p {
		return RuleOwnDie
	}
	face, _ := s.SpecialFace()
	if d == s.special() {
		if owner != Display && face != SpecialNot {
			return RuleCannotSteal
		}
		switch face {
		case SpecialStack:
			return RuleStackNotTaken
		case SpecialDots, SpecialQuestion:
			return RuleSpecialNotByWord
		case SpecialNot:
			if letter != 'n' && letter != 'o' && letter != 't' {
				return RuleWrongLetter
			}
		}
	} else if !s.cfg.C.LetterDice[d].Faces[s.Faces[d]].Has(letter) {
		return RuleWrongLetter
	}
	if owner != Display {
		if s.CardsLeft == 0 {
			return RuleNoBookwormCards
		}
		if face == SpecialStack && s.StackTop(owner) != d {
			return RuleStackTopOnly
		}
	}
	return ""
}

// Takeable lists, for seat p on turn, every die a word could take and the
// letters (a–z) that take it. Clients and bots use it to offer choices.
func (s *State) Takeable(p int8) []TakeOption {
	if s.Phase != PhaseName || p != s.Current {
		return nil
	}
	var out []TakeOption
	for d := 0; d < int(s.NDice); d++ {
		var letters []byte
		for l := byte('a'); l <= 'z'; l++ {
			if s.takeRule(p, d, l) == "" {
				letters = append(letters, l)
			}
		}
		if len(letters) > 0 {
			out = append(out, TakeOption{Die: d, From: int(s.Owner[d]), Letters: string(letters)})
		}
	}
	return out
}

// TakeOption is a die a word may take: from the display (-1) or a seat,
// with a word starting with one of Letters.
type TakeOption struct {
	Die     int    `json:"die"`
	From    int    `json:"from"`
	Letters string `json:"letters"`
}

// Apply checks and performs an action and returns what happened. An
// illegal action changes nothing.
func (s *State) Apply(seat engine.Seat, at int64, a Action) ([]engine.Event, error) {
	c, err := s.check(seat, at, a)
	if err != nil {
		return nil, err
	}
	s.Now = max(s.Now, at)
	e := &emitter{seat: seat}
	switch a.Type {
	case ActCard:
		s.drawCard(e, a.Card)
	case ActRoll:
		s.roll(e, c.roll)
	case ActCategory:
		s.chooseCategory(e, uint8(a.Category))
	case ActTurnTo:
		s.Faces[s.special()] = uint8(a.Face)
		e.add("special-turned", SpecialEvent{Face: a.Face.String()})
		s.startTurn(e, s.next(s.Bookworm), s.Now)
	case ActName:
		s.name(e, int8(seat), a, c)
	case ActQuestion:
		s.takeQuestion(e, int8(seat))
	case ActGiveUp:
		e.add("fail", FailEvent{Seat: int(seat), Reason: "gave-up"})
		s.endRound(e, int8(seat), int8(seat))
	case ActChallenge:
		s.Phase, s.Challenger = PhaseVote, int8(seat)
		s.Votes = [MaxPlayers]int8{}
		s.Deadline = s.Now + s.cfg.Set.VoteMs
		e.add("challenge", ChallengeEvent{Word: s.Named[s.Pending].Word, Deadline: s.Deadline})
	case ActAllow:
		s.Allowed |= seatMask(int8(seat))
		e.add("allow", nil)
		if len(s.Actors()) == 0 {
			s.accept(e)
		}
	case ActVote:
		v := int8(-1)
		if a.Accept {
			v = 1
		}
		s.Votes[seat] = v
		e.add("vote", VoteEvent{Accept: a.Accept})
		if len(s.Actors()) == 0 {
			s.verdict(e)
		}
	case ActTimeout:
		s.timeout(e)
	}
	return e.events, nil
}

func (s *State) drawCard(e *emitter, id int) {
	i := s.cfg.cardIx[id]
	if _, reshuffle := s.available(i); reshuffle {
		for j := range s.Used {
			s.Used[j] = false
		}
		e.add("reshuffle", nil)
	}
	s.Card, s.Used[i] = int16(i), true
	s.Category = -1
	s.Phase = PhaseCategory
	e.add("card", CardEvent{Card: s.cfg.Deck[i], Chooser: int(s.Current), MidRound: s.MidRound})
}

func (s *State) chooseCategory(e *emitter, i uint8) {
	s.Category = int8(i)
	cat, _ := s.CategoryInPlay()
	e.add("category", CategoryEvent{Index: int(i), Category: cat})
	if s.MidRound {
		s.MidRound = false
		s.startTurn(e, s.next(s.Current), s.Now)
		return
	}
	s.Phase = PhaseRoll
}

func (s *State) roll(e *emitter, faces [MaxDice]uint8) {
	s.Faces, s.Rolled = faces, true
	re := RollEvent{Faces: make([]string, s.NDice)}
	for d := range re.Faces {
		re.Faces[d] = s.FaceName(d)
	}
	e.add("roll", re)
	if f, ok := s.SpecialFace(); ok && f == SpecialTurn {
		s.Phase = PhaseTurnTo
		return
	}
	s.startTurn(e, s.next(s.Bookworm), s.Now)
}

// startTurn gives seat p the floor: think time, then the countdown.
func (s *State) startTurn(e *emitter, p int8, from int64) {
	s.Phase, s.Current, s.Pending, s.Challenger = PhaseName, p, -1, -1
	s.CountdownAt = from + s.cfg.Set.ThinkMs
	s.Deadline = s.CountdownAt + s.cfg.Set.CountdownMs
	e.add("turn", TurnEvent{Seat: int(p), CountdownAt: s.CountdownAt, Deadline: s.Deadline})
}

func (s *State) name(e *emitter, p int8, a Action, c checked) {
	known := s.Known(strings.TrimSpace(a.Word))
	s.Named = append(s.Named, NamedWord{Seat: p, Word: strings.TrimSpace(a.Word), Key: c.key, Die: int8(a.Die),
		From: c.from, Letter: c.letter, Known: known, Status: WordPending})
	s.Pending = int16(len(s.Named) - 1)
	e.add("word", WordEvent{Word: strings.TrimSpace(a.Word), Die: a.Die, Letter: string(rune(c.letter - 'a' + 'A')),
		From: int(c.from), Known: known})
	window := s.cfg.Set.ChallengeMs
	if known {
		// Any word may be disputed (the rulebook); one the lexicon knows
		// gets the short window, so a game of common words stays fast.
		if window = s.cfg.Set.KnownChallengeMs; window == 0 {
			s.accept(e)
			return
		}
	}
	s.Phase, s.Allowed = PhaseChallenge, 0
	s.Deadline = s.Now + window
	e.add("challenge-window", WindowEvent{Deadline: s.Deadline, Known: known})
}

// verdict closes a vote: the word stands unless rejections outnumber
// acceptances (abstentions count for neither; a tie keeps the word).
func (s *State) verdict(e *emitter) {
	v := VerdictEvent{Word: s.Named[s.Pending].Word}
	for p := int8(0); p < s.NPlayers; p++ {
		switch {
		case p == s.speaker():
		case s.Votes[p] > 0:
			v.Accept++
		case s.Votes[p] < 0:
			v.Reject++
		default:
			v.Abstain++
		}
	}
	v.Accepted = v.Reject <= v.Accept
	e.add("verdict", v)
	if v.Accepted {
		s.accept(e)
		return
	}
	w := &s.Named[s.Pending]
	w.Status = WordRejected
	// The rejected word stays named; the speaker tries again with only the
	// countdown left.
	sp := w.Seat
	s.startTurn(e, sp, s.Now-s.cfg.Set.ThinkMs)
}

// accept gives the speaker the die of the word under judgement.
func (s *State) accept(e *emitter) {
	w := &s.Named[s.Pending]
	w.Status = WordAccepted
	p, d := w.Seat, int(w.Die)
	from := s.Owner[d]
	s.give(p, d)
	te := TakeEvent{Die: d, Face: s.FaceName(d), From: int(from), To: int(p), Word: w.Word}
	if from != Display {
		s.Cards[from]++
		s.CardsLeft--
		te.BookwormCards = int(s.CardsLeft)
		e.add("steal", te)
	} else {
		e.add("take", te)
	}
	s.Pending, s.Challenger = -1, -1
	if from == Display && s.WhiteInDisplay() == 0 {
		if f, ok := s.SpecialFace(); ok && f == SpecialDots && s.Owner[s.special()] == Display {
			sp := s.special()
			s.give(p, sp)
			e.add("take", TakeEvent{Die: sp, Face: s.FaceName(sp), From: int(Display), To: int(p), Bonus: true})
		}
		s.endRound(e, p, -1)
		return
	}
	s.startTurn(e, s.next(p), s.Now)
}

func (s *State) give(p int8, d int) {
	s.Owner[d] = p
	s.Taken++
	s.Seq[d] = s.Taken
}

func (s *State) takeQuestion(e *emitter, p int8) {
	sp := s.special()
	s.give(p, sp)
	e.add("question", TakeEvent{Die: sp, Face: s.FaceName(sp), From: int(Display), To: int(p)})
	s.Phase, s.MidRound, s.Current = PhaseCard, true, p
}

func (s *State) timeout(e *emitter) {
	switch s.Phase {
	case PhaseName:
		e.add("timeout", TimeoutEvent{Phase: "name", Seat: int(s.Current)})
		e.add("fail", FailEvent{Seat: int(s.Current), Reason: "timeout"})
		s.endRound(e, s.Current, s.Current)
	case PhaseChallenge:
		e.add("timeout", TimeoutEvent{Phase: "challenge", Seat: int(s.speaker())})
		s.accept(e)
	case PhaseVote:
		e.add("timeout", TimeoutEvent{Phase: "vote", Seat: int(s.speaker())})
		s.verdict(e)
	}
}

// endRound scores the round; the game ends once someone has reached the
// target, else the ender is the next Bookworm.
func (s *State) endRound(e *emitter, ender, failer int8) {
	rs := s.score(ender, failer)
	var line [MaxPlayers]int
	reached := false
	for p := 0; p < int(s.NPlayers); p++ {
		line[p] = rs.Lines[p].Total
		s.Totals[p] += rs.Lines[p].Total
		reached = reached || s.Totals[p] >= s.cfg.Set.Target
	}
	s.LastRound = &rs
	s.History = append(s.History, line)
	ev := RoundEndEvent{Round: int(s.Round), Ender: int(ender), Failer: int(failer), Scores: make([]ScoreLine, s.NPlayers), Totals: make([]int, s.NPlayers)}
	for p := range ev.Scores {
		ev.Scores[p], ev.Totals[p] = rs.Lines[p], s.Totals[p]
	}
	e.add("round-end", ev)
	if reached {
		s.Phase = PhaseOver
		s.Pending, s.Challenger = -1, -1
		ge := GameOverEvent{Scores: ev.Totals, Winners: []int{}}
		ge.Winners = append(ge.Winners, s.Winners()...)
		e.add("game-over", ge)
		return
	}
	s.startRound(ender)
	e.add("round", RoundEvent{Round: int(s.Round), Bookworm: int(ender)})
}
