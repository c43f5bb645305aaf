package tui

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"slices"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/diceflick"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// DiceflickSeat is one player of a Diceflick game at this terminal: a person
// at the shared keyboard or a bot.
type DiceflickSeat struct {
	Name    string
	BotKind string
	Bot     engine.Controller
}

// IsBot reports whether the seat is played by a bot.
func (s DiceflickSeat) IsBot() bool { return s.Bot != nil }

// DefaultDiceflickPlayers is the --players value for Diceflick when none is
// given.
const DefaultDiceflickPlayers = "you,bot:medium"

// ParseDiceflickPlayers reads a player list like the other games: names are
// people, "bot:KIND" or "NAME=bot:KIND" seats a bot from bots (seeded with
// engine.SplitSeed(seed, seat)).
func ParseDiceflickPlayers(spec string, seed uint64, bots engine.BotProvider) ([]DiceflickSeat, error) {
	if n := len(strings.Split(spec, ",")); n < 1 || n > diceflick.MaxPlayers {
		return nil, fmt.Errorf("diceflick is for 1 to %d players, not %d", diceflick.MaxPlayers, n)
	}
	made := map[int]engine.Controller{}
	specs, err := parsePlayerList(spec, func(i int, kind string) error {
		if bots == nil {
			return fmt.Errorf("this build has no Diceflick bots")
		}
		b, err := bots.NewBot(kind, engine.SplitSeed(seed, uint64(i)))
		if err != nil {
			return fmt.Errorf("%w (bots: %s)", err, strings.Join(diceflick.BotKinds, ", "))
		}
		made[i] = b
		return nil
	})
	if err != nil {
		return nil, err
	}
	seats := make([]DiceflickSeat, len(specs))
	for i, sp := range specs {
		seats[i] = DiceflickSeat{Name: sp.Name, BotKind: sp.BotKind, Bot: made[i]}
	}
	return seats, nil
}

// DiceflickConfig sets up a terminal game of Diceflick.
type DiceflickConfig struct {
	Seats []DiceflickSeat
	Seed  uint64
	// Game is the rules with their simulator (zero: the default arena).
	Game diceflick.Game
	// Arena is the box the aim preview simulates; it should be the one
	// behind Game.Sim (nil: physics.DefaultArena).
	Arena *physics.Arena
	// Options are the table options as JSON (nil: the defaults).
	Options json.RawMessage
	// RecordPath, when set, is where the record is written at the end or on
	// quitting.
	RecordPath string
	// Tick is the frame period: animation and bot pauses advance by one
	// frame per DiceflickTick (0: 40 ms).
	Tick time.Duration
	// ManualTicks stops the model from scheduling its own ticks: tests send
	// DiceflickTick messages themselves.
	ManualTicks bool
	// BotDelay is how long a bot's aim (or its scoring choice) stays on
	// screen before it acts.
	BotDelay time.Duration
}

// DiceflickTick is one animation frame.
type DiceflickTick struct{}

// dfBotMsg is a bot's answer for the game version gen.
type dfBotMsg struct {
	gen    int
	action engine.Action
	err    error
}

// flickAnim is a landing being played back: the picture before the die
// came to rest, and the path it follows.
type flickAnim struct {
	before diceflick.Report
	color  diceflick.Color
	path   []physics.Point
	at     int    // index of the path point shown
	landed string // what to say when it settles
}

// scorePart is one line of the scoring list: a group, the centre die, or a
// blast die's line (off, row, column).
type scorePart struct {
	kind  string // "group", "centre", "blast"
	color diceflick.Color
	holes []int // a group's members; the blast die's hole
	on    bool  // group, centre
	line  int   // blast: 0 off, 1 row, 2 column
}

// Diceflick is the terminal client of Diceflick, a tea.Model.
type Diceflick struct {
	cfg   DiceflickConfig
	table *engine.Runner
	match *diceflick.Match
	arena *physics.Arena

	width, height int
	frame         int // ticks seen

	gen int // moves applied; bot answers of an older gen are dropped

	// Aim of the person on turn (kept between flicks: a steady player
	// repeats a good shot).
	die   int
	flick physics.Flick
	// preview caches the steady-hand landing of flick on occupied.
	preview    physics.Landing
	previewKey string

	// Scoring list (a person's, or the bot's choice being shown).
	scoring bool // the scoring list is up (PhaseScore, or skipping the bonus flick)
	parts   []scorePart
	cursor  int

	anim *flickAnim

	// A bot's move waiting to be shown for BotDelay: its aim or choice.
	botAction *diceflick.Action
	botReady  int // frame at which it is played
	botAsked  bool

	confirmQuit bool
	message     string
	msgIsError  bool
	log         []string
	over        bool
	saved       string
	saveErr     error
	quit        bool
}

