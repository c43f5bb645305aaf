package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// bwState is what a Bookworm table page shows right now.
type bwState struct {
	Version  int      `json:"version"`
	Phase    string   `json:"phase"`
	Category string   `json:"category"` // the chosen category's ID
	Choose   bool     `json:"choose"`   // the card's categories are buttons
	TurnTo   bool     `json:"turnTo"`
	Name     bool     `json:"name"` // the word field is offered
	Allow    bool     `json:"allow"`
	Vote     bool     `json:"vote"`
	Judged   string   `json:"judged"`
	Picks    []bwPick `json:"picks"`
	Words    []string `json:"words"`
	Over     bool     `json:"over"`
	Rejected string   `json:"rejected"`
}

type bwPick struct {
	Die     int    `json:"die"`
	From    int    `json:"from"`
	Letters string `json:"letters"`
}

const bwStateJS = `(() => {
  const b = document.querySelector('.bw-board');
  const q = (s) => !!b?.querySelector(s);
  return {
    version: Number(document.body.dataset.version || -1),
    phase: b?.dataset.phase || '',
    category: b?.querySelector('.bw-cat.chosen')?.dataset.categoryId || '',
    choose: q('button.bw-cat-btn'), turnTo: q('button[data-turn]'), name: q('#bw-word'),
    allow: q('[data-testid=bw-allow]'), vote: q('[data-testid=bw-reject]'),
    judged: b?.querySelector('[data-testid=bw-judged-word]')?.textContent || '',
    picks: [...(b?.querySelectorAll('button.bw-pick[data-letters]') || [])].map((x) => ({ die: Number(x.dataset.die), from: Number(x.dataset.from), letters: x.dataset.letters })),
    words: [...document.querySelectorAll('.bw-word .bw-w')].map((e) => e.textContent),
    over: document.body.dataset.status === 'over',
    rejected: b?.querySelector('[data-testid=bw-rejected]')?.textContent || '',
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

// typeWord empties the word field and types w, as a person would.
func (p *page) typeWord(w string) {
	p.t.Helper()
	eval[bool](p, `(() => { const i = document.querySelector('#bw-word'); i.value = ''; i.dispatchEvent(new Event('input')); return true; })()`)
	p.do(chromedp.SendKeys(chromedp.CSS("#bw-word"), w))
}

// darkMode makes the page prefer a dark colour scheme (or stop).
func (p *page) darkMode(on bool) {
	p.t.Helper()
	v := "light"
	if on {
		v = "dark"
	}
	ctx, cancel := context.WithTimeout(p.ctx, 5*time.Second)
	defer cancel()
	_, err := chromedp.Run(ctx, func(ctx context.Context, t *chromedp.Target) (cdp.Empty, error) {
		return cdp.Call(ctx, t, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v}}})
	})
	if err != nil {
		p.fail("emulate %s mode: %v", v, err)
	}
}

// bwTable creates a Bookworm table from p's page (so p holds seat 0) and
// opens it.
func bwTable(t *testing.T, p *page, base, seats, options string) string {
	t.Helper()
	id := eval[string](p, `fetch('/api/tables', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({
	  game: 'bookworm', name: 'Ann', settings: {turnSeconds: 0}, options: `+options+`, seats: `+seats+`})}).then(r => r.json()).then(j => j.id || JSON.stringify(j))`)
	if strings.Contains(id, "{") {
		t.Fatalf("create: %s", id)
	}
	p.do(chromedp.Navigate(base + "/t/" + id))
	p.waitJS(10*time.Second, `document.body.dataset.seat === '0' && !!document.querySelector('.bw-board')`)
	return id
}

// bwPage opens a page at a viewport, in a language and colour scheme.
func bwPage(t *testing.T, base, name string, w, h int, lang string, dark bool) *page {
	p := newPage(t, name)
	p.do(chromedp.EmulateViewport(int64(w), int64(h)))
	p.darkMode(dark)
	p.do(chromedp.Navigate(base + "/"))
	eval[bool](p, fmt.Sprintf(`(localStorage.setItem('dh.lang', %q), true)`, lang))
	return p
}

// wordFor finds a word of the category the lexicon knows, starting with one
// of letters, not said yet this round.
func wordFor(lex words.Lexicon, st bwState, letters string) string {
	said := map[string]bool{}
	for _, w := range st.Words {
		said[words.Normalize(w)] = true
	}
	for _, w := range lex.Words(st.Category) {
		if !strings.ContainsAny(w, " -'") && len(w) >= 3 && strings.ContainsRune(letters, rune(w[0])) && !said[w] {
			return w
		}
	}
	return ""
}

// bwJudge answers a challenge window or a vote with "it fits".
func (p *page) bwJudge(st bwState) bool {
	switch {
	case st.Allow:
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-allow]`)))
	case st.Vote:
		p.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-accept]`)))
	default:
		return false
	}
	time.Sleep(80 * time.Millisecond)
	return true
}

// TestBookwormVsBots: Ann plays whole games against two bots by tapping the
// dice and typing, at 1440×900 and 390×844, in English and French, light
// and dark. On her turn the card, the dice and the word field are on the
// first screen; the picture of each is saved.
func TestBookwormVsBots(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	bots := bookwormBots(t, ts.URL)
	bot := "hard"
	if len(bots) == 0 {
		t.Skip("the server has no Bookworm bots")
	}
	if !strings.Contains(strings.Join(bots, " "), bot) {
		bot = bots[len(bots)-1]
	}
	for _, c := range []struct {
		w, h   int
		lang   string
		dark   bool
		target int // a whole game at the first, a short one at the others
	}{{1440, 900, "en", false, 7}, {390, 844, "en", true, 3}, {1440, 900, "fr", true, 3}, {390, 844, "fr", false, 3}} {
		scheme := map[bool]string{true: "dark", false: "light"}[c.dark]
		tag := fmt.Sprintf("%dx%d-%s-%s", c.w, c.h, c.lang, scheme)
		t.Run(tag, func(t *testing.T) {
			// The four tables wait mostly on the game's clocks: side by side.
			t.Parallel()
			lex, err := words.ForLanguage(c.lang)
			if err != nil {
				t.Fatal(err)
			}
			ann := bwPage(t, ts.URL, "ann-"+tag, c.w, c.h, c.lang, c.dark)
			// Pacing is the Dice Stars and Diceflick tests' subject; here
			// the bots' words go by fast.
			ann.fastBots()
			bwTable(t, ann, ts.URL,
				fmt.Sprintf(`[{"kind":"human"},{"kind":"bot","bot":%q},{"kind":"bot","bot":%q}]`, bot, bot),
				fmt.Sprintf(`{language: %q, thinkSeconds: 20, countdownSeconds: 5, challengeSeconds: 1, knownChallengeSeconds: 0, voteSeconds: 2, target: %d}`, c.lang, c.target))
			shots := map[string]bool{}
			once := func(name string) {
				if !shots[name] {
					shots[name] = true
					ann.shot("bw-" + tag + "-" + name)
				}
			}
			turns, taps := 0, 0
			deadline := time.Now().Add(150 * time.Second)
			for {
				if time.Now().After(deadline) {
					ann.fail("the game did not end in time (%d turns)", turns)
				}
				st := ann.bw()
				if st.Over {
					break
				}
				switch {
				case st.Choose:
					once("category")
					ann.do(chromedp.Click(chromedp.CSS(`button.bw-cat-btn[data-category="0"]`)))
					ann.waitVersion(st.Version + 1)
				case st.TurnTo:
					once("turn-to")
					ann.do(chromedp.Click(chromedp.CSS(`button[data-turn="a-z"]`)))
					ann.waitVersion(st.Version + 1)
				case ann.bwJudge(st):
				case st.Name:
					// Ann's turn: the whole stage is on the first screen.
					sels := []string{".bw-dice .bw-die", "#bw-word", "[data-testid=bw-send]", "[data-testid=bw-giveup]", ".bw-top .bw-phase"}
					if eval[bool](ann, `!!document.querySelector('.bw-steals')`) {
						sels = append(sels, ".bw-steals .bw-pick")
					}
					ann.inViewport("on her turn", sels...)
					if !shots["turn"] {
						ann.axeClean("Ann's turn " + tag)
					}
					once("turn")
					word, pick := "", bwPick{Die: -1}
					for _, o := range st.Picks {
						if w := wordFor(lex, st, o.Letters); w != "" && (pick.Die < 0 || o.From >= 0) {
							word, pick = w, o
						}
					}
					if word == "" {
						// No word we know fits: give up, with its confirmation.
						ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup]`)))
						ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup-yes]`)))
						ann.waitVersion(st.Version + 1)
						break
					}
					ann.typeWord(word)
					if turns%2 == 0 {
						// Tap the die: the first tap chooses it (the hint
						// asks to confirm), the second says the word.
						sel := fmt.Sprintf(`button.bw-pick[data-die="%d"]`, pick.Die)
						ann.do(chromedp.Click(chromedp.CSS(sel)))
						if h := ann.text("[data-testid=bw-hint]"); h == "" || ann.bw().Version != st.Version {
							t.Errorf("after one tap: hint %q", h)
						}
						once("die-chosen")
						ann.do(chromedp.Click(chromedp.CSS(sel)))
						taps++
					} else {
						ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-send]`)))
						if eval[bool](ann, fmt.Sprintf(`Number(document.body.dataset.version) === %d && !document.querySelector('.bw-pick.chosen')`, st.Version)) {
							// Dice of different worth fit: Say it asks which;
							// a tap and a second tap (or Enter) say it.
							once("choose")
							sel := fmt.Sprintf(`button.bw-pick[data-die="%d"]`, pick.Die)
							ann.do(chromedp.Click(chromedp.CSS(sel)))
							ann.do(chromedp.KeyEvent(kb.Enter))
						}
					}
					ann.waitVersion(st.Version + 1)
					turns++
				default:
					if st.Phase == "name" || st.Phase == "challenge" || st.Phase == "vote" {
						once("waiting-" + st.Phase)
					}
					time.Sleep(50 * time.Millisecond)
				}
			}
			ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=winner]')`)
			if turns == 0 {
				t.Error("Ann never named a word")
			}
			// The end: the renderer's per-round breakdown.
			rows := eval[int](ann, `import('/static/bookworm.js').then((m) => {
			  const v = { over: true, winners: ['Ann'], players: [{name: 'Ann', total: 9}, {name: 'Bot', total: 4}], rounds: [[5, 4], [4, 0]],
			    lastRound: {round: 2, ender: 'Ann', scores: [{dots: 4, bookwormCards: 0, special: 0, penalty: 0, total: 4}, {dots: 0, bookwormCards: 2, special: 0, penalty: -2, total: 0}]} };
			  const el = m.renderResult(v, 0);
			  document.querySelector('[data-testid=result]').append(el);
			  return el.querySelectorAll('.bw-rounds tbody tr').length; })`)
			if rows != 2 {
				t.Errorf("the per-round breakdown has %d rows, want 2", rows)
			}
			ann.axeClean("the end " + tag)
			ann.fullShot("bw-" + tag + "-end")
			ann.noExceptions()
			t.Logf("%s: %d turns, %d by tapping a die", tag, turns, taps)
		})
	}
}

