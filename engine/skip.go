package engine

// Skipper is implemented by a Game whose rules let a seat's turn go by:
// at a turn-based table whose expiry is "skip", a seat that runs out of
// time has its turn skipped instead of handed to a bot. Games without it
// are never offered that expiry.
type Skipper interface {
	// Skip returns the action SystemSeat makes to skip seat's present
	// turn in st, or false when the rules allow no skip now (the table
	// then hands the seat to a bot).
	Skip(st State, seat Seat) (Action, bool)
}
