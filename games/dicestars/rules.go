package dicestars

import (
	"fmt"
	"math/bits"
	"slices"
	"strings"

	"github.com/dicehall/dicehall/engine"
)

// ActionType is the sort of an Action.
type ActionType uint8

const (
	ActDraw      ActionType = iota + 1 // announce how many dice to draw
	ActRoll                            // nature: which dice leave the bag, which faces show
	ActTakeColor                       // take every die of a colour
	ActTakeValue                       // take every die showing a value (2..6)
	ActTakeStars                       // take every star and mark multipliers
)

// Action is one move, as a small value (no pointers) so bots generate them
// into buffers without allocating.
type Action struct {
	Type ActionType
	// N is the number of dice announced (Draw) or rolled (Roll).
	N uint8
	// ReturnReserve puts the reserve back into the bag with the refill (Draw;
	// only when a refill is due).
	ReturnReserve bool
	Color         Color
	Value         uint8
	// Mult is, for a star choice, how many multiplier cells to mark in the
	// row of each value: Mult[v-LowRow] for the row of value v. Rows are
	// named by value, not by their place on the sheet, so an action means
	// the same cells whatever the layout's row order, in the rules as on the
	// wire (which knows no layout).
	Mult [NumRows]uint8
	// OffSheet counts the multipliers a star choice names for rows no sheet
	// has (values outside 2..6). The wire and scripts carry what a player
	// typed; the rules refuse it, like any wrong placement.
	OffSheet uint8
	// Dice are the dice drawn and their faces (Roll).
	Dice [3]Die
}

// LowRow is the lowest row value; every layout has the rows LowRow to
// LowRow+NumRows-1 (2 to 6), in some order.
const LowRow = 2

// outOfRange stands for a number too large for a byte (or negative) in a
// draw's count or a value choice: no rule accepts it, and a refusal then
// does not name it (it is not what the player gave).
const outOfRange = 255

// byteOf keeps n when it fits a byte and maps anything else to outOfRange,
// so a number the rules refuse is never read as another one.
func byteOf(n int) uint8 {
	if n < 0 || n >= outOfRange {
		return outOfRange
	}
	return uint8(n)
}

// numberText is ", not n" for a message that names the number given, or
// nothing for outOfRange, which stands for a number the player did not give.
func numberText(n uint8) string {
	if n == outOfRange {
		return ""
	}
	return fmt.Sprintf(", not %d", n)
}

// Draw announces a draw of n dice (any n: the rules refuse all but 1 to 3).
func Draw(n int, returnReserve bool) Action {
	return Action{Type: ActDraw, N: byteOf(n), ReturnReserve: returnReserve}
}

// Roll is nature's outcome of a draw.
func Roll(dice ...Die) Action {
	a := Action{Type: ActRoll, N: uint8(len(dice))}
	copy(a.Dice[:], dice)
	return a
}

// TakeColor takes every die of colour c.
func TakeColor(c Color) Action { return Action{Type: ActTakeColor, Color: c} }

// TakeValue takes every die showing v (any v: the rules refuse all but 2
// to 6).
func TakeValue(v int) Action { return Action{Type: ActTakeValue, Value: byteOf(v)} }

// TakeStars takes every star and marks one multiplier cell per star in the
// rows with the given values. A value no row has is kept as OffSheet, for
// the rules to refuse.
func TakeStars(rowValues ...int) Action {
	a := Action{Type: ActTakeStars}
	for _, v := range rowValues {
		if v < LowRow || v >= LowRow+NumRows {
			a.OffSheet = min(a.OffSheet+1, outOfRange)
			continue
		}
		a.Mult[v-LowRow] = min(a.Mult[v-LowRow]+1, outOfRange)
	}
	return a
}

// TakeStars is the package's TakeStars, refusing a row the sheet lacks
// (tests and tools that build choices by hand).
func (l *Layout) TakeStars(rowValues ...int) (Action, error) {
	for _, v := range rowValues {
		if l.RowOf(v) < 0 {
			return Action{}, fmt.Errorf("no row %d on the sheet", v)
		}
	}
	return TakeStars(rowValues...), nil
}

