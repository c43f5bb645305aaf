package web

import (
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/all"
)

// i18n.js has the English and French of the pages, and each game's
// <id>.messages.js those of its renderer and the French of its catalogue;
// the English of the games' own keys (options, bots, narration) is each
// game's catalogue (Info.Messages, served by /api/games). So French must name
// exactly the pages' English keys and every game's keys, with the same
// placeholders, and every key the pages look up must exist somewhere: a
// missing French sentence would show a key.
func TestDictionariesMatch(t *testing.T) {
	en, fr := dictionaries(t)
	if len(en) < 100 {
		t.Fatalf("found only %d English keys: did the dictionary format change?", len(en))
	}
	games := map[string]string{} // key -> English, from every game's catalogue
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		for k, v := range g.Info().Messages {
			games[k] = v
			if _, dup := en[k]; dup {
				t.Errorf("%q is both in i18n.js's English and in %s's catalogue: say it once", k, id)
			}
		}
	}
	english := func(k string) (string, bool) {
		if v, ok := en[k]; ok {
			return v, true
		}
		v, ok := games[k]
		return v, ok
	}
	field := regexp.MustCompile(`\{([^{}:@]+)(?:@[^{}:]+)?(?::[^{}]*)?\}`) // {name}, {name@prefix}, {n:one:other}
	fields := func(s string) []string {
		var out []string
		for _, m := range field.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return slices.Compact(out)
	}
	for _, k := range slices.Sorted(maps.Keys(fr)) {
		e, ok := english(k)
		if !ok {
			t.Errorf("French has %q, which has no English (neither in i18n.js nor in a game's catalogue)", k)
			continue
		}
		if _, isGame := games[k]; isGame && !slices.Equal(fields(e), fields(fr[k])) {
			t.Errorf("%q: French fills %v, the game's English %v", k, fields(fr[k]), fields(e))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(en)) {
		if _, ok := fr[k]; !ok {
			t.Errorf("French lacks %q", k)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(games)) {
		if _, ok := fr[k]; !ok {
			t.Errorf("French lacks the game key %q (%q)", k, games[k])
		}
	}
	use := regexp.MustCompile(`\bt\('([a-z][\w.-]*[\w])'`)
	pages, err := fs.Glob(Static(), "*.js")
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range pages {
		for _, m := range use.FindAllStringSubmatch(read(t, f), -1) {
			if _, ok := english(m[1]); !ok {
				t.Errorf("%s looks up %q, which no dictionary has", f, m[1])
			}
		}
	}
}

// dictionaries reads the English and the French of i18n.js and of every
// game's messages module.
func dictionaries(t *testing.T) (en, fr map[string]string) {
	t.Helper()
	var enSrc, frSrc string
	for _, f := range dictionaryFiles(t) {
		src := read(t, f)
		enAt, frAt := strings.Index(src, "const en = {"), strings.Index(src, "const fr = {")
		if enAt < 0 || frAt < enAt {
			t.Fatalf("%s: no English then French dictionary", f)
		}
		enSrc += src[enAt:frAt]
		frSrc += src[frAt:]
	}
	entry := regexp.MustCompile(`(?m)^  '([^']+)': (?:'((?:[^'\\]|\\.)*)'|"([^"]*)"),?$`)
	dict := func(s string) map[string]string {
		out := map[string]string{}
		for _, m := range entry.FindAllStringSubmatch(s, -1) {
			out[m[1]] = m[2] + m[3]
		}
		return out
	}
	return dict(enSrc), dict(frSrc)
}

// dictionaryFiles is i18n.js and every game's messages module.
func dictionaryFiles(t *testing.T) []string {
	t.Helper()
	games, err := fs.Glob(Static(), "*.messages.js")
	if err != nil || len(games) == 0 {
		t.Fatalf("no game messages modules (%v)", err)
	}
	return append([]string{"i18n.js"}, games...)
}

// Only a game's own renderer module, and the map from game IDs to those
// modules (games.js), may name a game: the lobby, the table, the replay
// and the dictionaries work from the games' descriptions.
func TestPagesNameNoGame(t *testing.T) {
	for _, f := range []string{"home.js", "table.js", "replay.js", "rules.js", "i18n.js", "api.js", "dom.js", "players.js", "leaderboard.js", "profile.js"} {
		src := read(t, f)
		for _, id := range all.Registry.IDs() {
			for _, q := range []string{"'" + id + "'", `"` + id + `"`, "`" + id + "`", "=== " + id} {
				if strings.Contains(src, q) {
					t.Errorf("%s names the game %s (%s)", f, id, q)
				}
			}
		}
	}
}

// Pages build the DOM with textContent only, so names and messages from
// other people can never become markup.
func TestNoHTMLInjectionSinks(t *testing.T) {
	sinks := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function`)
	err := fs.WalkDir(Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".js") {
			return err
		}
		if m := sinks.FindString(read(t, path)); m != "" {
			t.Errorf("%s uses %s", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Every module a page or module imports is in the embedded tree.
func TestImportsResolve(t *testing.T) {
	ref := regexp.MustCompile(`(?:from |import\(|import |src=|href=)['"](/static/[^'"]+)['"]`)
	err := fs.WalkDir(Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		for _, m := range ref.FindAllStringSubmatch(read(t, path), -1) {
			if _, err := fs.Stat(Static(), strings.TrimPrefix(m[1], "/static/")); err != nil {
				t.Errorf("%s refers to %s, which is not embedded", path, m[1])
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := fs.ReadFile(Static(), name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
