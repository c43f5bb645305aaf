package check

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/dicehall/dicehall/store"
)

// ReviewArgs checks what a review's claim needs: a budget of 0 or more
// and a time to live of at least a millisecond (the stores' precision).
func ReviewArgs(budget int, ttl time.Duration) error {
	if budget < 0 || ttl < time.Millisecond {
		return fmt.Errorf("%w review: a budget of 0 or more and a time to live of at least 1ms are required", ErrInvalid)
	}
	return nil
}

// ReviewBody checks a finished review before it is stored.
func ReviewBody(budget int, body json.RawMessage) error {
	if budget < 0 || len(body) == 0 || !json.Valid(body) {
		return fmt.Errorf("%w review: a budget of 0 or more and a JSON body are required", ErrInvalid)
	}
	return nil
}

// PendingLimit is the number of pending reviews listed by default.
func PendingLimit(limit int) int {
	if limit <= 0 {
		return DefaultLimit
	}
	return limit
}

// ReviewRow is the store.Review of a reviews row (migration 00009: times
// in UTC ms, 0 for none; ready 0 or 1; body "" until ready).
func ReviewRow(table string, budget int, node string, done, total int, expiresMs int64, ready int, body string, updatedMs int64) store.Review {
	r := store.Review{Table: table, Budget: budget, Node: node, Done: done, Total: total, Ready: ready != 0,
		Expires: msTime(expiresMs), Updated: msTime(updatedMs)}
	if body != "" {
		r.Body = json.RawMessage(body)
	}
	return r
}

func msTime(ms int64) time.Time {
	if ms == 0 {
		return time.Time{}
	}
	return time.UnixMilli(ms).UTC()
}
