package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/dicestars"
	"github.com/dicehall/dicehall/web"
)

// renderPage shows one view with the Dice Stars module alone, without a
// server: it checks the sheet, the reserve and the choices against the
// engine's own view, at desktop and phone sizes.
const renderPage = `<!doctype html><html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/static/style.css">
<link rel="stylesheet" href="/static/dicestars.css"></head>
<body><main id="app" class="page table"><div class="table-layout"><div class="main-col">
<div id="actions"></div><div id="board"></div></div></div></main>
<script type="module">
import * as ds from '/static/dicestars.js';
import * as i18n from '/static/i18n.js';
window.sent = [];
window.show = (view, seat) => {
  const act = (x) => window.sent.push(x);
  const redraw = () => {
    document.getElementById('board').replaceChildren(ds.renderBoard(view, { seat, act, canAct: true, redraw }));
    const a = ds.renderActions(view, act, { redraw });
    document.getElementById('actions').replaceChildren(...(a ? [a] : []));
  };
  redraw();
  return true;
};
window.result = (view, seat) => {
  document.getElementById('board').replaceChildren(ds.renderResult(view, seat));
  return true;
};
window.setLang = (l) => i18n.setLang(l);
window.ready = true;
</script></body></html>`

func staticServer(t *testing.T) *httptest.Server {
	mux := http.NewServeMux()
	mux.Handle("/static/", http.StripPrefix("/static/", http.FileServerFS(web.Static())))
	mux.HandleFunc("/render", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, renderPage)
	})
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	return ts
}

// midGame plays seeded greedy bots until seat 0 is to take with stars in the
// reserve, some turns in: a view with every part of the sheet in use.
func midGame(t *testing.T, names []string) *dicestars.Match {
	for seed := uint64(1); seed < 200; seed++ {
		m, err := dicestars.NewMatch(names, nil)
		if err != nil {
			t.Fatal(err)
		}
		src := engine.NewSource(seed)
		bots := make([]dicestars.Bot, len(names))
		for i := range bots {
			bots[i], _ = dicestars.NewBot("random", seed+uint64(i))
		}
		for step := 0; step < 400 && !m.S.Over(); step++ {
			tr := m.Turn()
			if tr.Chance {
				if _, err := m.Apply(engine.Move{Seat: engine.ChanceSeat, Action: m.SampleChance(src)}); err != nil {
					t.Fatal(err)
				}
				continue
			}
			if m.S.Turns >= 14 && m.S.Current == 0 && m.S.Phase == dicestars.PhaseTake {
				for _, d := range m.S.ReserveDice() {
					if d.IsStar() {
						return m
					}
				}
			}
			a := bots[m.S.Current].Decide(&m.S)
			if _, err := m.Apply(engine.Move{Seat: engine.Seat(m.S.Current), Action: a}); err != nil {
				t.Fatal(err)
			}
		}
	}
	t.Fatal("no seed gave a mid-game take with stars")
	return nil
}

