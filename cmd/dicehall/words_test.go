package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/games/bookworm/words"
)

// dicehall words check judges each word: fits (the lexicon knows it),
// unknown (a real word, not in the category's list), not-a-word.
func TestWordsCheck(t *testing.T) {
	out, code := runDicehall(t, "", "words", "check", "--category", "animals", "Cow", "table", "sxqzt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	want := []string{
		`{"word":"Cow","category":"animals","verdict":"fits"}`,
		`{"word":"table","category":"animals","verdict":"unknown"}`,
		`{"word":"sxqzt","category":"animals","verdict":"not-a-word"}`,
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
}

// In French the same categories take French words: souris is an animal,
// chaise a real word that is not one, and English words are not French.
func TestWordsCheckFrench(t *testing.T) {
	out, code := runDicehall(t, "", "words", "check", "--category", "animals", "--lang", "fr", "souris", "Chevaux", "chaise", "sxqzt")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	want := []string{
		`{"word":"souris","category":"animals","verdict":"fits"}`,
		`{"word":"Chevaux","category":"animals","verdict":"fits"}`,
		`{"word":"chaise","category":"animals","verdict":"unknown"}`,
		`{"word":"sxqzt","category":"animals","verdict":"not-a-word"}`,
	}
	if got := strings.Split(strings.TrimSpace(out), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", out, strings.Join(want, "\n"))
	}
	out, code = runDicehall(t, "", "words", "categories", "--lang", "fr")
	if code != 0 || !strings.Contains(out, `"id":"animals","name":"Animaux"`) {
		t.Errorf("French categories (exit %d): %.300s", code, out)
	}
}

func TestWordsRefusals(t *testing.T) {
	for _, args := range [][]string{
		{"words", "check", "cow"},                       // no category
		{"words", "check", "--category", "nope", "cow"}, // unknown category
		{"words", "check", "--category", "animals"},     // no word
		{"words", "list", "--category", "animals", "--lang", "de"},
		{"words", "categories", "--game", "dicestars"}, // not a word game
	} {
		if out, code := runDicehall(t, "", args...); code == 0 {
			t.Errorf("%v: exit 0, want a refusal: %s", args, out)
		}
	}
}

func TestWordsListAndCategories(t *testing.T) {
	out, code := runDicehall(t, "", "words", "list", "--category", "farm_animals")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	got := strings.Split(strings.TrimSpace(out), "\n")
	if want := words.Default().Words("farm_animals"); strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("list: %d words, the lexicon has %d", len(got), len(want))
	}
	out, code = runDicehall(t, "", "words", "categories")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, out)
	}
	n := 0
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var c struct {
			ID, Name, Level string
			Card, Words     int
		}
		if err := json.Unmarshal([]byte(line), &c); err != nil {
			t.Fatalf("%q: %v", line, err)
		}
		if _, ok := words.Lookup(c.ID); !ok || c.Words == 0 || c.Card == 0 {
			t.Errorf("bad category line %q", line)
		}
		n++
	}
	if want := 3 * len(words.Deck()); n != want {
		t.Errorf("%d categories listed, want %d", n, want)
	}
}