// NewDiceflick sets up a game; the first hand is drawn at once.
func NewDiceflick(cfg DiceflickConfig) (*Diceflick, error) {
	if len(cfg.Seats) == 0 {
		return nil, errors.New("no players")
	}
	if cfg.Arena == nil {
		cfg.Arena = &physics.DefaultArena
	}
	if cfg.Game.Sim == nil {
		cfg.Game = diceflick.Game{Sim: diceflick.ArenaSim(cfg.Arena)}
	}
	if cfg.Tick <= 0 {
		cfg.Tick = 40 * time.Millisecond
	}
	if cfg.BotDelay < 0 {
		cfg.BotDelay = 0
	}
	names := make([]string, len(cfg.Seats))
	for i, s := range cfg.Seats {
		names[i] = s.Name
	}
	t, err := engine.NewRunner(cfg.Game, names, cfg.Options, cfg.Seed, engine.NewSource(cfg.Seed))
	if err != nil {
		return nil, err
	}
	m := &Diceflick{cfg: cfg, table: t, match: t.State.(*diceflick.Match), arena: cfg.Arena}
	m.flick = physics.Flick{Power: 0.5}
	m.logEvents(m.resolve())
	m.enterTurn()
	return m, nil
}

// Match is the game being played (read it, never change it).
func (m *Diceflick) Match() *diceflick.Match { return m.match }

// Record is the game record so far.
func (m *Diceflick) Record() engine.Record { return m.table.Record }

// Message is the answer to the last key.
func (m *Diceflick) Message() string { return m.message }

// Log is the event log, one line per event worth telling.
func (m *Diceflick) Log() []string { return m.log }

// Animating reports whether a landing is being played back.
func (m *Diceflick) Animating() bool { return m.anim != nil }

// Aim is the flick the person on turn has set up, and the die chosen.
func (m *Diceflick) Aim() (die int, f physics.Flick) { return m.die, m.flick }

// Quitting reports whether the program was asked to end.
func (m *Diceflick) Quitting() bool { return m.quit }

// Init starts the frame clock and, if a bot opens, asks it.
func (m *Diceflick) Init() tea.Cmd { return tea.Batch(m.askBot(), m.tick()) }

func (m *Diceflick) tick() tea.Cmd {
	if m.cfg.ManualTicks || m.quit {
		return nil
	}
	return tea.Tick(m.cfg.Tick, func(time.Time) tea.Msg { return DiceflickTick{} })
}

// Update handles keys, frames and bot answers.
func (m *Diceflick) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.width, m.height = msg.Width, msg.Height
	case DiceflickTick:
		if m.quit {
			return m, nil
		}
		return m, tea.Batch(m.step(), m.tick())
	case tea.KeyPressMsg:
		return m, m.key(msg)
	case dfBotMsg:
		m.botAnswer(msg)
	}
	return m, nil
}

func (m *Diceflick) s() *diceflick.State { return &m.match.S }
func (m *Diceflick) name(p int) string   { return m.cfg.Seats[p].Name }
func (m *Diceflick) say(s string)        { m.message, m.msgIsError = s, false }
func (m *Diceflick) refuse(err error)    { m.message, m.msgIsError = ruleMessage(err), true }
func (m *Diceflick) fail(s string)       { m.message, m.msgIsError = s, true }
func (m *Diceflick) logf(f string, a ...any) {
	m.log = append(m.log, fmt.Sprintf(f, a...))
}

// botOnTurn: the seat to act is a bot.
func (m *Diceflick) botOnTurn() bool {
	return !m.s().Over() && m.cfg.Seats[m.s().Current].IsBot()
}

