package dicestars

import (
	"encoding/json"
	"slices"
	"testing"
)

// TestJudgeDataNamesTheMoves: a judgement's Data carries the best move and
// the move played as the renderer gets them (JSON), and both decode to
// legal actions of the position; a hint's names only the best.
func TestJudgeDataNamesTheMoves(t *testing.T) {
	s := midGame(t)
	legal := s.LegalActions(nil)
	played := legal[len(legal)-1]
	decode := func(raw json.RawMessage) Action {
		t.Helper()
		a, err := DecodeAction(raw)
		if err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if !slices.Contains(legal, a) {
			t.Fatalf("%s is not a legal action of the position", raw)
		}
		return a
	}
	for _, chosen := range []*Action{&played, nil} {
		j := judge(t, s, chosen, 2)
		raw, err := json.Marshal(j.Data)
		if err != nil {
			t.Fatal(err)
		}
		var m Moves
		if err := json.Unmarshal(raw, &m); err != nil {
			t.Fatalf("%s: %v", raw, err)
		}
		if got := decode(m.Best); string(m.Best) != string(j.Best.Action) {
			t.Errorf("data's best %v (%s), the judgement's %s", got, m.Best, j.Best.Action)
		}
		if chosen == nil {
			if m.Played != nil {
				t.Errorf("a hint's data names a move played: %s", raw)
			}
			continue
		}
		if got := decode(m.Played); got != played {
			t.Errorf("data's move played %v, want %v", got, played)
		}
	}
}
