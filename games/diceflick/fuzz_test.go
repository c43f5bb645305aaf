package diceflick

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
	"github.com/dicehall/dicehall/games/diceflick/physics"
)

// Fuzz targets. Their seed corpora run as ordinary tests; fuzz them with
//
//	go test ./games/diceflick -run '^$' -fuzz FuzzDecodeAction -fuzztime 1m
//	go test ./games/diceflick -run '^$' -fuzz FuzzEngine -fuzztime 1m

// FuzzDecodeAction: any input either fails to decode or decodes to an
// action whose encoding decodes back to the same action.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{
		`{"draw":["blue","white"]}`, `{"draw":[]}`, `{"draw":["purple"]}`,
		`{"flick":{"die":0,"base":2,"offset":0.5,"angle":-0.3,"power":0.7}}`,
		`{"land":"2,3","face":5,"path":[{"x":1,"y":2}]}`, `{"land":"trench"}`, `{"land":"out"}`, `{"land":"5,5"}`,
		`{"score":{"groups":[["1,1","1,2","2,2"]],"centre":true,"blasts":[{"at":"2,3","line":"column"}]}}`,
		`{"score":{"groups":[]}}`, `{"score":"best"}`, `{"flick":{},"land":"1,1"}`, `null`, `{}`, `{"face":3}`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := enginetest.DecodeRoundTrip(Game{}, data); err != nil {
			t.Fatal(err)
		}
	})
}

// FuzzEngine plays a game with the fake simulator, steered by the input:
// bytes pick the flicked die, base, angle and power, whether nature samples
// or a made-up landing is tried, and whether the player scores the best,
// nothing, or a random choice. Refusals change nothing; the dice are
// conserved; every applied move survives the JSON round trip.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("\x03\xff\x10\x20\x30\x40\x50\x60\x70\x80\x90\xa0\xb0\xc0\xd0\xe0\xf0"))
	seed := make([]byte, 800)
	for i := range seed {
		seed[i] = byte(i*53 + i/5)
	}
	f.Add(seed)
	f.Fuzz(fuzzEngine)
}

func fuzzEngine(t *testing.T, data []byte) {
	in := bytes.NewReader(data)
	next := func() int {
		b, err := in.ReadByte()
		if err != nil {
			return 0
		}
		return int(b)
	}
	m, err := NewMatch(fakeSim, []string{"a", "b", "c", "d"}[:1+next()%4], nil)
	if err != nil {
		t.Fatal(err)
	}
	src := engine.NewSource(uint64(next()))
	for steps := 0; !m.S.Over() && in.Len() > 0; steps++ {
		if steps > 2000 {
			t.Fatal("no end")
		}
		var a Action
		seat := engine.Seat(m.S.Current)
		switch m.S.Phase {
		case PhaseDraw, PhaseLand:
			seat = engine.ChanceSeat
			a = m.SampleChance(src).(Action)
			if m.S.Phase == PhaseLand && next()%4 == 0 {
				a = Action{Type: ActLand, Hole: next()%27 - 1, Face: next() % 8, Out: next()%2 == 0}
			}
		case PhaseFlick:
			a = Action{Type: ActFlick, Die: next() % 4, Flick: physics.Flick{Base: next() % 5,
				Angle: float64(next()-128) / 60, Power: float64(next()) / 200}}
			if m.S.MayStop() && next()%3 == 0 {
				a = Action{Type: ActScore}
			}
		case PhaseScore:
			b := m.S.Board()
			_, best := b.Solve()
			a = Action{Type: ActScore, Choice: best}
			switch next() % 4 {
			case 0:
				a.Choice = Choice{}
			case 1:
				a.Choice = Choice{Groups: [][]int{{next() % 26, next() % 26, next() % 26}}, Centre: next()%2 == 0}
			}
		}
		if next()%16 == 0 {
			seat = engine.Seat(next()%6 - 1)
		}
		before := m.S
		_, ok, err := enginetest.Try(m, engine.Move{Seat: seat, Action: a})
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			if m.S != before {
				t.Fatal("a refused move changed the state")
			}
			continue
		}
		enc, err := json.Marshal(a)
		if err != nil {
			t.Fatalf("applied %+v cannot be encoded: %v", a, err)
		}
		if _, err := DecodeAction(enc); err != nil {
			t.Fatalf("applied %s does not decode: %v", enc, err)
		}
		checkConserved(t, &m.S)
	}
}

// checkConserved: every die is in the bag, a hand, the arena or in flight.
func checkConserved(t *testing.T, s *State) {
	t.Helper()
	var n [NumColors]int
	for c := range NumColors {
		n[c] += int(s.Bag[c])
	}
	for p := range s.NPlayers {
		for _, c := range s.HandOf(p) {
			n[c]++
		}
	}
	for _, c := range s.Arena {
		if c.Full() {
			n[c.Color()]++
		}
	}
	if s.Phase == PhaseLand {
		n[s.InFlight]++
	}
	if n != s.C.Dice {
		t.Fatalf("dice by colour %v, want %v", n, s.C.Dice)
	}
}

// TestReplayWithoutSimulator: a record holds its landings, so a game with
// no simulator (a replay tool) rebuilds it. The conformance suite replays
// records with the game that played them; this is what it does not check.
func TestReplayWithoutSimulator(t *testing.T) {
	tab, err := engine.NewRunner(Game{Sim: fakeSim}, []string{"ann", "bob"}, []byte(`{"rounds":3}`), 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	for !tab.State.Turn().Over {
		if _, err := tab.ResolveChance(0, nil); err != nil {
			t.Fatal(err)
		}
		if seat := tab.State.Turn().Actors; len(seat) == 1 {
			if _, err := tab.Play(engine.Move{Seat: seat[0], Action: tab.State.Legal(seat[0])[0]}); err != nil {
				t.Fatal(err)
			}
		}
	}
	st, err := engine.Replay(Game{}, tab.Record)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := st.(*Match).Report(), tab.State.(*Match).Report(); !reflect.DeepEqual(got, want) {
		t.Fatalf("replay differs:\n%+v\n%+v", got, want)
	}
}