// framesOf is a duration in frames, at least one.
func (m *Diceflick) framesOf(d time.Duration) int {
	return max(1, int((d+m.cfg.Tick-1)/m.cfg.Tick))
}

// resolve lets nature act (draws, landings) from the seeded source.
func (m *Diceflick) resolve() []engine.Event {
	if !m.match.Turn().Chance {
		return nil
	}
	ev, err := m.table.ResolveChance(0, nil)
	if err != nil {
		m.logf("error: %v", err)
	}
	return ev
}

// apply plays a move of the seat on turn, lets chance follow, and starts
// the landing's animation. A refusal changes nothing and is returned.
func (m *Diceflick) apply(a diceflick.Action) error {
	seat := engine.Seat(m.s().Current)
	ev, err := m.table.Play(engine.Move{Seat: seat, Action: a})
	if err != nil {
		return err
	}
	m.gen++
	m.botAction, m.botAsked = nil, false
	var before diceflick.Report
	inFlight := m.s().InFlight
	if a.Type == diceflick.ActFlick {
		before = m.match.Report() // the die in flight, the arena as it was
	}
	ev = append(ev, m.resolve()...)
	m.logEvents(ev)
	for _, e := range ev {
		if le, ok := e.Data.(diceflick.LandEvent); ok && a.Type == diceflick.ActFlick {
			m.anim = &flickAnim{before: before, color: inFlight, path: le.Path, landed: landText(le)}
			if len(le.Path) == 0 {
				m.settle()
			}
		}
	}
	if m.anim == nil {
		m.enterTurn()
	}
	return nil
}

// settle ends a landing's animation: the die is where the rules put it.
func (m *Diceflick) settle() {
	if m.anim == nil {
		return
	}
	m.say(m.anim.landed)
	m.anim = nil
	m.enterTurn()
}

// enterTurn sets up the input for whoever acts now.
func (m *Diceflick) enterTurn() {
	s := m.s()
	m.scoring = false
	if s.Over() {
		m.finish()
		return
	}
	if n := int(s.NHand[s.Current]); m.die >= n {
		m.die = max(0, n-1)
	}
	if !s.ShiftBases {
		m.flick.Offset = 0
	}
	if s.Phase == diceflick.PhaseScore {
		m.startScoring()
	}
}

// step is one frame: the animation moves on, a bot's shown move is played
// when its time has come.
func (m *Diceflick) step() tea.Cmd {
	m.frame++
	if a := m.anim; a != nil {
		per := max(1, int(m.cfg.Tick.Milliseconds())/max(1, m.arena.PathStepMillis))
		a.at += per
		if a.at >= len(a.path)-1 {
			m.settle()
			return m.askBot()
		}
		return nil
	}
	if m.botAction != nil && m.frame >= m.botReady && m.botOnTurn() {
		a := *m.botAction
		m.botAction = nil
		if err := m.apply(a); err != nil {
			// A bot's refused move must not stall the table: it scores the
			// best offer, or flicks what the rules list first.
			m.logf("%s: %s", m.name(m.s().Current), ruleMessage(err))
			if fb, ok := m.fallback(); ok {
				if err := m.apply(fb); err != nil {
					m.logf("%s: %s", m.name(m.s().Current), ruleMessage(err))
				}
			}
		}
		if m.anim == nil {
			return m.askBot()
		}
	}
	return nil
}

// fallback is a legal move for a bot whose own was refused or failed.
func (m *Diceflick) fallback() (diceflick.Action, bool) {
	legal := m.match.Legal(engine.Seat(m.s().Current))
	if len(legal) == 0 {
		return diceflick.Action{}, false
	}
	return legal[0].(diceflick.Action), true
}

// askBot asks the bot on turn for its move, off the UI loop.
func (m *Diceflick) askBot() tea.Cmd {
	if !m.botOnTurn() || m.anim != nil || m.botAsked || m.botAction != nil {
		return nil
	}
	m.botAsked = true
	seat := engine.Seat(m.s().Current)
	bot := m.cfg.Seats[seat].Bot
	view, legal, gen := m.match.View(seat), m.match.Legal(seat), m.gen
	return func() (msg tea.Msg) {
		defer func() {
			if r := recover(); r != nil {
				msg = dfBotMsg{gen: gen, err: fmt.Errorf("the bot failed: %v", r)}
			}
		}()
		a, err := bot.Choose(view, legal)
		return dfBotMsg{gen: gen, action: a, err: err}
	}
}

