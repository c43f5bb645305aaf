package diceflick

import (
	"encoding/json"
	"flag"
	"math"
	"os"
	"testing"
	"time"
)

var expA = flag.String("expA", "", "level JSON A")
var expB = flag.String("expB", "medium", "level name B")
var expN = flag.Int("expN", 100, "games")
var expSolo = flag.Bool("expSolo", false, "practice")

func TestExp(t *testing.T) {
	if *expA == "" {
		t.Skip()
	}
	var lv botLevel
	if err := json.Unmarshal([]byte(*expA), &lv); err != nil {
		t.Fatal(err)
	}
	lv.Name = "exp"
	botLevels["exp"] = lv
	start := time.Now()
	if *expSolo {
		sum, sq := 0.0, 0.0
		for g := range *expN {
			s := float64(playSeeded(t, []string{"exp"}, uint64(1000+g), 10).Result().Scores[0])
			sum += s
			sq += s * s
		}
		n := float64(*expN)
		m := sum / n
		t.Logf("solo mean %.2f sd %.2f (%v)", m, math.Sqrt(sq/n-m*m), time.Since(start))
		return
	}
	wins := 0.0
	var sa, sb float64
	for g := range *expN {
		kinds := []string{"exp", *expB}
		a := 0
		if g%2 == 1 {
			kinds = []string{*expB, "exp"}
			a = 1
		}
		r := playSeeded(t, kinds, uint64(5000+g/2), 10).Result()
		sc := r.Scores
		sa += float64(sc[a])
		sb += float64(sc[1-a])
		switch {
		case sc[a] > sc[1-a]:
			wins++
		case sc[a] == sc[1-a]:
			wins += 0.5
		}
	}
	n := float64(*expN)
	p := wins / n
	t.Logf("exp vs %s: %.1f%% ±%.1f, means %.1f vs %.1f (%v)", *expB, 100*p, 196*math.Sqrt(p*(1-p)/n), sa/n, sb/n, time.Since(start))
	_ = os.Stdout
}
