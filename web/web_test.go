package web

import (
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The two dictionaries of i18n.js must name the same keys, and every key
// the pages look up must exist: a missing French sentence would show a key.
func TestDictionariesMatch(t *testing.T) {
	src := read(t, "i18n.js")
	en := src[strings.Index(src, "const en = {"):strings.Index(src, "const fr = {")]
	fr := src[strings.Index(src, "const fr = {"):strings.Index(src, "const dicts")]
	key := regexp.MustCompile(`(?m)^  '([^']+)':`)
	keys := func(s string) []string {
		var out []string
		for _, m := range key.FindAllStringSubmatch(s, -1) {
			out = append(out, m[1])
		}
		slices.Sort(out)
		return out
	}
	ek, fk := keys(en), keys(fr)
	if len(ek) < 100 {
		t.Fatalf("found only %d English keys: did the dictionary format change?", len(ek))
	}
	if !slices.Equal(ek, fk) {
		for _, k := range ek {
			if !slices.Contains(fk, k) {
				t.Errorf("French lacks %q", k)
			}
		}
		for _, k := range fk {
			if !slices.Contains(ek, k) {
				t.Errorf("English lacks %q", k)
			}
		}
	}
	use := regexp.MustCompile(`\bt\('([a-z][\w.-]*[\w])'`)
	for _, f := range []string{"home.js", "table.js", "replay.js", "dicestars.js", "bookworm.js", "diceflick.js"} {
		for _, m := range use.FindAllStringSubmatch(read(t, f), -1) {
			if !slices.Contains(ek, m[1]) {
				t.Errorf("%s looks up %q, which no dictionary has", f, m[1])
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
	ref := regexp.MustCompile(`(?:from |import\(|src=|href=)['"](/static/[^'"]+)['"]`)
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
