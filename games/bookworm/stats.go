package bookworm

import "github.com/dicehall/dicehall/engine"

// Indexes of the seat stats in Stats.
const (
	statWords = iota
	statSteals
	statQuestions
	statFails
	statLate
)

var (
	seatStats = []engine.Stat{
		{Key: "bookworm.stat.words", Label: "words"},
		{Key: "bookworm.stat.steals", Label: "steals"},
		{Key: "bookworm.stat.questions", Label: "? dice"},
		{Key: "bookworm.stat.fails", Label: "failed turns"},
		{Key: "bookworm.stat.late", Label: "of which late"},
	}
	gameStats = []engine.Stat{{Key: "bookworm.stat.rounds", Label: "rounds"}}
)

// Stats counts, per seat, words named, dice stolen, ? dice taken, turns
// failed on the clock and of those the turns whose word came too late;
// per game, the rounds played (engine.Counter).
func (Game) Stats(int) (seat, game []engine.Stat) { return seatStats, gameStats }

// CountMove counts what one move did.
func (Game) CountMove(t *engine.Tally, st engine.State, m engine.Move, events []engine.Event, beaten []engine.Move) {
	s := st.(*Match).S
	for _, e := range events {
		switch e.Kind {
		case "round-end":
			t.Game[0]++
		case "fail":
			if f, ok := e.Data.(FailEvent); ok && f.Reason == "timeout" {
				t.Seat[f.Seat][statFails]++
			}
		case "timeout":
			// A word decided but stamped after the naming clock ran
			// out came too late.
			if te, ok := e.Data.(TimeoutEvent); ok && te.Phase == "name" {
				for _, b := range beaten {
					t.Seat[b.Seat][statLate]++
				}
			}
		case "word":
			t.Seat[m.Seat][statWords]++
		case "steal":
			// The table's timeout may close the window that lets a
			// steal pass: the taker is the die's owner.
			if te, ok := e.Data.(TakeEvent); ok {
				t.Seat[s.Owner[te.Die]][statSteals]++
			}
		case "question":
			t.Seat[m.Seat][statQuestions]++
		}
	}
}

// CountEnd counts nothing more: every Bookworm stat is counted move by move.
func (Game) CountEnd(*engine.Tally, engine.State) {}
