//go:build !unix

package loadgen

import "math"

// RaiseFileLimit does nothing where there is no such limit to raise.
func RaiseFileLimit() (uint64, error) { return math.MaxUint64, nil }
