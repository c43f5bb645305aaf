package e2e

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
)

// formField is what the lobby shows for one option.
type formField struct {
	Tag  string `json:"tag"`  // "input" or "select"
	Type string `json:"type"` // the input's type
}

const fieldsJS = `(() => Object.fromEntries([...document.querySelectorAll('[id^=f-opt-]')]
  .filter((e) => e.tagName === 'INPUT' || e.tagName === 'SELECT')
  .map((e) => [e.id.slice(6), { tag: e.tagName.toLowerCase(), type: e.type || '' }])))()`

// TestLobbyFormFromDescription: the new-table form of every game is what
// the game says of itself (engine.Info): its player counts, its bots with
// the default one chosen, and its options as checkboxes, lists or number
// fields, one-player options only for one player, structured ones not at
// all. Only options changed from their defaults reach the table.
func TestLobbyFormFromDescription(t *testing.T) {
	ts := startServer(t)
	desk := newPage(t, "lobby-desk")
	desk.do(chromedp.EmulateViewport(1440, 900))
	phone := newPage(t, "lobby-phone")
	phone.do(chromedp.EmulateViewport(390, 844))
	for _, p := range []*page{desk, phone} {
		p.do(chromedp.Navigate(ts.URL + "/"))
		p.waitJS(5*time.Second, `!!document.querySelector('#f-game')`)
	}
	// On a phone the form is folded behind a button near the top.
	phone.do(chromedp.Click(chromedp.CSS("#cta-create")))
	phone.waitJS(3*time.Second, `!document.querySelector('#create-form').hidden`)
	// Creating without a name asks for one; typing it clears the request.
	desk.waitJS(5*time.Second, `!!document.querySelector('#f-game input:checked')`)
	desk.do(chromedp.Click(chromedp.CSS("#create")))
	desk.waitJS(3*time.Second, `!document.querySelector('#name-error').hidden && document.activeElement.id === 'name'`)
	for _, p := range []*page{desk, phone} {
		p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"))
	}
	desk.waitJS(3*time.Second, `document.querySelector('#name-error').hidden && !document.querySelector('[aria-invalid]')`)

	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		p := desk
		p.chooseGame(id)
		var counts []string
		for n := info.MinPlayers; n <= info.MaxPlayers; n++ {
			counts = append(counts, fmt.Sprint(n))
		}
		if got := eval[[]string](p, `[...document.querySelectorAll('#f-players option')].map(o => o.value)`); !slices.Equal(got, counts) {
			t.Errorf("%s: player counts %v, want %v", id, got, counts)
		}
		for _, n := range []int{info.MinPlayers, max(2, info.MinPlayers)} {
			p.setSelect("#f-players", fmt.Sprint(n))
			want := map[string]formField{}
			for _, o := range info.Options {
				if o.Type == engine.OptionJSON || o.OnePlayerOnly && n != 1 {
					continue
				}
				switch {
				case o.Type == engine.OptionBool:
					want[o.Name] = formField{"input", "checkbox"}
				case o.Type == engine.OptionChoice, len(o.Choices) > 0:
					want[o.Name] = formField{"select", "select-one"}
				default:
					want[o.Name] = formField{"input", "number"}
				}
			}
			got := eval[map[string]formField](p, fieldsJS)
			if fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%s, %d players: option fields %v, want %v", id, n, got, want)
			}
			if n < 2 {
				continue
			}
			wantBots := []string{"human"}
			for _, k := range info.BotKinds() {
				wantBots = append(wantBots, "bot:"+k)
			}
			if got := eval[[]string](p, `[...document.querySelectorAll('#f-seat-1 option')].map(o => o.value)`); !slices.Equal(got, wantBots) {
				t.Errorf("%s: seat choices %v, want %v", id, got, wantBots)
			}
			if got := eval[string](p, `document.querySelector('#f-seat-1').value`); got != "bot:"+info.DefaultBot {
				t.Errorf("%s: seat 2 starts as %s, want the default bot %s", id, got, info.DefaultBot)
			}
		}
		p.setSelect("#f-players", fmt.Sprint(info.MinPlayers))
		p.shot("lobby-" + id + "-1440x900")
		phone.chooseGame(id)
		phone.setSelect("#f-players", fmt.Sprint(info.MinPlayers))
		phone.fullShot("lobby-" + id + "-390x844")
		phone.noSideScroll("lobby " + id)
	}

	// Bookworm with the Special die left out and a target of 5 (a number
	// field): exactly these options reach the table.
	desk.chooseGame("bookworm")
	desk.do(chromedp.Click(chromedp.CSS("#f-opt-special")))
	desk.do(chromedp.SetValue(chromedp.CSS("#f-opt-target"), "5"))
	eval[bool](desk, `document.querySelector('#f-opt-target').dispatchEvent(new Event('input')) || true`)
	// French words: the lobby says plainly what bots do in French.
	if eval[bool](desk, `!!document.querySelector("#f-opt-language-value-hint")`) {
		t.Error("a hint for English, which needs none")
	}
	desk.setSelect("#f-opt-language", "fr")
	desk.waitJS(3*time.Second, `document.querySelector('#f-opt-language-value-hint')?.textContent.includes('bots know fewer words')`)
	desk.shot("lobby-bookworm-french-words-1440x900")
	desk.setSelect("#f-seat-1", "bot:easy")
	desk.do(chromedp.Click(chromedp.CSS("#create")))
	desk.waitJS(10*time.Second, `location.pathname.startsWith('/t/')`)
	if got := tableOptions(t, desk); got != `{"language":"fr","special":false,"target":5}` {
		t.Errorf("bookworm options sent %s", got)
	}

	// Dice Stars alone, untouched: no options at all.
	desk.do(chromedp.Navigate(ts.URL + "/"))
	desk.do(chromedp.WaitVisible(chromedp.CSS("#f-game")))
	desk.chooseGame("dicestars")
	desk.setSelect("#f-players", "1")
	desk.do(chromedp.Click(chromedp.CSS("#create")))
	desk.waitJS(10*time.Second, `location.pathname.startsWith('/t/')`)
	if got := tableOptions(t, desk); got != `{}` {
		t.Errorf("dicestars options sent %s", got)
	}

	// In French, the labels are the page's French for the game's keys.
	phone.chooseGame("bookworm")
	phone.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	phone.waitJS(3*time.Second, `document.querySelector('label[for=f-opt-special]')?.textContent === 'Jouer avec le dé spécial vert'`)
	if got := phone.text(`#f-seat-1 option[value="bot:hard"]`); !strings.HasPrefix(got, "Robot") || !strings.HasSuffix(got, "difficile") {
		t.Errorf("French bot choice %q", got)
	}
	phone.fullShot("lobby-bookworm-fr-390x844")
	phone.noSideScroll("French Bookworm lobby") // French choices are longer
	desk.noExceptions()
	phone.noExceptions()
}

// tableOptions is the options of the table p's page shows, as the server
// stored them.
func tableOptions(t *testing.T, p *page) string {
	t.Helper()
	id := eval[string](p, `decodeURIComponent(location.pathname.split('/').pop())`)
	var s struct {
		Options json.RawMessage `json:"options"`
	}
	b := eval[string](p, `fetch('/api/tables/`+id+`').then(r => r.text())`)
	if err := json.Unmarshal([]byte(b), &s); err != nil {
		t.Fatalf("summary %s: %v", b, err)
	}
	return string(s.Options)
}

// noSideScroll fails when the page is wider than the screen (a long choice
// or label pushing the layout out).
func (p *page) noSideScroll(what string) {
	p.t.Helper()
	if w := eval[[]int](p, `[document.documentElement.scrollWidth, window.innerWidth]`); w[0] > w[1] {
		p.t.Errorf("%s: the page is %d px wide on a %d px screen", what, w[0], w[1])
	}
}
