package bookworm

import (
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
)

// Fuzz targets. Their seed corpora run as ordinary tests; fuzz them with
//
//	go test ./games/bookworm -run '^$' -fuzz FuzzEngine -fuzztime 1m
//	go test ./games/bookworm -run '^$' -fuzz FuzzDecodeAction -fuzztime 1m

// FuzzDecodeAction: any bytes decode or fail cleanly; what decodes encodes
// and decodes back to the same action.
func FuzzDecodeAction(f *testing.F) {
	for _, s := range []string{`{"card":3}`, `{"roll":["C/K","d","a-z"]}`, `{"name":"Crème","die":2,"letter":"c"}`,
		`{"vote":"accept"}`, `{"turnTo":"?"}`, `{"timeout":true}`, `{"category":0}`, `{"giveUp":true}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if err := enginetest.DecodeRoundTrip(testGame(), data); err != nil {
			t.Fatal(err)
		}
	})
}

// byteStream hands out the fuzzer's bytes; past the end it gives zeros.
type byteStream struct {
	data []byte
	pos  int
}

func (b *byteStream) next(n int) int {
	if b.pos >= len(b.data) {
		return 0
	}
	b.pos++
	return int(b.data[b.pos-1]) % n
}

// FuzzEngine plays a game steered by the input: most bytes pick a random
// legal move, some try arbitrary JSON or junk actions from any seat at any
// time. A chosen legal move never fails, a refused one changes nothing,
// and the invariants hold throughout.
func FuzzEngine(f *testing.F) {
	f.Add([]byte{0})
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16})
	f.Add([]byte("\x04\x01\xf0{\"name\":\"cat\",\"die\":0}\x00\x00\x00\x07\x07\x07"))
	seed := make([]byte, 800)
	for i := range seed {
		seed[i] = byte(i*37 + i/7)
	}
	f.Add(seed)
	f.Fuzz(fuzzEngine)
}

func fuzzEngine(t *testing.T, data []byte) {
	{
		in := &byteStream{data: data}
		n := MinPlayers + in.next(MaxPlayers-MinPlayers+1)
		opts := []string{`{}`, `{"special":false}`, `{"target":3,"thinkSeconds":0,"countdownSeconds":1}`}[in.next(3)]
		m, err := testGame().NewMatch(make([]string, n), []byte(opts))
		if err != nil {
			t.Fatal(err)
		}
		made := 0
		for steps := 0; !m.S.Over() && in.pos < len(in.data); steps++ {
			if steps > 5000 {
				t.Fatal("no end in 5000 steps")
			}
			var seat engine.Seat
			var at int64
			var a engine.Action
			switch in.next(8) {
			case 0: // arbitrary JSON from the input
				l := in.next(40)
				end := min(in.pos+l, len(in.data))
				act, err := DecodeAction(in.data[in.pos:end])
				in.pos = end
				if err != nil {
					continue
				}
				seat, at, a = engine.Seat(in.next(n+3)-3), m.S.Now+int64(in.next(256))*100, act
			case 1:
				seat, at, a = engine.Seat(in.next(n+3)-3), m.S.Now+int64(in.next(256))*100, junk[in.next(len(junk))]
			default:
				seat, at, a = randomMove(m, in.next, &made)
				if _, err := m.Apply(engine.Move{Seat: seat, At: at, Action: a}); err != nil {
					t.Fatalf("legal move %v by %v refused: %v", a, seat, err)
				}
				if err := invariants(m.S); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if _, _, err := enginetest.Try(m, engine.Move{Seat: seat, At: at, Action: a}); err != nil {
				t.Fatal(err)
			}
			if err := invariants(m.S); err != nil {
				t.Fatal(err)
			}
		}
	}
}
