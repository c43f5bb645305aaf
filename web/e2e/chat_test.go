package e2e

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// chatSay types a line in the page's chat and sends it with Enter.
func (p *page) chatSay(text string) {
	p.t.Helper()
	p.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-input]`), text+"\r"))
}

// chatLines is the text of the chat lines the page shows.
func (p *page) chatLines() []string {
	p.t.Helper()
	return eval[[]string](p, `[...document.querySelectorAll('[data-testid=chat-list] .chat-line')].map((l) => l.textContent)`)
}

func (p *page) waitChat(n int, last string) {
	p.t.Helper()
	p.waitJS(10*time.Second, fmt.Sprintf(`(() => { const l = [...document.querySelectorAll('[data-testid=chat-list] .chat-line .chat-text')];
	  return l.length === %d && l[l.length - 1].textContent === %q; })()`, n, last))
}

// TestTableChat: a player and a spectator talk at a table; the chat is
// plain text, apart from the log; a mute hides a sender and lasts; a reload
// keeps the chat; on a phone it waits folded below the stage. The board
// stays in view on the player's turn.
func TestTableChat(t *testing.T) {
	t.Parallel()
	ts := startServer(t)
	ann := newPage(t, "chat-ann")
	ann.do(chromedp.EmulateViewport(1440, 900))
	id := ann.vsBot(ts.URL, "Ann", 10000) // Ann is first to play, and does not
	carol := newPage(t, "chat-carol")
	carol.do(chromedp.EmulateViewport(1440, 900))
	carol.do(chromedp.Navigate(ts.URL + "/t/" + id))
	carol.waitJS(10*time.Second, `document.body.dataset.seat === '-3' && !!document.querySelector('[data-testid=chat-name]') && !document.querySelector('.chat-name-field').hidden`)

	// Markup is text; the counter counts.
	ann.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-input]`), "hi <b>all</b>"))
	if c := ann.text(`[data-testid=chat-count]`); c != "13/300" {
		t.Errorf("counter %q", c)
	}
	ann.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-input]`), "\r"))
	for _, p := range []*page{ann, carol} {
		p.waitChat(1, "hi <b>all</b>")
		if n := eval[int](p, `document.querySelectorAll('[data-testid=chat-list] b').length`); n != 0 {
			t.Errorf("%s: the chat made %d <b> elements", p.name, n)
		}
	}
	if v := eval[string](ann, `document.querySelector('[data-testid=chat-input]').value`); v != "" {
		t.Errorf("the field keeps %q after sending", v)
	}
	// The log and the chat stay apart.
	if s := ann.text(`[data-testid=log]`); strings.Contains(s, "<b>") {
		t.Errorf("the chat is in the log: %q", s)
	}

	// The spectator writes under a name; a player's name is refused, as a
	// toast, and the line comes back to the field.
	carol.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-name]`), "Ann"))
	carol.chatSay("me again")
	carol.waitJS(5*time.Second, `!document.querySelector('[data-testid=alert]').hidden && document.querySelector('[data-testid=alert]').textContent.includes('name of a player')`)
	carol.waitJS(3*time.Second, `document.querySelector('[data-testid=chat-input]').value === 'me again'`)
	eval[bool](carol, `(document.querySelector('[data-testid=chat-name]').value = '', document.querySelector('[data-testid=chat-input]').value = '', true)`)
	carol.do(chromedp.SendKeys(chromedp.CSS(`[data-testid=chat-name]`), "Carol"))
	carol.chatSay("good luck, Ann")
	ann.waitChat(2, "good luck, Ann")
	if s := ann.text(`[data-testid=chat-list] .chat-line.spectator`); !strings.Contains(s, "Carol") || !strings.Contains(s, "watching") {
		t.Errorf("the spectator's line: %q", s)
	}
	ann.chatSay("thanks")
	carol.waitChat(3, "thanks")
	ann.dsMyTurn()
	ann.dsFits("Ann's turn with the chat, 1440x900")
	ann.shot("chat-1440x900-ann")
	carol.shot("chat-1440x900-carol")
	ann.axeClean("the table with a chat, 1440x900")

	// Ann mutes Carol: her line goes, a note says so; it lasts a reload.
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=chat-list] .chat-line.spectator [data-mute]`)))
	ann.waitJS(3*time.Second, `document.querySelectorAll('[data-testid=chat-list] .chat-line').length === 2 && !!document.querySelector('[data-testid=chat-muted]')`)
	if s := ann.text(`[data-testid=chat-muted]`); !strings.Contains(s, "1 message muted") || !strings.Contains(s, "Show Carol") {
		t.Errorf("the muted note: %q", s)
	}
	carol.chatSay("can you hear me?")
	carol.waitChat(4, "can you hear me?")
	ann.waitJS(5*time.Second, `document.querySelector('[data-testid=chat-muted]')?.textContent.includes('2 messages muted')`)
	ann.do(chromedp.Reload())
	ann.waitJS(10*time.Second, `document.querySelectorAll('[data-testid=chat-list] .chat-line').length === 2 && document.querySelector('[data-testid=chat-muted]')?.textContent.includes('2 messages muted')`)
	if got := ann.chatLines(); len(got) != 2 || !strings.Contains(got[0], "hi <b>all</b>") || !strings.Contains(got[1], "thanks") {
		t.Errorf("after a reload: %q", got)
	}
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=chat-muted] [data-unmute]`)))
	ann.waitChat(4, "can you hear me?")

	// On a phone the chat waits folded below the stage, and counts what
	// is new; the board stays in view.
	ann.do(chromedp.EmulateViewport(390, 844))
	ann.do(chromedp.Reload())
	ann.waitJS(10*time.Second, `document.querySelector('[data-testid=chat-toggle]')?.getAttribute('aria-expanded') === 'false'`)
	carol.chatSay("over to you")
	ann.waitJS(5*time.Second, `document.querySelector('[data-testid=chat-toggle]').textContent.includes('Chat (1 new)')`)
	ann.dsMyTurn()
	ann.dsFits("Ann's turn with the chat, 390x844")
	ann.shot("chat-390x844-ann")
	ann.do(chromedp.Click(chromedp.CSS(`[data-testid=chat-toggle]`)))
	ann.waitChat(5, "over to you")
	ann.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=chat]`)))
	ann.shot("chat-390x844-ann-open")
	ann.axeClean("the chat open on a phone")
	ann.noExceptions()
	carol.noExceptions()

	// The replay shows what was said by the step it shows. A table of bots
	// plays itself out at once; Carol, watching, says a word at its end.
	carol.do(chromedp.EmulateViewport(1440, 900))
	bots := carol.createTable(`{game: 'dicestars', settings: {botDelayMs: 0}, seats: [{kind: 'bot', bot: 'random'}, {kind: 'bot', bot: 'random'}]}`)
	carol.do(chromedp.Navigate(ts.URL + "/t/" + bots))
	carol.waitJS(20*time.Second, `document.body.dataset.status === 'over' && !!document.querySelector('[data-testid=chat-input]')`)
	carol.chatSay("what a game")
	carol.waitChat(1, "what a game")
	carol.do(chromedp.Reload())
	carol.waitJS(10*time.Second, `/Step 0 of \d+/.test(document.querySelector('[data-testid=replay-step]')?.textContent || '')`)
	if s := carol.text(`[data-testid=replay-chat]`); strings.Contains(s, "what a game") {
		t.Errorf("the replay's first step shows a line said at the end: %q", s)
	}
	carol.do(chromedp.Click(chromedp.CSS(`[data-testid=replay-end]`)))
	carol.waitJS(5*time.Second, `document.querySelector('[data-testid=replay-chat]').textContent.includes('what a game')`)
	carol.do(chromedp.ScrollIntoView(chromedp.CSS(`[data-testid=replay-chat]`)))
	carol.shot("chat-replay-1440x900")

	// A table whose chat is for its players: a spectator reads, and is told.
	quiet := carol.createTable(`{game: 'dicestars', settings: {chat: 'players'}, seats: [{kind: 'bot', bot: 'random'}, {kind: 'bot', bot: 'random'}]}`)
	carol.do(chromedp.Navigate(ts.URL + "/t/" + quiet))
	carol.waitJS(10*time.Second, `!!document.body.dataset.status && !document.querySelector('[data-testid=chat-closed]').hidden && document.querySelector('.chat-form').hidden`)
	if s := carol.text(`[data-testid=chat-closed]`); s != "Only the players can write in this chat." {
		t.Errorf("players-only note: %q", s)
	}
	carol.noExceptions()
}
