package bookworm

import (
	"encoding/json"
	"testing"
)

func TestActionJSONRoundTrip(t *testing.T) {
	cases := map[string]Action{
		`{"card":12}`:                          DrawCard(12),
		`{"roll":["C/K","D","not"]}`:           RollNames("C/K", "D", "not"),
		`{"category":2}`:                       ChooseCategory(2),
		`{"turnTo":"dots"}`:                    TurnTo(SpecialDots),
		`{"name":"Kiwi","die":0}`:              Name("Kiwi", 0),
		`{"name":"kiwi","die":0,"letter":"k"}`: NameAs("kiwi", 0, 'k'),
		`{"question":true}`:                    TakeQuestion(),
		`{"giveUp":true}`:                      GiveUp(),
		`{"challenge":true}`:                   Challenge(),
		`{"allow":true}`:                       Allow(),
		`{"vote":"accept"}`:                    Vote(true),
		`{"vote":"reject"}`:                    Vote(false),
		`{"timeout":true}`:                     Timeout(),
		// Well formed, for the rules to refuse (bad-category, no-such-die).
		`{"category":3}`:          ChooseCategory(3),
		`{"name":"cat","die":-8}`: Name("cat", -8),
	}
	for text, want := range cases {
		got, err := DecodeAction([]byte(text))
		if err != nil || got != want {
			t.Errorf("decode %s: %v %v, want %v", text, got, err, want)
			continue
		}
		enc, err := json.Marshal(got)
		if err != nil || string(enc) != text {
			t.Errorf("encode %v: %s %v, want %s", got, enc, err, text)
		}
	}
	// Face indexes encode with the default dice's names.
	if enc, _ := json.Marshal(Roll(0, 1, 0, 0, 0, 0, 5, 3)); string(enc) != `{"roll":["C/K","D","M","M","A","A","X/Y","dots"]}` {
		t.Errorf("roll by index encodes as %s", enc)
	}
	for _, bad := range []string{``, `{}`, `null`, `[]`, `{"card":1,"category":1}`, `{"turnTo":"up"}`,
		`{"name":"cat"}`, `{"name":"cat","die":0,"letter":"ck"}`, `{"vote":"maybe"}`,
		`{"roll":[]}`, `{"roll":["a","b","c","d","e","f","g","h","i"]}`, `{"challenge":true,"die":1}`, `{"timeout":true,"x":1}`,
		`{"question":false}`, `{"card":1} {}`} {
		if a, err := DecodeAction([]byte(bad)); err == nil {
			t.Errorf("decoded %s as %v", bad, a)
		}
	}
}

func TestWordKey(t *testing.T) {
	good := map[string]string{"Cat": "cat", " Crème Brûlée ": "creme brulee", "St. Bernard": "st bernard",
		"T-Shirt": "t shirt", "O'Neill": "oneill", "Ça": "ca"}
	for in, want := range good {
		if got, ok := WordKey(in); !ok || got != want {
			t.Errorf("WordKey(%q) = %q %v, want %q", in, got, ok, want)
		}
	}
	for _, bad := range []string{"", " ", "4x4", "r2d2", "кот", "日本", "-", "\xff", "a" + string(make([]byte, 40))} {
		if got, ok := WordKey(bad); ok {
			t.Errorf("WordKey(%q) accepted as %q", bad, got)
		}
	}
}
