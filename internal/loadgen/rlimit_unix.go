//go:build unix

package loadgen

import (
	"fmt"
	"syscall"
)

// RaiseFileLimit lifts the process's open-file limit to its hard limit (a
// WebSocket is a descriptor) and returns the soft limit now in force.
func RaiseFileLimit() (uint64, error) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		return 0, fmt.Errorf("read the open-file limit: %w", err)
	}
	if lim.Cur < lim.Max {
		lim.Cur = lim.Max
		if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
			return 0, fmt.Errorf("raise the open-file limit to %d: %w", lim.Max, err)
		}
	}
	return uint64(lim.Cur), nil
}
