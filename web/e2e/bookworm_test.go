package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// bwState is what a Bookworm table page shows right now.
type bwState struct {
	Version   int      `json:"version"`
	Phase     string   `json:"phase"`
	Category  string   `json:"category"` // the chosen category's ID
	Choose    bool     `json:"choose"`   // category buttons are offered
	TurnTo    bool     `json:"turnTo"`
	Name      bool     `json:"name"` // the word field is offered
	Challenge bool     `json:"challenge"`
	Vote      bool     `json:"vote"`
	Judged    string   `json:"judged"`
	Takes     []bwTake `json:"takes"`
	Words     []string `json:"words"`
	LastRound string   `json:"lastRound"`
	Counting  bool     `json:"counting"`
}

type bwTake struct {
	Die     int    `json:"die"`
	From    int    `json:"from"`
	Letters string `json:"letters"`
	Letter  string `json:"letter"`
}

const bwStateJS = `(() => {
  const a = document.querySelector('[data-testid=actions]');
  const q = (s) => !!a.querySelector(s);
  return {
    version: Number(document.body.dataset.version || -1),
    phase: document.querySelector('.bw-board')?.dataset.phase || '',
    category: document.querySelector('.bw-cat.chosen')?.dataset.categoryId || '',
    choose: q('button[data-category]'), turnTo: q('button[data-turn]'), name: q('#bw-word'),
    challenge: q('[data-testid=bw-challenge]'), vote: q('[data-testid=bw-reject]'),
    judged: document.querySelector('[data-testid=bw-judged-word]')?.textContent || '',
    takes: [...a.querySelectorAll('button.bw-take')].map((b) => ({ die: Number(b.dataset.die), from: Number(b.dataset.from), letters: b.dataset.letters, letter: b.dataset.letter || '' })),
    words: [...document.querySelectorAll('.bw-word .bw-w')].map((e) => e.textContent),
    lastRound: document.querySelector('[data-testid=bw-last-round]')?.textContent || '',
    counting: !!document.querySelector('.bw-clock.counting'),
  };
})()`

func (p *page) bw() bwState { return eval[bwState](p, bwStateJS) }

// bookwormBots asks the server which Bookworm bots it has.
func bookwormBots(t *testing.T, base string) []string {
	res, err := http.Get(base + "/api/games")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var games []engine.Info
	if err := json.NewDecoder(res.Body).Decode(&games); err != nil {
		t.Fatal(err)
	}
	for _, g := range games {
		if g.ID == "bookworm" {
			return g.BotKinds()
		}
	}
	t.Fatal("the server does not offer bookworm")
	return nil
}

// typeWord puts the cursor in the word field and types, as a person would.
func (p *page) typeWord(w string) {
	p.t.Helper()
	eval[bool](p, `(() => { const i = document.querySelector('#bw-word'); i.value = ''; i.dispatchEvent(new Event('input')); return true; })()`)
	p.do(chromedp.SendKeys(chromedp.CSS("#bw-word"), w))
}

