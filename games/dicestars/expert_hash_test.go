package dicestars

import (
	"fmt"
	"hash/fnv"
	"testing"
)

func TestExpertHash(t *testing.T) {
	h := fnv.New64a()
	for _, n := range []int{1, 2, 3} {
		states := decisionPositions(t, n, 2)
		b := NewExpertBot(5)
		for i := range states {
			fmt.Fprint(h, b.Decide(&states[i]))
		}
	}
	t.Logf("expert hash %x", h.Sum64())
}