// StarsIn is how many multiplier cells a star choice marks in the row of
// value v.
func (a Action) StarsIn(v int) int {
	if v < LowRow || v >= LowRow+NumRows {
		return 0
	}
	return int(a.Mult[v-LowRow])
}

// StarCount is the number of multiplier cells a star choice names,
// off-sheet ones included.
func (a Action) StarCount() int {
	n := int(a.OffSheet)
	for _, m := range a.Mult {
		n += int(m)
	}
	return n
}

// Rule codes of Dice Stars refusals (stable: clients and scripts match them).
const (
	RuleMustDrawThree = "must-draw-three"
	RuleDrawCount     = "draw-count"
	RuleNoRefill      = "return-reserve-without-refill"
	RuleRollCount     = "roll-count"
	RuleRollDice      = "roll-not-in-bag"
	RuleRollFace      = "roll-face"
	RuleNoSuchDice    = "no-such-dice"
	RuleColumnFull    = "column-full"
	RuleRowFull       = "row-full"
	RuleMultipliers   = "multipliers"
	RulePenaltyStars  = "penalty-not-stars"
	RuleBadValue      = "bad-value"
)

// refuse is the rules' short name for engine.Refusef.
var refuse = engine.Refusef

// Check tells whether a is legal now for whoever is to act, and why not.
// It never changes the state.
func (s *State) Check(a Action) error {
	switch s.Phase {
	case PhaseOver:
		return engine.ErrGameOver
	case PhaseDraw:
		if a.Type != ActDraw {
			return refuse(engine.ErrWrongAction.Rule, "first draw dice from the bag: announce 1 to 3 dice")
		}
		return s.checkDraw(a)
	case PhaseRoll:
		if a.Type != ActRoll {
			return engine.ErrChancePending
		}
		return s.checkRoll(a)
	}
	switch a.Type {
	case ActTakeColor, ActTakeValue, ActTakeStars:
		return s.checkTake(a)
	case ActDraw:
		return refuse(engine.ErrWrongAction.Rule, "you have drawn already: now take dice of one colour, one value or the stars")
	}
	return refuse(engine.ErrWrongAction.Rule, "the dice are already rolled: now take dice of one colour, one value or the stars")
}

func (s *State) checkDraw(a Action) error {
	if a.N < 1 || a.N > 3 {
		return refuse(RuleDrawCount, "a draw is of 1, 2 or 3 dice%s", numberText(a.N))
	}
	if a.ReturnReserve && !s.RefillDue {
		return refuse(RuleNoRefill, "the reserve may go back into the bag only together with the refill, after the bag ran out or stars were chosen")
	}
	if s.MustDrawThree(a.ReturnReserve) && a.N != 3 {
		if a.ReturnReserve {
			return refuse(RuleMustDrawThree, "with the reserve put back the reserve is empty, so you must draw 3 dice")
		}
		return refuse(RuleMustDrawThree, "the reserve is empty or shows only stars, so you must draw 3 dice")
	}
	return nil
}

func (s *State) checkRoll(a Action) error {
	if a.N != s.Pending {
		return refuse(RuleRollCount, "%d dice are to be drawn, not %d", s.Pending, a.N)
	}
	bag := s.Bag
	for _, d := range a.Dice[:a.N] {
		c := d.Color()
		if int(c) >= NumColors {
			return refuse(RuleRollDice, "no such die colour")
		}
		if bag[c] == 0 {
			return refuse(RuleRollDice, "the bag holds no more %s dice", c)
		}
		bag[c]--
		if !s.L.HasFace(c, d.Face()) {
			return refuse(RuleRollFace, "%s die has no face %s", article(c.String()), faceName(d.Face()))
		}
	}
	return nil
}

// article puts "a" or "an" before a word.
func article(w string) string {
	if w != "" && strings.ContainsRune("aeiou", rune(w[0])) {
		return "an " + w
	}
	return "a " + w
}

// plural writes "1 empty cell", "3 empty cells".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func faceName(f int) string {
	if f == Star {
		return "star"
	}
	return fmt.Sprint(f)
}

