package postgres

import "github.com/dicehall/dicehall/store/internal/group"

// AppendStats is the group committer's counts, for the benchmarks.
func AppendStats(s *Store) group.Stats { return s.appends.Stats() }
