package diceflick

import "github.com/dicehall/dicehall/engine"

// Report is the public picture of a game: the JSON `dicehall script` prints
// (docs/rules/diceflick.md#in-scripts) and the heart of every view. Nothing in Diceflick is
// hidden but the bag's future, so every seat sees the same. Fields are only
// ever added.
type Report struct {
	Over       bool           `json:"over"`
	Winners    []string       `json:"winners"`
	Next       string         `json:"next"` // who acts next ("" once over)
	Phase      string         `json:"phase"`
	Round      int            `json:"round"` // from 1
	Rounds     int            `json:"rounds"`
	Practice   bool           `json:"practice,omitempty"`
	Bag        map[string]int `json:"bag"`
	Arena      [][]string     `json:"arena"` // rows of holes: "" or "blue:5", "pink:blast"
	Markers    []MarkerReport `json:"markers"`
	FlicksLeft int            `json:"flicksLeft"`
	Bonus      bool           `json:"bonus,omitempty"`   // the bonus flick was granted
	MayStop    bool           `json:"mayStop,omitempty"` // only the optional bonus flick is left
	InFlight   string         `json:"inFlight,omitempty"`
	ToDraw     int            `json:"toDraw,omitempty"`
	Best       *BestReport    `json:"best,omitempty"` // the offer while scoring
	Players    []PlayerReport `json:"players"`
}

// MarkerReport is a marker printed on a hole.
type MarkerReport struct {
	Kind      string `json:"kind"` // "centre", "bonus", or the upgrade marker's colour
	Hole      string `json:"hole"`
	Uncovered bool   `json:"uncovered"`
}

// BestReport is the solver's best choice, offered to the player.
type BestReport struct {
	Total  int        `json:"total"`
	Choice ChoiceJSON `json:"choice"`
}

// PlayerReport is one column of the notepad and the dice in front of the
// player.
type PlayerReport struct {
	Name   string   `json:"name"`
	Hand   []string `json:"hand"`
	Scores []int    `json:"scores"` // one per round played
	Total  int      `json:"total"`
}

// Report builds the public picture of the match.
func (m *Match) Report() Report {
	s := &m.S
	r := Report{Over: s.Over(), Winners: []string{}, Phase: s.Phase.String(), Round: min(s.Round+1, s.C.Rounds),
		Rounds: s.C.Rounds, Practice: s.Practice(), Bag: map[string]int{}, Markers: []MarkerReport{},
		FlicksLeft: max(int(s.FlicksLeft), 0), Bonus: s.Bonus, MayStop: s.MayStop(), ToDraw: int(s.ToDraw)}
	if s.Over() {
		for _, w := range s.Winners() {
			r.Winners = append(r.Winners, m.name(w))
		}
	} else {
		r.Next = m.name(s.Current)
		if m.Turn().Chance {
			r.Next = engine.ChanceSeat.String()
		}
	}
	if s.Phase == PhaseLand {
		r.InFlight = s.InFlight.String()
	}
	for c := range NumColors {
		r.Bag[c.String()] = int(s.Bag[c])
	}
	for row := range Rows {
		line := make([]string, Cols)
		for col := range Cols {
			line[col] = s.Arena[row*Cols+col].String()
		}
		r.Arena = append(r.Arena, line)
	}
	mark := func(kind string, h int) {
		if h >= 0 {
			r.Markers = append(r.Markers, MarkerReport{Kind: kind, Hole: HoleName(h), Uncovered: !s.Arena[h].Full()})
		}
	}
	mark("centre", s.C.Centre)
	for c, h := range s.C.Markers {
		mark(Color(c).String(), h)
	}
	mark("bonus", s.C.Bonus)
	if s.Phase == PhaseScore || s.MayStop() {
		b := s.Board()
		t, ch := b.Solve()
		r.Best = &BestReport{Total: t, Choice: ch.JSON()}
	}
	for p := range s.NPlayers {
		pr := PlayerReport{Name: m.name(p), Hand: []string{}, Scores: []int{}, Total: s.Totals[p]}
		for _, c := range s.HandOf(p) {
			pr.Hand = append(pr.Hand, c.String())
		}
		played := s.Round
		if p < s.Current && !s.Over() {
			played++
		}
		for i := range played {
			pr.Scores = append(pr.Scores, int(s.Scores[p][i]))
		}
		r.Players = append(r.Players, pr)
	}
	return r
}

// View is what a seat sees: the public picture (nothing is hidden), with the
// seat and, when it may act, example legal actions. Current and Values are
// for the renderers (a player choosing what to score sees the points of
// every choice live); they are not in the Report, so scripts print what
// they always did.
type View struct {
	Report
	Seat  engine.Seat     `json:"seat"`
	Legal []engine.Action `json:"legal,omitempty"`
	// Current is the seat whose turn it is, also while nature draws or a
	// die rolls (-1 once over).
	Current int `json:"current"`
	// Values is what each hole would score now, row by row: a die's pips
	// or blast points, doubled on the centre; an uncovered upgrade
	// marker's points; 0 for an empty hole.
	Values [][]int `json:"values"`
}

// View is everything seat may see.
func (m *Match) View(seat engine.Seat) any {
	v := View{Report: m.Report(), Seat: seat, Legal: m.Legal(seat), Current: m.S.Current}
	if m.S.Over() {
		v.Current = -1
	}
	b := m.S.Board()
	for row := range Rows {
		line := make([]int, Cols)
		for col := range Cols {
			line[col] = int(b.Value[row*Cols+col])
		}
		v.Values = append(v.Values, line)
	}
	return v
}
