package dicestars

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"

	"github.com/dicehall/dicehall/engine"
)

// Game is Dice Stars for the engine registry.
type Game struct{}

// Options are the table options of Dice Stars.
type Options struct {
	// SoloGrid overrides the number of cells of the solo grid (1 to 255;
	// nil: the layout's). A pointer, so that 0 is refused rather than read
	// as "not given".
	SoloGrid *int `json:"soloGrid,omitempty"`
	// Layout replaces the whole component layout (advanced; nil = default).
	Layout *Layout `json:"layout,omitempty"`
}

// ParseOptions reads options strictly (nil or empty means defaults).
func ParseOptions(raw json.RawMessage) (Options, error) {
	var o Options
	if len(bytes.TrimSpace(raw)) == 0 || string(bytes.TrimSpace(raw)) == "null" {
		return o, nil
	}
	if err := engine.DecodeStrict(raw, &o); err != nil {
		return o, fmt.Errorf("dice stars options: %w", err)
	}
	if o.SoloGrid != nil && (*o.SoloGrid < 1 || *o.SoloGrid > MaxSoloGrid) {
		return o, fmt.Errorf("dice stars options: soloGrid %d: the solo grid has 1 to %d cells", *o.SoloGrid, MaxSoloGrid)
	}
	return o, nil
}

// MaxSoloGrid bounds the solo grid (its marks are counted in a byte).
const MaxSoloGrid = 255

// LayoutFor builds the layout the options ask for.
func (o Options) LayoutFor() (*Layout, error) {
	l := DefaultLayout
	if o.Layout != nil {
		l = *o.Layout
	}
	if o.SoloGrid != nil {
		l.SoloCells = *o.SoloGrid
	}
	if err := l.Validate(); err != nil {
		return nil, err
	}
	return &l, nil
}

// New sets up a match.
func (Game) New(players []string, options json.RawMessage) (engine.State, error) {
	return NewMatch(players, options)
}

// NewMatch sets up a match with typed access to its state.
func NewMatch(players []string, options json.RawMessage) (*Match, error) {
	o, err := ParseOptions(options)
	if err != nil {
		return nil, err
	}
	l, err := o.LayoutFor()
	if err != nil {
		return nil, err
	}
	s, err := NewState(l, len(players))
	if err != nil {
		return nil, err
	}
	return &Match{S: s, Names: append([]string(nil), players...)}, nil
}

// DecodeAction reads the JSON form of an action.
func (Game) DecodeAction(data []byte) (engine.Action, error) {
	return DecodeAction(data)
}

// Match is a game of Dice Stars behind the engine.State interface.
type Match struct {
	S     State
	Names []string
}

var _ engine.State = (*Match)(nil)

// Turn says who acts: the current player, or nature after a draw.
func (m *Match) Turn() engine.Turn {
	switch m.S.Phase {
	case PhaseOver:
		return engine.Turn{Over: true}
	case PhaseRoll:
		return engine.Turn{Chance: true}
	}
	return engine.Turn{Actors: []engine.Seat{seatOf(m.S.Current)}}
}

// Legal lists every legal action of seat, as engine.State promises: the
// distinct choices of State.LegalActions, then, while drawing, the
// announcements of more dice than the bag can give. The short-bag ruling
// accepts those (the player draws what is there), and an announcement is
// the player's own act, told in the draw event, so it is listed too.
func (m *Match) Legal(seat engine.Seat) []engine.Action {
	if !m.Turn().Has(seat) || seat == engine.ChanceSeat {
		return nil
	}
	acts := m.S.LegalActions(nil)
	out := make([]engine.Action, len(acts), len(acts)+3)
	for i, a := range acts {
		out[i] = a
	}
	if m.S.Phase == PhaseDraw {
		for _, rr := range [2]bool{false, true} {
			for n := 1; n <= 3; n++ {
				if a := Draw(n, rr); !slices.Contains(acts, a) && m.S.Check(a) == nil {
					out = append(out, a)
				}
			}
		}
	}
	return out
}

// Check tells whether a move is legal, and why not.
func (m *Match) Check(mv engine.Move) error {
	a, ok := mv.Action.(Action)
	if !ok {
		return engine.Refuse(engine.ErrBadAction.Rule, "not a dice stars action")
	}
	if m.S.Phase == PhaseOver {
		return engine.ErrGameOver
	}
	if !m.Turn().Has(mv.Seat) {
		if m.S.Phase == PhaseRoll {
			return engine.ErrChancePending
		}
		if mv.Seat == engine.ChanceSeat {
			return engine.Refuse(engine.ErrWrongAction.Rule, "no dice are waiting to be rolled")
		}
		return engine.Refuse(engine.ErrNotYourTurn.Rule, fmt.Sprintf("it is %s's turn, not yours", m.name(int(m.S.Current))))
	}
	return m.S.Check(a)
}

func (m *Match) name(p int) string {
	if p < len(m.Names) {
		return m.Names[p]
	}
	return "seat " + strconv.Itoa(p)
}

// Apply performs a legal move and reports what happened.
func (m *Match) Apply(mv engine.Move) ([]engine.Event, error) {
	if err := m.Check(mv); err != nil {
		return nil, err
	}
	a := mv.Action.(Action)
	before := m.S
	m.S.ApplyUnchecked(a)
	return m.events(&before, a, mv.Seat), nil
}

