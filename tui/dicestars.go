// Package tui holds dicehall's full-screen terminal clients, built on Bubble
// Tea. Each client is a tea.Model that talks to a game only through the
// engine (Table, Check/Apply, reports and views), so the rules stay the
// single source of truth and every refusal shown is the engine's own.
package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// Seat is one player of a Dice Stars game at this terminal: a person at the
// shared keyboard (hot-seat) or a bot.
type Seat struct {
	Name string
	// BotKind and Bot are set for a bot seat ("random", "greedy", ...).
	BotKind string
	Bot     dicestars.Bot
}

// IsBot reports whether the seat is played by a bot.
func (s Seat) IsBot() bool { return s.Bot != nil }

// botLabel is what follows a bot's name on screen: " (bot)", or
// " (bot KIND)" when the name does not say the kind.
func (s Seat) botLabel() string {
	switch {
	case !s.IsBot():
		return ""
	case strings.HasPrefix(strings.ToLower(s.Name), s.BotKind):
		return " (bot)"
	}
	return " (bot " + s.BotKind + ")"
}

// DefaultPlayers is the --players value when none is given.
const DefaultPlayers = "you,bot:greedy"

// ParsePlayers reads a comma-separated player list: plain names are people
// at the keyboard; "bot:KIND" (or "NAME=bot:KIND") seats a bot made by
// dicestars.NewBot, seeded with engine.SplitSeed(seed, seat). One player is
// the solo variant.
func ParsePlayers(spec string, seed uint64) ([]Seat, error) {
	if n := len(strings.Split(spec, ",")); n > dicestars.MaxPlayers {
		return nil, fmt.Errorf("dice stars is for 1 to %d players, not %d", dicestars.MaxPlayers, n)
	}
	bots := map[int]dicestars.Bot{}
	specs, err := parsePlayerList(spec, func(i int, kind string) error {
		b, err := dicestars.NewBot(kind, engine.SplitSeed(seed, uint64(i)))
		bots[i] = b
		return err
	})
	if err != nil {
		return nil, err
	}
	seats := make([]Seat, len(specs))
	for i, sp := range specs {
		seats[i] = Seat{Name: sp.Name, BotKind: sp.BotKind, Bot: bots[i]}
	}
	return seats, nil
}

// Config sets up a terminal game of Dice Stars.
type Config struct {
	Seats []Seat
	// Seed seeds the chance source (engine.NewSource): the same seed and the
	// same choices give the same game.
	Seed uint64
	// SoloGrid overrides the size of the solo grid (0: the layout's).
	SoloGrid int
	// BotDelay is the pause before each visible bot step (draw, roll, take).
	// Zero plays bots at once.
	BotDelay time.Duration
	// RecordPath, when set, is where the game record is written as JSON when
	// the game ends or the player quits. Without it the end screen offers to
	// save to DefaultRecordPath.
	RecordPath string
	// Now stamps moves with game time; nil means time.Now.
	Now func() time.Time
}

// DefaultRecordPath is where the end screen saves the record when no
// --record file was given.
func (c Config) DefaultRecordPath() string {
	if c.RecordPath != "" {
		return c.RecordPath
	}
	return fmt.Sprintf("dicestars-%d.json", c.Seed)
}

// DiceStars is the terminal client of Dice Stars, a tea.Model.
type DiceStars struct {
	cfg    Config
	table  *engine.Runner
	match  *dicestars.Match
	layout *dicestars.Layout
	start  time.Time

	width, height int

	// gen counts the moves applied; a bot's delayed step carries the gen it
	// was scheduled at and is dropped if the game moved on meanwhile.
	gen      int
	thinking bool // a bot decision is running in a tea.Cmd

	returnReserve bool        // draw with the reserve put back (refill turns)
	picking       bool        // the multiplier-row picker is open
	pickStars     int         // stars to place
	pickRows      []int       // row index chosen for each star so far
	confirmQuit   bool        // "quit?" is asked
	focus         int         // sheet shown in full when not all fit (-1: whoever plays)
	lastHuman     engine.Seat // the seat whose keyboard it was last
	message       string      // the answer to the last key
	msgIsError    bool        //
	log           []string    // one line per action
	over          bool        // the end was handled (record written)
	saved         string      // where the record was saved
	saveErr       error       //
	quit          bool        // the program is quitting
}