// takeCount counts the reserve dice an action would take and their sum.
func (s *State) takeCount(a Action) (n, sum int) {
	for _, d := range s.Reserve[:s.NReserve] {
		if takes(a, d) {
			n++
			sum += d.Face()
		}
	}
	return n, sum
}

func takes(a Action, d Die) bool {
	switch a.Type {
	case ActTakeColor:
		return d.Color() == a.Color
	case ActTakeValue:
		return d.Face() == int(a.Value)
	case ActTakeStars:
		return d.IsStar()
	}
	return false
}

// fits reports whether taking n dice with a fits on sheet sh (star choice:
// only whether enough multiplier cells are left anywhere).
func (s *State) fits(sh *Sheet, a Action, n int) bool {
	switch a.Type {
	case ActTakeColor:
		return int(sh.room.col[a.Color]) >= n
	case ActTakeValue:
		return int(sh.room.row[a.Value]) >= n
	case ActTakeStars:
		return int(sh.room.mult) >= n
	}
	return false
}

// room is how much space a sheet has for each sort of choice.
type room struct {
	col  [NumColors]int8 // empty white cells in each colour's column (by colour)
	row  [7]int8         // empty cells in the row of each value (by value)
	mult int8            // unmarked multiplier cells
}

// measureRoom derives a sheet's room from its cells. The rules read the
// cached Sheet.room instead (kept up to date by every write); tests check
// that the two agree.
func (s *State) measureRoom(sh *Sheet) (r room) {
	l := s.L
	for i := 0; i < NumRows; i++ {
		empty := ^sh.Filled[i]
		for c := 0; c < NumColors; c++ {
			r.col[l.Columns[c]] += int8(empty >> c & 1)
		}
		r.row[l.RowValues[i]] = int8(l.RowCells(i) - bits.OnesCount8(sh.Filled[i]))
		r.mult += int8(l.Multipliers[i] - int(sh.Marked[i]))
	}
	return r
}

// countReserve derives the reserve's dice by colour and by face; the rules
// read the cached counts kept by every change of the reserve.
func (s *State) countReserve() (byColor [NumColors]int8, byFace [7]int8) {
	for _, d := range s.Reserve[:s.NReserve] {
		byColor[d.Color()]++
		byFace[d.Face()]++
	}
	return
}

// AnyTakeFits reports whether the current player has a choice that fits the
// sheet. Without one, the turn is a penalty.
func (s *State) AnyTakeFits() bool {
	rm := &s.Sheets[s.Current].room
	byColor, byFace := &s.resColor, &s.resFace
	for c, n := range byColor {
		if n > 0 && rm.col[c] >= n {
			return true
		}
	}
	for v := 2; v <= 6; v++ {
		if byFace[v] > 0 && rm.row[v] >= byFace[v] {
			return true
		}
	}
	return byFace[Star] > 0 && rm.mult >= byFace[Star]
}

func (s *State) checkTake(a Action) error {
	if a.Type == ActTakeValue && (a.Value < 2 || a.Value > 6 || s.L.RowOf(int(a.Value)) < 0) {
		return refuse(RuleBadValue, "a value choice is 2 to 6%s", numberText(a.Value))
	}
	if a.Type == ActTakeColor && int(a.Color) >= NumColors {
		return refuse(RuleBadValue, "no such colour")
	}
	n, _ := s.takeCount(a)
	if n == 0 {
		return refuse(RuleNoSuchDice, "the reserve has no %s", describeChoice(a))
	}
	sh := &s.Sheets[s.Current]
	if s.fits(sh, a, n) {
		if a.Type == ActTakeStars {
			return s.checkMultipliers(sh, a, n)
		}
		return nil
	}
	if !s.AnyTakeFits() {
		// Nothing fits: this is the penalty, which may be a colour or a value.
		if a.Type == ActTakeStars {
			return refuse(RulePenaltyStars, "nothing fits your sheet, so this turn is a penalty: choose a colour or a value, not the stars")
		}
		return nil
	}
	switch a.Type {
	case ActTakeColor:
		return refuse(RuleColumnFull, "the %s column has %s, too few for %d %s dice; another choice fits, and you must take one that fits",
			a.Color, plural(int(sh.room.col[a.Color]), "empty cell"), n, a.Color)
	case ActTakeValue:
		return refuse(RuleRowFull, "row %d has %s, too few for %d dice showing %d; another choice fits, and you must take one that fits",
			a.Value, plural(int(sh.room.row[a.Value]), "empty cell"), n, a.Value)
	}
	return refuse(RuleMultipliers, "%d multiplier cells are left, too few for %d stars; another choice fits, and you must take one that fits",
		sh.room.mult, n)
}

