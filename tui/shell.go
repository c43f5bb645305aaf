// Package tui holds dicehall's full-screen terminal client, built on Bubble
// Tea. One Shell runs the table of any game (the engine.Runner, the bots,
// the clock, the log, quitting, help, record saving); each game brings a
// Board that draws its view and turns keys into actions. The shell talks
// to a game only through the engine, so every refusal shown is the rules'
// own.
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
	"github.com/charmbracelet/x/ansi"

	"github.com/dicehall/dicehall/engine"
)

// Screen size used until the terminal reports its own.
const (
	defaultWidth  = 100
	defaultHeight = 30
)

// defaultFrame is the clock period of boards that do not set their own.
const defaultFrame = 100 * time.Millisecond

// Board is one game's face in the terminal. The shell calls it on the UI
// loop only.
type Board interface {
	// Attach gives the board its shell, once the table is set up.
	Attach(sh *Shell) error
	// Spec is what the shell needs to know about the board.
	Spec() BoardSpec
	// Render draws the whole w×h screen (at least the minimum size).
	Render(w, h int) string
	// Key handles a key the shell did not take: it changes the board's
	// input, or plays through Shell.Act. false means the key means nothing
	// here (the shell says so).
	Key(k tea.KeyPressMsg) bool
	// Played is told every move the table applied (nature's as one move of
	// ChanceSeat) with its events.
	Played(m engine.Move, events []engine.Event)
	// Help is the key reference the help overlay shows, a line per key.
	Help() []string
	// Summary is printed on the normal screen after the program ends.
	Summary() string
}

// BoardSpec describes a board to the shell.
type BoardSpec struct {
	// MinWidth and MinHeight are the smallest screen the board draws;
	// below it the shell shows a notice instead.
	MinWidth, MinHeight int
	// Frame is the clock period (animations step once a frame; 0: 100 ms).
	Frame time.Duration
	// BotChanceWaits makes nature wait the bot delay after a bot's move, so
	// each step of a bot's turn shows (Dice Stars' roll after a draw).
	BotChanceWaits bool
}

// Optional board capabilities.
type (
	// Holder is a board that can hold the table while it shows something
	// (an animation, a round's summary): nothing plays meanwhile.
	Holder interface{ Holding() bool }
	// Ticker is a board told each clock step (after the table's).
	Ticker interface{ Tick() }
	// Typist is a board that is taking text: q is a letter then, not quit.
	Typist interface{ Typing() bool }
	// BotWatcher is a board told a bot's decided move before it plays.
	BotWatcher interface{ BotDecided(m engine.Move) }
	// OnBoard is a board that keeps some events in view all the time (a
	// header naming the round and who leads it): the log leaves their
	// narration out rather than say it twice.
	OnBoard interface{ OnBoard(e engine.Event) bool }
)

// boards are the registered boards by game id; each board file registers
// its own, so nothing else names the games.
var boards = map[string]func() Board{}

// registerBoard makes newBoard the terminal board of the game id.
func registerBoard(id string, newBoard func() Board) { boards[id] = newBoard }

// HasBoard reports whether the game id has a terminal board.
func HasBoard(id string) bool { _, ok := boards[id]; return ok }

// Config sets up a terminal game.
type Config struct {
	// Game is the game played (from the registry: it carries its decks,
	// lexicons, simulators).
	Game  engine.Game
	Seats []Seat
	// Options are the table options as JSON (nil: the defaults).
	Options json.RawMessage
	// Seed seeds the chance source (engine.NewSource): the same seed and the
	// same choices give the same game.
	Seed uint64
	// BotDelay is how long, in game time, a bot that does not pace itself
	// takes before its move (`play` passes engine.DefaultBotDelayMs unless
	// --bot-delay). Zero plays bots on the next clock step.
	BotDelay time.Duration
	// RecordPath, when set, is where the game record is written as JSON when
	// the game ends or the player quits. Without it the end screen offers to
	// save to DefaultRecordPath.
	RecordPath string
	// ManualClock stops the shell from scheduling its own clock steps:
	// tests send them (tick) and move Now themselves.
	ManualClock bool
	// Now reads the wall clock; game time is the time since the start.
	// nil means time.Now.
	Now func() time.Time
}

