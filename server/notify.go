package server

import (
	"context"
	"time"
)

// STAND-IN for the `turns` branch's server/notify.go (the contract in
// brief-13.md), so this branch builds: when merging, take turns' file
// whole and drop this one.

// TurnNotice is one thing an account should hear of.
type TurnNotice struct {
	Account   string
	Table     string
	Game      string
	GameTitle string
	Opponent  string
	Seat      int
	Deadline  time.Time
	URL       string
	Kind      string // "your-turn", "game-over", "reminder"
}

// Notifier hears of turns and ends at turn-based tables.
type Notifier interface {
	Notify(ctx context.Context, n TurnNotice)
}
