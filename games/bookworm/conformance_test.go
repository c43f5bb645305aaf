package bookworm

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
)

// TestConformance runs the engine's suite on Bookworm, with and without the
// Special die, short clocks and a low target so that games end quickly;
// the clocks run out often (the suite feeds the table's timeouts).
func TestConformance(t *testing.T) {
	enginetest.Run(t, testGame(), enginetest.Config{
		Options: []string{
			`{"target":8}`,
			`{"special":false,"target":8,"thinkSeconds":0,"countdownSeconds":1}`,
		},
		// Words cannot be listed: Legal lists every other action, and
		// proposeWords names words, known to the lexicon or made up.
		Unlisted: []string{Name("", 0).Kind()},
		Propose:  proposeWords,
		// A few rollouts per decision: the review's checks do not need
		// an exact balance (BenchmarkReviewGame times the default).
		ReviewBudget: 4,
	})
}

// proposeWords suggests words for the seat naming one: a known word and a
// made-up one for a die a word could take, and a word for a die it cannot.
func proposeWords(st engine.State, seat engine.Seat, src engine.Source) []engine.Action {
	s := st.(*Match).S
	opts := s.Takeable(int8(seat))
	if len(opts) == 0 {
		return nil
	}
	o := opts[src.IntN(len(opts))]
	letter := o.Letters[src.IntN(len(o.Letters))]
	out := []engine.Action{Name(madeUp(letter, src.IntN(1000)), o.Die), Name("zz", int(s.NDice))}
	if cat, ok := s.CategoryInPlay(); ok {
		for _, w := range s.cfg.Lex.Words(cat.ID) {
			if w[0] == letter {
				out = append(out, Name(w, o.Die))
				break
			}
		}
	}
	return out
}