// TestBookwormRejectedWord: Ann says a made-up word, Bob challenges it, the
// table votes (the board says it is a vote, with its buttons and
// countdown), Bob rejects it; Ann is told which word, why and what now.
// Then she gives up, through its confirmation. Ann is on a phone.
func TestBookwormRejectedWord(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	for _, lang := range []string{"en", "fr"} {
		t.Run(lang, func(t *testing.T) {
			t.Parallel()
			ann := bwPage(t, ts.URL, "ann-"+lang, 390, 844, lang, false)
			id := bwTable(t, ann, ts.URL, `[{"kind":"human"},{"kind":"human"}]`,
				`{thinkSeconds: 30, countdownSeconds: 20, challengeSeconds: 20, voteSeconds: 20, special: false}`)
			bob := bwPage(t, ts.URL, "bob-"+lang, 1440, 900, lang, true)
			bob.do(chromedp.Navigate(ts.URL + "/t/" + id))
			bob.joinAtTable("Bob", 1)

			// Ann is the Bookworm: she chooses; Bob names first.
			ann.waitJS(10*time.Second, `!!document.querySelector('button.bw-cat-btn')`)
			ann.do(chromedp.Click(chromedp.CSS(`button.bw-cat-btn[data-category="0"]`)))
			lex, _ := words.ForLanguage("en")
			bob.waitJS(10*time.Second, `!!document.querySelector('#bw-word')`)
			st := bob.bw()
			var w string
			var pick bwPick
			for _, o := range st.Picks {
				if w = wordFor(lex, st, o.Letters); w != "" {
					pick = o
					break
				}
			}
			if w == "" {
				w, pick = st.Picks[0].Letters[:1]+"uxx", st.Picks[0]
			}
			bob.typeWord(w)
			bob.do(chromedp.KeyEvent(kb.Enter))
			// A known word is taken at once, else Ann lets it pass.
			ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-allow]') || !!document.querySelector('#bw-word')`)
			if ann.bw().Allow {
				ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-allow]`)))
			}
			_ = pick

			// Ann's turn: a made-up word, said with Enter.
			ann.waitJS(10*time.Second, `!!document.querySelector('#bw-word')`)
			st = ann.bw()
			var made string
			var die int
			for _, o := range st.Picks {
				if o.From < 0 && o.Letters != "" {
					made, die = o.Letters[:1]+"zorbleq", o.Die
					break
				}
			}
			ann.typeWord(made)
			// A steal may offer the same letter (then Enter would ask which
			// die): the display's die is chosen on the board first.
			ann.do(chromedp.Click(chromedp.CSS(fmt.Sprintf(`button.bw-pick[data-die="%d"]`, die))))
			ann.do(chromedp.KeyEvent(kb.Enter))
			bob.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-challenge]')`)
			bob.shot("bw-judge-challenge-" + lang + "-1440x900-dark")
			bob.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-challenge]`)))

			// The vote: on the board, with buttons and the countdown.
			bob.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-reject]')`)
			ann.waitJS(10*time.Second, `document.querySelector('.bw-board')?.dataset.phase === 'vote'`)
			for _, p := range []*page{ann, bob} {
				if !eval[bool](p, `!!document.querySelector('.bw-judging .bw-clock')`) {
					t.Errorf("%s: no countdown on the vote", p.name)
				}
			}
			phase := ann.text("[data-testid=bw-phase]")
			if !strings.Contains(phase, made) || !strings.Contains(strings.ToLower(phase), map[string]string{"en": "challenged", "fr": "conteste"}[lang]) {
				t.Errorf("Ann's board during the vote says %q", phase)
			}
			status := eval[string](ann, `import('/static/bookworm.js').then((m) => m.turnText({phase: 'vote', players: [{name: 'Ann'}, {name: 'Bob'}], judging: {speaker: 'Ann', word: 'x', challenger: 'Bob'}}, {actors: [1]}, 0))`)
			if status == "" || strings.Contains(status, "Bob") && !strings.Contains(status, "x") {
				t.Errorf("turnText during the vote: %q", status)
			}
			bob.inViewport("during the vote", "[data-testid=bw-accept]", "[data-testid=bw-reject]", ".bw-judging .bw-clock")
			bob.axeClean("the vote, voter " + lang)
			ann.axeClean("the vote, speaker " + lang)
			bob.shot("bw-vote-" + lang + "-1440x900-dark")
			ann.shot("bw-vote-speaker-" + lang + "-390x844")
			bob.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-reject]`)))

			// Ann is told: which word, the vote, why, what now.
			ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-rejected]') && !!document.querySelector('#bw-word')`)
			r := ann.bw().Rejected
			want := map[string][]string{
				"en": {made, "voted down", "0 for, 1 against", "not in the dictionary", "another word"},
				"fr": {made, "refusé", "0 pour, 1 contre", "pas dans le dictionnaire", "autre mot"},
			}[lang]
			for _, s := range want {
				if !strings.Contains(r, s) {
					t.Errorf("the rejection says %q, lacking %q", r, s)
				}
			}
			ann.inViewport("after the rejection", "[data-testid=bw-rejected]", "#bw-word", ".bw-dice .bw-die", "[data-testid=bw-giveup]")
			ann.axeClean("after the rejection " + lang)
			ann.shot("bw-rejected-" + lang + "-390x844")

			// Giving up asks first; "keep looking" keeps the turn.
			v := ann.bw().Version
			ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup]`)))
			ann.waitJS(3*time.Second, `!!document.querySelector('[data-testid=bw-giveup-confirm]')`)
			ann.shot("bw-giveup-confirm-" + lang + "-390x844")
			ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup-no]`)))
			if ann.bw().Version != v || !ann.bw().Name {
				t.Error("keep looking ended the turn")
			}
			ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup]`)))
			ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup-yes]`)))
			ann.waitJS(10*time.Second, `!!document.querySelector('[data-testid=bw-last-round]')`)
			if lr := ann.text("[data-testid=bw-last-round]"); !strings.Contains(lr, "−2") {
				t.Errorf("after giving up: %q", lr)
			}
			ann.noExceptions()
			bob.noExceptions()
		})
	}
}

