package bookworm

import (
	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// emitter collects the events of one action; they all carry the acting
// seat.
type emitter struct {
	seat   engine.Seat
	events []engine.Event
}

func (e *emitter) add(kind string, data any) {
	e.events = append(e.events, engine.Event{Kind: kind, Seat: e.seat, Data: data})
}

// Event data of Bookworm. The engine.Event's Kind says which; seats are
// numbers (-1 for the display where a die comes from).
type (
	// CardEvent ("card"): a category card was turned over; Chooser picks
	// the category. MidRound: it replaces the category after the ? die.
	CardEvent struct {
		Card     words.Card `json:"card"`
		Chooser  int        `json:"chooser"`
		MidRound bool       `json:"midRound,omitempty"`
	}
	// CategoryEvent ("category"): the category chosen.
	CategoryEvent struct {
		Index    int            `json:"index"`
		Category words.Category `json:"category"`
	}
	// RollEvent ("roll"): the faces shown, in die order.
	RollEvent struct {
		Faces []string `json:"faces"`
	}
	// SpecialEvent ("special-turned"): the Bookworm turned the Special die.
	SpecialEvent struct {
		Face string `json:"face"`
	}
	// TurnEvent ("turn"): Seat must name a word; the countdown shows from
	// CountdownAt, the turn fails at Deadline (ms of game time).
	TurnEvent struct {
		Seat        int   `json:"seat"`
		CountdownAt int64 `json:"countdownAt"`
		Deadline    int64 `json:"deadline"`
	}
	// WordEvent ("word"): a word was named for a die. Known: the lexicon
	// knows it fits, so it is taken at once.
	WordEvent struct {
		Word   string `json:"word"`
		Die    int    `json:"die"`
		Letter string `json:"letter"`
		From   int    `json:"from"`
		Known  bool   `json:"known"`
	}
	// WindowEvent ("challenge-window"): the others may challenge until
	// Deadline. Known: the lexicon knows the word (the short window).
	WindowEvent struct {
		Deadline int64 `json:"deadline"`
		Known    bool  `json:"known,omitempty"`
	}
	// ChallengeEvent ("challenge"): the acting seat challenged; the vote
	// runs until Deadline.
	ChallengeEvent struct {
		Word     string `json:"word"`
		Deadline int64  `json:"deadline"`
	}
	// VoteEvent ("vote"): the acting seat voted.
	VoteEvent struct {
		Accept bool `json:"accept"`
	}
	// VerdictEvent ("verdict"): the vote's outcome.
	VerdictEvent struct {
		Word     string `json:"word"`
		Accept   int    `json:"accept"`
		Reject   int    `json:"reject"`
		Abstain  int    `json:"abstain"`
		Accepted bool   `json:"accepted"`
	}
	// TakeEvent ("take", "steal", "question"): a die changed hands. From is
	// -1 for the display; To is the seat that got it (the speaker of the
	// word, also when a timeout or the last vote made the move). Bonus: the
	// •• die, going with the last white die. BookwormCards (steals): cards
	// left in the centre.
	TakeEvent struct {
		Die           int    `json:"die"`
		Face          string `json:"face"`
		From          int    `json:"from"`
		To            int    `json:"to"`
		Word          string `json:"word,omitempty"`
		Bonus         bool   `json:"bonus,omitempty"`
		BookwormCards int    `json:"bookwormCards,omitempty"`
	}
	// TimeoutEvent ("timeout"): a clock ran out in Phase (name, challenge
	// or vote); Seat is the player on turn or the speaker.
	TimeoutEvent struct {
		Phase string `json:"phase"`
		Seat  int    `json:"seat"`
	}
	// FailEvent ("fail"): Seat failed to name a word (timeout or gave-up).
	FailEvent struct {
		Seat   int    `json:"seat"`
		Reason string `json:"reason"`
	}
	// RoundEndEvent ("round-end"): the round's scores and the new totals.
	RoundEndEvent struct {
		Round  int         `json:"round"`
		Ender  int         `json:"ender"`
		Failer int         `json:"failer"`
		Scores []ScoreLine `json:"scores"`
		Totals []int       `json:"totals"`
	}
	// RoundEvent ("round"): a new round starts with this Bookworm.
	RoundEvent struct {
		Round    int `json:"round"`
		Bookworm int `json:"bookworm"`
	}
	// GameOverEvent ("game-over"): final totals and the winning seats.
	GameOverEvent struct {
		Scores  []int `json:"scores"`
		Winners []int `json:"winners"`
	}
)