// Shell runs one game at the terminal, a tea.Model.
type Shell struct {
	cfg   Config
	info  engine.Info
	board Board
	spec  BoardSpec
	table *engine.Runner
	names []string
	start time.Time // of game time: moves on by the time the board was hidden
	now   int64     // game time, ms since the start; never goes back
	// hiddenSince is when the board went out of sight (zero: in sight).
	hiddenSince time.Time
	last        engine.Move

	width, height int

	// gen counts the moves applied; a bot's answer carries the gen it was
	// asked at and is dropped when the game moved on meanwhile.
	gen      int
	asked    bool  // the bots were asked for this gen
	askedAt  int64 // game time they were asked at (their think time starts)
	thinking map[engine.Seat]bool
	decided  []engine.Move // bots' moves waiting for their time
	failed   []engine.Deadline
	// chanceAt is when nature acts after a bot's move (BotChanceWaits).
	chanceAt   int64
	chanceWait bool
	keyboard   engine.Seat // the person whose turn it was last

	help        bool
	helpTop     int // the help screen's first line shown
	confirmQuit bool
	message     string
	msgIsError  bool
	log         []string
	over        bool
	saved       string
	saveErr     error
	quit        bool
	cmds        []tea.Cmd
	// watching: nobody plays at this keyboard (a replayed position: every
	// seat is watched as a bot's would be).
	watching bool

	// The coach (coach.go): a hint asked or shown; after the game, its
	// review being computed, computed, and in view.
	hint      *hintState
	reviewJob *reviewJob
	reviewed  *reviewScreen
	review    *reviewScreen
}

// New sets up a game at the terminal with its registered board.
func New(cfg Config) (*Shell, error) {
	if cfg.Game == nil {
		return nil, errors.New("no game")
	}
	newBoard, ok := boards[cfg.Game.Info().ID]
	if !ok {
		return nil, fmt.Errorf("%s has no terminal board", cfg.Game.Info().Title)
	}
	return NewShell(cfg, newBoard())
}

// NewShell sets up a game at the terminal with the given board.
func NewShell(cfg Config, b Board) (*Shell, error) {
	sh, err := openShell(cfg, b)
	if err != nil {
		return nil, err
	}
	// Nature may act first (the first hand, the first card).
	if sh.table.State.Turn().Chance {
		sh.resolveChance()
	}
	return sh, nil
}

// openShell seats the players at a new table with board b attached, before
// anything is played (nature's first step is the caller's).
func openShell(cfg Config, b Board) (*Shell, error) {
	if len(cfg.Seats) == 0 {
		return nil, errors.New("no players")
	}
	if cfg.BotDelay < 0 {
		return nil, errors.New("the bot delay must not be negative")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
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
	sh := &Shell{cfg: cfg, info: cfg.Game.Info(), board: b, table: t, names: names, start: cfg.Now(),
		thinking: map[engine.Seat]bool{}, keyboard: -1, last: engine.Move{Seat: engine.SystemSeat}}
	for i, s := range cfg.Seats {
		if !s.IsBot() {
			sh.keyboard = engine.Seat(i)
			break
		}
	}
	sh.spec = b.Spec()
	if sh.spec.Frame <= 0 {
		sh.spec.Frame = defaultFrame
	}
	if err := b.Attach(sh); err != nil {
		return nil, err
	}
	return sh, nil
}

// What the shell sends itself.
type (
	// tick is a clock step: game time catches up with the clock and what
	// is due plays.
	tick struct{}
	// botAnswer is a bot's move (stamped with its time) for the game
	// version gen, or why it has none.
	botAnswer struct {
		gen  int
		seat engine.Seat
		move engine.Move // Action nil: the bot passes
		err  error
	}
)

// Init starts the clock and asks the bots who act first.
func (s *Shell) Init() tea.Cmd {
	s.askBots()
	s.later(s.nextTick())
	return s.flush()
}

func (s *Shell) nextTick() tea.Cmd {
	if s.cfg.ManualClock || s.quit {
		return nil
	}
	return tea.Tick(s.spec.Frame, func(time.Time) tea.Msg { return tick{} })
}

// Update handles keys, clock steps and bot answers.
func (s *Shell) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	s.holdClock()
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		s.width, s.height = msg.Width, msg.Height
	case tick:
		if s.quit {
			return s, nil
		}
		if !s.hidden() {
			s.sync()
			if t, ok := s.board.(Ticker); ok {
				t.Tick()
			}
			s.askBots()
		}
		s.later(s.nextTick())
	case tea.KeyPressMsg:
		s.sync()
		s.key(msg)
		s.askBots()
	case botAnswer:
		s.answer(msg)
	case hintAnswer:
		s.hinted(msg)
	case reviewDone:
		s.reviewReady(msg)
	}
	s.holdClock()
	return s, s.flush()
}

