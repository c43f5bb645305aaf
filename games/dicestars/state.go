package dicestars

import (
	"fmt"
	"math/bits"

	"github.com/dicehall/dicehall/engine"
)

// MaxPlayers is the most seats a game has.
const MaxPlayers = 4

// cellX marks a cell crossed with an X; other filled cells hold the sum written.
const cellX = -1

// Sheet is one player's score sheet.
type Sheet struct {
	// Cells holds what is written in each row, white cells first (in column
	// order) then green ones. Meaningful only where the Filled bit is set:
	// cellX for an X, otherwise the number written.
	Cells  [NumRows][MaxRowCells]int8
	Filled [NumRows]uint8 // bit i set: cell i of the row is written
	Marked [NumRows]uint8 // multiplier cells marked
	Sum    [NumRows]int16 // numbers written in the row
	// Penalty is the sum written in the penalty cell (Penalized says whether
	// it was written: a penalty of 0 still ends the game).
	Penalty    int16
	Penalized  bool
	WhiteEmpty uint8 // empty white (objective) cells left
	// room caches the empty cells per choice (see measureRoom): the legal
	// actions read it on every step, and recounting dominated the profile.
	room room
}

// Phase is the step of the turn.
type Phase uint8

const (
	PhaseDraw Phase = iota // the current player announces how many dice to draw
	PhaseRoll              // nature picks which dice leave the bag and their faces
	PhaseTake              // the current player takes dice and fills the sheet
	PhaseOver              // the game has ended
)

func (p Phase) String() string {
	return [...]string{"draw", "roll", "take", "over"}[p]
}

// State is the whole game, as a compact value: copying it is a deep copy.
type State struct {
	L         *Layout
	NPlayers  uint8
	Current   uint8
	Phase     Phase
	Pending   uint8 // dice to be drawn in PhaseRoll
	RefillDue bool  // the current player starts the turn with the refill
	Ending    bool  // the end was triggered: finish the round
	Turns     uint16
	Bag       [NumColors]uint8
	Discard   [NumColors]uint8
	Reserve   [MaxDice]Die
	NReserve  uint8
	Sheets    [MaxPlayers]Sheet
	// Solo variant (NPlayers == 1): the virtual opponent's grid.
	SoloMarked uint8
	SoloLost   bool
	// resColor and resFace count the reserve by colour and by face (a cache
	// of Reserve for the hot path; see countReserve).
	resColor [NumColors]int8
	resFace  [7]int8
}

// NewState sets up a game for n players (1 = the solo variant) on layout l.
func NewState(l *Layout, n int) (State, error) {
	if l == nil {
		l = &DefaultLayout
	}
	if err := l.Validate(); err != nil {
		return State{}, err
	}
	if n < 1 || n > MaxPlayers {
		return State{}, fmt.Errorf("dice stars is for 1 to %d players, not %d", MaxPlayers, n)
	}
	s := State{L: l, NPlayers: uint8(n)}
	for c := range l.Dice {
		s.Bag[c] = uint8(l.Dice[c].Count)
	}
	for p := 0; p < n; p++ {
		s.Sheets[p].WhiteEmpty = NumRows * NumColors
	}
	s.Recount()
	return s, nil
}

// Solo reports whether this is the solo variant.
func (s *State) Solo() bool { return s.NPlayers == 1 }

// Over reports whether the game has ended.
func (s *State) Over() bool { return s.Phase == PhaseOver }

// BagCount is the number of dice in the bag.
func (s *State) BagCount() int { return sum4(s.Bag) }

// DiscardCount is the number of dice in the discard.
func (s *State) DiscardCount() int { return sum4(s.Discard) }

func sum4(a [NumColors]uint8) int { return int(a[0]) + int(a[1]) + int(a[2]) + int(a[3]) }

// ReserveDice returns the dice in the reserve, in the order they arrived.
func (s *State) ReserveDice() []Die { return s.Reserve[:s.NReserve] }

