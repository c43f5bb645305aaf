package script

import (
	"encoding/json"
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
)

// TestDiceStarsLayoutRows: with the layout option (rows in another order)
// a star choice marks the rows it names, by value, the same through a
// script, on the wire and in the record (which replays to the same sheet).
func TestDiceStarsLayoutRows(t *testing.T) {
	l := dicestars.DefaultLayout
	slices.Reverse(l.RowValues[:])
	slices.Reverse(l.Green[:])
	slices.Reverse(l.Multipliers[:])
	opts, err := json.Marshal(dicestars.Options{Layout: &l})
	if err != nil {
		t.Fatal(err)
	}
	const draw = `{"draw":3,"dice":["blue:star","orange:star","blue:4"]}`
	const take = `{"take":"stars","multipliers":[2,5]}`
	marked := func(r dicestars.Report) map[int]int {
		m := map[int]int{}
		for _, row := range r.Players[0].Rows {
			m[row.Value] = row.Marked
		}
		return m
	}
	want := map[int]int{2: 1, 3: 0, 4: 0, 5: 1, 6: 0}

	// The script.
	out := run(t, `{"game":"dicestars","players":["ann","bob"],"options":`+string(opts)+`,"actions":[`+draw+`,`+take+`]}`)
	var rep dicestars.Report
	if err := json.Unmarshal(out.Stdout, &rep); err != nil || out.Code != ExitOK {
		t.Fatalf("exit %d %v %s", out.Code, err, out.Stdout)
	}
	if got := marked(rep); !maps.Equal(got, want) {
		t.Errorf("script: multipliers marked %v, want %v", got, want)
	}
	if got := string(out.Record.Moves[2].Action); !strings.Contains(got, `"multipliers":[2,5]`) {
		t.Errorf("the record writes the take as %s", got)
	}
	recJSON, err := json.Marshal(out.Record)
	if err != nil {
		t.Fatal(err)
	}
	var replayed dicestars.Report
	if rp := Replay(recJSON, ReplayOptions{At: -1}); rp.Code != ExitOK || json.Unmarshal(rp.Stdout, &replayed) != nil {
		t.Fatalf("replay: exit %d %s", rp.Code, rp.Stdout)
	} else if got := marked(replayed); !maps.Equal(got, want) {
		t.Errorf("replay: multipliers marked %v, want %v", got, want)
	}

	// The wire: the same JSON, decoded by the game, on a table with that layout.
	m, err := dicestars.NewMatch([]string{"ann", "bob"}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []string{`{"draw":3}`, `{"roll":["blue:star","orange:star","blue:4"]}`, take} {
		act, err := dicestars.DecodeAction([]byte(a))
		if err != nil {
			t.Fatal(err)
		}
		seat := engine.ChanceSeat
		if !m.Turn().Chance {
			seat = m.Turn().Actors[0]
		}
		if _, err := m.Apply(engine.Move{Seat: seat, Action: act}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	if got := marked(m.Report()); !maps.Equal(got, want) {
		t.Errorf("wire: multipliers marked %v, want %v", got, want)
	}
}
