package tui

import (
	"fmt"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
)

func init() { registerBoard("bookworm", func() Board { return &Bookworm{sel: -1} }) }

// roundPause is how long the round summary stays up when no person is at
// the table to dismiss it (game time).
const roundPause = 4 * time.Second

// Input stages of the player on turn.
const (
	stageWord = iota // typing the word
	stageDie         // choosing the die it takes
)

// Bookworm is the terminal board of Bookworm: the card, the dice, the
// players' piles, the word field and the judging of words. The shell's
// clock runs the turn clock: deadlines become timeouts stamped at the
// deadline, bots act after their think time.
type Bookworm struct {
	sh    *Shell
	match *bookworm.Match

	stage   int
	word    string
	sel     int    // the die chosen, -1 none
	verb    string // challenge, allow, accept, reject: waiting for "who?"
	pause   bool   // the round summary is up
	pauseAt int64  // game time it went up

	// What a bot just did stays marked a moment: the dice it took (until
	// when) and its word ("word\x00name").
	fresh      map[int]int64
	freshWord  string
	freshUntil int64
}

// freshMs is how long (game time) a bot's word and the die it took stay
// marked.
const freshMs = 4000

// isFresh reports whether die d was just taken by a bot.
func (m *Bookworm) isFresh(d int) bool { return m.sh.Now() < m.fresh[d] }

// Attach reads the table's match.
func (m *Bookworm) Attach(sh *Shell) error {
	match, ok := sh.State().(*bookworm.Match)
	if !ok {
		return fmt.Errorf("bookworm board: the table plays %T", sh.State())
	}
	m.sh, m.match = sh, match
	return nil
}

// Spec: the table needs 80×24.
func (m *Bookworm) Spec() BoardSpec { return BoardSpec{MinWidth: 80, MinHeight: 24} }

// Match is the game being played (read it, never change it).
func (m *Bookworm) Match() *bookworm.Match { return m.match }

// Holding: nothing plays while the round's summary is up.
func (m *Bookworm) Holding() bool { return m.pause && !m.s().Over() }

// Typing: the person on turn types a word (q is a letter then).
func (m *Bookworm) Typing() bool { return m.isHumanTurn() && !m.pause }

// Tick closes the round summary by itself when only bots play.
func (m *Bookworm) Tick() {
	if m.pause && len(m.sh.People()) == 0 && m.sh.Now() >= m.pauseAt+roundPause.Milliseconds() {
		m.unpause()
	}
}

func (m *Bookworm) s() *bookworm.State { return m.match.S }
func (m *Bookworm) name(p int) string  { return m.sh.Name(p) }
func (m *Bookworm) isBot(p engine.Seat) bool {
	return p >= 0 && int(p) < len(m.sh.Seats()) && !m.sh.IsPerson(p)
}

// Played resets the input after every move (every move hands the floor
// on or starts judging, so a half-typed word never carries over) and puts
// up the round's summary when a round ends.
func (m *Bookworm) Played(mv engine.Move, ev []engine.Event) {
	m.verb = ""
	m.resetInput()
	for _, e := range ev {
		switch d := e.Data.(type) {
		case bookworm.WordEvent:
			if m.isBot(mv.Seat) {
				m.freshWord, m.freshUntil = d.Word+"\x00"+m.name(int(mv.Seat)), m.sh.Now()+freshMs
			}
		case bookworm.TakeEvent:
			if m.isBot(engine.Seat(d.To)) {
				if m.fresh == nil {
					m.fresh = map[int]int64{}
				}
				m.fresh[d.Die] = m.sh.Now() + freshMs
				m.freshUntil = max(m.freshUntil, m.sh.Now()+freshMs)
			}
		}
		if e.Kind == "round-end" && !m.s().Over() {
			m.pause, m.pauseAt = true, m.sh.Now()
		}
	}
	if m.s().Over() {
		m.pause = false
	}
}

// OnBoard: the header names the round and its Bookworm all the time, so
// a new round is not told in the log too.
func (m *Bookworm) OnBoard(e engine.Event) bool {
	_, ok := e.Data.(bookworm.RoundEvent)
	return ok
}

