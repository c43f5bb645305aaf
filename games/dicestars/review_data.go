package dicestars

import "encoding/json"

// Moves is a judged decision's Data (engine.Judgement.Data), for the game's
// renderer: the best action found and the one played, in their wire form
// (the board marks both; a hint has no move played).
type Moves struct {
	Best   json.RawMessage `json:"best"`
	Played json.RawMessage `json:"played,omitempty"`
}
