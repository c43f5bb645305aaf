package check

import (
	"encoding/json"
	"fmt"
	"time"
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
