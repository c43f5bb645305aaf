package server

import "time"

// Clock is the server's source of time. Every table timer (turn clocks,
// rule deadlines, bot delays, store retries), open-table expiry, the idle
// WebSockets' timer and the rate limits read it, so tests can drive them with a fake clock instead of
// sleeping.
type Clock interface {
	Now() time.Time
	// AfterFunc calls f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
}

// Timer is a pending AfterFunc call.
type Timer interface {
	// Stop prevents the call if it has not started; it reports whether it did.
	Stop() bool
}

type realClock struct{}

func (realClock) Now() time.Time { return time.Now() }

func (realClock) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