// NewDiceStars sets up a game.
func NewDiceStars(cfg Config) (*DiceStars, error) {
	if len(cfg.Seats) == 0 {
		return nil, errors.New("no players")
	}
	if cfg.Now == nil {
		cfg.Now = time.Now
	}
	names := make([]string, len(cfg.Seats))
	for i, s := range cfg.Seats {
		names[i] = s.Name
	}
	var opts []byte
	if cfg.SoloGrid != 0 {
		var err error
		if opts, err = json.Marshal(dicestars.Options{SoloGrid: cfg.SoloGrid}); err != nil {
			return nil, err
		}
	}
	t, err := engine.NewRunner(dicestars.Game{}, names, opts, cfg.Seed, engine.NewSource(cfg.Seed))
	if err != nil {
		return nil, err
	}
	m := &DiceStars{cfg: cfg, table: t, match: t.State.(*dicestars.Match), start: cfg.Now(), focus: -1}
	m.layout = m.match.S.L
	for i, s := range cfg.Seats {
		if !s.IsBot() {
			m.lastHuman = engine.Seat(i)
			break
		}
	}
	return m, nil
}

// Match is the game being played (read it, never change it).
func (m *DiceStars) Match() *dicestars.Match { return m.match }

// Record is the game record so far.
func (m *DiceStars) Record() engine.Record { return m.table.Record }

// Message is the answer to the last key (a rule's refusal, a hint).
func (m *DiceStars) Message() string { return m.message }

// Log is the event log, one line per action.
func (m *DiceStars) Log() []string { return m.log }

// Quitting reports whether the program was asked to end.
func (m *DiceStars) Quitting() bool { return m.quit }

// Messages a game sends itself.
type (
	// botTurnMsg: the delay before a bot's decision is over.
	botTurnMsg struct{ gen int }
	// botMoveMsg: a bot decided (in a tea.Cmd, off the UI loop).
	botMoveMsg struct {
		gen    int
		action dicestars.Action
		err    error
	}
	// chanceMsg: the delay before a bot's dice are rolled is over.
	chanceMsg struct{ gen int }
)

// Init starts the game (a bot in the first seat starts playing).
func (m *DiceStars) Init() tea.Cmd { return m.advance() }

// Update handles keys, window sizes and the game's own timed steps.
func (m *DiceStars) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case botTurnMsg:
		if msg.gen != m.gen || m.match.S.Over() || !m.currentSeat().IsBot() || m.match.Turn().Chance {
			return m, nil
		}
		m.thinking = true
		return m, decide(m.currentSeat().Bot, m.match.SeatView(m.current()).State, m.gen)
	case botMoveMsg:
		if msg.gen != m.gen {
			return m, nil
		}
		m.thinking = false
		return m, m.botMove(msg)
	case chanceMsg:
		if msg.gen != m.gen || !m.match.Turn().Chance {
			return m, nil
		}
		m.resolveChance()
		return m, m.advance()
	}
	return m, nil
}

// decide runs a bot's decision off the UI loop, on its own copy of the
// seat's public state. A panicking bot becomes an error, not a crash.
func decide(b dicestars.Bot, st dicestars.State, gen int) tea.Cmd {
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = botMoveMsg{gen: gen, err: fmt.Errorf("the bot failed: %v", r)}
			}
		}()
		return botMoveMsg{gen: gen, action: b.Decide(&st)}
	}
}

func (m *DiceStars) current() engine.Seat    { return engine.Seat(m.match.S.Current) }
func (m *DiceStars) currentSeat() Seat       { return m.cfg.Seats[m.match.S.Current] }
func (m *DiceStars) name(p int) string       { return m.cfg.Seats[p].Name }
func (m *DiceStars) at() int64               { return m.cfg.Now().Sub(m.start).Milliseconds() }
func (m *DiceStars) say(s string)            { m.message, m.msgIsError = s, false }
func (m *DiceStars) refuse(err error)        { m.message, m.msgIsError = ruleMessage(err), true }
func (m *DiceStars) logf(f string, a ...any) { m.log = append(m.log, fmt.Sprintf(f, a...)) }

// ruleMessage is the sentence of a refusal: the engine's RuleError message.
func ruleMessage(err error) string {
	if re, ok := engine.AsRuleError(err); ok {
		return re.Message
	}
	return err.Error()
}

// advance moves the game on after a move: it rolls a person's dice at once,
// schedules a bot's next visible step, or waits for a key.
func (m *DiceStars) advance() tea.Cmd {
	for {
		if m.match.S.Over() {
			m.finish()
			return nil
		}
		if !m.match.Turn().Chance {
			break
		}
		if m.currentSeat().IsBot() {
			return m.after(chanceMsg{gen: m.gen})
		}
		m.resolveChance()
	}
	if m.currentSeat().IsBot() {
		return m.after(botTurnMsg{gen: m.gen})
	}
	m.lastHuman = m.current()
	return nil
}

