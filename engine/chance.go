package engine

import "math/rand/v2"

// Source is where chance comes from. Rules ask it for small uniform integers
// and turn them into outcomes; they never hold a generator of their own.
type Source interface {
	// IntN returns a uniform integer in [0, n). n > 0.
	IntN(n int) int
}

// NewSource returns a seeded source. PCG's output is specified by the Go
// standard library, so a seed gives the same stream on every platform and
// release; records still store outcomes, not seeds, to replay.
func NewSource(seed uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
}

// SplitSeed derives the seed of the i-th independent stream from a master
// seed (for simulations that give each game its own stream).
func SplitSeed(seed uint64, i uint64) uint64 {
	// splitmix64 finaliser: well-spread, cheap, stable.
	z := seed + (i+1)*0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// A table draws every random number from its one seed, in separate
// domains, so that no two uses share a stream: chance move k draws from
// ChanceSeed(seed, k) and the bot of seat s from BotSeed(seed, s). The
// domains are disjoint ranges of SplitSeed's index (chance the lower half,
// bots the upper), and SplitSeed is one-to-one in its index for a given
// seed (an odd multiple, then a bijective mix), so a bot's seed is never a
// chance move's, whatever the seed.
const botDomain uint64 = 1 << 63

// ChanceSeed is the seed of a table's chance move k (the k-th move of its
// log, counted from 0; never negative).
func ChanceSeed(seed uint64, k int) uint64 {
	if k < 0 {
		panic("engine: ChanceSeed of a negative move index")
	}
	return SplitSeed(seed, uint64(k))
}

// BotSeed is the seed of the bot that plays seat at a table: the same for
// every bot the seat gets, and never the seed of a chance move.
func BotSeed(seed uint64, seat Seat) uint64 {
	return SplitSeed(seed, botDomain|uint64(uint32(seat)))
}