// botAnswer shows the bot's move (its aim, or its scoring choice) for the
// bot delay; the frame clock plays it.
func (m *Diceflick) botAnswer(msg dfBotMsg) {
	if msg.gen != m.gen || !m.botOnTurn() {
		return
	}
	a, ok := msg.action.(diceflick.Action)
	if msg.err != nil || !ok {
		if msg.err != nil {
			m.logf("%s: %v", m.name(m.s().Current), msg.err)
		} else {
			m.logf("%s passed, which the table does not allow: it plays a listed move", m.name(m.s().Current))
		}
		fb, ok := m.fallback()
		if !ok {
			return
		}
		a = fb
	}
	m.botAction = &a
	m.botReady = m.frame + m.framesOf(m.cfg.BotDelay)
	if a.Type == diceflick.ActScore {
		m.partsFromChoice(a.Choice)
		m.scoring = true
	}
}

// finish runs once when the game is over: it writes the record if asked.
func (m *Diceflick) finish() {
	if m.over {
		return
	}
	m.over = true
	if m.cfg.RecordPath != "" {
		m.save(m.cfg.RecordPath)
	}
}

func (m *Diceflick) recordPath() string {
	if m.cfg.RecordPath != "" {
		return m.cfg.RecordPath
	}
	return fmt.Sprintf("diceflick-%d.json", m.cfg.Seed)
}

// save writes the record as JSON (the form `dicehall replay` reads).
func (m *Diceflick) save(path string) {
	err := writeRecord(path, m.table.Record)
	m.saveErr = err
	if err != nil {
		m.fail(fmt.Sprintf("could not save the record: %v", err))
		return
	}
	m.saved = path
	m.say("record saved to " + path)
}

func (m *Diceflick) quitNow() tea.Cmd {
	if m.cfg.RecordPath != "" && m.saved == "" && len(m.table.Record.Moves) > 0 {
		m.save(m.cfg.RecordPath)
	}
	m.quit = true
	return tea.Quit
}

// Angle and power steps of the aiming keys (shift: the big step).
const (
	angleStep    = math.Pi / 180 // 1°
	angleBigStep = 5 * math.Pi / 180
	powerStep    = 0.02
	powerBigStep = 0.1
	offsetStep   = 0.1
)

// key handles one key press.
func (m *Diceflick) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	if s == "ctrl+c" {
		return m.quitNow()
	}
	if m.confirmQuit {
		m.confirmQuit = false
		if strings.ToLower(s) == "y" {
			return m.quitNow()
		}
		m.say("")
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
	if s == "q" {
		m.confirmQuit = true
		m.say("quit the game? y quits, any other key goes on")
		return nil
	}
	if m.anim != nil {
		if s == "space" || s == "enter" {
			m.settle()
			return m.askBot()
		}
		return nil
	}
	if m.botOnTurn() {
		m.say(fmt.Sprintf("%s (bot) is playing: watch, or q to quit", m.name(m.s().Current)))
		return nil
	}
	if m.scoring {
		return m.scoreKey(s)
	}
	return m.aimKey(s)
}