// after delivers msg after the bot delay (at once when it is zero).
func (m *DiceStars) after(msg tea.Msg) tea.Cmd {
	if m.cfg.BotDelay <= 0 {
		return func() tea.Msg { return msg }
	}
	return tea.Tick(m.cfg.BotDelay, func(time.Time) tea.Msg { return msg })
}

// resolveChance rolls the announced dice with the seeded source, as
// engine.Runner does, and logs the roll.
func (m *DiceStars) resolveChance() {
	ev, err := m.table.ResolveChance(m.at(), nil)
	m.gen++
	m.logEvents(int(m.match.S.Current), ev)
	if err != nil {
		m.logf("error: %v", err)
	}
}

// play applies a move of the current player, logs it and moves on.
func (m *DiceStars) play(a dicestars.Action) tea.Cmd {
	p := int(m.match.S.Current)
	ev, err := m.table.Play(engine.Move{Seat: m.current(), At: m.at(), Action: a})
	if err != nil {
		m.refuse(err)
		return nil
	}
	m.gen++
	m.returnReserve = false
	m.closePicker()
	m.logEvents(p, ev)
	return m.advance()
}

// try checks a person's move with the engine and plays it, or shows the
// engine's reason for refusing it.
func (m *DiceStars) try(a dicestars.Action) tea.Cmd {
	if m.match.S.Over() || m.match.Turn().Chance || m.currentSeat().IsBot() {
		// Not a person's turn: ask the engine on behalf of the last person
		// who played, so the refusal names whose turn it is; never play.
		err := m.match.Check(engine.Move{Seat: m.lastHuman, Action: a})
		if m.cfg.Seats[m.lastHuman].IsBot() || err == nil {
			m.say(fmt.Sprintf("%s (bot) is playing: watch, or q to quit", m.currentSeat().Name))
			return nil
		}
		m.refuse(err)
		return nil
	}
	if err := m.match.Check(engine.Move{Seat: m.current(), Action: a}); err != nil {
		m.refuse(err)
		return nil
	}
	m.say("")
	return m.play(a)
}

// botMove plays what a bot decided. A bot error or an illegal choice is
// logged and the first legal action is played instead, so the game goes on.
func (m *DiceStars) botMove(msg botMoveMsg) tea.Cmd {
	name := m.currentSeat().Name
	a := msg.action
	err := msg.err
	if err == nil {
		err = m.match.Check(engine.Move{Seat: m.current(), Action: a})
	}
	if err != nil {
		legal := m.match.S.LegalActions(nil)
		if len(legal) == 0 {
			m.logf("%s: %s; no legal move is left", name, ruleMessage(err))
			return nil
		}
		m.logf("%s: %s; playing %s instead", name, ruleMessage(err), legal[0])
		a = legal[0]
	}
	return m.play(a)
}

// finish runs once when the game is over: it writes the record if asked.
func (m *DiceStars) finish() {
	if m.over {
		return
	}
	m.over = true
	m.closePicker()
	if m.cfg.RecordPath != "" {
		m.save(m.cfg.RecordPath)
	}
}

// save writes the record as JSON (the form `dicehall replay` reads).
func (m *DiceStars) save(path string) {
	err := writeRecord(path, m.table.Record)
	m.saveErr = err
	if err != nil {
		m.message, m.msgIsError = fmt.Sprintf("could not save the record: %v", err), true
		return
	}
	m.saved = path
	m.say("record saved to " + path)
}

func (m *DiceStars) closePicker() { m.picking, m.pickRows, m.pickStars = false, nil, 0 }

func (m *DiceStars) quitNow() tea.Cmd {
	if m.cfg.RecordPath != "" && m.saved == "" && len(m.table.Record.Moves) > 0 {
		m.save(m.cfg.RecordPath)
	}
	m.quit = true
	return tea.Quit
}

