package server

import (
	"net/http"
	"strings"
	"testing"
)

// TestHostileNames: names that show nothing, hide text-direction or
// invisible characters, are not valid text, or pass for a bot or a free
// seat are refused (400 bad-name) at create and at join; names people use
// (accents, scripts that need a joiner, emoji) pass.
func TestHostileNames(t *testing.T) {
	ts := startServer(t, Config{PostRate: 1000, PostBurst: 1000, Budgets: Budgets{TablesPerCreator: -1, TablesPerHour: -1}})
	ann := newPlayer(t, ts)
	open := ann.create(twoHumans())

	refused := map[string]string{
		"arabic letter mark":    "ann\u061c",
		"zero-width space":      "a\u200bnn",
		"word joiner":           "\u2060ann",
		"byte-order mark":       "ann\ufeff",
		"soft hyphen":           "an\u00adn",
		"hangul filler only":    "\u3164",
		"hangul filler inside":  "ann\u3164",
		"halfwidth filler":      "\uffa0\uffa0",
		"fillers and spaces":    "\u3164 \u3164",
		"braille blank only":    "\u2800\u2800",
		"ideographic spaces":    "\u3000\u3000",
		"marks only":            "\u0301\u0301",
		"lone joiner":           "\u200d",
		"joiner at the end":     "ann\u200d",
		"joiner beside a space": "ann \u200cbob",
		"tag at the start":      "\U000e0067ann",
		"variation selector":    "\ufe0f",
		"replacement char":      "ann\ufffd",
		"bidi isolate":          "\u2067ann\u2069",
		"bot":                   "Greedy bot",
		"bot, other case":       "gREEDY BOT",
		"bot, numbered":         "Greedy bot 3",
		"bot, another game":     "Hard bot",
		"bot, fullwidth":        "Ｇｒｅｅｄｙ bot",
		"bot, spaced":           "Expert   bot",
		"bot, nbsp":             "Random\u00a0bot 2",
		"bot, joined":           "Greedy b\u200dot",
		"free seat":             "Seat 2",
		"free seat, no space":   "seat2",
	}
	for what, name := range refused {
		var e errorBody
		body := map[string]any{"game": "dicestars", "name": name, "seats": []map[string]any{{"kind": "human"}}}
		if s := ann.do("POST", "/api/tables", body, &e); s != http.StatusBadRequest || e.Error.Code != "bad-name" {
			t.Errorf("create as %s %+q: %d %+v", what, name, s, e)
		}
		bob := newPlayer(t, ts)
		e = errorBody{}
		if s := bob.do("POST", "/api/tables/"+open+"/join", map[string]any{"seat": 1, "name": name}, &e); s != http.StatusBadRequest || e.Error.Code != "bad-name" {
			t.Errorf("join as %s %+q: %d %+v", what, name, s, e)
		}
	}

	// Invalid UTF-8 in the raw body: JSON decoding would quietly make it
	// U+FFFD.
	for _, raw := range []string{
		`{"game":"dicestars","name":"ann` + "\xff" + `","seats":[{"kind":"human"}]}`,
		`{"game":"dicestars","name":"` + "\xc3" + `","seats":[{"kind":"human"}]}`,
	} {
		var e errorBody
		if s := ann.do("POST", "/api/tables", raw, &e); s != http.StatusBadRequest || e.Error.Code != "bad-name" || !strings.Contains(e.Error.Message, "valid text") {
			t.Errorf("create with invalid UTF-8 %q: %d %+v", raw, s, e)
		}
	}

	// Options are kept raw: invalid UTF-8 there would reach the store.
	var e errorBody
	if s := ann.do("POST", "/api/tables", `{"game":"dicestars","name":"ann","options":{"x":"`+"\xff"+`"},"seats":[{"kind":"human"}]}`, &e); s != http.StatusBadRequest || e.Error.Code != "bad-options" {
		t.Errorf("create with invalid UTF-8 in the options: %d %+v", s, e)
	}

	accepted := []string{
		"Zoë", "李小龍", "Greedy", "Botan", "Greedy bots", "bot", "Seat", "Seat belt", "ann 2",
		"محمد\u200cرضا", // Persian: a non-joiner between letters
		"👩\u200d💻",      // emoji joined by a joiner
		"❤\ufe0f",       // a variation selector after its symbol
		"🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", // Scotland's flag
		"e\u0301", // a combining accent on a letter
		"<b>hi</b>",
	}
	for _, name := range accepted {
		id := ann.create(map[string]any{"game": "dicestars", "name": name, "seats": []map[string]any{{"kind": "human"}, {"kind": "human"}}})
		if got := ann.summary(id).Seats[0].Name; got != name {
			t.Errorf("%+q stored as %+q", name, got)
		}
		bob := newPlayer(t, ts)
		if s := bob.join(id, 1, name); s != http.StatusOK {
			t.Errorf("join as %+q: %d", name, s)
		}
	}
}