// hidden reports whether the board is out of sight: the window is too
// small for it, or the help covers it.
func (s *Shell) hidden() bool { return s.help || s.tooSmall() }

// holdClock keeps game time still while the board is hidden, so nobody
// loses a turn to a clock they cannot see: the time it stays hidden is
// added to the start.
func (s *Shell) holdClock() {
	switch now := s.cfg.Now(); {
	case s.hidden() && s.hiddenSince.IsZero():
		s.hiddenSince = now
	case !s.hidden() && !s.hiddenSince.IsZero():
		s.start = s.start.Add(now.Sub(s.hiddenSince))
		s.hiddenSince = time.Time{}
	}
}

func (s *Shell) later(c tea.Cmd) {
	if c != nil {
		s.cmds = append(s.cmds, c)
	}
}

func (s *Shell) flush() tea.Cmd {
	c := tea.Batch(s.cmds...)
	s.cmds = nil
	return c
}

// Reading the table, for boards.

// State is the game being played (read it, never change it).
func (s *Shell) State() engine.State { return s.table.State }

// Record is the game record so far.
func (s *Shell) Record() engine.Record { return s.table.Record }

// Info is the game's description.
func (s *Shell) Info() engine.Info { return s.info }

// Seats are the players.
func (s *Shell) Seats() []Seat { return s.cfg.Seats }

// Name is the name of seat p.
func (s *Shell) Name(p int) string { return engine.SeatName(s.names, engine.Seat(p)) }

// BotDelay is the time a bot takes before its move (boards pace what they
// show of a bot's move by it).
func (s *Shell) BotDelay() time.Duration { return s.cfg.BotDelay }

// Seed is the seed of the game.
func (s *Shell) Seed() uint64 { return s.cfg.Seed }

// Now is the game time in ms.
func (s *Shell) Now() int64 { return s.now }

// Over reports whether the game has ended.
func (s *Shell) Over() bool { return s.table.State.Turn().Over }

// IsPerson reports whether seat is played at this keyboard.
func (s *Shell) IsPerson(seat engine.Seat) bool {
	return !s.watching && seat >= 0 && int(seat) < len(s.cfg.Seats) && !s.cfg.Seats[seat].IsBot()
}

// People lists the seats played at this keyboard.
func (s *Shell) People() []engine.Seat {
	var out []engine.Seat
	for i := range s.cfg.Seats {
		if s.IsPerson(engine.Seat(i)) {
			out = append(out, engine.Seat(i))
		}
	}
	return out
}

// Keyboard is the person whose turn it was last (-1: nobody's yet): keys
// pressed while a bot plays are asked of the rules on their behalf, so a
// refusal names whose turn it is.
func (s *Shell) Keyboard() engine.Seat { return s.keyboard }

// Thinking reports whether a bot of seat is deciding.
func (s *Shell) Thinking(seat engine.Seat) bool { return s.thinking[seat] }

