package bookworm

import (
	"strings"
	"unicode/utf8"

	"github.com/dicehall/dicehall/games/bookworm/words"
)

// MaxWordRunes bounds a word as typed (the wire and the log carry it).
const MaxWordRunes = 40

// WordKey is the form in which the rules compare words: words.Normalize
// (lower case, accents stripped, apostrophes and full stops dropped, other
// punctuation and spaces collapsed to one space), the same form the
// lexicon uses. It reports false for a word the rules do not accept: one
// longer than MaxWordRunes as typed, or whose normalized form is empty or
// holds anything but the letters a–z and single spaces (digits and other
// scripts are refused). The first letter of the key is the word's letter.
func WordKey(word string) (string, bool) {
	if !utf8.ValidString(word) || utf8.RuneCountInString(word) > MaxWordRunes {
		return "", false
	}
	key := words.Normalize(word)
	if key == "" || strings.Trim(key, "abcdefghijklmnopqrstuvwxyz ") != "" || key[0] == ' ' {
		return "", false
	}
	return key, true
}
