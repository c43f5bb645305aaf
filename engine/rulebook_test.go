package engine_test

import (
	"encoding/json"
	"reflect"
	"testing"
	"testing/fstest"

	"github.com/dicehall/dicehall/engine"
)

func TestParseRules(t *testing.T) {
	text := "## The **turn**\n\nFirst line\nsecond line.\n\n- one\n  more of one\n- **two**\n1. first\n2. second\n\n{{example worked}}\n### Small\nA ** lone mark.\n{{example not closed}\n"
	got := engine.ParseRules(text)
	sp := func(s string) []engine.Span { return []engine.Span{{Text: s}} }
	want := []engine.RulesBlock{
		{Kind: "h2", Spans: []engine.Span{{Text: "The "}, {Text: "turn", Bold: true}}},
		{Kind: "p", Spans: sp("First line second line.")},
		{Kind: "ul", Items: [][]engine.Span{sp("one more of one"), {{Text: "two", Bold: true}}}},
		{Kind: "ol", Items: [][]engine.Span{sp("first"), sp("second")}},
		{Kind: "example", Example: "worked"},
		{Kind: "h3", Spans: sp("Small")},
		{Kind: "p", Spans: sp("A ** lone mark. {{example not closed}")},
	}
	if !reflect.DeepEqual(got, want) {
		g, _ := json.MarshalIndent(got, "", " ")
		t.Fatalf("got %s", g)
	}
	if ex := engine.RulesExamples(append(got, got...)); !reflect.DeepEqual(ex, []string{"worked"}) {
		t.Fatalf("examples %v", ex)
	}
}

func TestRulesFS(t *testing.T) {
	fsys := fstest.MapFS{
		"rules/en.md":    {Data: []byte("## Hi\n")},
		"rules/a.json":   {Data: []byte(`{"seat":1,"record":{"game":"g","players":["a","b"],"moves":[]}}`)},
		"rules/bad.json": {Data: []byte(`{`)},
	}
	r := engine.RulesFS{FS: fsys, Dir: "rules"}
	if s, ok := r.Rules("en"); !ok || s != "## Hi\n" {
		t.Fatalf("en: %q %v", s, ok)
	}
	for _, lang := range []string{"fr", "../rules/en", "EN", ""} {
		if _, ok := r.Rules(lang); ok {
			t.Errorf("rules in %q", lang)
		}
	}
	if x, ok := r.Example("a"); !ok || x.Seat != 1 || x.Record.Game != "g" {
		t.Fatalf("example a: %+v %v", x, ok)
	}
	for _, name := range []string{"bad", "none", "../a", "en"} {
		if _, ok := r.Example(name); ok {
			t.Errorf("example %q", name)
		}
	}
}