// reserveOnlyStars reports whether the reserve is empty or shows only stars:
// then the next draw must be of three dice.
func (s *State) reserveOnlyStars() bool {
	return s.NReserve == uint8(s.resFace[Star])
}

// MustDrawThree reports whether the draw about to be made is forced to three
// dice, given whether the reserve is put back into the bag first.
func (s *State) MustDrawThree(returnReserve bool) bool {
	return returnReserve || s.reserveOnlyStars()
}

// Recount rebuilds the cached counters (Sheet.room, the reserve counts)
// from the cells and dice. The rules keep them up to date themselves; call
// it after editing State fields directly (tests, puzzles, analysis tools).
func (s *State) Recount() {
	for p := range s.Sheets {
		s.Sheets[p].room = s.measureRoom(&s.Sheets[p])
	}
	s.resColor, s.resFace = s.countReserve()
}

// rowEmpty counts the empty cells (white and green) of row r.
func (sh *Sheet) rowEmpty(l *Layout, r int) int {
	return l.RowCells(r) - bits.OnesCount8(sh.Filled[r])
}

// Cell reports what is written in cell i of row r: filled, and the number
// (x true for an X).
func (sh *Sheet) Cell(r, i int) (filled, x bool, value int) {
	if sh.Filled[r]&(1<<i) == 0 {
		return false, false, 0
	}
	v := sh.Cells[r][i]
	return true, v == cellX, int(v)
}

// RowScore is the final score of row r: the sum if no multiplier is marked,
// twice the sum if all are, zero if only some are.
func (sh *Sheet) RowScore(l *Layout, r int) int {
	switch int(sh.Marked[r]) {
	case 0:
		return int(sh.Sum[r])
	case l.Multipliers[r]:
		return 2 * int(sh.Sum[r])
	}
	return 0
}

// Total is the sheet's score: the row scores less the penalty.
func (sh *Sheet) Total(l *Layout) int {
	t := 0
	for r := 0; r < NumRows; r++ {
		t += sh.RowScore(l, r)
	}
	return t - int(sh.Penalty)
}

// Score is a seat's total so far.
func (s *State) Score(seat int) int { return s.Sheets[seat].Total(s.L) }

// SoloOpponent is the virtual opponent's score.
func (s *State) SoloOpponent() int { return int(s.SoloMarked) * s.L.SoloPoints }

// Winners lists the seats with the best total (ties share). In the solo
// variant the player wins only without a loss on the solo grid and with a
// total above the virtual opponent's; otherwise the list is empty.
func (s *State) Winners() []int {
	if s.Solo() {
		if !s.SoloLost && s.Score(0) > s.SoloOpponent() {
			return []int{0}
		}
		return nil
	}
	best := -1 << 30
	var w []int
	for p := 0; p < int(s.NPlayers); p++ {
		t := s.Score(p)
		switch {
		case t > best:
			best, w = t, []int{p}
		case t == best:
			w = append(w, p)
		}
	}
	return w
}

// SoloMarks is how many solo-grid cells a reserve left behind costs: none
// for an empty reserve, one for stars only, otherwise one per started group
// of points, the points doubled when stars are among the numbers.
func (l *Layout) SoloMarks(reserve []Die) int {
	sum, stars := 0, 0
	for _, d := range reserve {
		if d.IsStar() {
			stars++
		}
		sum += d.Face()
	}
	return l.soloMarksOf(len(reserve), sum, stars)
}

// soloMarksOf is SoloMarks for a reserve of n dice, stars of them stars,
// their faces summing to sum.
func (l *Layout) soloMarksOf(n, sum, stars int) int {
	switch {
	case n == 0:
		return 0
	case stars == n:
		return 1
	case stars > 0:
		sum *= 2
	}
	return (sum + l.SoloGroup - 1) / l.SoloGroup
}

// Seat converts a seat number for the engine.
func seatOf(p uint8) engine.Seat { return engine.Seat(p) }
