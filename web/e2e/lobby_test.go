package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
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
	t.Parallel()
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

// colorScheme makes the page prefer a light or a dark colour scheme.
func colorScheme(scheme string) chromedp.Action[chromedp.Void] {
	return chromedp.Func(func(ctx context.Context, t *chromedp.Target) error {
		_, err := cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: scheme}}})
		return err
	})
}

// box is an element's place on the page.
type box struct {
	Top    float64 `json:"top"`
	Left   float64 `json:"left"`
	Bottom float64 `json:"bottom"`
	Right  float64 `json:"right"`
}

func (p *page) box(sel string) box {
	p.t.Helper()
	return eval[box](p, fmt.Sprintf(`(() => { const r = document.querySelector(%q).getBoundingClientRect();
  return {top: r.top + scrollY, left: r.left, bottom: r.bottom + scrollY, right: r.right}; })()`, sel))
}

// openLobby opens the lobby in a fresh browser at the given size.
func openLobby(t *testing.T, url, name string, w, h int64) *page {
	t.Helper()
	p := newPage(t, name)
	p.do(chromedp.EmulateViewport(w, h))
	p.do(chromedp.Navigate(url + "/"))
	return p
}

// hasMyTables tells whether the server answers GET /api/tables/mine.
func (p *page) hasMyTables() bool {
	return eval[int](p, `fetch('/api/tables/mine').then((r) => r.status)`) == 200
}

// lobbyShots takes the lobby at both sizes, light and dark, in English and
// French, and switches back to English at 1440×900, light.
func (p *page) lobbyShots(name string) {
	p.t.Helper()
	for _, lang := range []string{"en", "fr"} {
		p.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=` + lang + `]`)))
		p.waitJS(3*time.Second, `document.documentElement.lang === '`+lang+`'`)
		for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
			p.do(chromedp.EmulateViewport(size[0], size[1]))
			for _, scheme := range []string{"light", "dark"} {
				p.do(colorScheme(scheme))
				// Colours ease from one scheme to the other: shoot (and scan)
				// once they are there.
				p.waitJS(3*time.Second, fmt.Sprintf(`matchMedia('(prefers-color-scheme: %s)').matches && matchMedia('(max-width: 900px)').matches === %v
  && document.getAnimations().every((a) => a.playState !== 'running')`, scheme, size[0] < 900))
				file := fmt.Sprintf("%s-%dx%d-%s-%s", name, size[0], size[1], lang, scheme)
				p.shot(file)
				p.axeClean(file)
				if size[0] < 900 && scheme == "light" {
					p.fullShot(file + "-full")
				}
			}
			p.noSideScroll(fmt.Sprintf("%s %s %dx%d", name, lang, size[0], size[1]))
		}
	}
	p.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=en]`)), chromedp.EmulateViewport(1440, 900), colorScheme("light"))
}