// Decided is a bot's move waiting for its time, if any.
func (s *Shell) Decided() (engine.Move, bool) {
	if len(s.decided) == 0 {
		return engine.Move{}, false
	}
	return s.decided[0], true
}

// Confirming reports whether "quit?" is asked.
func (s *Shell) Confirming() bool { return s.confirmQuit }

// Message is the answer to the last key and whether it is a refusal; while
// the coach thinks, what it is doing.
func (s *Shell) Message() (string, bool) {
	switch {
	case s.reviewJob != nil:
		return s.reviewJob.status(), false
	case s.hint != nil && s.hint.waiting && s.hint.gen == s.gen:
		return "hint: the coach is thinking…", false
	}
	return s.message, s.msgIsError
}

// Log is the table's log, a line per thing that happened.
func (s *Shell) Log() []string { return s.log }

// Saved is where the record was saved ("" not yet), and why it could not be.
func (s *Shell) Saved() (string, error) { return s.saved, s.saveErr }

// DefaultRecordPath is where the end screen saves the record: --record, or
// GAME-SEED.json.
func (s *Shell) DefaultRecordPath() string {
	if s.cfg.RecordPath != "" {
		return s.cfg.RecordPath
	}
	return fmt.Sprintf("%s-%d.json", s.info.ID, s.cfg.Seed)
}

// Quitting reports whether the program was asked to end.
func (s *Shell) Quitting() bool { return s.quit }

// Summary is what to print once the full screen is gone.
func (s *Shell) Summary() string { return s.board.Summary() }

// Speaking, for boards.

// Say shows a message ("" clears it).
func (s *Shell) Say(m string) { s.message, s.msgIsError = m, false }

// Fail shows a refusal.
func (s *Shell) Fail(m string) { s.message, s.msgIsError = m, true }

// Refuse shows why the rules refused a move.
func (s *Shell) Refuse(err error) { s.Fail(ruleMessage(err)) }

// ruleMessage is the sentence of a refusal: the engine's RuleError message.
func ruleMessage(err error) string {
	if re, ok := engine.AsRuleError(err); ok {
		return re.Message
	}
	return err.Error()
}

func (s *Shell) logf(f string, a ...any) { s.log = append(s.log, fmt.Sprintf(f, a...)) }

// Narrate is the game's English lines for an event, as the log shows them
// (a board that also shows one as its message uses the same words).
func (s *Shell) Narrate(e engine.Event) []string { return narrate(s.cfg.Game, e, s.names) }

// Playing.

// Act plays a person's action now: a seat played by a bot is not this
// keyboard's to move, and a refusal shows the rules' reason and changes
// nothing.
func (s *Shell) Act(seat engine.Seat, a engine.Action) error {
	if !s.IsPerson(seat) {
		s.Say(s.botPlaying())
		return errors.New("not a person's seat")
	}
	m := engine.Move{Seat: seat, At: max(s.now, s.last.At), Action: a}
	if err := s.table.State.Check(m); err != nil {
		s.Refuse(err)
		return err
	}
	if s.holding() {
		s.Say(s.botPlaying())
		return errors.New("the table is held")
	}
	s.Say("")
	return s.apply(m)
}

// botPlaying is the answer to a key while a bot has the turn.
func (s *Shell) botPlaying() string {
	who := s.last.Seat
	for _, a := range s.table.State.Turn().Actors {
		if !s.IsPerson(a) {
			who = a
			break
		}
	}
	return fmt.Sprintf("%s (bot) is playing: watch, or q to quit", engine.SeatName(s.names, who))
}

func (s *Shell) holding() bool {
	h, ok := s.board.(Holder)
	return ok && h.Holding()
}