func (m *Bookworm) resetInput() { m.stage, m.word, m.sel = stageWord, "", -1 }

// unpause closes the round summary: the next round goes on.
func (m *Bookworm) unpause() {
	m.pause = false
	m.sh.Say("")
}

// isHumanTurn: a person is to name a word now.
func (m *Bookworm) isHumanTurn() bool {
	s := m.s()
	return s.Phase == bookworm.PhaseName && m.sh.IsPerson(engine.Seat(s.Current))
}

// humanActors are the people who may act now, in seat order.
func (m *Bookworm) humanActors() []engine.Seat {
	var out []engine.Seat
	for _, a := range m.match.Turn().Actors {
		if m.sh.IsPerson(a) {
			out = append(out, a)
		}
	}
	return out
}

// play plays a person's move at the current game time, or shows the
// engine's reason.
func (m *Bookworm) play(seat engine.Seat, a bookworm.Action) { m.sh.Act(seat, a) }

// Key handles a key the shell did not take.
func (m *Bookworm) Key(k tea.KeyPressMsg) bool {
	s := k.String()
	if m.s().Over() {
		return false
	}
	if m.pause {
		if s == "enter" || s == "space" {
			m.unpause()
			return true
		}
		m.sh.Say("the round is over: enter starts the next one")
		return true
	}
	switch m.s().Phase {
	case bookworm.PhaseCategory:
		m.chooserKey(s, func(i int) (bookworm.Action, bool) {
			if i >= 1 && i <= 3 {
				return bookworm.ChooseCategory(i - 1), true
			}
			return bookworm.Action{}, false
		}, "choose a category: 1, 2 or 3")
	case bookworm.PhaseTurnTo:
		m.chooserKey(s, func(i int) (bookworm.Action, bool) {
			if i >= 1 && i <= 5 {
				return bookworm.TurnTo(bookworm.Special(i)), true
			}
			return bookworm.Action{}, false
		}, "turn the Special die: 1 A–Z, 2 NOT, 3 ••, 4 Stack, 5 ?")
	case bookworm.PhaseName:
		if m.Typing() {
			m.nameKey(s, k.Text)
			return true
		}
		m.sh.Say(fmt.Sprintf("%s (bot) thinking of a word: watch, or q to quit", says(m.name(int(m.s().Current)), "is")))
	case bookworm.PhaseChallenge, bookworm.PhaseVote:
		m.judgeKey(s)
	}
	return true
}

// chooserKey handles the phases where one seat picks a number: a category,
// the Special die's new face.
func (m *Bookworm) chooserKey(s string, action func(int) (bookworm.Action, bool), hint string) {
	actors := m.match.Turn().Actors
	if len(actors) != 1 || m.isBot(actors[0]) {
		m.sh.Say("a bot is choosing: watch, or q to quit")
		return
	}
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		if a, ok := action(int(s[0] - '0')); ok {
			m.play(actors[0], a)
			return
		}
	}
	m.sh.Fail(m.name(int(actors[0])) + ": " + hint)
}

// wordRune reports whether r may be typed into a word: letters (accents
// too; the rules normalise) and the separators the rules accept.
func wordRune(r rune) bool {
	return r == ' ' || r == '-' || r == '\'' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0xc0 && r != 0xd7 && r != 0xf7
}