// TestLobbyYourGames: the tables where you hold a seat come first, your
// turn first, each with the action for you (never Watch); the others see
// them as open or live tables to join or watch. On a phone your games and
// the way to a new table come before everything else.
func TestLobbyYourGames(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ann := openLobby(t, ts.URL, "lobby-mine", 1440, 900)
	if !ann.hasMyTables() {
		t.Skip("the server does not answer GET /api/tables/mine yet (branch srv)")
	}
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"))

	// A table waiting for a second person, and one where a slow bot plays
	// for Ann (her clock ran out): neither is her turn.
	waiting := ann.createTable(`{game: 'dicestars', name: 'Ann', seats: [{kind: 'human'}, {kind: 'human'}]}`)
	botted := ann.createTable(`{game: 'dicestars', name: 'Ann', settings: {turnSeconds: 1, botDelayMs: 10000}, seats: [{kind: 'human'}, {kind: 'bot', bot: 'random'}]}`)
	// Then, from the form, a table against a bot: her turn.
	ann.chooseGame("dicestars")
	ann.setSelect("#f-players", "2")
	ann.setSelect("#f-seat-1", "bot:greedy")
	ann.do(chromedp.Click(chromedp.CSS("#create")))
	ann.waitJS(10*time.Second, `location.pathname.startsWith('/t/') && document.body.dataset.status === 'live'`)
	turn := strings.TrimPrefix(eval[string](ann, `location.pathname`), "/t/")

	ann.do(chromedp.Navigate(ts.URL + "/"))
	mineIDs := `[...document.querySelectorAll('[data-list=mine] [data-table]')].map((e) => e.dataset.table)`
	ann.waitJS(15*time.Second, mineIDs+`.length === 3 && !!document.querySelector('[data-list=mine] [data-table="`+botted+`"]')?.textContent.includes('bot is playing for you')`)
	if got := eval[[]string](ann, mineIDs); got[0] != turn {
		t.Errorf("your games %v: the table where it is Ann's turn (%s) is not first", got, turn)
	}
	first := `document.querySelector('[data-list=mine] [data-table="` + turn + `"]')`
	if !eval[bool](ann, first+`.classList.contains('your-turn') && !!`+first+`.querySelector('[data-play]') && `+first+`.textContent.includes('Your turn')`) {
		t.Errorf("Ann's turn is not marked: %q", ann.text(`[data-list=mine] [data-table="`+turn+`"]`))
	}
	if got := ann.text(`[data-list=mine] [data-table="` + waiting + `"]`); !strings.Contains(got, "Waiting for 1 more player") || !strings.Contains(got, "Resume") {
		t.Errorf("the table waiting for a player reads %q", got)
	}
	for _, id := range []string{waiting, botted, turn} {
		if n := eval[int](ann, `document.querySelectorAll('[data-table="`+id+`"]').length`); n != 1 {
			t.Errorf("Ann's table %s is listed %d times", id, n)
		}
	}
	if n := eval[int](ann, `document.querySelectorAll('[data-watch]').length`); n != 0 {
		t.Errorf("Ann is offered to watch %d of her own tables", n)
	}

	// Bob sees Ann's tables as anybody's: one to join, two to watch.
	bob := openLobby(t, ts.URL, "lobby-bob", 1440, 900)
	bob.waitJS(10*time.Second, `!!document.querySelector('[data-join="`+waiting+`:1"]') && !!document.querySelector('[data-watch="`+turn+`"]') && !!document.querySelector('[data-watch="`+botted+`"]')`)
	if got := bob.text(`[data-join="` + waiting + `:1"]`); got != "Join as seat 2" {
		t.Errorf("Bob's join button reads %q", got)
	}
	if !eval[bool](bob, `document.querySelector('[data-list=mine]').hidden`) {
		t.Error("Bob, who sits nowhere, is shown a list of his games")
	}

	// The lists refresh without taking the keyboard away.
	ann.do(chromedp.Focus(chromedp.CSS(`[data-play]`)))
	time.Sleep(4500 * time.Millisecond) // the lists refresh every 4 s
	if got := eval[string](ann, `document.activeElement.dataset.play || ''`); got != turn {
		t.Errorf("after a refresh the focus is on %q, not on the Play button", got)
	}

	// On a phone: your games, then the call to make a table, then the
	// open tables, then the (folded) form.
	ann.do(chromedp.EmulateViewport(390, 844))
	ann.waitJS(3*time.Second, `matchMedia('(max-width: 900px)').matches && document.querySelector('#create-form').hidden`)
	mine, cta, open, form := ann.box(`[data-list=mine]`), ann.box(`#cta-create`), ann.box(`[data-list=open]`), ann.box(`.create`)
	if !(mine.Top < cta.Top && cta.Top < open.Top && open.Top < form.Top) {
		t.Errorf("phone order: your games at %v, new table at %v, open tables at %v, form at %v", mine.Top, cta.Top, open.Top, form.Top)
	}
	if cta.Bottom > 844 {
		t.Errorf("on a phone the new-table button is below the first screen (%v px)", cta.Bottom)
	}
	ann.do(chromedp.EmulateViewport(1440, 900))
	ann.lobbyShots("lobby-mine")
	bob.lobbyShots("lobby-others")
	ann.noExceptions()
	bob.noExceptions()
}