// aimKey is a key of the person flicking: die, base, angle, power, offset,
// then the flick.
func (m *Diceflick) aimKey(s string) tea.Cmd {
	st := m.s()
	maxA := st.C.MaxAngle
	switch s {
	case "1", "2", "3", "4", "5", "6", "7":
		d := int(s[0] - '1')
		if d >= int(st.NHand[st.Current]) {
			m.fail(fmt.Sprintf("the hand holds %d dice: there is no die %s", st.NHand[st.Current], s))
			return nil
		}
		m.die = d
	case "b", "ctrl+right":
		m.flick.Base = (m.flick.Base + 1) % 4
	case "B", "shift+b", "ctrl+left":
		m.flick.Base = (m.flick.Base + 3) % 4
	case "left", "right", "shift+left", "shift+right":
		d := angleStep
		if strings.HasPrefix(s, "shift+") {
			d = angleBigStep
		}
		if strings.HasSuffix(s, "right") {
			d = -d
		}
		m.flick.Angle = clampF(m.flick.Angle+d, -maxA, maxA)
	case "up", "down", "shift+up", "shift+down":
		d := powerStep
		if strings.HasPrefix(s, "shift+") {
			d = powerBigStep
		}
		if strings.HasSuffix(s, "down") {
			d = -d
		}
		m.flick.Power = clampF(math.Round((m.flick.Power+d)*100)/100, 0, 1)
	case "[", "]":
		if !st.ShiftBases {
			m.fail("the bases stay centred: only the children's variant (--shift-bases) slides them")
			return nil
		}
		d := offsetStep
		if s == "[" {
			d = -d
		}
		m.flick.Offset = clampF(math.Round((m.flick.Offset+d)*10)/10, -1, 1)
	case "space", "enter":
		a := diceflick.Action{Type: diceflick.ActFlick, Die: m.die, Flick: m.flick}
		if err := m.apply(a); err != nil {
			m.refuse(err)
			return nil
		}
		return m.askBot()
	case "s":
		if !st.MayStop() {
			m.fail(fmt.Sprintf("%d more flick(s) this turn before scoring", st.FlicksLeft))
			return nil
		}
		m.startScoring()
		m.say("the bonus flick is skipped: the die stays in hand")
		return nil
	default:
		m.fail("aim: 1–3 die, b base, ←/→ angle, ↑/↓ power (shift: big steps), space flicks")
		return nil
	}
	m.say("")
	return nil
}