// nameKey is a key of the person on turn: type the word, then choose the
// die (the number keys choose any die directly, so a steal is the number of
// a die in front of another player too).
func (m *Bookworm) nameKey(s, text string) {
	me := engine.Seat(m.s().Current)
	switch s {
	case "?":
		m.play(me, bookworm.TakeQuestion())
		return
	case "ctrl+g":
		m.play(me, bookworm.GiveUp())
		return
	case "enter":
		if m.stage == stageWord {
			if d := m.onlyDie(); d >= 0 {
				// One way to take the word: say it at once.
				m.stage, m.sel = stageDie, d
				m.play(me, m.nameAction())
				return
			}
			m.toDie(-1)
			return
		}
		if m.sel < 0 {
			m.sh.Fail("choose a die first: ←/→, s to steal, or its number")
			return
		}
		m.play(me, m.nameAction())
		return
	case "esc":
		if m.stage == stageDie {
			m.stage, m.sel = stageWord, -1
			m.sh.Say("")
		} else {
			m.word = ""
		}
		return
	}
	// Dice are numbered from 0, as in the engine's messages.
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		d := int(s[0] - '0')
		if d >= int(m.s().NDice) {
			m.sh.Fail(fmt.Sprintf("there is no die %d", d))
			return
		}
		m.toDie(d)
		return
	}
	if m.stage == stageWord {
		switch s {
		case "backspace":
			if r := []rune(m.word); len(r) > 0 {
				m.word = string(r[:len(r)-1])
			}
			return
		case "right", "left", "tab":
			m.toDie(-1)
			return
		}
		r := []rune(text)
		if s == "space" {
			r = []rune{' '}
		}
		if len(r) == 1 && wordRune(r[0]) {
			if len([]rune(m.word)) < bookworm.MaxWordRunes {
				m.word += string(r)
			}
			m.sh.Say("")
			return
		}
		m.sh.Fail("type a word with letters; enter goes on to the die")
		return
	}
	switch s {
	case "left", "right", "up", "down":
		m.moveSel(s == "right" || s == "down")
	case "s", "tab":
		m.nextGroup()
	case "backspace":
		m.stage, m.sel = stageWord, -1
	default:
		m.sh.Fail("choose the die: ←/→, s steals, a number picks it, enter names the word, esc edits it")
	}
}

// wordLetter is the normalised first letter of the typed word (0 if none).
func (m *Bookworm) wordLetter() byte {
	k, ok := bookworm.WordKey(m.word)
	if !ok || k == "" {
		return 0
	}
	return k[0]
}

// toDie goes on to choosing the die: d, or the best display die for the
// word's first letter (or a die to steal when the display has none).
func (m *Bookworm) toDie(d int) {
	if strings.TrimSpace(m.word) == "" {
		m.sh.Fail("type the word first, then choose its die")
		return
	}
	m.stage = stageDie
	m.sh.Say("")
	if d >= 0 {
		m.sel = d
		return
	}
	m.sel = m.bestDie()
	if m.sel < 0 {
		m.sel = m.firstIn(int(bookworm.Display))
		if l := m.wordLetter(); l != 0 {
			m.sh.Fail(fmt.Sprintf("no die takes a word on %c now", l-'a'+'A'))
		}
	}
}

// bestDie is the takeable die for the word's letter worth most, the display
// first, -1 if none.
func (m *Bookworm) bestDie() int {
	l := m.wordLetter()
	best, bestFrom, bestPts := -1, 0, -100
	for _, o := range m.s().Takeable(m.s().Current) {
		if strings.IndexByte(o.Letters, l) < 0 {
			continue
		}
		pts := m.s().Points(o.Die)
		better := best < 0 || (o.From == -1 && bestFrom != -1) || (o.From == -1) == (bestFrom == -1) && pts > bestPts
		if better {
			best, bestFrom, bestPts = o.Die, o.From, pts
		}
	}
	return best
}

// onlyDie is the display die the word takes when the choice is plain:
// the display has one die for the word's letter (or several alike: the
// same face and points); -1 when there is a choice to make (dice that
// differ, steals only) or none.
func (m *Bookworm) onlyDie() int {
	l := m.wordLetter()
	if l == 0 {
		return -1
	}
	only := -1
	for _, o := range m.s().Takeable(m.s().Current) {
		if o.From != int(bookworm.Display) || strings.IndexByte(o.Letters, l) < 0 {
			continue
		}
		if only >= 0 && (m.s().FaceName(o.Die) != m.s().FaceName(only) || m.s().Points(o.Die) != m.s().Points(only)) {
			return -1
		}
		if only < 0 {
			only = o.Die
		}
	}
	return only
}

// group is where die d lies: the display (-1) or its holder.
func (m *Bookworm) group(d int) int { return int(m.s().Owner[d]) }

// groupDice lists the dice of a group in screen order.
func (m *Bookworm) groupDice(g int) []int {
	if g == int(bookworm.Display) {
		var out []int
		for d := 0; d < int(m.s().NDice); d++ {
			if m.s().Owner[d] == bookworm.Display {
				out = append(out, d)
			}
		}
		return out
	}
	return m.s().DiceOf(int8(g))
}