// TestLobbyFinishedGames: a finished game names its players in the
// order they finished, marks the winner and says when it ended.
func TestLobbyFinishedGames(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ann := openLobby(t, ts.URL, "lobby-over-ann", 1440, 900)
	// Ann's clock runs out at once and a bot plays her seat to the end.
	id := ann.createTable(`{game: 'dicestars', name: 'Ann', settings: {turnSeconds: 1, botDelayMs: 0}, seats: [{kind: 'human'}, {kind: 'bot', bot: 'greedy'}]}`)
	deadline := time.Now().Add(90 * time.Second)
	for getSummary(t, ts.URL, id).Status != "over" {
		if time.Now().After(deadline) {
			t.Fatalf("the table did not finish: %+v", getSummary(t, ts.URL, id))
		}
		time.Sleep(300 * time.Millisecond)
	}
	s := getSummary(t, ts.URL, id)

	bob := openLobby(t, ts.URL, "lobby-over-bob", 1440, 900)
	row := `document.querySelector('[data-list=over] [data-table="` + id + `"]')`
	bob.waitJS(10*time.Second, `!!`+row)
	type rankRow struct {
		Name  string `json:"name"`
		Score string `json:"score"`
		Won   bool   `json:"won"`
	}
	got := eval[[]rankRow](bob, `[...`+row+`.querySelectorAll('.ti-ranking li')].map((li) => ({
  name: li.querySelector('.r-name').textContent, score: li.querySelector('.r-score').textContent, won: li.classList.contains('won')}))`)
	if len(got) != 2 {
		t.Fatalf("the finished table ranks %v", got)
	}
	names := map[string]int{"Ann": 0, "Greedy bot": 1}
	for i, r := range got {
		seat, ok := names[r.Name]
		if !ok {
			t.Errorf("ranked %q, want Ann and the bot", r.Name)
			continue
		}
		if r.Score != fmt.Sprint(s.Result.Scores[seat]) {
			t.Errorf("%s scored %s, the server says %d", r.Name, r.Score, s.Result.Scores[seat])
		}
		if r.Won != slices.Contains(s.Result.Winners, seat) {
			t.Errorf("%s marked as winner: %v, the server's winners %v", r.Name, r.Won, s.Result.Winners)
		}
		if i > 0 && !r.Won && !got[i-1].Won && got[i-1].Score < r.Score {
			t.Errorf("ranking %v is not best first", got)
		}
	}
	if !got[0].Won {
		t.Errorf("the winner is not first: %v", got)
	}
	if w := bob.text(`[data-list=over] [data-table="` + id + `"] .ended`); !strings.Contains(w, "ended") {
		t.Errorf("the finished table says %q of when it ended", w)
	}
	if eval[bool](bob, `!!`+row+`.querySelector('[data-watch],[data-join]')`) || !eval[bool](bob, `!!`+row+`.querySelector('[data-replay]')`) {
		t.Error("a finished table offers something else than its replay")
	}
	// In French the time is French too.
	bob.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	bob.waitJS(3*time.Second, row+`.querySelector('.ended').textContent.match(/termin/)`)
	bob.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=en]`)))

	// For Ann it is one of her games, with how it went for her.
	if ann.hasMyTables() {
		ann.do(chromedp.Reload())
		mine := `document.querySelector('[data-list=mine] [data-table="` + id + `"]')`
		ann.waitJS(10*time.Second, `!!`+mine)
		want := "" // the ranking says she lost
		if slices.Contains(s.Result.Winners, 0) {
			want = "You won"
		}
		if got := ann.text(`[data-list=mine] [data-table="` + id + `"] .ti-status`); got != want {
			t.Errorf("Ann's finished game says %q, want %q", got, want)
		}
		if eval[bool](ann, `!!`+mine+`.querySelector('[data-watch]')`) {
			t.Error("Ann is offered to watch her own finished game")
		}
		ann.lobbyShots("lobby-finished-mine")
	} else {
		t.Log("the server does not answer GET /api/tables/mine yet: Ann's view of her finished game is not checked")
	}
	bob.lobbyShots("lobby-finished")
	ann.noExceptions()
	bob.noExceptions()
}

// TestLobbyFormLayout: a checkbox sits beside its label; a number out of
// range is told next to its field and the message goes as soon as it is
// fixed; a stale request for a name goes as soon as one is typed, on both
// sizes of screen.
func TestLobbyFormLayout(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, size := range [][2]int64{{1440, 900}, {390, 844}} {
		p := openLobby(t, ts.URL, fmt.Sprintf("lobby-form-%d", size[0]), size[0], size[1])
		p.waitJS(5*time.Second, `!!document.querySelector('#f-game input:checked')`)
		if size[0] < 900 {
			p.do(chromedp.Click(chromedp.CSS("#cta-create")))
			p.waitJS(3*time.Second, `!document.querySelector('#create-form').hidden`)
		}
		// Every game card says in one line what the game is, under its name.
		if bad := eval[[]string](p, `[...document.querySelectorAll('.game-card')].filter((c) => {
			const pitch = c.querySelector('.gc-pitch'), title = c.querySelector('.gc-title');
			return !pitch || !pitch.textContent.trim() || pitch.getBoundingClientRect().top < title.getBoundingClientRect().bottom - 1;
		}).map((c) => c.dataset.game)`); len(bad) > 0 {
			t.Errorf("%dpx: game cards without a pitch under the name: %v", size[0], bad)
		}
		p.do(chromedp.ScrollIntoView(chromedp.CSS("#f-game")))
		p.shot(fmt.Sprintf("lobby-game-cards-%dx%d", size[0], size[1]))
		// Every checkbox of every game: beside its label, on its line.
		for _, id := range all.Registry.IDs() {
			p.chooseGame(id)
			for _, box := range eval[[]string](p, `[...document.querySelectorAll('#create-form input[type=checkbox]')].map((e) => '#' + e.id)`) {
				b, l := p.box(box), p.box(`label[for="`+box[1:]+`"]`)
				if b.Right > l.Left || b.Bottom < l.Top || b.Top > l.Top+24 {
					t.Errorf("%dpx %s: checkbox %s at %+v, its label at %+v: not beside it", size[0], id, box, b, l)
				}
			}
		}

		// A name asked for, then typed: the request goes at once.
		p.do(chromedp.Click(chromedp.CSS("#create")))
		p.waitJS(3*time.Second, `!document.querySelector('#name-error').hidden`)
		if got := p.text("#name-error"); got != "Please choose a name first." {
			t.Errorf("name request %q", got)
		}
		p.shot(fmt.Sprintf("lobby-form-name-asked-%dx%d", size[0], size[1]))
		p.do(chromedp.SendKeys(chromedp.CSS("#name"), "Z"))
		p.waitJS(2*time.Second, `document.querySelector('#name-error').hidden && !document.querySelector('#name').hasAttribute('aria-invalid')`)

		// A number out of its range: said by the field, gone once fixed.
		var num string
		for _, id := range all.Registry.IDs() {
			p.chooseGame(id)
			if n := eval[string](p, `(document.querySelector('#create-form input[type=number][max]') || {}).id || ''`); n != "" {
				num = "#" + n
				break
			}
		}
		if num == "" {
			t.Fatal("no game has a number option with a maximum")
		}
		maxv := eval[string](p, `document.querySelector('`+num+`').max`)
		typeNumber := func(v string) {
			p.do(chromedp.SetValue(chromedp.CSS(num), v))
			eval[bool](p, `document.querySelector('`+num+`').dispatchEvent(new Event('input')) || true`)
		}
		typeNumber(maxv + "0")
		p.waitJS(2*time.Second, `!document.querySelector('`+num+`-error').hidden && document.querySelector('`+num+`').getAttribute('aria-invalid') === 'true'`)
		p.do(chromedp.Click(chromedp.CSS("#create")))
		p.waitJS(2*time.Second, `document.activeElement === document.querySelector('`+num+`') && location.pathname === '/'`)
		p.shot(fmt.Sprintf("lobby-form-number-error-%dx%d", size[0], size[1]))
		p.axeClean(fmt.Sprintf("the form with an error at %d px", size[0]))
		typeNumber(maxv)
		p.waitJS(2*time.Second, `document.querySelector('`+num+`-error').hidden && !document.querySelector('`+num+`').hasAttribute('aria-invalid')`)
		p.noSideScroll(fmt.Sprintf("form at %d px", size[0]))
		p.noExceptions()
	}
}