// TestBookwormKeyboard: Ann plays against a bot with the keyboard alone:
// the card's categories with Tab and Enter, her words typed and said with
// Enter (the cursor is in the word field when her turn comes), a die
// chosen with Tab and Space when two kinds of die fit.
func TestBookwormKeyboard(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ann := bwPage(t, ts.URL, "ann-kb", 1440, 900, "en", false)
	ann.reducedMotion()
	bwTable(t, ann, ts.URL, `[{"kind":"human"},{"kind":"bot","bot":"hard"}]`,
		`{thinkSeconds: 20, countdownSeconds: 5, challengeSeconds: 1, knownChallengeSeconds: 0, voteSeconds: 2, target: 6}`)
	lex := words.Default()
	key := func(k string) { ann.do(chromedp.KeyEvent(k)) }
	// tabTo presses Tab until the focused element matches (JavaScript).
	tabTo := func(cond string) {
		t.Helper()
		for i := 0; i < 60; i++ {
			if eval[bool](ann, cond) {
				return
			}
			key(kb.Tab)
		}
		ann.fail("Tab never reached %s", cond)
	}
	turns := 0
	deadline := time.Now().Add(120 * time.Second)
	for turns < 4 {
		if time.Now().After(deadline) {
			ann.fail("only %d turns in time", turns)
		}
		st := ann.bw()
		if st.Over {
			break
		}
		switch {
		case st.Choose:
			tabTo(`document.activeElement?.classList.contains('bw-cat-btn')`)
			key(kb.Enter)
			ann.waitVersion(st.Version + 1)
		case st.TurnTo:
			tabTo(`!!document.activeElement?.dataset.turn`)
			key(kb.Enter)
			ann.waitVersion(st.Version + 1)
		case st.Allow || st.Vote:
			sel := map[bool]string{true: "bw-allow", false: "bw-accept"}[st.Allow]
			tabTo(fmt.Sprintf(`document.activeElement?.dataset.testid === %q`, sel))
			key(kb.Enter)
			time.Sleep(100 * time.Millisecond)
		case st.Name:
			ann.waitJS(3*time.Second, `document.activeElement?.id === 'bw-word'`)
			var word string
			for _, o := range st.Picks {
				if w := wordFor(lex, st, o.Letters); w != "" {
					word = w
					break
				}
			}
			if word == "" {
				t.Logf("no word known for %v", st.Picks)
				ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup]`)))
				ann.do(chromedp.Click(chromedp.CSS(`[data-testid=bw-giveup-yes]`)))
				ann.waitVersion(st.Version + 1)
				continue
			}
			ann.do(chromedp.KeyEvent(word))
			key(kb.Enter)
			if ann.bw().Version == st.Version && eval[bool](ann, `document.activeElement?.classList.contains('bw-pick')`) {
				// Two kinds of die fit: the keyboard landed on the first;
				// Space chooses it, Enter on it says the word.
				ann.shot("bw-keyboard-choose-1440x900")
				key(" ")
				ann.waitJS(2*time.Second, `!!document.querySelector('.bw-pick.chosen')`)
				key(kb.Enter)
			}
			ann.waitVersion(st.Version + 1)
			turns++
		default:
			time.Sleep(50 * time.Millisecond)
		}
	}
	if turns == 0 {
		t.Error("no word said with the keyboard")
	}
	ann.noExceptions()
}
