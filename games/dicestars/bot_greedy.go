package dicestars

import "github.com/dicehall/dicehall/engine"

func init() {
	botMakers["greedy"] = func(seed uint64) Bot { return NewGreedyBot(seed) }
}

// GreedyBot looks one move ahead and no further.
//
// Draw: it announces as many dice as it may (3 when the bag allows) and
// never puts the reserve back into the bag.
//
// Take: it plays the legal take that leaves its sheet with the highest
// Sheet.Total — the score the sheet would have if the game ended now (rows
// with only some multipliers marked count 0, the penalty is subtracted).
// Ties, frequent among star placements, are broken uniformly at random with
// its own seeded generator.
type GreedyBot struct {
	rng  engine.Source
	buf  []Action
	best []Action
}

// NewGreedyBot returns a greedy bot with its own generator.
func NewGreedyBot(seed uint64) *GreedyBot {
	return &GreedyBot{rng: engine.NewSource(seed), buf: make([]Action, 0, 64)}
}

func (b *GreedyBot) Name() string { return "greedy" }

func (b *GreedyBot) Decide(s *State) Action {
	b.buf = s.LegalActions(b.buf)
	if s.Phase == PhaseDraw {
		best := b.buf[0]
		for _, a := range b.buf[1:] {
			if a.ReturnReserve {
				continue
			}
			if best.ReturnReserve || a.N > best.N {
				best = a
			}
		}
		return best
	}
	bestScore := -1 << 30
	b.best = b.best[:0]
	for _, a := range b.buf {
		t := *s
		t.ApplyUnchecked(a)
		v := t.Sheets[s.Current].Total(s.L)
		switch {
		case v > bestScore:
			bestScore = v
			b.best = append(b.best[:0], a)
		case v == bestScore:
			b.best = append(b.best, a)
		}
	}
	return b.best[b.rng.IntN(len(b.best))]
}