func TestRenderSheet(t *testing.T) {
	t.Parallel()
	ts := staticServer(t)
	evil := `<img src=x onerror="window.pwned=1">`
	m := midGame(t, []string{"ann", evil})
	view := m.SeatView(0)
	raw, err := json.Marshal(view)
	if err != nil {
		t.Fatal(err)
	}

	p := newPage(t, "render")
	p.do(chromedp.Navigate(ts.URL + "/render"))
	p.waitJS(5*time.Second, `window.ready === true`)
	eval[bool](p, fmt.Sprintf(`window.show(%s, 0)`, raw))

	// Every cell of every sheet shows what the engine wrote.
	for pi, pl := range view.Players {
		for _, row := range pl.Rows {
			got := eval[[]string](p, fmt.Sprintf(
				`[...document.querySelectorAll('[data-seat="%d"] tr[data-row="%d"] td[data-cell]')].map(c => c.textContent)`, pi, row.Value))
			want := make([]string, len(row.Cells))
			for i, c := range row.Cells {
				want[i] = strings.ReplaceAll(c, "X", "✕")
			}
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Errorf("seat %d row %d cells = %q, want %q", pi, row.Value, got, want)
			}
			marked := eval[int](p, fmt.Sprintf(`document.querySelectorAll('[data-seat="%d"] tr[data-row="%d"] td.mult.on').length`, pi, row.Value))
			if marked != row.Marked {
				t.Errorf("seat %d row %d: %d multipliers marked on the page, %d in the game", pi, row.Value, marked, row.Marked)
			}
		}
		total := eval[string](p, fmt.Sprintf(`document.querySelector('[data-seat="%d"] [data-testid=total]').textContent`, pi))
		if total != fmt.Sprint(pl.Total) {
			t.Errorf("seat %d total %q, want %d", pi, total, pl.Total)
		}
	}

	// A name is text, never markup.
	if n := eval[int](p, `document.querySelectorAll('#board img').length`); n != 0 {
		t.Errorf("a player's name became %d img elements", n)
	}
	if got := eval[string](p, `document.querySelector('[data-seat="1"] .pname').textContent`); got != evil {
		t.Errorf("name shown as %q", got)
	}
	if eval[bool](p, `window.pwned === 1`) {
		t.Error("a player's name ran script")
	}

	// Dice are told apart by more than colour: a shape and words.
	labels := eval[[]string](p, `[...document.querySelectorAll('[data-testid=reserve] .die')].map(d => d.getAttribute('aria-label') + '|' + d.querySelector('.die-mark').textContent)`)
	if len(labels) != len(view.Reserve) {
		t.Fatalf("%d dice shown, reserve has %d", len(labels), len(view.Reserve))
	}
	shapes := map[string]string{"black": "●", "purple": "▲", "blue": "■", "orange": "◆"}
	for i, d := range view.Reserve {
		color, face, _ := strings.Cut(d, ":")
		if face == "star" {
			face = "a star"
		}
		want := fmt.Sprintf("%s die showing %s|%s", color, face, shapes[color])
		if labels[i] != want {
			t.Errorf("die %d: %q, want %q", i, labels[i], want)
		}
	}

	// Every legal action has a legal button, and clicking sends exactly it.
	legal := eval[[]string](p, `[...document.querySelectorAll('button[data-legal=true]')].map(b => b.dataset.action)`)
	wantLegal := map[string]bool{}
	hasStars := false
	for _, a := range view.Legal {
		b, _ := json.Marshal(a)
		if strings.Contains(string(b), `"stars"`) {
			hasStars = true
			continue
		}
		wantLegal[string(b)] = true
	}
	for _, s := range legal {
		if strings.Contains(s, `"stars"`) {
			if !hasStars {
				t.Errorf("stars button marked legal but stars are not legal")
			}
			continue
		}
		if !wantLegal[s] {
			t.Errorf("button %s marked legal, the engine disagrees", s)
		}
		delete(wantLegal, s)
	}
	for s := range wantLegal {
		t.Errorf("legal action %s has no legal button", s)
	}
	// The first click previews (nothing is sent), the second plays.
	first := eval[string](p, `document.querySelector('button[data-legal=true]').dataset.action`)
	p.do(chromedp.Click(chromedp.CSS(`button[data-legal=true]`)))
	if sent := eval[string](p, `JSON.stringify(window.sent)`); sent != "[]" {
		t.Errorf("the first click sent %s: it should only preview", sent)
	}
	p.waitJS(2*time.Second, `!!document.querySelector('[data-testid=preview]') && document.querySelectorAll('.sheet.mine .cell.pv').length > 0`)
	p.shot("render-preview")
	p.do(chromedp.Click(chromedp.CSS(`button[data-legal=true]`)))
	if sent := eval[string](p, `JSON.stringify(window.sent)`); sent != "["+first+"]" {
		t.Errorf("clicking twice sent %s, want [%s]", sent, first)
	}

	p.shot("render-desktop")
	p.fullShot("render-desktop-full")
	p.do(chromedp.EmulateViewport(390, 844))
	p.fullShot("render-phone-full")

	// The end screen's breakdown: a column per player, a line per row and
	// the totals the sheets show.
	eval[bool](p, fmt.Sprintf(`window.result(%s, 0)`, raw))
	totals := eval[[]string](p, `[...document.querySelectorAll('[data-testid=ds-result] tr.total td')].map((c) => c.textContent)`)
	for i, pl := range view.Players {
		if i >= len(totals) || totals[i] != fmt.Sprint(pl.Total) {
			t.Errorf("breakdown totals %q, want seat %d = %d", totals, i, pl.Total)
		}
	}
	if n := eval[int](p, `document.querySelectorAll('[data-testid=ds-result] tbody tr').length`); n != 5+4 {
		t.Errorf("breakdown has %d lines, want 5 rows + bonus, stars, penalty, total", n)
	}
	p.shot("render-result")
	eval[bool](p, fmt.Sprintf(`window.show(%s, 0)`, raw))

	// French: the same board in the other language.
	eval[any](p, `window.setLang('fr')`)
	eval[bool](p, fmt.Sprintf(`window.show(%s, 0)`, raw))
	fr := eval[string](p, `document.querySelector('[data-testid=reserve] .die').getAttribute('aria-label')`)
	if !strings.HasPrefix(fr, "dé ") {
		t.Errorf("French die label %q", fr)
	}
	p.fullShot("render-phone-fr")
	p.noExceptions()
}
