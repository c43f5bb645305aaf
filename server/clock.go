package server

import "github.com/dicehall/dicehall/internal/clock"

// Clock is the server's source of time. Every table timer (turn clocks,
// rule deadlines, bot delays, store retries), open-table expiry, the idle
// WebSockets' timer and the rate limits read it, so tests can drive them
// with a fake clock (clock.Fake) instead of sleeping. The notifier reads
// the same clock.
type Clock = clock.Clock

// Timer is a pending AfterFunc call.
type Timer = clock.Timer
