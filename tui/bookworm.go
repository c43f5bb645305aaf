package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// BookwormSeat is one player of a Bookworm game at this terminal: a person
// at the shared keyboard or a bot.
type BookwormSeat struct {
	Name    string
	BotKind string
	Bot     engine.Controller
	// mu serialises the bot: answers for an old version of the game may
	// still be running when the next question is asked, and a bot's own
	// state (its random stream) is not safe for concurrent use.
	mu *sync.Mutex
}

// IsBot reports whether the seat is played by a bot.
func (s BookwormSeat) IsBot() bool { return s.Bot != nil }

// DefaultBookwormPlayers is the --players value for Bookworm when none is
// given.
const DefaultBookwormPlayers = "you,bot:medium"

// ParseBookwormPlayers reads a comma-separated player list like
// ParsePlayers: names are people, "bot:KIND" or "NAME=bot:KIND" seats a bot
// from bots (seeded with engine.SplitSeed(seed, seat)).
func ParseBookwormPlayers(spec string, seed uint64, bots engine.BotProvider) ([]BookwormSeat, error) {
	if n := len(strings.Split(spec, ",")); n < bookworm.MinPlayers || n > bookworm.MaxPlayers {
		return nil, fmt.Errorf("bookworm is for %d to %d players, not %d", bookworm.MinPlayers, bookworm.MaxPlayers, n)
	}
	made := map[int]engine.Controller{}
	specs, err := parsePlayerList(spec, func(i int, kind string) error {
		if bots == nil {
			return fmt.Errorf("this build has no Bookworm bots")
		}
		b, err := bots.NewBot(kind, engine.SplitSeed(seed, uint64(i)))
		if err != nil {
			return fmt.Errorf("%w (bots: %s)", err, strings.Join(bookworm.BotKinds, ", "))
		}
		made[i] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	seats := make([]BookwormSeat, len(specs))
	for i, sp := range specs {
		seats[i] = BookwormSeat{Name: sp.Name, BotKind: sp.BotKind}
		if b, ok := made[i]; ok {
			seats[i].Bot, seats[i].mu = b, &sync.Mutex{}
		}
	}
	return seats, nil
}

// BookwormConfig sets up a terminal game of Bookworm.
type BookwormConfig struct {
	Seats []BookwormSeat
	Seed  uint64
	// Game carries the deck and lexicon (zero: the default ones).
	Game bookworm.Game
	// Options are the table options as JSON (nil: the defaults).
	Options json.RawMessage
	// RecordPath, when set, is where the record is written at the end or
	// on quitting.
	RecordPath string
	// Tick is the period of the clock ticks the model schedules itself
	// (100 ms in play). Zero schedules none: tests drive the clock with
	// their own BookwormTick messages.
	Tick time.Duration
	// BotDelay is how long a bot without a Pacer takes to act (game time).
	BotDelay time.Duration
	// RoundPause is how long the round summary stays up when no person is
	// at the table to dismiss it (game time).
	RoundPause time.Duration
	// Now reads the wall clock; game time is the time since the start.
	// nil means time.Now.
	Now func() time.Time
}

// BookwormTick is a clock tick: the model reads its clock and lets every
// deadline and bot action that is due happen.
type BookwormTick struct{}

// bwBotMsg is a bot's answer for the game version gen.
type bwBotMsg struct {
	gen    int
	seat   engine.Seat
	action engine.Action
	think  int64
	err    error
}

// botPlay is a bot's action waiting for its think time to pass.
type botPlay struct {
	seat   engine.Seat
	action bookworm.Action
	at     int64
}

// Input stages of the player on turn.
const (
	stageWord = iota // typing the word
	stageDie         // choosing the die it takes
)

// Bookworm is the terminal client of Bookworm, a tea.Model. It keeps the
// game clock: ticks move game time on, expired deadlines become timeouts
// stamped at the deadline, bots act after their think time.
type Bookworm struct {
	cfg   BookwormConfig
	table *engine.Runner
	match *bookworm.Match
	start time.Time
	now   int64 // game time, ms since the start; never goes back

	width, height int

	// gen counts the moves applied; bot answers carry the gen they were
	// asked at and are dropped when the game moved on meanwhile.
	gen     int
	genAt   int64     // game time of the move that made gen
	pending []botPlay // bot actions of this gen, due at their time

	stage   int
	word    string
	sel     int         // the die chosen, -1 none
	verb    string      // challenge, allow, accept, reject: waiting for "who?"
	pause   bool        // the round summary is up
	pauseAt int64       //
	speaker engine.Seat // who named the last word (the log's taker)

	confirmQuit bool
	message     string
	msgIsError  bool
	log         []string
	over        bool
	saved       string
	saveErr     error
	quit        bool
}

// NewBookworm sets up a game; the first card is drawn at once.
func NewBookworm(cfg BookwormConfig) (*Bookworm, error) {
	if len(cfg.Seats) == 0 {
		return nil, errors.New("no players")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	if cfg.Game.Deck == nil {
		cfg.Game = bookworm.Game{Deck: words.Deck(), Lexicon: words.Default()}
	}
	if cfg.BotDelay <= 0 {
		cfg.BotDelay = 1500 * time.Millisecond
	}
	if cfg.RoundPause <= 0 {
		cfg.RoundPause = 4 * time.Second
	}
	names := make([]string, len(cfg.Seats))
	for i, s := range cfg.Seats {
		names[i] = s.Name
		if s.IsBot() && s.mu == nil {
			cfg.Seats[i].mu = &sync.Mutex{}
		}
	}
	t, err := engine.NewRunner(cfg.Game, names, cfg.Options, cfg.Seed, engine.NewSource(cfg.Seed))
	if err != nil {
		return nil, err
	}
	m := &Bookworm{cfg: cfg, table: t, match: t.State.(*bookworm.Match), start: cfg.Now(), sel: -1}
	return m, nil
}

// Match is the game being played (read it, never change it).
func (m *Bookworm) Match() *bookworm.Match { return m.match }

// Record is the game record so far.
func (m *Bookworm) Record() engine.Record { return m.table.Record }

// Message is the answer to the last key.
func (m *Bookworm) Message() string { return m.message }

// Log is the event log, one line per event worth telling.
func (m *Bookworm) Log() []string { return m.log }

// Now is the game time in ms.
func (m *Bookworm) Now() int64 { return m.now }

// Quitting reports whether the program was asked to end.
func (m *Bookworm) Quitting() bool { return m.quit }

// Init draws the first card and starts the clock.
func (m *Bookworm) Init() tea.Cmd {
	return tea.Batch(m.changed(nil), m.tick())
}

func (m *Bookworm) tick() tea.Cmd {
	if m.cfg.Tick <= 0 {
		return nil
	}
	return tea.Tick(m.cfg.Tick, func(time.Time) tea.Msg { return BookwormTick{} })
}

// Update handles keys, ticks and bot answers.
func (m *Bookworm) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case BookwormTick:
		if m.quit {
			return m, nil
		}
		return m, tea.Batch(m.sync(), m.tick())
	case tea.KeyPressMsg:
		c := m.sync()
		return m, tea.Batch(c, m.key(msg))
	case bwBotMsg:
		return m, m.botAnswer(msg)
	}
	return m, nil
}

func (m *Bookworm) s() *bookworm.State              { return m.match.S }
func (m *Bookworm) name(p int) string               { return m.cfg.Seats[p].Name }
func (m *Bookworm) seat(p engine.Seat) BookwormSeat { return m.cfg.Seats[p] }
func (m *Bookworm) say(s string)                    { m.message, m.msgIsError = s, false }
func (m *Bookworm) refuse(err error)                { m.message, m.msgIsError = ruleMessage(err), true }
func (m *Bookworm) logf(f string, a ...any)         { m.log = append(m.log, fmt.Sprintf(f, a...)) }
func (m *Bookworm) elapsed() int64                  { return m.cfg.Now().Sub(m.start).Milliseconds() }

// humans lists the seats played by people.
func (m *Bookworm) humans() []engine.Seat {
	var out []engine.Seat
	for i, s := range m.cfg.Seats {
		if !s.IsBot() {
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// sync moves game time up to the clock, letting what is due happen in
// time order: bot actions at their time, then a timeout at the deadline
// (a word at the deadline itself still counts, so a bot's action stamped
// at the deadline goes first).
func (m *Bookworm) sync() tea.Cmd {
	target := max(m.now, m.elapsed())
	var cmds []tea.Cmd
	for !m.s().Over() {
		if m.pause {
			if len(m.humans()) == 0 && target >= m.pauseAt+m.cfg.RoundPause.Milliseconds() {
				m.now = max(m.now, m.pauseAt+m.cfg.RoundPause.Milliseconds())
				cmds = append(cmds, m.unpause())
				continue
			}
			break
		}
		bot := -1
		for i, p := range m.pending {
			if p.at <= target && (bot < 0 || p.at < m.pending[bot].at) {
				bot = i
			}
		}
		timed := m.match.Turn().Deadlines != nil
		dl := m.s().Deadline
		switch {
		case bot >= 0 && (!timed || m.pending[bot].at <= dl):
			p := m.pending[bot]
			m.pending = slices.Delete(m.pending, bot, bot+1)
			m.now = max(m.now, p.at)
			cmds = append(cmds, m.botPlay(p))
		case timed && dl < target:
			m.now = max(m.now, dl)
			cmds = append(cmds, m.apply(engine.Move{Seat: engine.SystemSeat, At: dl, Action: bookworm.Timeout()}))
		default:
			m.now = target
			return tea.Batch(cmds...)
		}
	}
	m.now = target
	return tea.Batch(cmds...)
}

// apply plays a move, logs what happened and moves the game on. A refusal
// is returned as the error and changes nothing.
func (m *Bookworm) apply(mv engine.Move) tea.Cmd {
	cmd, _ := m.tryApply(mv)
	return cmd
}

func (m *Bookworm) tryApply(mv engine.Move) (tea.Cmd, error) {
	ev, err := m.table.Play(mv)
	if err != nil {
		if mv.Seat == engine.SystemSeat || m.seat(mv.Seat).IsBot() {
			m.logf("%s: %s", m.who(mv.Seat), ruleMessage(err))
		}
		return nil, err
	}
	return m.changed(ev), nil
}

func (m *Bookworm) who(seat engine.Seat) string {
	if seat >= 0 && int(seat) < len(m.cfg.Seats) {
		return m.name(int(seat))
	}
	return "the table"
}

// changed is called after every applied move: it resolves chance from the
// seeded source, resets the input and asks the bots who may act now.
func (m *Bookworm) changed(ev []engine.Event) tea.Cmd {
	m.logEvents(ev)
	if m.match.Turn().Chance {
		cev, err := m.table.ResolveChance(m.now, nil)
		m.logEvents(cev)
		if err != nil {
			m.logf("error: %v", err)
		}
	}
	m.gen++
	m.genAt = m.now
	m.pending = nil
	m.verb = ""
	// Every move hands the floor on (or starts judging), so a half-typed
	// word never carries over.
	m.resetInput()
	for _, e := range ev {
		if e.Kind == "round-end" && !m.s().Over() {
			m.pause, m.pauseAt = true, m.now
		}
	}
	if m.s().Over() {
		m.finish()
		return nil
	}
	if m.pause {
		return nil
	}
	return m.askBots()
}

func (m *Bookworm) resetInput() { m.stage, m.word, m.sel = stageWord, "", -1 }

// askBots asks every bot that may act now for its action, off the UI loop.
func (m *Bookworm) askBots() tea.Cmd {
	var cmds []tea.Cmd
	for _, seat := range m.match.Turn().Actors {
		s := m.seat(seat)
		if !s.IsBot() {
			continue
		}
		view := m.match.SeatView(seat)
		legal := m.match.Legal(seat)
		cmds = append(cmds, askBot(s, seat, view, legal, m.gen, m.cfg.BotDelay.Milliseconds()))
	}
	return tea.Batch(cmds...)
}

// askBot runs a bot's decision and reads its think time. A panicking bot
// becomes an error, not a crash.
func askBot(s BookwormSeat, seat engine.Seat, view *bookworm.View, legal []engine.Action, gen int, delay int64) tea.Cmd {
	return func() (msg tea.Msg) {
		s.mu.Lock()
		defer s.mu.Unlock()
		defer func() {
			if r := recover(); r != nil {
				msg = bwBotMsg{gen: gen, seat: seat, err: fmt.Errorf("the bot failed: %v", r)}
			}
		}()
		a, err := s.Bot.Choose(view, legal)
		think := delay
		if p, ok := s.Bot.(engine.Pacer); ok {
			think = max(0, p.ThinkMillis(view))
		}
		return bwBotMsg{gen: gen, seat: seat, action: a, think: think, err: err}
	}
}

// botAnswer schedules a bot's action at its think time after the version
// it answered. A nil action passes; in phases without a clock (choosing a
// category, turning the Special die) passing would stall the table, so the
// first legal action is played instead.
func (m *Bookworm) botAnswer(msg bwBotMsg) tea.Cmd {
	if msg.gen != m.gen || m.s().Over() {
		return nil
	}
	a, ok := msg.action.(bookworm.Action)
	if msg.err != nil || (msg.action != nil && !ok) || msg.action == nil {
		if msg.err != nil {
			m.logf("%s: %v", m.who(msg.seat), msg.err)
		}
		if m.match.Turn().Deadlines != nil {
			return nil // passing: the clock decides
		}
		legal := m.match.Legal(msg.seat)
		if len(legal) == 0 {
			return nil
		}
		a = legal[0].(bookworm.Action)
	}
	m.pending = append(m.pending, botPlay{seat: msg.seat, action: a, at: m.genAt + msg.think})
	return m.sync()
}

// botPlay plays a bot's action at its time; the engine may refuse it (too
// late, no longer its turn), which is logged.
func (m *Bookworm) botPlay(p botPlay) tea.Cmd {
	return m.apply(engine.Move{Seat: p.seat, At: max(p.at, m.s().Now), Action: p.action})
}

// unpause closes the round summary: the next round goes on.
func (m *Bookworm) unpause() tea.Cmd {
	m.pause = false
	m.genAt = m.now
	m.say("")
	return m.askBots()
}

// finish runs once when the game is over: it writes the record if asked.
func (m *Bookworm) finish() {
	if m.over {
		return
	}
	m.over = true
	m.pause = false
	if m.cfg.RecordPath != "" {
		m.save(m.cfg.RecordPath)
	}
}

func (m *Bookworm) recordPath() string {
	if m.cfg.RecordPath != "" {
		return m.cfg.RecordPath
	}
	return fmt.Sprintf("bookworm-%d.json", m.cfg.Seed)
}

// save writes the record as JSON (the form `dicehall replay` reads).
func (m *Bookworm) save(path string) {
	err := writeRecord(path, m.table.Record)
	m.saveErr = err
	if err != nil {
		m.message, m.msgIsError = fmt.Sprintf("could not save the record: %v", err), true
		return
	}
	m.saved = path
	m.say("record saved to " + path)
}

func (m *Bookworm) quitNow() tea.Cmd {
	if m.cfg.RecordPath != "" && m.saved == "" && len(m.table.Record.Moves) > 0 {
		m.save(m.cfg.RecordPath)
	}
	m.quit = true
	return tea.Quit
}

// isHumanTurn: a person is to name a word now.
func (m *Bookworm) isHumanTurn() bool {
	s := m.s()
	return s.Phase == bookworm.PhaseName && !m.seat(engine.Seat(s.Current)).IsBot()
}

// humanActors are the people who may act now, in seat order.
func (m *Bookworm) humanActors() []engine.Seat {
	var out []engine.Seat
	for _, a := range m.match.Turn().Actors {
		if !m.seat(a).IsBot() {
			out = append(out, a)
		}
	}
	return out
}

// play checks a person's move with the engine (at the current game time)
// and plays it, or shows the engine's reason.
func (m *Bookworm) play(seat engine.Seat, a bookworm.Action) tea.Cmd {
	cmd, err := m.tryApply(engine.Move{Seat: seat, At: m.now, Action: a})
	if err != nil {
		m.refuse(err)
		return nil
	}
	m.say("")
	return cmd
}

// key handles one key press.
func (m *Bookworm) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.quitNow()
	}
	typing := m.isHumanTurn() && !m.pause
	if m.confirmQuit {
		switch strings.ToLower(s) {
		case "y":
			return m.quitNow()
		default:
			m.confirmQuit = false
			m.say("")
		}
		return nil
	}
	if m.s().Over() {
		switch s {
		case "s":
			m.save(m.recordPath())
		case "q", "esc", "enter":
			return m.quitNow()
		default:
			m.say("the game is over: s saves the record, q quits")
		}
		return nil
	}
	if s == "q" && !typing {
		m.confirmQuit = true
		m.say("quit the game? y quits, any other key goes on")
		return nil
	}
	if m.pause {
		if s == "enter" || s == "space" {
			return m.unpause()
		}
		m.say("the round is over: enter starts the next one")
		return nil
	}
	switch m.s().Phase {
	case bookworm.PhaseCategory:
		return m.chooserKey(s, func(i int) (bookworm.Action, bool) {
			if i >= 1 && i <= 3 {
				return bookworm.ChooseCategory(i - 1), true
			}
			return bookworm.Action{}, false
		}, "choose a category: 1, 2 or 3")
	case bookworm.PhaseTurnTo:
		return m.chooserKey(s, func(i int) (bookworm.Action, bool) {
			if i >= 1 && i <= 5 {
				return bookworm.TurnTo(bookworm.Special(i)), true
			}
			return bookworm.Action{}, false
		}, "turn the Special die: 1 A–Z, 2 NOT, 3 ••, 4 Stack, 5 ?")
	case bookworm.PhaseName:
		if typing {
			return m.nameKey(s, k.Text)
		}
		m.say(fmt.Sprintf("%s (bot) is thinking of a word: watch, or q to quit", m.name(int(m.s().Current))))
		return nil
	case bookworm.PhaseChallenge, bookworm.PhaseVote:
		return m.judgeKey(s)
	}
	return nil
}

// chooserKey handles the phases where one seat picks a number: a category,
// the Special die's new face.
func (m *Bookworm) chooserKey(s string, action func(int) (bookworm.Action, bool), hint string) tea.Cmd {
	actors := m.match.Turn().Actors
	if len(actors) != 1 || m.seat(actors[0]).IsBot() {
		m.say("a bot is choosing: watch, or q to quit")
		return nil
	}
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		if a, ok := action(int(s[0] - '0')); ok {
			return m.play(actors[0], a)
		}
	}
	m.message, m.msgIsError = m.name(int(actors[0]))+": "+hint, true
	return nil
}

// wordRune reports whether r may be typed into a word: letters (accents
// too; the rules normalise) and the separators the rules accept.
func wordRune(r rune) bool {
	return r == ' ' || r == '-' || r == '\'' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= 0xc0 && r != 0xd7 && r != 0xf7
}

// nameKey is a key of the person on turn: type the word, then choose the
// die (the number keys choose any die directly, so a steal is the number of
// a die in front of another player too).
func (m *Bookworm) nameKey(s, text string) tea.Cmd {
	me := engine.Seat(m.s().Current)
	switch s {
	case "?":
		return m.play(me, bookworm.TakeQuestion())
	case "ctrl+g":
		return m.play(me, bookworm.GiveUp())
	case "enter":
		if m.stage == stageWord {
			return m.toDie(-1)
		}
		if m.sel < 0 {
			m.message, m.msgIsError = "choose a die first: ←/→, s to steal, or its number", true
			return nil
		}
		return m.play(me, m.nameAction())
	case "esc":
		if m.stage == stageDie {
			m.stage, m.sel = stageWord, -1
			m.say("")
		} else {
			m.word = ""
		}
		return nil
	}
	// Dice are numbered from 0, as in the engine's messages.
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		d := int(s[0] - '0')
		if d >= int(m.s().NDice) {
			m.message, m.msgIsError = fmt.Sprintf("there is no die %d", d), true
			return nil
		}
		return m.toDie(d)
	}
	if m.stage == stageWord {
		switch s {
		case "backspace":
			if r := []rune(m.word); len(r) > 0 {
				m.word = string(r[:len(r)-1])
			}
			return nil
		case "right", "left", "tab":
			return m.toDie(-1)
		}
		r := []rune(text)
		if s == "space" {
			r = []rune{' '}
		}
		if len(r) == 1 && wordRune(r[0]) {
			if len([]rune(m.word)) < bookworm.MaxWordRunes {
				m.word += string(r)
			}
			m.say("")
			return nil
		}
		m.message, m.msgIsError = "type a word with letters; enter goes on to the die", true
		return nil
	}
	switch s {
	case "left", "right", "up", "down":
		m.moveSel(s == "right" || s == "down")
	case "s", "tab":
		m.nextGroup()
	case "backspace":
		m.stage, m.sel = stageWord, -1
	default:
		m.message, m.msgIsError = "choose the die: ←/→, s steals, a number picks it, enter names the word, esc edits it", true
	}
	return nil
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
func (m *Bookworm) toDie(d int) tea.Cmd {
	if strings.TrimSpace(m.word) == "" {
		m.message, m.msgIsError = "type the word first, then choose its die", true
		return nil
	}
	m.stage = stageDie
	m.say("")
	if d >= 0 {
		m.sel = d
		return nil
	}
	m.sel = m.bestDie()
	if m.sel < 0 {
		m.sel = m.firstIn(int(bookworm.Display))
		if l := m.wordLetter(); l != 0 {
			m.message, m.msgIsError = fmt.Sprintf("no die takes a word on %c now", l-'a'+'A'), true
		}
	}
	return nil
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
				m.say("")
			} else {
				m.sel = ds[len(ds)-1]
				m.say(fmt.Sprintf("stealing from %s: ←/→ chooses the die, s the next player", m.name(g)))
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
func (m *Bookworm) judgeKey(s string) tea.Cmd {
	vote := m.s().Phase == bookworm.PhaseVote
	verbs := map[string]string{"c": "challenge", "a": "allow"}
	if vote {
		verbs = map[string]string{"y": "accept", "n": "reject"}
	}
	humans := m.humanActors()
	if v, ok := verbs[s]; ok {
		switch len(humans) {
		case 0:
			m.message, m.msgIsError = "no person at this keyboard may act on this word", true
			return nil
		case 1:
			return m.judge(humans[0], v)
		}
		m.verb = v
		m.say("")
		return nil
	}
	if len(s) == 1 && s[0] >= '1' && s[0] <= '6' {
		seat := engine.Seat(s[0] - '1')
		if m.verb == "" {
			m.message, m.msgIsError = "first the key of what to do, then the seat number", true
			return nil
		}
		if int(seat) >= len(m.cfg.Seats) || m.seat(seat).IsBot() {
			m.message, m.msgIsError = fmt.Sprintf("seat %c is not a person at this keyboard", s[0]), true
			return nil
		}
		v := m.verb
		m.verb = ""
		return m.judge(seat, v)
	}
	if s == "esc" {
		m.verb = ""
		m.say("")
		return nil
	}
	if vote {
		m.message, m.msgIsError = "vote: y accepts, n rejects (then the voter's seat number)", true
	} else {
		m.message, m.msgIsError = "c challenges the word, a lets it pass (then the seat number)", true
	}
	return nil
}

func (m *Bookworm) judge(seat engine.Seat, verb string) tea.Cmd {
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
	return m.play(seat, a)
}
