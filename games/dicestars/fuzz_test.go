package dicestars

import (
	"testing"

	"github.com/dicehall/dicehall/engine/enginetest"
)

// Fuzz targets. Their seed corpora run as ordinary tests; fuzz them with
//
//	go test ./games/dicestars -run '^$' -fuzz FuzzEngine -fuzztime 1m
//	go test ./games/dicestars -run '^$' -fuzz FuzzDecodeAction -fuzztime 1m

// byteStream hands out the fuzzer's bytes; past the end it gives zeros, so
// every input is a whole game prefix.
type byteStream struct {
	data []byte
	pos  int
}

func (b *byteStream) next() int {
	if b.pos >= len(b.data) {
		return 0
	}
	b.pos++
	return int(b.data[b.pos-1])
}

func (b *byteStream) done() bool { return b.pos >= len(b.data) }

// FuzzEngine plays a game steered by the input: most bytes pick a legal
// action (or the dice of a roll) by index, some build arbitrary actions or
// decode arbitrary JSON actions and try them. A legal action never fails,
// an illegal one changes nothing, and the invariants hold throughout.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte{3, 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{2, 0x21, 9, '{', '"', 'd', 'r', 'a', 'w', '"', ':', '3', '}', 5, 5, 5})
	f.Add([]byte("\x00\x30{\"take\":\"stars\",\"multipliers\":[2,3]}\x07\x07\x07\x07\x07\x07\x07\x07"))
	f.Add([]byte("\x01\xff\xfe\xfd\xfc\xfb\xfa\xf9\xf8\xf7\xf6\xf5\xf4\xf3\xf2\xf1\xf0\xef\xee\xed\xec\xeb\xea"))
	seed := make([]byte, 600)
	for i := range seed {
		seed[i] = byte(i*37 + i/7)
	}
	f.Add(seed)
	f.Fuzz(fuzzEngine)
}

func fuzzEngine(t *testing.T, data []byte) {
	{
		in := &byteStream{data: data}
		s, err := NewState(nil, 1+in.next()%MaxPlayers)
		if err != nil {
			t.Fatal(err)
		}
		buf := make([]Action, 0, 64)
		for steps := 0; !s.Over() && !in.done(); steps++ {
			if steps > 5000 {
				t.Fatal("no end in 5000 steps")
			}
			switch op := in.next(); {
			case op%16 == 0: // an arbitrary action
				var mult [NumRows]uint8
				for r := range mult {
					mult[r] = uint8(in.next() % 4)
				}
				a := anyAction(in.next(), in.next(), in.next(), in.next(), in.next()%2 == 1, mult,
					[3]Die{Die(in.next()), Die(in.next()), Die(in.next())})
				if err := probe(&s, a); err != nil {
					t.Fatal(err)
				}
			case op%16 == 1: // an arbitrary JSON action
				k := in.next() % 48
				raw := make([]byte, 0, k)
				for i := 0; i < k; i++ {
					raw = append(raw, byte(in.next()))
				}
				if a, err := DecodeAction(raw); err == nil {
					if err := probe(&s, a); err != nil {
						t.Fatal(err)
					}
				}
			}
			var a Action
			if s.Phase == PhaseRoll {
				a = rollFrom(&s, func(_, n int) int { return in.next() % n })
			} else {
				buf = s.LegalActions(buf)
				if len(buf) == 0 {
					t.Fatalf("no legal action in phase %v", s.Phase)
				}
				a = buf[in.next()%len(buf)]
			}
			if err := s.Apply(a); err != nil {
				t.Fatalf("legal %v refused: %v", a, err)
			}
			if err := invariants(&s); err != nil {
				t.Fatalf("after %v: %v", a, err)
			}
		}
	}
}

// FuzzDecodeAction: decoding never panics, and whatever decodes encodes and
// decodes back to the same action.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{
		`{"draw":3}`, `{"draw":1,"returnReserve":true}`, `{"draw":2,"returnReserve":false}`,
		`{"roll":["blue:5","orange:star","black:2"]}`, `{"roll":["yellow:3"]}`, `{"roll":[]}`,
		`{"take":"color","color":"purple"}`, `{"take":"colour","color":"Yellow"}`,
		`{"take":"value","value":4}`, `{"take":"value","value":1}`,
		`{"take":"stars","multipliers":[2,3,3,6]}`, `{"take":"stars"}`, `{"take":"stars","multipliers":[]}`,
		`{"take":"stars","multipliers":[7]}`, `{"draw":3,"take":"color"}`, `{"draw":0}`, `{}`, `null`, `[]`,
		`{"roll":["blue:5 "]}`, `{"roll":["blue:5"],"color":"blue"}`, `{"draw":1,"bogus":1}`, `{"take":"x"}`,
		`{"roll":["blue:☆","orange:*"]}`, `{"take":"value","value":3} trailing`,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		a, err := DecodeAction(data)
		if err != nil {
			return
		}
		_ = a.String()
		if a.Kind() == "invalid" {
			t.Fatalf("%q decoded to an invalid action %+v", data, a)
		}
		if err := enginetest.DecodeRoundTrip(Game{}, data); err != nil {
			t.Fatal(err)
		}
	})
}