// TestBookwormRound: two people and a bot play a round of Bookworm through
// the pages, with short clocks: a steal, a made-up word challenged and voted
// on, and a player who runs out of time, which ends the round. A spectator
// watches on a phone-sized screen.
func TestBookwormRound(t *testing.T) {
	ts := startServer(t)
	start := time.Now()
	lex := words.Default()

	bots := bookwormBots(t, ts.URL)
	useBot := len(bots) > 0
	if !useBot {
		t.Log("the server has no Bookworm bots: playing two people and a spectator")
	}

	// Ann looks at the lobby form for Bookworm: 2 to 6 players, bots, the
	// Special die and the think time.
	ann := newPage(t, "bw-ann")
	ann.do(chromedp.Navigate(ts.URL + "/"))
	ann.do(chromedp.WaitVisible(chromedp.CSS("#name")), chromedp.WaitVisible(chromedp.CSS("#f-game")))
	ann.do(chromedp.SendKeys(chromedp.CSS("#name"), "Ann"))
	ann.chooseGame("bookworm")
	ann.waitJS(3*time.Second, `!!document.querySelector('#f-opt-special') && !!document.querySelector('#f-opt-thinkSeconds')`)
	if got := eval[[]string](ann, `[...document.querySelectorAll('#f-players option')].map(o => o.value)`); !slices.Equal(got, []string{"2", "3", "4", "5", "6"}) {
		t.Errorf("player counts offered for Bookworm: %v", got)
	}
	ann.setSelect("#f-players", "3")
	seatOpts := eval[[]string](ann, `[...document.querySelectorAll('#f-seat-2 option')].map(o => o.value)`)
	for _, b := range bots {
		if !slices.Contains(seatOpts, "bot:"+b) {
			t.Errorf("seat options %v lack bot %s", seatOpts, b)
		}
	}
	ann.shot("bw-01-home-form")

	// The table itself is made with short clocks, which the form does not
	// offer: through the same API call, from Ann's page (so she gets the
	// seat cookie).
	seats := `[{"kind":"human"},{"kind":"human"}` + map[bool]string{true: `,{"kind":"bot","bot":"medium"}`, false: ``}[useBot] + `]`
	if useBot && !slices.Contains(bots, "medium") {
		seats = strings.Replace(seats, "medium", bots[0], 1)
	}
	id := eval[string](ann, `fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
	  game: 'bookworm', name: 'Ann', settings: {turnSeconds: 0},
	  options: {thinkSeconds: 4, countdownSeconds: 2, challengeSeconds: 2, voteSeconds: 3},
	  seats: `+seats+`})}).then(r => r.json()).then(j => j.id || JSON.stringify(j))`)
	if strings.Contains(id, "{") {
		t.Fatalf("create: %s", id)
	}
	ann.do(chromedp.Navigate(ts.URL + "/t/" + id))
	ann.waitJS(10*time.Second, `document.body.dataset.seat === '0'`)

	bob := newPage(t, "bw-bob")
	bob.do(chromedp.Navigate(ts.URL + "/t/" + id))
	bob.do(chromedp.WaitVisible(chromedp.CSS("#join-name")))
	bob.do(chromedp.SendKeys(chromedp.CSS("#join-name"), "Bob"))
	bob.do(chromedp.Click(chromedp.CSS(`[data-join="1"]`)))
	bob.waitJS(10*time.Second, `document.body.dataset.seat === '1' && document.body.dataset.status === 'live'`)

	spec := newPage(t, "bw-spectator")
	spec.do(chromedp.EmulateViewport(390, 844))
	spec.do(chromedp.Navigate(ts.URL + "/t/" + id))
	spec.waitJS(10*time.Second, `document.body.dataset.seat === '-3' && !!document.querySelector('.bw-board')`)

	people := []*page{ann, bob}
	var (
		stole, challenged, voted, refusedOnce bool
		madeUp                                string
		speaker                               *page
		shots                                 = map[string]bool{}
	)
	shotOnce := func(p *page, name string) {
		if !shots[name] {
			shots[name] = true
			p.shot(name)
		}
	}
	named := func(st bwState) map[string]bool {
		m := map[string]bool{}
		for _, w := range st.Words {
			m[words.Normalize(w)] = true
		}
		return m
	}
	// wordFor finds a word of the category the lexicon knows, starting with
	// one of letters, not said yet.
	wordFor := func(st bwState, letters string) string {
		said := named(st)
		for _, w := range lex.Words(st.Category) {
			if !strings.Contains(w, " ") && len(w) >= 3 && strings.ContainsRune(letters, rune(w[0])) && !said[w] {
				return w
			}
		}
		return ""
	}

	deadline := time.Now().Add(120 * time.Second)
	for {
		if time.Now().After(deadline) {
			ann.fail("the round did not reach its goals in time (steal %v, challenge %v, vote %v)", stole, challenged, voted)
		}
		if lr := ann.bw().LastRound; lr != "" {
			break
		}
		acted := false
		for _, p := range people {
			st := p.bw()
			switch {
			case st.Choose:
				shotOnce(p, "bw-02-category-"+p.name)
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=actions] button[data-category="0"]`)))
				p.waitVersion(st.Version + 1)
				acted = true
			case st.TurnTo:
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=actions] button[data-turn="a-z"]`)))
				p.waitVersion(st.Version + 1)
				acted = true
			case st.Challenge && madeUp != "" && strings.EqualFold(st.Judged, madeUp):
				shotOnce(p, "bw-05-challenge-window-"+p.name)
				spec.shot("bw-05-challenge-window-phone")
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-challenge]`)))
				challenged = true
				acted = true
				time.Sleep(100 * time.Millisecond)
			case st.Challenge:
				// A word the lexicon knows: its short window to dispute it.
				if !shots["bw-05b-known-window-"+p.name] {
					shotOnce(p, "bw-05b-known-window-"+p.name)
					spec.shot("bw-05b-known-window-phone")
				}
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-allow]`)))
				acted = true
				time.Sleep(100 * time.Millisecond)
			case st.Vote && madeUp != "" && strings.EqualFold(st.Judged, madeUp):
				challenged = true // the bot may have challenged first
				shotOnce(p, "bw-06-vote-"+p.name)
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-reject]`)))
				p.waitJS(5*time.Second, `!document.querySelector('[data-testid=bw-reject]')`)
				voted = true
				spec.shot("bw-06-vote-phone")
				acted = true
			case st.Vote:
				p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-accept]`)))
				acted = true
				time.Sleep(100 * time.Millisecond)
			case st.Name:
				if stole && voted {
					// The last goal: let the clock run out.
					if st.Counting {
						shotOnce(p, "bw-07-countdown-"+p.name)
						spec.shot("bw-07-countdown-phone")
					}
					continue
				}
				if speaker == p && madeUp != "" && !voted {
					continue // the rejected speaker's second chance comes after the vote
				}
				shotOnce(p, "bw-03-your-turn-"+p.name)
				if k := slices.IndexFunc(st.Takes, func(x bwTake) bool { return len(x.Letters) < 5 }); !refusedOnce && k >= 0 {
					// A word that does not start with the die's letter: the
					// server's reason shows.
					tk := st.Takes[k]
					bad := "q"
					for _, l := range "qjvzxmb" {
						if !strings.ContainsRune(tk.Letters, l) {
							bad = string(l)
							break
						}
					}
					p.typeWord(bad + "ungle")
					p.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`button.bw-take[data-die="%d"]`, tk.Die))))
					p.waitJS(5*time.Second, `!document.querySelector('[data-testid=alert]').hidden`)
					// The rules word it two ways: "… does not start with the
					// letter …" or "“qungle” starts with Q, not C".
					if a := strings.ToLower(p.text("[data-testid=alert] .alert-text")); !strings.Contains(a, "letter") && !strings.Contains(a, "starts with "+bad) {
						t.Errorf("refusal of a wrong letter shown as %q", a)
					}
					shotOnce(p, "bw-04-refused-"+p.name)
					refusedOnce = true
				}
				if !stole {
					for _, tk := range st.Takes {
						if tk.From < 0 {
							continue
						}
						if w := wordFor(st, tk.Letters); w != "" {
							p.typeWord(w)
							sel := fmt.Sprintf(`button.bw-take[data-die="%d"]`, tk.Die)
							if tk.Letter != "" {
								sel = fmt.Sprintf(`button.bw-take[data-die="%d"][data-letter="%s"]`, tk.Die, string(w[0]))
							}
							p.do(chromedp.Click(chromedp.CSS(sel)))
							p.waitVersion(st.Version + 1)
							stole = true
							shotOnce(p, "bw-04-after-steal-"+p.name)
							spec.shot("bw-04-after-steal-phone")
							break
						}
					}
					if stole {
						acted = true
						break
					}
				}
				if stole && madeUp == "" {
					// A word nobody knows, said with Enter: the others may
					// challenge it.
					for _, tk := range st.Takes {
						if tk.From >= 0 || tk.Letters == "" {
							continue
						}
						w := tk.Letters[:1] + "zorbleq"
						if lex.Fits(st.Category, w) {
							continue
						}
						madeUp, speaker = w, p
						p.typeWord(w)
						p.do(chromedp.KeyEvent(kb.Enter))
						p.waitVersion(st.Version + 1)
						break
					}
					if madeUp != "" {
						acted = true
						break
					}
				}
				// Otherwise a known word from the display.
				for _, tk := range st.Takes {
					if tk.From >= 0 {
						continue
					}
					if w := wordFor(st, tk.Letters); w != "" {
						p.typeWord(w)
						sel := fmt.Sprintf(`button.bw-take[data-die="%d"]`, tk.Die)
						if tk.Letter != "" {
							sel = fmt.Sprintf(`button.bw-take[data-die="%d"][data-letter="%s"]`, tk.Die, string(w[0]))
						}
						p.do(chromedp.Click(chromedp.CSS(sel)))
						p.waitVersion(st.Version + 1)
						acted = true
						break
					}
				}
			}
			if acted {
				break
			}
		}
		if !acted {
			time.Sleep(60 * time.Millisecond)
		}
	}

	// The round is over on every page, ended by a player who ran out of time.
	for _, p := range []*page{ann, bob, spec} {
		p.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-last-round]')`)
	}
	if !stole || !challenged || !voted {
		t.Errorf("the round ended before every goal: steal %v, challenge %v, vote %v", stole, challenged, voted)
	}
	lr := ann.text("[data-testid=bw-last-round]")
	// A penalty is written once with its sign: −2, not −-2.
	if eval[bool](ann, `document.body.textContent.includes('−-')`) {
		t.Error("a score is written with two minus signs")
	}
	log := spec.text("[data-testid=log]")
	if !strings.Contains(lr, "found no word") || !strings.Contains(log, literal(t, "bookworm", "bookworm.fail.timeout")) {
		t.Errorf("the round did not end by a timeout: %q\nlog:\n%s", lr, log)
	}
	if !strings.Contains(log, literal(t, "bookworm", "bookworm.vote.accept")) && !strings.Contains(log, literal(t, "bookworm", "bookworm.vote.reject")) {
		t.Errorf("the spectator's log lacks the vote:\n%s", log)
	}
	for _, want := range []string{literal(t, "bookworm", "bookworm.steal"), literal(t, "bookworm", "bookworm.challenge")} {
		if !strings.Contains(log, want) {
			t.Errorf("the spectator's log lacks %q:\n%s", want, log)
		}
	}
	if !strings.Contains(log, literal(t, "bookworm", "bookworm.verdict.rejected")) && !strings.Contains(log, literal(t, "bookworm", "bookworm.verdict.accepted")) {
		t.Errorf("no verdict in the log:\n%s", log)
	}
	if n := eval[int](spec, `document.querySelectorAll('[data-testid=actions] button').length`); n != 0 {
		t.Errorf("the spectator sees %d action buttons", n)
	}
	// The robbed player holds a Bookworm card.
	cards := eval[string](spec, `[...document.querySelectorAll('[data-testid=bw-cards]')].map(e => e.textContent).join('|')`)
	t.Logf("bookworm cards after the round: %s", cards)
	ann.fullShot("bw-08-round-end-ann")
	spec.fullShot("bw-08-round-end-phone")

	// The next round has begun: the French page says so in French.
	bob.do(chromedp.Click(chromedp.CSS(`.lang-switch button[data-lang=fr]`)))
	bob.waitJS(5*time.Second, `document.documentElement.lang === 'fr' && /Manche/.test(document.querySelector('.bw-round')?.textContent || '')`)
	bob.fullShot("bw-09-french-bob")

	for _, p := range []*page{ann, bob, spec} {
		p.noExceptions()
	}
	t.Logf("bookworm round took %v (bot seat: %v)", time.Since(start).Round(time.Millisecond), useBot)
}