// apply plays a move, tells the log and the board, and moves the table on.
func (s *Shell) apply(m engine.Move) error {
	ev, err := s.table.Play(m)
	if err != nil {
		return err
	}
	s.changed(m, ev)
	if st := s.table.State; st.Turn().Chance {
		if s.spec.BotChanceWaits && m.Seat >= 0 && !s.IsPerson(m.Seat) {
			s.chanceWait, s.chanceAt = true, m.At+s.cfg.BotDelay.Milliseconds()
		} else {
			s.resolveChance()
		}
	}
	s.askBots()
	return nil
}

// resolveChance lets nature act from the seeded source, as engine.Runner
// does.
func (s *Shell) resolveChance() {
	s.chanceWait = false
	at := max(s.now, s.last.At)
	ev, err := s.table.ResolveChance(at, nil)
	if err != nil {
		s.logf("error: %v", err)
	}
	s.changed(engine.Move{Seat: engine.ChanceSeat, At: at}, ev)
}

// changed follows every move: a new version of the game, its log lines
// (the game's own narration of each event, so "who did what" is written
// once, by the game, for every client), the board's update, and the end.
func (s *Shell) changed(m engine.Move, ev []engine.Event) {
	s.gen++
	s.last = m
	s.asked, s.decided, s.failed = false, nil, nil
	s.hint = nil // it was for the position before
	clear(s.thinking)
	if !s.confirmQuit && (s.msgIsError || m.Seat != engine.ChanceSeat) {
		// The table moved on: an answer to an earlier key (a refusal
		// above all) no longer fits the situation. What a board says of
		// the move itself (in Played) survives nature's step after it.
		s.Say("")
	}
	shown, _ := s.board.(OnBoard)
	for _, e := range ev {
		if shown == nil || !shown.OnBoard(e) {
			s.log = append(s.log, s.Narrate(e)...)
		}
	}
	s.board.Played(m, ev)
	turn := s.table.State.Turn()
	for _, a := range turn.Actors {
		if s.IsPerson(a) {
			s.keyboard = a
			break
		}
	}
	if turn.Over && !s.over {
		s.over = true
		s.confirmQuit = false
		if s.cfg.RecordPath != "" {
			s.save(s.cfg.RecordPath)
		}
	}
}

// sync moves game time up to the clock, letting what is due happen in time
// order: nature's delayed step, bots' moves at their time, timeouts once
// their deadline has passed (a person's move at the deadline itself still
// counts, so a deadline falls due only after it).
func (s *Shell) sync() {
	if s.hidden() {
		return
	}
	target := max(s.now, s.cfg.Now().Sub(s.start).Milliseconds())
	for !s.over && !s.holding() {
		if s.chanceWait {
			if s.chanceAt > target {
				break
			}
			s.now = max(s.now, s.chanceAt)
			s.resolveChance()
			s.askBots()
			continue
		}
		turn := s.table.State.Turn()
		due, ok := engine.Next(turn.Deadlines, s.decided, target, func(d engine.Deadline) bool {
			return d.At >= target || slices.Contains(s.failed, d)
		})
		if !ok {
			break
		}
		if due.Move != nil {
			// A copy: due.Move points into s.decided, which DeleteFunc
			// shifts and clears.
			m := *due.Move
			s.decided = slices.DeleteFunc(s.decided, func(x engine.Move) bool { return x.Seat == m.Seat })
			s.now = max(s.now, m.At)
			s.playBot(engine.Move{Seat: m.Seat, At: max(m.At, s.last.At), Action: m.Action})
			continue
		}
		dl := *due.Deadline
		s.now = max(s.now, dl.At)
		m, ok := engine.TimeoutMove(s.table.State, max(dl.At, s.last.At))
		if !ok {
			s.logf("error: the rules accept no timeout for the deadline of %s at %d ms", dl.Seat, dl.At)
			s.failed = append(s.failed, dl)
			continue
		}
		if err := s.apply(m); err != nil {
			s.logf("error: timeout refused: %s", ruleMessage(err))
			s.failed = append(s.failed, dl)
		}
	}
	s.now = target
}