// key handles one key press.
func (m *DiceStars) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.quitNow()
	}
	if m.confirmQuit {
		switch strings.ToLower(s) {
		case "y":
			return m.quitNow()
		case "n", "esc", "q":
			m.confirmQuit = false
			m.say("")
		default:
			m.say("quit the game? press y to quit, n to keep playing")
		}
		return nil
	}
	switch s {
	case "tab":
		m.cycleFocus()
		return nil
	case "q":
		if m.match.S.Over() {
			return m.quitNow()
		}
		m.confirmQuit = true
		m.say("")
		return nil
	}
	if m.match.S.Over() {
		switch s {
		case "s":
			m.save(m.cfg.DefaultRecordPath())
		case "esc", "enter":
			return m.quitNow()
		default:
			m.say("the game is over: s saves the record, q quits")
		}
		return nil
	}
	if m.picking {
		return m.pickKey(s)
	}
	if m.currentSeat().IsBot() || m.match.Turn().Chance {
		if a, ok := m.actionFor(s); ok {
			// Let the engine say why: it is not this keyboard's turn.
			return m.try(a)
		}
		m.say(fmt.Sprintf("%s (bot) is playing: watch, or q to quit", m.currentSeat().Name))
		return nil
	}
	if s == "r" {
		return m.toggleReturn()
	}
	if s == "s" && m.match.S.Phase == dicestars.PhaseTake {
		return m.openPicker()
	}
	if a, ok := m.actionFor(s); ok {
		return m.try(a)
	}
	if s == "esc" {
		m.say("")
		return nil
	}
	m.say(fmt.Sprintf("the key %q does nothing here: see the keys listed below", s))
	return nil
}

// actionFor maps a key to the move it means in the current phase: digits
// announce a draw before the roll and choose a value after it; k p b o
// choose a colour; s chooses the stars.
func (m *DiceStars) actionFor(s string) (dicestars.Action, bool) {
	if len(s) != 1 {
		return dicestars.Action{}, false
	}
	c := s[0]
	switch {
	case c >= '0' && c <= '9':
		if m.match.S.Phase == dicestars.PhaseDraw {
			return dicestars.Draw(int(c-'0'), m.returnReserve), true
		}
		return dicestars.TakeValue(int(c - '0')), true
	case c == 's':
		return dicestars.Action{Type: dicestars.ActTakeStars}, true
	}
	if col, ok := colorKeys[c]; ok {
		return dicestars.TakeColor(col), true
	}
	return dicestars.Action{}, false
}

// colorKeys are the colour keys, the letters shown on dice and columns.
var colorKeys = map[byte]dicestars.Color{
	'k': dicestars.Black, 'p': dicestars.Purple, 'b': dicestars.Blue, 'o': dicestars.Orange,
}

func colorKey(c dicestars.Color) string {
	for k, cc := range colorKeys {
		if cc == c {
			return string(k)
		}
	}
	return "?"
}

// toggleReturn switches "put the reserve back into the bag" for this draw;
// the engine explains why it is not allowed when no refill is due.
func (m *DiceStars) toggleReturn() tea.Cmd {
	if m.match.S.Phase != dicestars.PhaseDraw || !m.match.S.RefillDue {
		if err := m.match.Check(engine.Move{Seat: m.current(), Action: dicestars.Draw(3, true)}); err != nil {
			m.refuse(err)
			return nil
		}
	}
	m.returnReserve = !m.returnReserve
	if m.returnReserve {
		m.say("the reserve goes back into the bag with the discard: you will draw 3 dice")
	} else {
		m.say("the reserve stays on the table")
	}
	return nil
}

// openPicker starts a star choice: the player then names a row for each
// star. Without a legal star choice the engine says why.
func (m *DiceStars) openPicker() tea.Cmd {
	stars := 0
	for _, d := range m.match.S.ReserveDice() {
		if d.IsStar() {
			stars++
		}
	}
	hasLegal := false
	for _, a := range m.match.S.LegalActions(nil) {
		if a.Type == dicestars.ActTakeStars {
			hasLegal = true
			break
		}
	}
	if !hasLegal {
		return m.try(dicestars.Action{Type: dicestars.ActTakeStars})
	}
	m.picking, m.pickStars, m.pickRows = true, stars, nil
	m.say("")
	return nil
}

// pickMult is the star choice as picked so far.
func (m *DiceStars) pickMult() dicestars.Action {
	a := dicestars.Action{Type: dicestars.ActTakeStars}
	for _, r := range m.pickRows {
		a.Mult[r]++
	}
	return a
}

