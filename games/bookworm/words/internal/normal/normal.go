// Package normal holds the word normalization shared by the words package
// and its generator (so the generator need not import the package whose
// embedded data it writes). Documented at words.Normalize.
package normal

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// Normalize is words.Normalize; the rules are documented there.
func Normalize(word string) string {
	var b strings.Builder
	b.Grow(len(word))
	space := false // a separator is pending
	for _, r := range norm.NFD.String(strings.ToLower(word)) {
		switch {
		case unicode.Is(unicode.M, r), isApostrophe(r), r == '.':
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if space && b.Len() > 0 {
				b.WriteByte(' ')
			}
			space = false
			if s, ok := spelled[r]; ok {
				b.WriteString(s)
			} else {
				b.WriteRune(unicode.ToLower(r))
			}
		default:
			space = true
		}
	}
	return norm.NFC.String(b.String())
}

func isApostrophe(r rune) bool {
	switch r {
	case '\'', '’', '‘', 'ʼ', '`', '´':
		return true
	}
	return false
}

// spelled replaces letters that Unicode does not decompose into a base letter
// and a mark but that people type without the accent.
var spelled = map[rune]string{
	'ß': "ss", 'æ': "ae", 'œ': "oe", 'ø': "o", 'ł': "l", 'đ': "d",
	'ð': "d", 'þ': "th", 'ı': "i", 'ħ': "h", 'ŧ': "t",
}
