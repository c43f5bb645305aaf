package words

import (
	"math/rand/v2"
	"testing"
)

func TestZZCalib(t *testing.T) {
	lists, order := readCommon(t)
	lx := Default()
	counts := map[Closeness]int{}
	var far []string
	for _, id := range order {
		for _, w := range lists[id] {
			if !lx.Fits(id, w) {
				p := Place(id, w)
				counts[p]++
				if p == Far || (p == NoNoun && !TakesAdjectives(id)) {
					far = append(far, id+":"+w)
				}
			}
		}
	}
	t.Logf("misses: %v", counts)
	t.Logf("far misses: %v", far)
	// random real words vs random categories
	d := loadDictionary()
	r := rand.New(rand.NewPCG(1, 2))
	rc := map[Closeness]int{}
	var nearEx []string
	for i := 0; i < 2000; i++ {
		w := d.key(r.IntN(len(d.start)))
		id := order[r.IntN(len(order))]
		if lx.Fits(id, w) {
			continue
		}
		p := Place(id, w)
		rc[p]++
		if p >= Near && len(nearEx) < 40 {
			nearEx = append(nearEx, id+":"+w)
		}
	}
	t.Logf("random: %v  near/inside examples: %v", rc, nearEx)
}