// playBot plays a bot's move at its time. The rules may refuse it (too
// late, an illegal choice): the log says why, and where nothing else would
// move the table on, the seat's first legal action is played instead.
func (s *Shell) playBot(m engine.Move) {
	err := s.apply(m)
	if err == nil {
		return
	}
	s.botFallback(m.Seat, m.At, ruleMessage(err))
}

// botFallback logs why a bot's move is not played and, unless the table
// may wait (a deadline runs or a person may act), plays the seat's first
// legal action for it so the game goes on.
func (s *Shell) botFallback(seat engine.Seat, at int64, why string) {
	name := engine.SeatName(s.names, seat)
	if engine.MayPass(s.table.State.Turn(), s.IsPerson) {
		s.logf("%s: %s", name, why)
		return
	}
	legal := s.table.State.Legal(seat)
	if len(legal) == 0 {
		s.logf("%s: %s; no legal move is left", name, why)
		return
	}
	s.logf("%s: %s; playing %s instead", name, why, actionText(legal[0]))
	if err := s.apply(engine.Move{Seat: seat, At: at, Action: legal[0]}); err != nil {
		s.logf("%s: %s", name, ruleMessage(err))
	}
}

// actionText names an action in the log: its own words when it has them.
func actionText(a engine.Action) string {
	if st, ok := a.(fmt.Stringer); ok {
		return st.String()
	}
	return "a listed " + a.Kind()
}

// askBots asks every bot that may act now for its move, off the UI loop,
// once per version of the game, unless the board holds the table.
func (s *Shell) askBots() {
	st := s.table.State
	turn := st.Turn()
	if s.asked || turn.Over || turn.Chance || s.chanceWait || s.holding() {
		return
	}
	s.asked, s.askedAt = true, max(s.now, s.last.At)
	for _, seat := range turn.Actors {
		if seat < 0 || int(seat) >= len(s.cfg.Seats) || !s.cfg.Seats[seat].IsBot() {
			continue
		}
		s.thinking[seat] = true
		s.later(ask(s.cfg.Seats[seat], seat, st.View(seat), st.Legal(seat), s.gen, s.askedAt, s.cfg.BotDelay.Milliseconds()))
	}
}

// ask runs a bot's decision and stamps its move with engine.BotMove. A
// panicking bot becomes an error, not a crash.
func ask(b Seat, seat engine.Seat, view any, legal []engine.Action, gen int, start, delay int64) tea.Cmd {
	return func() (msg tea.Msg) {
		b.mu.Lock()
		defer b.mu.Unlock()
		defer func() {
			if r := recover(); r != nil {
				msg = botAnswer{gen: gen, seat: seat, err: fmt.Errorf("the bot failed: %v", r)}
			}
		}()
		a, err := b.Bot.Choose(view, legal)
		return botAnswer{gen: gen, seat: seat, move: engine.BotMove(b.Bot, seat, view, a, start, delay), err: err}
	}
}

// answer takes a bot's answer: its move waits for its time (the clock
// plays it, never the answer itself, so a bot's choice shows first). A
// bot that fails, or passes where nothing else moves the table on, gets
// the seat's first legal action.
func (s *Shell) answer(msg botAnswer) {
	if msg.gen != s.gen || s.over {
		return
	}
	delete(s.thinking, msg.seat)
	switch {
	case msg.err != nil:
		s.botFallback(msg.seat, msg.move.At, msg.err.Error())
		return
	case msg.move.Action == nil:
		if !engine.MayPass(s.table.State.Turn(), s.IsPerson) {
			s.botFallback(msg.seat, msg.move.At, "passed, which the table does not allow")
		}
		return
	}
	s.decided = append(s.decided, msg.move)
	if w, ok := s.board.(BotWatcher); ok {
		w.BotDecided(msg.move)
	}
}

// Keys.