func (m *DiceStars) pickKey(s string) tea.Cmd {
	switch s {
	case "esc":
		m.closePicker()
		m.say("star choice cancelled")
		return nil
	case "backspace", "u":
		if n := len(m.pickRows); n > 0 {
			m.pickRows = m.pickRows[:n-1]
		}
		m.say("")
		return nil
	case "enter":
		return m.try(m.pickMult())
	}
	if len(s) == 1 && s[0] >= '0' && s[0] <= '9' {
		v := int(s[0] - '0')
		r := m.layout.RowOf(v)
		if r < 0 {
			m.message, m.msgIsError = fmt.Sprintf("the sheet has no row %d: rows are 2 to 6", v), true
			return nil
		}
		if len(m.pickRows) == m.pickStars {
			m.message, m.msgIsError = fmt.Sprintf("all %d stars are placed: enter confirms, backspace undoes", m.pickStars), true
			return nil
		}
		a := m.pickMult()
		sh := &m.match.S.Sheets[m.match.S.Current]
		if free := m.layout.Multipliers[r] - int(sh.Marked[r]) - int(a.Mult[r]); free <= 0 {
			m.message, m.msgIsError = fmt.Sprintf("row %d has no unmarked multiplier cell left", v), true
			return nil
		}
		m.pickRows = append(m.pickRows, r)
		if len(m.pickRows) == m.pickStars {
			m.say("enter confirms the star choice")
		} else {
			m.say("")
		}
		return nil
	}
	m.message, m.msgIsError = "placing stars: a row key 2-6 per star, enter confirms, backspace undoes, esc cancels", true
	return nil
}

func (m *DiceStars) cycleFocus() {
	n := len(m.cfg.Seats)
	m.focus++
	if m.focus >= n {
		m.focus = -1
	}
	if m.focus < 0 {
		m.say("the full sheet follows the player to act")
	} else {
		m.say(fmt.Sprintf("showing %s's sheet (tab: next)", m.name(m.focus)))
	}
}

// logEvents turns the engine's events into log lines.
func (m *DiceStars) logEvents(p int, evs []engine.Event) {
	name := m.name(p)
	for _, e := range evs {
		switch d := e.Data.(type) {
		case dicestars.RefillEvent:
			if d.FromReserve > 0 {
				m.logf("%s put the discard (%d) and the reserve (%d) back into the bag", name, d.FromDiscard, d.FromReserve)
			} else {
				m.logf("%s put the discard (%d) back into the bag", name, d.FromDiscard)
			}
		case dicestars.DrawEvent:
			switch {
			case d.Count == 0:
				m.logf("%s announced %d, but the bag is empty", name, d.Announced)
			case d.Count < d.Announced:
				m.logf("%s announced %d; the bag holds only %d", name, d.Announced, d.Count)
			default:
				verb := "draws"
				if strings.EqualFold(name, "you") {
					verb = "draw"
				}
				m.logf("%s %s %d…", name, verb, d.Announced)
			}
		case dicestars.RollEvent:
			m.logf("%s drew %d: %s", name, len(d.Dice), strings.Join(d.Dice, " "))
		case dicestars.TakeEvent:
			m.logf("%s", takeLine(name, d))
		case dicestars.SoloEvent:
			switch {
			case d.Lost:
				m.logf("solo grid: +%d, all %d cells crossed out: the virtual opponent wins", d.Marks, d.Marked)
			case d.Marks > 0:
				m.logf("solo grid: +%d (%d of %d crossed out)", d.Marks, d.Marked, m.layout.SoloCells)
			}
		case dicestars.EndEvent:
			if len(d.Winners) == 0 {
				m.logf("game over")
			} else {
				m.logf("game over: %s", winnersText(d.Winners))
			}
		default:
			if e.Kind == "end-triggered" {
				m.logf("the end is triggered: the round is played out")
			}
		}
	}
}

func winnersText(w []string) string {
	if len(w) == 1 {
		return w[0] + " wins"
	}
	return strings.Join(w, " and ") + " share the win"
}

func takeLine(name string, d dicestars.TakeEvent) string {
	n := len(d.Dice)
	dice := plural(n, "die", "dice")
	var what, where string
	switch d.Choice {
	case "color":
		what, where = fmt.Sprintf("%s (%s, sum %d)", d.Color, dice, d.Sum), "into the "+d.Color+" column"
	case "value":
		what, where = fmt.Sprintf("the %ds (%s, sum %d)", d.Value, dice, d.Sum), fmt.Sprintf("into row %d", d.Value)
	default:
		rows := make([]string, len(d.Mult))
		for i, r := range d.Mult {
			rows[i] = fmt.Sprint(r)
		}
		return fmt.Sprintf("%s took %s: multipliers in rows %s", name, plural(n, "star", "stars"), strings.Join(rows, ", "))
	}
	if d.Penalty {
		return fmt.Sprintf("%s took %s as a penalty: %d in the penalty cell", name, what, d.Sum)
	}
	return fmt.Sprintf("%s took %s %s", name, what, where)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}
