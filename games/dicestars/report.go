package dicestars

import "github.com/dicehall/dicehall/engine"

// Report is the public picture of a game: the JSON the `dicehall script`
// command prints (a public contract, docs/rules/dicestars.md#in-scripts) and the heart of every
// seat's view. Fields are only ever added.
type Report struct {
	Over      bool           `json:"over"`
	Winners   []string       `json:"winners"`
	Next      string         `json:"next"` // who acts next ("" once over)
	Phase     string         `json:"phase"`
	Turns     int            `json:"turns"`
	Bag       int            `json:"bag"`
	Reserve   []string       `json:"reserve"`
	Discard   int            `json:"discard"`
	RefillDue bool           `json:"refillDue"`
	Ending    bool           `json:"ending"`
	Players   []PlayerReport `json:"players"`
}

// PlayerReport is one sheet.
type PlayerReport struct {
	Name      string      `json:"name"`
	Total     int         `json:"total"`
	Penalty   int         `json:"penalty"`
	Penalized bool        `json:"penalized"`
	WhiteLeft int         `json:"whiteLeft"`
	Rows      []RowReport `json:"rows"`
	Solo      *SoloReport `json:"solo,omitempty"`
}

// RowReport is one value row: its cells (white then green: "" empty, "X",
// or the number written), multipliers, sum and final score.
type RowReport struct {
	Value       int      `json:"value"`
	Cells       []string `json:"cells"`
	Marked      int      `json:"marked"`
	Multipliers int      `json:"multipliers"`
	Sum         int      `json:"sum"`
	Score       int      `json:"score"`
}

// SoloReport is the solo grid and the virtual opponent.
type SoloReport struct {
	Marked   int  `json:"marked"`
	Cells    int  `json:"cells"`
	Lost     bool `json:"lost"`
	Opponent int  `json:"opponent"`
}

// Report builds the public picture of the match.
func (m *Match) Report() Report {
	s := &m.S
	r := Report{
		Over: s.Over(), Winners: []string{}, Phase: s.Phase.String(), Turns: int(s.Turns),
		Bag: s.BagCount(), Discard: s.DiscardCount(), Reserve: []string{},
		RefillDue: s.RefillDue, Ending: s.Ending,
	}
	if s.Over() {
		for _, w := range s.Winners() {
			r.Winners = append(r.Winners, m.name(w))
		}
	} else {
		r.Next = m.name(int(s.Current))
	}
	for _, d := range s.ReserveDice() {
		r.Reserve = append(r.Reserve, d.String())
	}
	for p := 0; p < int(s.NPlayers); p++ {
		sh := &s.Sheets[p]
		pr := PlayerReport{Name: m.name(p), Total: sh.Total(s.L), Penalty: int(sh.Penalty),
			Penalized: sh.Penalized, WhiteLeft: int(sh.WhiteEmpty)}
		for row := 0; row < NumRows; row++ {
			rr := RowReport{Value: s.L.RowValues[row], Marked: int(sh.Marked[row]),
				Multipliers: s.L.Multipliers[row], Sum: int(sh.Sum[row]), Score: sh.RowScore(s.L, row)}
			for i := 0; i < s.L.RowCells(row); i++ {
				rr.Cells = append(rr.Cells, cellText(sh, row, i))
			}
			pr.Rows = append(pr.Rows, rr)
		}
		if s.Solo() {
			pr.Solo = &SoloReport{Marked: int(s.SoloMarked), Cells: s.L.SoloCells, Lost: s.SoloLost, Opponent: s.SoloOpponent()}
		}
		r.Players = append(r.Players, pr)
	}
	return r
}

// View is what one seat sees. Dice Stars hides nothing but the future: the
// bag is a bag, not a pile in a known order, so which dice come out next is
// decided only when they are drawn (by the server's chance source, which no
// view contains). The per-colour bag and discard counts are public because
// every die was seen on its way there.
type View struct {
	Report
	Seat      engine.Seat    `json:"seat"`
	Current   int            `json:"current"`
	Pending   int            `json:"pending"`
	BagColors map[string]int `json:"bagColors"`
	Discarded map[string]int `json:"discardColors"`
	Columns   []string       `json:"columns"`
	Legal     []Action       `json:"legal,omitempty"` // the seat's distinct choices (State.LegalActions), when it is to act
	MustThree bool           `json:"mustDrawThree"`
	Penalty   bool           `json:"penaltyTurn"` // nothing fits: the take is a penalty
	// SoloGroup and SoloPoints (solo only) let a client preview what a take
	// costs on the solo grid: one mark per started SoloGroup points left in
	// the reserve (Layout.SoloMarks), SoloPoints per mark to the opponent.
	SoloGroup  int `json:"soloGroup,omitempty"`
	SoloPoints int `json:"soloPoints,omitempty"`
	// State is the game's compact state for bots. It holds only what the
	// view above shows, in the form search code can play forward from.
	State State `json:"-"`
}

// View returns seat's view (Spectator for the public one).
func (m *Match) View(seat engine.Seat) any { return m.SeatView(seat) }

// SeatView is View with its concrete type.
func (m *Match) SeatView(seat engine.Seat) *View {
	s := &m.S
	v := &View{Report: m.Report(), Seat: seat, Current: int(s.Current), Pending: int(s.Pending),
		BagColors: map[string]int{}, Discarded: map[string]int{}, State: *s}
	for c := 0; c < NumColors; c++ {
		v.BagColors[Color(c).String()] = int(s.Bag[c])
		v.Discarded[Color(c).String()] = int(s.Discard[c])
	}
	if s.Solo() {
		v.SoloGroup, v.SoloPoints = s.L.SoloGroup, s.L.SoloPoints
	}
	for _, c := range s.L.Columns {
		v.Columns = append(v.Columns, c.String())
	}
	if seat >= 0 && m.Turn().Has(seat) {
		v.Legal = s.LegalActions(nil)
		v.MustThree = s.Phase == PhaseDraw && s.MustDrawThree(false)
		v.Penalty = s.Phase == PhaseTake && !s.AnyTakeFits()
	}
	return v
}