func (s *Shell) key(k tea.KeyPressMsg) {
	key := k.String()
	if key == "ctrl+c" {
		s.quitNow()
		return
	}
	if s.review != nil {
		s.reviewKey(key)
		return
	}
	if s.tooSmall() {
		return
	}
	if s.help {
		if !s.helpKey(key) {
			s.help = false
		}
		return
	}
	if t, ok := s.board.(Typist); key == "f1" || key == "?" && (!ok || !t.Typing()) {
		s.help, s.helpTop = true, 0
		return
	}
	if s.confirmQuit {
		s.confirmQuit = false
		if strings.ToLower(key) == "y" {
			s.quitNow()
			return
		}
		s.Say("")
		return
	}
	if s.over {
		switch {
		case key == "esc" && s.reviewJob != nil:
			s.stopReview()
		case key == "s":
			s.save(s.DefaultRecordPath())
		case key == "r" && s.analyst():
			s.startReview()
		case key == "q" || key == "esc": // not enter: a last enter of play must not leave the end unseen
			s.quitNow()
		default:
			if !s.board.Key(k) {
				if s.analyst() {
					s.Say("the game is over: r reviews it, s saves the record, q quits")
				} else {
					s.Say("the game is over: s saves the record, q quits")
				}
			}
		}
		return
	}
	if t, ok := s.board.(Typist); key == "q" && (!ok || !t.Typing()) {
		s.confirmQuit = true
		s.Say("quit the game? y quits, any other key goes on")
		return
	}
	if s.hintKey(key) {
		s.askHint()
		return
	}
	if !s.board.Key(k) {
		s.Say(fmt.Sprintf("the key %q does nothing here: see the keys listed below", key))
	}
}

// save writes the record as JSON (the form `dicehall replay` reads).
func (s *Shell) save(path string) {
	err := writeRecord(path, s.table.Record)
	s.saveErr = err
	if err != nil {
		s.Fail(fmt.Sprintf("could not save the record: %v", err))
		return
	}
	s.saved = path
	s.Say("record saved to " + path)
}

func (s *Shell) quitNow() {
	if s.reviewJob != nil {
		s.reviewJob.cancel()
	}
	if s.cfg.RecordPath != "" && s.saved == "" && len(s.table.Record.Moves) > 0 {
		s.save(s.cfg.RecordPath)
	}
	s.quit = true
	s.later(tea.Quit)
}

// Drawing.

// View renders the whole screen.
func (s *Shell) View() tea.View {
	v := tea.NewView(s.Render())
	v.AltScreen = true
	v.WindowTitle = "dicehall · " + s.info.Title
	return v
}

func (s *Shell) size() (int, int) {
	w, h := s.width, s.height
	if w <= 0 {
		w = defaultWidth
	}
	if h <= 0 {
		h = defaultHeight
	}
	return w, h
}

func (s *Shell) tooSmall() bool {
	w, h := s.size()
	return w < s.spec.MinWidth || h < s.spec.MinHeight
}

// Render draws the screen as text (with ANSI styles) at the current size:
// the board, the help overlay, or the notice that the window is too small.
func (s *Shell) Render() string {
	w, h := s.size()
	switch {
	case s.review != nil:
		return s.review.render(w, h)
	case s.tooSmall():
		return fitScreen([]string{
			styleTitle.Render(" " + strings.ToUpper(s.info.Title) + " "),
			"",
			fmt.Sprintf("The window is %d×%d: the game needs at least %d×%d.", w, h, s.spec.MinWidth, s.spec.MinHeight),
			"Make it larger to play on (the game waits),",
			"or press ctrl+c to quit.",
		}, w, h)
	case s.help:
		return s.renderHelp(w, h)
	}
	screen := s.board.Render(w, h)
	if box := s.hintLines(w); box != nil {
		screen = overlay(screen, box, h/2)
	}
	return screen
}

// fitScreen pads or cuts lines to exactly w×h.
func fitScreen(lines []string, w, h int) string {
	for len(lines) < h {
		lines = append(lines, "")
	}
	lines = lines[:h]
	for i, l := range lines {
		lines[i] = ansi.Truncate(l, w, "…")
	}
	return strings.Join(lines, "\n")
}