func (s *State) checkMultipliers(sh *Sheet, a Action, n int) error {
	if a.OffSheet > 0 {
		return refuse(RuleMultipliers, "a multiplier names a row the sheet does not have (rows are 2 to 6)")
	}
	if a.StarCount() != n {
		return refuse(RuleMultipliers, "you take %d stars, so mark exactly %d multiplier cells (you named %d)", n, n, a.StarCount())
	}
	for r := 0; r < NumRows; r++ {
		v := s.L.RowValues[r]
		if int(sh.Marked[r])+a.StarsIn(v) > s.L.Multipliers[r] {
			return refuse(RuleMultipliers, "row %d has %d unmarked multiplier cells, not %d",
				v, s.L.Multipliers[r]-int(sh.Marked[r]), a.StarsIn(v))
		}
	}
	return nil
}

func describeChoice(a Action) string {
	switch a.Type {
	case ActTakeColor:
		return a.Color.String() + " dice"
	case ActTakeValue:
		return fmt.Sprintf("dice showing %d", a.Value)
	}
	return "stars"
}

// Apply checks a and, if legal, performs it.
func (s *State) Apply(a Action) error {
	if err := s.Check(a); err != nil {
		return err
	}
	s.ApplyUnchecked(a)
	return nil
}

// ApplyUnchecked performs a legal action without checking it (the fast path
// for bots that generated it with LegalActions).
func (s *State) ApplyUnchecked(a Action) {
	switch a.Type {
	case ActDraw:
		s.applyDraw(a)
	case ActRoll:
		for _, d := range a.Dice[:a.N] {
			s.Bag[d.Color()]--
			s.Reserve[s.NReserve] = d
			s.NReserve++
			s.resColor[d.Color()]++
			s.resFace[d.Face()]++
		}
		s.Pending = 0
		s.Phase = PhaseTake
	default:
		s.applyTake(a)
	}
}

func (s *State) applyDraw(a Action) {
	if s.RefillDue {
		for c := range s.Discard {
			s.Bag[c] += s.Discard[c]
			s.Discard[c] = 0
		}
		if a.ReturnReserve {
			for _, d := range s.Reserve[:s.NReserve] {
				s.Bag[d.Color()]++
			}
			s.NReserve = 0
			s.resColor, s.resFace = [NumColors]int8{}, [7]int8{}
		}
		s.RefillDue = false
	}
	n := int(a.N)
	if b := s.BagCount(); b < n {
		n = b // ruling: draw what is there
	}
	s.Pending = uint8(n)
	s.Phase = PhaseRoll
	if n == 0 {
		s.Phase = PhaseTake
	}
}

// takeSize is the number of reserve dice the take a takes.
func (s *State) takeSize(a Action) int {
	switch a.Type {
	case ActTakeColor:
		return int(s.resColor[a.Color])
	case ActTakeValue:
		return int(s.resFace[a.Value])
	}
	return int(s.resFace[Star])
}

