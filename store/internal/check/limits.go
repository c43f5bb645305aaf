package check

import (
	"fmt"
	"math"
	"time"

	"github.com/dicehall/dicehall/store"
)

// MaxBucketKey bounds a bucket's key (store.LimitStore.TakeTokens).
const MaxBucketKey = 200

// BucketArgs checks TakeTokens' arguments.
func BucketArgs(key string, n int, b store.Bucket) error {
	switch {
	case key == "" || len(key) > MaxBucketKey:
		return fmt.Errorf("%w bucket: a key of 1 to %d bytes is required", ErrInvalid, MaxBucketKey)
	case !(b.Rate > 0) || math.IsInf(b.Rate, 0) || b.Burst < 1:
		return fmt.Errorf("%w bucket %q: the rate must be above 0 and the burst at least 1", ErrInvalid, key)
	case n == 0 || n > b.Burst:
		return fmt.Errorf("%w bucket %q: %d tokens, want 1 to %d (or a negative number to give back)", ErrInvalid, key, n, b.Burst)
	}
	return nil
}

// Take is one TakeTokens step on a bucket kept as a single moment (the
// generic cell rate algorithm, the token bucket's twin): full, the time at
// which the bucket is full again, in UTC ms (at or before now: it is full;
// a bucket never seen has 0). It returns the moment to store, whether the
// tokens were taken and, if not, how long until they can be.
//
// The bucket holds Burst − (full − now)·Rate tokens: taking n moves full
// on by n/Rate, allowed while it stays within Burst/Rate of now.
func Take(full, now int64, n int, b store.Bucket) (next int64, ok bool, wait time.Duration) {
	per := 1000 / b.Rate // ms a token takes to come back
	from := max(full, now)
	if n < 0 {
		return max(now, int64(math.Round(float64(from)+float64(n)*per))), true, 0
	}
	after := float64(from) + float64(n)*per
	over := after - float64(now) - float64(b.Burst)*per
	if over > 0.5 { // half a millisecond: what rounding to ms may add
		return full, false, max(time.Millisecond, time.Duration(math.Ceil(over))*time.Millisecond)
	}
	return int64(math.Round(after)), true, 0
}