func (m *Bookworm) firstIn(g int) int {
	if ds := m.groupDice(g); len(ds) > 0 {
		return ds[0]
	}
	return -1
}

// moveSel moves the choice to the next or previous die of its group.
func (m *Bookworm) moveSel(fwd bool) {
	g := int(bookworm.Display)
	if m.sel >= 0 {
		g = m.group(m.sel)
	}
	ds := m.groupDice(g)
	if len(ds) == 0 {
		return
	}
	i := slices.Index(ds, m.sel)
	switch {
	case i < 0:
		i = 0
	case fwd:
		i = (i + 1) % len(ds)
	default:
		i = (i + len(ds) - 1) % len(ds)
	}
	m.sel = ds[i]
}

// nextGroup steps from the display to each other player holding dice (to
// steal: the top die first, the one a Stack lets go), and back.
func (m *Bookworm) nextGroup() {
	me := int(m.s().Current)
	g := int(bookworm.Display)
	if m.sel >= 0 {
		g = m.group(m.sel)
	}
	n := int(m.s().NPlayers)
	for step := 0; step <= n; step++ {
		g++
		if g >= n {
			g = int(bookworm.Display)
		}
		if g == me {
			continue
		}
		if ds := m.groupDice(g); len(ds) > 0 {
			if g == int(bookworm.Display) {
				m.sel = ds[0]
				m.sh.Say("")
			} else {
				m.sel = ds[len(ds)-1]
				m.sh.Say(fmt.Sprintf("stealing from %s: ←/→ chooses the die, s the next player", m.name(g)))
			}
			return
		}
	}
}

// nameAction is the word and die chosen; on a two-letter face (C/K, X/Y)
// the letter claimed is the word's first letter when the face has it.
func (m *Bookworm) nameAction() bookworm.Action {
	a := bookworm.Name(m.word, m.sel)
	if l := m.wordLetter(); l != 0 && m.sel >= 0 && !m.s().IsSpecial(m.sel) {
		if f := m.s().FaceName(m.sel); len(f) == 3 && strings.ContainsRune(strings.ToLower(f), rune(l)) {
			a.Letter = l
		}
	}
	return a
}

// judgeKey handles a challenge window or a vote: the verb (c challenge, a
// allow; y accept, n reject), then who, by seat number, unless one person
// alone may act.
func (m *Bookworm) judgeKey(s string) {
	vote := m.s().Phase == bookworm.PhaseVote
	verbs := map[string]string{"c": "challenge", "a": "allow"}
	if vote {
		verbs = map[string]string{"y": "accept", "n": "reject"}
	}
	humans := m.humanActors()
	if v, ok := verbs[s]; ok {
		switch len(humans) {
		case 0:
			m.sh.Fail("no person at this keyboard may act on this word")
			return
		case 1:
			m.judge(humans[0], v)
			return
		}
		m.verb = v
		m.sh.Say("")
		return
	}
	if len(s) == 1 && s[0] >= '1' && s[0] <= '6' {
		seat := engine.Seat(s[0] - '1')
		if m.verb == "" {
			m.sh.Fail("first the key of what to do, then the seat number")
			return
		}
		if !m.sh.IsPerson(seat) {
			m.sh.Fail(fmt.Sprintf("seat %c is not a person at this keyboard", s[0]))
			return
		}
		v := m.verb
		m.verb = ""
		m.judge(seat, v)
		return
	}
	if s == "esc" {
		m.verb = ""
		m.sh.Say("")
		return
	}
	if vote {
		m.sh.Fail("vote: y accepts, n rejects (then the voter's seat number)")
	} else {
		m.sh.Fail("c challenges the word, a lets it pass (then the seat number)")
	}
}

func (m *Bookworm) judge(seat engine.Seat, verb string) {
	var a bookworm.Action
	switch verb {
	case "challenge":
		a = bookworm.Challenge()
	case "allow":
		a = bookworm.Allow()
	case "accept":
		a = bookworm.Vote(true)
	default:
		a = bookworm.Vote(false)
	}
	m.play(seat, a)
}
