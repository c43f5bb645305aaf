package server

import (
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/all"
	"github.com/dicehall/dicehall/internal/pig"
)

// GET /api/games/{id}/rules answers every game's rules in both languages,
// parsed, with a view for every example the text draws; /rules/{id} is the
// page, under the same security headers as every page.
func TestRules(t *testing.T) {
	files := fstest.MapFS{"rules.html": {Data: []byte(`<script type="module" src="/static/rules.js"></script>`)}}
	reg := &engine.Registry{}
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		reg.Register(g)
	}
	reg.Register(pig.Game{}) // a game without a rulebook
	ts := startServer(t, Config{Static: files, Games: reg})
	p := newPlayer(t, ts)
	for _, id := range all.Registry.IDs() {
		for _, lang := range []string{"en", "fr"} {
			var got struct {
				Title    string
				Lang     string
				Text     string
				Blocks   []engine.RulesBlock
				Examples map[string]struct {
					View    map[string]any
					Seat    engine.Seat
					Players []string
				}
			}
			if st := p.do("GET", "/api/games/"+id+"/rules?lang="+lang, nil, &got); st != 200 {
				t.Fatalf("%s %s: status %d", id, lang, st)
			}
			g, _ := reg.Lookup(id)
			if got.Title != g.Info().Title || got.Lang != lang || got.Text == "" || len(got.Blocks) < 5 {
				t.Errorf("%s %s: %q %q, %d blocks", id, lang, got.Title, got.Lang, len(got.Blocks))
			}
			names := engine.RulesExamples(got.Blocks)
			if len(names) == 0 || len(got.Examples) != len(names) {
				t.Errorf("%s %s: examples %v, answered %d", id, lang, names, len(got.Examples))
			}
			for _, n := range names {
				x := got.Examples[n]
				if len(x.View) == 0 || len(x.Players) == 0 || int(x.Seat) >= len(x.Players) {
					t.Errorf("%s %s example %s: %+v", id, lang, n, x)
				}
			}
		}
	}
	var def struct{ Lang string }
	if st := p.do("GET", "/api/games/dicestars/rules", nil, &def); st != 200 || def.Lang != "en" {
		t.Errorf("no lang: %d %q", st, def.Lang)
	}
	for path, want := range map[string]int{
		"/api/games/dicestars/rules?lang=de":  400,
		"/api/games/dicestars/rules?lang=../": 400,
		"/api/games/nosuch/rules":             404,
		"/api/games/pig/rules":                404,
	} {
		if st := p.do("GET", path, nil, nil); st != want {
			t.Errorf("%s: %d, want %d", path, st, want)
		}
	}
	get := func(path string) (*http.Response, string) {
		t.Helper()
		resp, err := http.Get(ts.http.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp, string(body)
	}
	resp, body := get("/rules/dicestars")
	if resp.StatusCode != 200 || !strings.Contains(body, "rules.js") ||
		!strings.Contains(resp.Header.Get("Content-Security-Policy"), "style-src 'self'") {
		t.Errorf("rules page: %d %q %v", resp.StatusCode, body, resp.Header)
	}
	for _, path := range []string{"/rules/nosuch", "/rules/pig", "/rules/", "/rules/dicestars/x"} {
		if resp, _ := get(path); resp.StatusCode != 404 {
			t.Errorf("%s: %d, want 404", path, resp.StatusCode)
		}
	}
}