func (s *State) applyTake(a Action) {
	sh := &s.Sheets[s.Current]
	n := s.takeSize(a)
	// A legal take that does not fit can only be the penalty (checkTake
	// allows a misfit only when nothing fits).
	penalty := !s.fits(sh, a, n)
	// Move the taken dice to the discard, keeping the others in order.
	k, sum := 0, 0
	for _, d := range s.Reserve[:s.NReserve] {
		if takes(a, d) {
			sum += d.Face()
			s.Discard[d.Color()]++
			s.resColor[d.Color()]--
			s.resFace[d.Face()]--
			continue
		}
		s.Reserve[k] = d
		k++
	}
	s.NReserve = uint8(k)
	if penalty {
		sh.Penalty = int16(sum)
		sh.Penalized = true
	} else {
		s.L.writeTake(sh, a, n, sum)
	}
	if sh.WhiteEmpty == 0 || penalty {
		s.Ending = true
	}
	s.RefillDue = s.BagCount() == 0 || (a.Type == ActTakeStars && !penalty)
	s.Turns++
	if s.Solo() {
		s.SoloMarked += uint8(min(s.L.SoloMarks(s.Reserve[:s.NReserve]), s.L.SoloCells-int(s.SoloMarked)))
		if int(s.SoloMarked) >= s.L.SoloCells {
			s.SoloLost = true
			s.Phase = PhaseOver
			return
		}
		if s.Ending {
			s.Phase = PhaseOver
			return
		}
		s.Phase = PhaseDraw
		return
	}
	next := s.Current + 1
	if next == s.NPlayers {
		next = 0
		if s.Ending {
			s.Phase = PhaseOver
			return
		}
	}
	s.Current = next
	s.Phase = PhaseDraw
}

// writeTake fills sheet sh for the take a of n dice summing to sum, which
// fits the sheet (not a penalty).
func (l *Layout) writeTake(sh *Sheet, a Action, n, sum int) {
	switch a.Type {
	case ActTakeColor:
		col := l.ColumnOf(a.Color)
		for r := 0; r < NumRows && n > 0; r++ {
			if sh.Filled[r]&(1<<col) == 0 {
				n--
				sh.write(r, col, n == 0, sum)
				sh.WhiteEmpty--
				sh.room.col[a.Color]--
				sh.room.row[l.RowValues[r]]--
			}
		}
	case ActTakeValue:
		r := l.RowOf(int(a.Value))
		for i := 0; i < l.RowCells(r) && n > 0; i++ {
			if sh.Filled[r]&(1<<i) == 0 {
				n--
				sh.write(r, i, n == 0, sum)
				sh.room.row[a.Value]--
				if i < NumColors {
					sh.WhiteEmpty--
					sh.room.col[l.Columns[i]]--
				}
			}
		}
	default:
		for r := range sh.Marked {
			sh.Marked[r] += a.Mult[l.RowValues[r]-LowRow]
		}
		sh.room.mult -= int8(a.StarCount())
	}
}

func (sh *Sheet) write(r, i int, last bool, sum int) {
	sh.Filled[r] |= 1 << i
	if last {
		sh.Cells[r][i] = int8(sum)
		sh.Sum[r] += int16(sum)
	} else {
		sh.Cells[r][i] = cellX
	}
}

// LegalActions appends the distinct legal choices of the player to act (or
// nothing in PhaseRoll and PhaseOver) to buf and returns it. It allocates
// only when buf is too small. A draw announcing more dice than the bag and
// the discard due back hold is legal but left out: it draws the same dice
// as announcing all of them, and bots gain nothing by weighing it twice.
// Match.Legal, the engine's list, has those draws too.
func (s *State) LegalActions(buf []Action) []Action {
	buf = buf[:0]
	switch s.Phase {
	case PhaseDraw:
		for _, rr := range [2]bool{false, true} {
			if rr && !s.RefillDue {
				break
			}
			if s.MustDrawThree(rr) {
				buf = append(buf, Draw(3, rr))
				continue
			}
			bag := s.BagCount()
			if s.RefillDue {
				bag += s.DiscardCount()
			}
			for n := 1; n <= 3 && (n == 1 || n <= bag); n++ {
				buf = append(buf, Draw(n, rr))
			}
		}
	case PhaseTake:
		buf = s.legalTakes(buf)
	}
	return buf
}

