//go:build !linux

package sqlite

// freeSpace is not measured here: Open does not check the disk.
func freeSpace(string) (uint64, error) { return 0, errSpaceUnknown }
