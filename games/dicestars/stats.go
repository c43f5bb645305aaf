package dicestars

import "github.com/dicehall/dicehall/engine"

// soloStats are what a solo game counts beyond the score: the virtual
// opponent's score, and whether the solo grid filled up (the game lost).
var soloStats = []engine.Stat{
	{Key: "dicestars.stat.opponent", Label: "virtual opponent's score"},
	{Key: "dicestars.stat.gridLosses", Label: "games lost to a full solo grid", Total: true},
}

// Stats counts, in the solo variant only, the virtual opponent's score and
// the games lost to a full solo grid (engine.Counter).
func (Game) Stats(players int) (seat, game []engine.Stat) {
	if players == 1 {
		return nil, soloStats
	}
	return nil, nil
}

// CountMove counts nothing: Dice Stars' stats are read from the end.
func (Game) CountMove(*engine.Tally, engine.State, engine.Move, []engine.Event, []engine.Move) {}

// CountEnd reads the solo opponent's score and grid from the final state.
func (Game) CountEnd(t *engine.Tally, st engine.State) {
	s := &st.(*Match).S
	if !s.Solo() {
		return
	}
	t.Game[0] += s.SoloOpponent()
	if s.SoloLost {
		t.Game[1]++
	}
}