func (s *State) legalTakes(buf []Action) []Action {
	sh := &s.Sheets[s.Current]
	rm := &sh.room
	byColor, byFace := &s.resColor, &s.resFace
	start := len(buf)
	// Branch-free: write every candidate, keep it by advancing n only when
	// it fits (random play makes these branches unpredictable).
	buf = slices.Grow(buf, NumColors+5)
	n := len(buf)
	buf = buf[:n+NumColors+5]
	for c := 0; c < NumColors; c++ {
		buf[n] = Action{Type: ActTakeColor, Color: Color(c)}
		n += b2i(byColor[c] > 0 && rm.col[c] >= byColor[c])
	}
	for v := 2; v <= 6; v++ {
		buf[n] = Action{Type: ActTakeValue, Value: uint8(v)}
		n += b2i(byFace[v] > 0 && rm.row[v] >= byFace[v])
	}
	buf = buf[:n]
	if k := int(byFace[Star]); k > 0 && int(rm.mult) >= k {
		var free [NumRows]uint8 // by row value, as Action.Mult
		for r := 0; r < NumRows; r++ {
			free[s.L.RowValues[r]-LowRow] = uint8(s.L.Multipliers[r]) - sh.Marked[r]
		}
		buf = appendStarPlacements(buf, Action{Type: ActTakeStars}, free, k)
	}
	if len(buf) > start {
		return buf
	}
	// Nothing fits: every colour and value present is a penalty choice.
	for c, n := range byColor {
		if n > 0 {
			buf = append(buf, TakeColor(Color(c)))
		}
	}
	for v := 2; v <= 6; v++ {
		if byFace[v] > 0 {
			buf = append(buf, TakeValue(v))
		}
	}
	return buf
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// appendStarPlacements enumerates every way to mark k multiplier cells, as
// counts per row (by value, as Action.Mult) within each row's free cells. Loops rather than recursion:
// this is the hottest spot of random play.
func appendStarPlacements(buf []Action, a Action, free [NumRows]uint8, k int) []Action {
	var suffix [NumRows + 1]int // free cells in rows r..4
	for r := NumRows - 1; r >= 0; r-- {
		suffix[r] = suffix[r+1] + int(free[r])
	}
	if suffix[0] < k {
		return buf
	}
	if k == 1 { // the common case: no nested loops, no branches
		buf = slices.Grow(buf, NumRows)
		n := len(buf)
		buf = buf[:n+NumRows]
		for r := 0; r < NumRows; r++ {
			a.Mult = [NumRows]uint8{}
			a.Mult[r] = 1
			buf[n] = a
			n += b2i(free[r] > 0)
		}
		return buf[:n]
	}
	for m0 := min(k, int(free[0])); m0 >= 0 && k-m0 <= suffix[1]; m0-- {
		k1 := k - m0
		for m1 := min(k1, int(free[1])); m1 >= 0 && k1-m1 <= suffix[2]; m1-- {
			k2 := k1 - m1
			for m2 := min(k2, int(free[2])); m2 >= 0 && k2-m2 <= suffix[3]; m2-- {
				k3 := k2 - m2
				for m3 := min(k3, int(free[3])); m3 >= 0 && k3-m3 <= suffix[4]; m3-- {
					a.Mult = [NumRows]uint8{uint8(m0), uint8(m1), uint8(m2), uint8(m3), uint8(k3 - m3)}
					buf = append(buf, a)
				}
			}
		}
	}
	return buf
}

// SampleRoll draws nature's outcome for the pending draw from src: which
// dice leave the bag (each remaining die equally likely) and their faces
// (each of the six equally likely). One draw in [0, 6 × dice in the bag)
// picks both the die and its face, halving the calls on the hot path.
func (s *State) SampleRoll(src engine.Source) Action {
	a := Action{Type: ActRoll, N: s.Pending}
	bag := s.Bag
	total := sum4(bag)
	for i := 0; i < int(s.Pending); i++ {
		x := src.IntN(6 * total)
		face := x % 6
		x /= 6
		c := 0
		for x >= int(bag[c]) {
			x -= int(bag[c])
			c++
		}
		bag[c]--
		total--
		a.Dice[i] = MakeDie(Color(c), s.L.Dice[c].Faces[face])
	}
	return a
}
