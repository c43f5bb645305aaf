package all_test

import (
	"go/scanner"
	"go/token"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/engine/enginetest"
	"github.com/dicehall/dicehall/games/all"
)

// root is the repository, seen from this package.
const root = "../.."

// TestAddingAGame keeps docs/adding-a-game.md true: it lists at most six
// places outside a game's own files, and no code names a registered game
// anywhere else. A client that switches on a game's name, a page that
// imports a game's module by name, a help text listing the games: each
// fails here with the file that does it.
func TestAddingAGame(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join(root, "docs", "adding-a-game.md"))
	if err != nil {
		t.Fatal(err)
	}
	own := docPaths(t, string(doc), "## The game's own files")
	places := docPaths(t, string(doc), "## The places outside it")
	if len(places) == 0 || len(places) > 6 {
		t.Fatalf("the doc lists %d places outside a game's own files (%v); at most 6", len(places), places)
	}
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		title := g.Info().Title
		allowed := func(p string) bool {
			for _, pat := range append(append([]string(nil), own...), places...) {
				if matchPlace(strings.ReplaceAll(pat, "<id>", id), p) {
					return true
				}
			}
			return false
		}
		names := regexp.MustCompile(`(?i)\b` + regexp.QuoteMeta(id) + `\b|` + regexp.QuoteMeta(title))
		for _, p := range codeFiles(t) {
			if allowed(p) {
				continue
			}
			if loc := names.FindStringIndex(withoutComments(t, p)); loc != nil {
				t.Errorf("%s names %s, but docs/adding-a-game.md does not list %s as a place a game touches", p, id, p)
			}
		}
	}
}

// docPaths lists the paths (the first `code` of each list item) of the
// section that starts with heading.
func docPaths(t *testing.T, doc, heading string) []string {
	t.Helper()
	_, sec, ok := strings.Cut(doc, heading+"\n")
	if !ok {
		t.Fatalf("docs/adding-a-game.md has no %q section", heading)
	}
	if i := strings.Index(sec, "\n## "); i >= 0 {
		sec = sec[:i]
	}
	item := regexp.MustCompile("(?m)^(?:- |[0-9]+\\. )(.*)$")
	code := regexp.MustCompile("`([^`]+)`")
	var out []string
	for _, m := range item.FindAllStringSubmatch(sec, -1) {
		// An item names its paths before the dash that explains them.
		head, _, _ := strings.Cut(m[1], " — ")
		for _, c := range code.FindAllStringSubmatch(head, -1) {
			out = append(out, c[1])
		}
	}
	return out
}

// matchPlace reports whether file p is the place pat: a folder (ending in
// /) holds it, or the pattern matches it as a glob.
func matchPlace(pat, p string) bool {
	if strings.HasSuffix(pat, "/") {
		return strings.HasPrefix(p, pat)
	}
	ok, _ := path.Match(pat, p)
	return ok
}

// codeFiles lists the repository's code that ships (Go, scripts, pages,
// styles, SQL), as slash paths from the root. Tests and the packages that
// exist for tests name games as sample data; they are not places a game
// touches.
func codeFiles(t *testing.T) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			switch name := d.Name(); {
			case rel == ".":
				return nil
			case strings.HasPrefix(name, "."), name == "node_modules", name == "testdata",
				strings.HasSuffix(name, "test"), name == "e2e", rel == "internal/pig":
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(rel, "_test.go") {
			return nil
		}
		switch path.Ext(rel) {
		case ".go", ".js", ".css", ".html", ".sql":
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(out) < 50 {
		t.Fatalf("only %d code files under %s: wrong root?", len(out), root)
	}
	return out
}

var jsComment = regexp.MustCompile(`(?s)/\*.*?\*/|(?m)(^|[^:'"\\])//.*$`)

// withoutComments is a file's code: comments may mention a game as an
// example without making the file a place it touches.
func withoutComments(t *testing.T, rel string) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(root, rel))
	if err != nil {
		t.Fatal(err)
	}
	if path.Ext(rel) != ".go" {
		return jsComment.ReplaceAllString(string(src), "$1")
	}
	var s scanner.Scanner
	fset := token.NewFileSet()
	s.Init(fset.AddFile(rel, -1, len(src)), src, nil, 0)
	var b strings.Builder
	for {
		_, tok, lit := s.Scan()
		if tok == token.EOF {
			return b.String()
		}
		if lit == "" {
			lit = tok.String()
		}
		b.WriteString(lit)
		b.WriteByte(' ')
	}
}

// Every game introduces itself in one line: the lobby's card and `dicehall
// games` show the catalogue's "<id>.pitch".
func TestPitch(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		if p := g.Info().Messages[id+".pitch"]; len(p) < 20 || len(p) > 140 {
			t.Errorf("%s: pitch %q: want one line of 20 to 140 characters in messages.json", id, p)
		}
	}
}

// Every event of every game is narrated from the game's own catalogue: no
// key is missing and no argument is left unfilled, in games its bots play
// to the end (one-player mode too, where there is one).
func TestNarrationFromCatalogue(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		info := g.Info()
		provider, ok := g.(engine.BotProvider)
		if !ok {
			continue
		}
		t.Run(id, func(t *testing.T) {
			for _, n := range []int{info.MinPlayers, min(3, info.MaxPlayers)} {
				players := []string{"ann", "bob", "cy", "di", "eve", "fay"}[:n]
				st, err := g.New(players, nil)
				if err != nil {
					t.Fatal(err)
				}
				bots := make([]engine.Controller, n)
				for p := range bots {
					if bots[p], err = provider.NewBot(info.DefaultBot, uint64(p+1)); err != nil {
						t.Fatal(err)
					}
				}
				seen := map[string]bool{}
				err = engine.PlayBots(st, bots, engine.NewSource(uint64(n)), func(_ engine.Move, evs []engine.Event, _ []engine.Move) {
					for _, e := range evs {
						for _, m := range engine.Narrate(g, e, players) {
							line := engine.Render(info.Messages, m)
							if info.Messages[m.Key] == "" || strings.ContainsAny(line, "{}") {
								t.Errorf("%d players: event %s narrates as %q (key %q)", n, e.Kind, line, m.Key)
							}
							seen[m.Key] = true
						}
					}
				})
				if err != nil {
					t.Fatal(err)
				}
				if len(seen) < 3 {
					t.Errorf("%d players: a whole game narrated with only %v", n, seen)
				}
			}
		})
	}
}

// Every game explains itself: its rules exist in every language, name only
// examples it builds, and the examples replay legally (enginetest.CheckRules).
// The languages tell the same rules: as many sections and pictures in each.
func TestRulebooks(t *testing.T) {
	for _, id := range all.Registry.IDs() {
		g, _ := all.Registry.Lookup(id)
		t.Run(id, func(t *testing.T) {
			enginetest.CheckRules(t, g)
			book, ok := g.(engine.Rulebook)
			if !ok {
				return
			}
			shape := func(lang string) (h2, examples int) {
				text, _ := book.Rules(lang)
				for _, b := range engine.ParseRules(text) {
					switch b.Kind {
					case "h2":
						h2++
					case "example":
						examples++
					}
				}
				return h2, examples
			}
			h0, x0 := shape(engine.RulesLangs[0])
			for _, lang := range engine.RulesLangs[1:] {
				if h, x := shape(lang); h != h0 || x != x0 {
					t.Errorf("%s has %d sections and %d examples in %s, %d and %d in %s", id, h, x, lang, h0, x0, engine.RulesLangs[0])
				}
			}
		})
	}
}