func clampF(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// Preview is the steady hand's landing of the aim on the arena as it is:
// the simulation without hand noise (the real flick adds it).
func (m *Diceflick) Preview() physics.Landing {
	occ := m.s().Occupied()
	f := m.flick
	if b := m.botAction; b != nil && b.Type == diceflick.ActFlick {
		f = b.Flick
	}
	key := fmt.Sprint(occ, f)
	if key != m.previewKey {
		m.preview, m.previewKey = m.arena.Simulate(occ, f, physics.Noise{}), key
	}
	return m.preview
}

// startScoring puts up the scoring list with the best offer chosen.
func (m *Diceflick) startScoring() {
	b := m.s().Board()
	_, best := b.Solve()
	m.partsFromChoice(best)
	m.scoring, m.cursor = true, 0
}

// partsFromChoice lists every part a player may score, with the choice's
// parts switched on: the choice's groups, each colour's whole connected
// area of 3 or more (white jokers included), the centre die, and a line per
// blast die.
func (m *Diceflick) partsFromChoice(ch diceflick.Choice) {
	st := m.s()
	b := st.Board()
	var parts []scorePart
	seen := map[uint32]bool{}
	addGroup := func(holes []int, on bool) {
		var mask uint32
		for _, h := range holes {
			mask |= 1 << h
		}
		if seen[mask] {
			return
		}
		seen[mask] = true
		parts = append(parts, scorePart{kind: "group", color: groupColour(st, holes), holes: holes, on: on})
	}
	for _, g := range ch.Groups {
		addGroup(append([]int(nil), g...), true)
	}
	for _, c := range []diceflick.Color{diceflick.Blue, diceflick.Yellow, diceflick.Green, diceflick.White} {
		el := b.Die[c] | b.Die[diceflick.White]
		if c != diceflick.White {
			el |= b.Marker[c]
		}
		for _, comp := range components(el) {
			if len(comp) >= 3 && (c == diceflick.White || hasColour(st, comp, c)) {
				addGroup(comp, false)
			}
		}
	}
	if st.Arena[st.C.Centre].Full() {
		parts = append(parts, scorePart{kind: "centre", holes: []int{st.C.Centre}, on: ch.Centre})
	}
	for h := range diceflick.Holes {
		if c := st.Arena[h]; c.Full() && c.Color() == diceflick.Pink {
			p := scorePart{kind: "blast", holes: []int{h}}
			for _, bl := range ch.Blasts {
				if bl.Hole == h {
					p.line = 1
					if bl.Column {
						p.line = 2
					}
				}
			}
			parts = append(parts, p)
		}
	}
	m.parts = parts
	if m.cursor >= len(parts) {
		m.cursor = 0
	}
}

// groupColour is the colour a group scores as: its first non-white die or
// marker (white when all are jokers).
func groupColour(st *diceflick.State, holes []int) diceflick.Color {
	for _, h := range holes {
		if c := st.Arena[h]; c.Full() && c.Color() != diceflick.White {
			return c.Color()
		}
		if !st.Arena[h].Full() {
			for col, mh := range st.C.Markers {
				if mh == h {
					return diceflick.Color(col)
				}
			}
		}
	}
	return diceflick.White
}

// hasColour: a proper colour group, not one of jokers alone (those are
// listed once, as white).
func hasColour(st *diceflick.State, holes []int, c diceflick.Color) bool {
	for _, h := range holes {
		if cell := st.Arena[h]; (cell.Full() && cell.Color() == c) || (!cell.Full() && st.C.Markers[c] == h) {
			return true
		}
	}
	return false
}

// components splits a set of holes into its side-connected areas, each in
// hole order.
func components(set uint32) [][]int {
	var out [][]int
	for set != 0 {
		var comp []int
		stack := []int{bits.TrailingZeros32(set)}
		set &^= 1 << stack[0]
		for len(stack) > 0 {
			h := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			comp = append(comp, h)
			r, c := h/diceflick.Cols, h%diceflick.Cols
			for _, n := range [][2]int{{r - 1, c}, {r + 1, c}, {r, c - 1}, {r, c + 1}} {
				if n[0] < 0 || n[0] >= diceflick.Rows || n[1] < 0 || n[1] >= diceflick.Cols {
					continue
				}
				nh := n[0]*diceflick.Cols + n[1]
				if set&(1<<nh) != 0 {
					set &^= 1 << nh
					stack = append(stack, nh)
				}
			}
		}
		slices.Sort(comp)
		out = append(out, comp)
	}
	return out
}

// Choice is what the scoring list's switched-on parts score.
func (m *Diceflick) Choice() diceflick.Choice {
	ch := diceflick.Choice{Groups: [][]int{}}
	for _, p := range m.parts {
		switch {
		case p.kind == "group" && p.on:
			ch.Groups = append(ch.Groups, p.holes)
		case p.kind == "centre" && p.on:
			ch.Centre = true
		case p.kind == "blast" && p.line > 0:
			ch.Blasts = append(ch.Blasts, diceflick.Blast{Hole: p.holes[0], Column: p.line == 2})
		}
	}
	return ch
}

// scoreKey is a key while the scoring list is up.
func (m *Diceflick) scoreKey(s string) tea.Cmd {
	switch s {
	case "up":
		if len(m.parts) > 0 {
			m.cursor = (m.cursor + len(m.parts) - 1) % len(m.parts)
		}
	case "down", "tab":
		if len(m.parts) > 0 {
			m.cursor = (m.cursor + 1) % len(m.parts)
		}
	case "space", "x":
		if m.cursor < len(m.parts) {
			p := &m.parts[m.cursor]
			if p.kind == "blast" {
				p.line = (p.line + 1) % 3
			} else {
				p.on = !p.on
			}
		}
	case "r":
		m.startScoring()
	case "esc":
		if m.s().Phase != diceflick.PhaseScore {
			m.scoring = false
			m.say("back to the bonus flick")
			return nil
		}
	case "enter":
		a := diceflick.Action{Type: diceflick.ActScore, Choice: m.Choice()}
		if err := m.apply(a); err != nil {
			m.refuse(err)
			return nil
		}
		return m.askBot()
	default:
		m.fail("score: ↑/↓ choose a part, space switches it, r the best offer again, enter scores")
		return nil
	}
	m.say("")
	return nil
}

// landText tells where a flicked die came to rest.
func landText(le diceflick.LandEvent) string {
	switch le.Where {
	case "trench":
		return fmt.Sprintf("the %s die drops into the trench: back into the bag", le.Color)
	case "out":
		return fmt.Sprintf("the %s die jumps out of the box: back into the bag", le.Color)
	}
	t := fmt.Sprintf("the %s die lands in hole %s", le.Color, le.Hole)
	if le.Face > 0 {
		t += fmt.Sprintf(" showing %d", le.Face)
	}
	if le.Bonus {
		t += " — the bonus marker: one more die and one more flick"
	}
	if le.Centre {
		t += " — on the centre: it counts double"
	}
	return t
}
