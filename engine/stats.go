package engine

// Stat names one number a game counts in a played game beyond the scores,
// for simulations: the words a seat named, the rounds a game lasted.
type Stat struct {
	// Key names it in reports (the JSON field) and in a catalogue:
	// "<game>.stat.<name>".
	Key string `json:"key"`
	// Label is its English heading.
	Label string `json:"label"`
	// Total reports the sum over all games ("games lost to a full grid");
	// otherwise a report gives the mean per game.
	Total bool `json:"total,omitempty"`
}

// Tally is one game's counts: Seat[p][i] is seat p's count of the i-th
// seat stat, Game[i] the game's count of the i-th game stat.
type Tally struct {
	Seat [][]int
	Game []int
}

// Counter is implemented by games whose simulations count more than
// scores. A simulation names no game: it asks the game what it counts
// and shows the means (or totals) under the labels given here.
type Counter interface {
	// Stats lists what is counted for each seat and for the whole game
	// at a table of that many players (a solo variant may count more).
	Stats(players int) (seat, game []Stat)
	// CountMove adds what move m did to t: its events and the decided
	// moves a deadline beat (as PlayBots' Played sees them); st is the
	// state after the move.
	CountMove(t *Tally, st State, m Move, events []Event, beaten []Move)
	// CountEnd adds what the final state shows.
	CountEnd(t *Tally, st State)
}

// PlayCounted plays st to the end with PlayBots and returns what c counts
// of the game (an empty tally when c is nil).
func PlayCounted(st State, bots []Controller, src Source, c Counter) (Tally, error) {
	if c == nil {
		return Tally{}, PlayBots(st, bots, src, nil)
	}
	n := len(st.Players())
	seatStats, gameStats := c.Stats(n)
	t := Tally{Seat: make([][]int, n), Game: make([]int, len(gameStats))}
	for p := range t.Seat {
		t.Seat[p] = make([]int, len(seatStats))
	}
	err := PlayBots(st, bots, src, func(m Move, events []Event, beaten []Move) {
		c.CountMove(&t, st, m, events, beaten)
	})
	if err != nil {
		return t, err
	}
	c.CountEnd(&t, st)
	return t, nil
}
