package tui

import (
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

func init() {
	registerBoard("diceflick", func() Board {
		return &Diceflick{arena: &physics.DefaultArena, flick: physics.Flick{Power: 0.5}}
	})
}

// dfFrame is the period of Diceflick's frames: a landing plays back by
// PathStepMillis-long path points, a frame's worth each frame.
const dfFrame = 40 * time.Millisecond

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

// Diceflick is the terminal board of Diceflick: the arena with the aim
// guide, the notepad, the hands, and the scoring list.
type Diceflick struct {
	sh    *Shell
	match *diceflick.Match
	// arena is the box the aim preview simulates: the registry's
	// Diceflick flicks in physics.DefaultArena.
	arena *physics.Arena

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

	flying *flickAnim // a flick played, its landing not yet known
	anim   *flickAnim

	// last is the table as of the last move: what a bot's score is shown
	// on, the arena before its dice went back to the bag.
	last diceflick.Report
	// shown is a bot's score kept in view, the table held, until a key or
	// until showFactor bot delays have passed.
	shown *scoreShow
	// fresh are the notepad cells of the bots' scores since the person's
	// last key (seat: round index), marked so the eye finds them.
	fresh map[int]int
}

// scoreShow is a bot's score as it is shown: the arena it scored on, the
// holes it scored, and the game's account of it.
type scoreShow struct {
	before diceflick.Report
	holes  uint32
	ev     diceflick.ScoreEvent
	until  int64
}

// Attach reads the table's match.
func (m *Diceflick) Attach(sh *Shell) error {
	match, ok := sh.State().(*diceflick.Match)
	if !ok {
		return fmt.Errorf("diceflick board: the table plays %T", sh.State())
	}
	m.sh, m.match = sh, match
	m.last = match.Report()
	m.enterTurn()
	return nil
}

// Spec: the compact layout plays at 80×24 (Render draws the full one from
// dfFullWidth×dfFullHeight on).
func (m *Diceflick) Spec() BoardSpec {
	return BoardSpec{MinWidth: dfMinWidth, MinHeight: dfMinHeight, Frame: dfFrame}
}

// Match is the game being played (read it, never change it).
func (m *Diceflick) Match() *diceflick.Match { return m.match }

// Animating reports whether a landing is being played back.
func (m *Diceflick) Animating() bool { return m.anim != nil }

// Holding: nothing plays while a landing is played back, nor while a
// bot's score is shown.
func (m *Diceflick) Holding() bool { return m.anim != nil || m.showing() != nil }

// showing is the bot's score in view, if any: until a key when a person
// plays next (their turn waits for them anyway), else for showFactor bot
// delays.
func (m *Diceflick) showing() *scoreShow {
	if m.shown == nil || m.s().Over() {
		return nil
	}
	if m.sh.Now() < m.shown.until || (!m.match.Turn().Chance && m.sh.IsPerson(engine.Seat(m.s().Current))) {
		return m.shown
	}
	return nil
}

// Aim is the flick the person on turn has set up, and the die chosen.
func (m *Diceflick) Aim() (die int, f physics.Flick) { return m.die, m.flick }

func (m *Diceflick) s() *diceflick.State { return &m.match.S }
func (m *Diceflick) name(p int) string   { return m.sh.Name(p) }

// botOnTurn: the seat to act is a bot.
func (m *Diceflick) botOnTurn() bool {
	return !m.s().Over() && !m.sh.IsPerson(engine.Seat(m.s().Current))
}

// botAction is the bot's move being shown before it plays, if any.
func (m *Diceflick) botAction() *diceflick.Action {
	mv, ok := m.sh.Decided()
	if !ok {
		return nil
	}
	a, ok := mv.Action.(diceflick.Action)
	if !ok {
		return nil
	}
	return &a
}

// BotDecided shows a bot's scoring choice in the list while it waits.
func (m *Diceflick) BotDecided(mv engine.Move) {
	if a, ok := mv.Action.(diceflick.Action); ok && a.Type == diceflick.ActScore {
		m.partsFromChoice(a.Choice)
		m.scoring = true
	}
}

// Played follows the table: a flick's landing is played back along its
// path before the turn goes on.
func (m *Diceflick) Played(mv engine.Move, ev []engine.Event) {
	before := m.last
	m.last = m.match.Report()
	if a, ok := mv.Action.(diceflick.Action); ok && a.Type == diceflick.ActFlick {
		// The die in flight, the arena as it was.
		m.flying = &flickAnim{before: m.match.Report(), color: m.s().InFlight}
	}
	for _, e := range ev {
		switch d := e.Data.(type) {
		case diceflick.LandEvent:
			if m.flying == nil {
				continue
			}
			// Where the die came to rest is said once it settles.
			m.anim, m.flying = m.flying, nil
			m.anim.path, m.anim.landed = d.Path, m.sentence(e)
			if len(d.Path) == 0 {
				m.settle()
			}
		case diceflick.ScoreEvent:
			// The score stays up as the message too.
			m.sh.Say(m.sentence(e))
			if mv.Seat >= 0 && !m.sh.IsPerson(mv.Seat) {
				m.botScored(int(mv.Seat), before, d)
			}
		}
	}
	if m.anim == nil && m.flying == nil {
		m.enterTurn()
	}
}

// botScored marks a bot's score in the notepad and, when bots take their
// time, holds the table on it (see showing): the dice it scored, on the
// arena as it was, and what each part was worth.
func (m *Diceflick) botScored(p int, before diceflick.Report, e diceflick.ScoreEvent) {
	if m.fresh == nil {
		m.fresh = map[int]int{}
	}
	m.fresh[p] = len(m.last.Players[p].Scores) - 1
	d := m.sh.BotDelay().Milliseconds() * showFactor
	if d <= 0 {
		return
	}
	var holes uint32
	for _, part := range e.Parts {
		for _, name := range part.Holes {
			if h, err := diceflick.ParseHole(name); err == nil {
				holes |= 1 << h
			}
		}
	}
	m.shown = &scoreShow{before: before, holes: holes, ev: e, until: m.sh.Now() + d}
}

// settle ends a landing's animation: the die is where the rules put it.
func (m *Diceflick) settle() {
	if m.anim == nil {
		return
	}
	m.sh.Say(m.anim.landed)
	m.anim = nil
	m.enterTurn()
}

// enterTurn sets up the input for whoever acts now.
func (m *Diceflick) enterTurn() {
	s := m.s()
	m.scoring = false
	if s.Over() {
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

// Tick is one frame: the landing being played back moves on; a bot's
// score shown long enough lets the table go on.
func (m *Diceflick) Tick() {
	if m.shown != nil && m.showing() == nil {
		m.shown = nil
	}
	if a := m.anim; a != nil {
		a.at += max(1, int(dfFrame.Milliseconds())/max(1, m.arena.PathStepMillis))
		if a.at >= len(a.path)-1 {
			m.settle()
		}
	}
}

// Angle and power steps of the aiming keys (shift: the big step).
const (
	angleStep    = math.Pi / 180 // 1°
	angleBigStep = 5 * math.Pi / 180
	powerStep    = 0.02
	powerBigStep = 0.1
	offsetStep   = 0.1
)

// Key handles a key the shell did not take.
func (m *Diceflick) Key(k tea.KeyPressMsg) bool {
	s := k.String()
	if m.showing() != nil {
		// A key ends the showing of a bot's score; space and enter only
		// that, so they never flick for a player who has not seen the aim.
		m.shown = nil
		if s == "space" || s == "enter" {
			return true
		}
	}
	clear(m.fresh)
	switch {
	case m.s().Over():
		return false
	case m.anim != nil:
		if s == "space" || s == "enter" {
			m.settle()
		}
	case m.botOnTurn():
		m.sh.Say(m.sh.botPlaying())
	case m.scoring:
		m.scoreKey(s)
	default:
		m.aimKey(s)
	}
	return true
}

// play plays the move of the person on turn, or shows the rules' reason.
func (m *Diceflick) play(a diceflick.Action) { m.sh.Act(engine.Seat(m.s().Current), a) }

// aimKey is a key of the person flicking: die, base, angle, power, offset,
// then the flick.
func (m *Diceflick) aimKey(s string) {
	st := m.s()
	maxA := st.C.MaxAngle
	switch s {
	case "1", "2", "3", "4", "5", "6", "7":
		d := int(s[0] - '1')
		if d >= int(st.NHand[st.Current]) {
			m.sh.Fail(fmt.Sprintf("the hand holds %s: there is no die %s", plural(int(st.NHand[st.Current]), "die", "dice"), s))
			return
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
			m.sh.Fail("the bases stay centred: only the children's variant (--shift-bases) slides them")
			return
		}
		d := offsetStep
		if s == "[" {
			d = -d
		}
		m.flick.Offset = clampF(math.Round((m.flick.Offset+d)*10)/10, -1, 1)
	case "space", "enter":
		a := diceflick.Action{Type: diceflick.ActFlick, Die: m.die, Flick: m.flick}
		m.play(a)
		return
	case "s":
		if !st.MayStop() {
			m.sh.Fail(plural(st.FlicksOwed(), "more flick", "more flicks") + " this turn before scoring")
			return
		}
		m.startScoring()
		m.sh.Say("the bonus flick is skipped: the die stays in hand")
		return
	default:
		m.sh.Fail("aim: 1–3 die, b base, ←/→ angle, ↑/↓ power (shift: big steps), space flicks")
		return
	}
	m.sh.Say("")
}

func clampF(v, lo, hi float64) float64 { return math.Max(lo, math.Min(hi, v)) }

// Preview is the steady hand's landing of the aim on the arena as it is:
// the simulation without hand noise (the real flick adds it).
func (m *Diceflick) Preview() physics.Landing {
	occ := m.s().Occupied()
	f := m.flick
	if b := m.botAction(); b != nil && b.Type == diceflick.ActFlick {
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
func (m *Diceflick) scoreKey(s string) {
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
			m.sh.Say("back to the bonus flick")
			return
		}
	case "enter":
		a := diceflick.Action{Type: diceflick.ActScore, Choice: m.Choice()}
		m.play(a)
		return
	default:
		m.sh.Fail("score: ↑/↓ choose a part, space switches it, r the best offer again, enter scores")
		return
	}
	m.sh.Say("")
}

// sentence is the game's narration of an event as one line of a message
// (the log indents a landing under its flick; a message does not).
func (m *Diceflick) sentence(e engine.Event) string {
	return strings.TrimSpace(strings.Join(m.sh.Narrate(e), " "))
}