// SampleChance draws the pending roll.
func (m *Match) SampleChance(src engine.Source) engine.Action { return m.S.SampleRoll(src) }

// Players returns the seat names.
func (m *Match) Players() []string { return m.Names }

// Clone copies the match.
func (m *Match) Clone() engine.State {
	c := *m
	c.Names = append([]string(nil), m.Names...)
	return &c
}

// Result gives the current totals and, when over, the winners.
func (m *Match) Result() engine.Result {
	scores := make([]int, m.S.NPlayers)
	for p := range scores {
		scores[p] = m.S.Score(p)
	}
	var winners []int
	if m.S.Over() {
		winners = m.S.Winners()
	}
	return engine.NewResult(m.S.Over(), scores, winners)
}

// Event data of Dice Stars (the "kind" of each engine.Event says which).
type (
	// RefillEvent: the discard (and maybe the reserve) went back to the bag.
	RefillEvent struct {
		FromDiscard int `json:"fromDiscard"`
		FromReserve int `json:"fromReserve"`
	}
	// DrawEvent: the player announced a draw; Count dice will leave the bag.
	DrawEvent struct {
		Announced int `json:"announced"`
		Count     int `json:"count"`
	}
	// RollEvent: these dice left the bag and joined the reserve. Player is
	// the seat that drew them (the event itself is chance's).
	RollEvent struct {
		Dice   []string `json:"dice"`
		Player int      `json:"player"`
	}
	// TakeEvent: the player took dice and filled the sheet.
	TakeEvent struct {
		Choice  string     `json:"choice"` // "color", "value" or "stars"
		Color   string     `json:"color,omitempty"`
		Value   int        `json:"value,omitempty"`
		Dice    []string   `json:"dice"`
		Sum     int        `json:"sum"`
		Cells   []CellMark `json:"cells,omitempty"`
		Mult    []int      `json:"multipliers,omitempty"`
		Penalty bool       `json:"penalty,omitempty"`
	}
	// CellMark is one cell written: row value, cell index in the row, and
	// the text written ("X" or the sum).
	CellMark struct {
		Row  int    `json:"row"`
		Cell int    `json:"cell"`
		Text string `json:"text"`
	}
	// SoloEvent: the solo grid was marked after the turn.
	SoloEvent struct {
		Marks  int  `json:"marks"`
		Marked int  `json:"marked"`
		Cells  int  `json:"cells"` // the grid's size
		Lost   bool `json:"lost"`
	}
	// EndEvent: the game ended.
	EndEvent struct {
		Scores  []int    `json:"scores"`
		Winners []string `json:"winners"`
	}
)

func (m *Match) events(before *State, a Action, seat engine.Seat) []engine.Event {
	s := &m.S
	var ev []engine.Event
	add := func(kind string, data any) { ev = append(ev, engine.Event{Kind: kind, Seat: seat, Data: data}) }
	switch a.Type {
	case ActDraw:
		if before.RefillDue {
			fr := 0
			if a.ReturnReserve {
				fr = int(before.NReserve)
			}
			add("refill", RefillEvent{FromDiscard: before.DiscardCount(), FromReserve: fr})
		}
		add("draw", DrawEvent{Announced: int(a.N), Count: int(s.Pending)})
	case ActRoll:
		d := make([]string, a.N)
		for i, x := range a.Dice[:a.N] {
			d[i] = x.String()
		}
		add("roll", RollEvent{Dice: d, Player: int(s.Current)})
	default:
		te := TakeEvent{Dice: []string{}}
		for _, d := range before.ReserveDice() {
			if takes(a, d) {
				te.Dice = append(te.Dice, d.String())
				te.Sum += d.Face()
			}
		}
		switch a.Type {
		case ActTakeColor:
			te.Choice, te.Color = "color", a.Color.String()
		case ActTakeValue:
			te.Choice, te.Value = "value", int(a.Value)
		default:
			te.Choice, te.Mult = "stars", a.multRows()
		}
		p := int(before.Current)
		te.Penalty = s.Sheets[p].Penalized && !before.Sheets[p].Penalized
		for r := 0; r < NumRows; r++ {
			newly := s.Sheets[p].Filled[r] &^ before.Sheets[p].Filled[r]
			for i := 0; i < MaxRowCells; i++ {
				if newly&(1<<i) != 0 {
					te.Cells = append(te.Cells, CellMark{Row: s.L.RowValues[r], Cell: i, Text: cellText(&s.Sheets[p], r, i)})
				}
			}
		}
		add("take", te)
		if s.Ending && !before.Ending {
			add("end-triggered", nil)
		}
		if s.Solo() {
			add("solo", SoloEvent{Marks: int(s.SoloMarked - before.SoloMarked), Marked: int(s.SoloMarked), Cells: s.L.SoloCells, Lost: s.SoloLost})
		}
		if s.Over() {
			r := m.Result()
			names := []string{}
			for _, w := range r.Winners {
				names = append(names, m.name(int(w)))
			}
			add("game-over", EndEvent{Scores: r.Scores, Winners: names})
		}
	}
	return ev
}

func cellText(sh *Sheet, r, i int) string {
	filled, x, v := sh.Cell(r, i)
	switch {
	case !filled:
		return ""
	case x:
		return "X"
	}
	return strconv.Itoa(v)
}
