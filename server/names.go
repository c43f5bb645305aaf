package server

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/dicehall/dicehall/engine"
)

const (
	zwnj = '\u200c' // zero-width non-joiner: Persian and Indic words need it
	zwj  = '\u200d' // zero-width joiner: emoji sequences (👩‍💻) and Indic scripts
)

// cleanName checks a player's name: trimmed, 1 to 24 characters of valid
// text, with something visible in it, and no control, format or invisible
// character (text-direction marks, zero-width spaces, soft hyphens, Hangul
// fillers, byte-order marks). The joiners U+200C and U+200D are kept
// between two characters, and emoji tag characters after one, as the
// scripts and emoji that use them need. It is stored as text; pages escape
// it.
func cleanName(name string) (string, error) {
	// JSON decoding has already turned invalid bytes into U+FFFD, so the
	// replacement character stands for them: a name never needs it.
	if !utf8.ValidString(name) || strings.ContainsRune(name, utf8.RuneError) {
		return "", errors.New("the name is not valid text (it has invalid bytes or the replacement character U+FFFD)")
	}
	name = strings.TrimSpace(name)
	runes := []rune(name)
	n := len(runes)
	if n == 0 {
		return "", errors.New("pick a name")
	}
	if n > maxNameRunes {
		return "", fmt.Errorf("names are at most %d characters", maxNameRunes)
	}
	visible := false
	for i, r := range runes {
		switch {
		case unicode.IsControl(r):
			return "", fmt.Errorf("the name contains a control character (U+%04X)", r)
		case r == zwj || r == zwnj:
			if i == 0 || i == n-1 || !joinable(runes[i-1]) || !joinable(runes[i+1]) {
				return "", fmt.Errorf("the name contains an invisible joiner (U+%04X) that joins nothing", r)
			}
		case r >= 0xe0020 && r <= 0xe007f: // tags: subdivision flags (🏴 + tags)
			if i == 0 || unicode.IsSpace(runes[i-1]) {
				return "", fmt.Errorf("the name contains an invisible tag character (U+%04X)", r)
			}
		case unicode.Is(unicode.Cf, r) || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r):
			return "", fmt.Errorf("the name contains an invisible or text-direction character (U+%04X)", r)
		case shows(r):
			visible = true
		}
	}
	if !visible {
		return "", errors.New("the name has nothing visible in it: use letters, digits or signs")
	}
	return name, nil
}

// joinable reports whether a joiner may stand beside r: not a space and
// not another joiner.
func joinable(r rune) bool {
	return !unicode.IsSpace(r) && r != zwj && r != zwnj
}

// shows reports whether r draws something by itself: a letter, digit,
// punctuation or symbol that is not a blank (spaces, marks, the blank
// Braille pattern and the Hangul fillers draw nothing on their own).
func shows(r rune) bool {
	if r == '\u2800' || unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r) {
		return false
	}
	return unicode.In(r, unicode.L, unicode.N, unicode.P, unicode.S)
}

// personName is cleanName, and refuses the names the server gives seats.
func (s *Server) personName(raw string) (string, error) {
	name, err := cleanName(raw)
	if err == nil && reservedName(s.games, name) {
		err = fmt.Errorf("%q is what this server calls a bot or a free seat: pick another name", name)
	}
	return name, err
}

// reservedName reports whether a person's name could be taken for one the
// server gives: a bot seat's ("Greedy bot", "Greedy bot 2", for every bot
// of every game) or a free seat's ("Seat 2"), compared without regard to
// case, width (NFKC) and runs of spaces.
func reservedName(games *engine.Registry, name string) bool {
	key := nameKey(name)
	base := strings.TrimRightFunc(key, func(r rune) bool { return r >= '0' && r <= '9' })
	if base != key {
		base = strings.TrimRight(base, " ")
		if base == "seat" {
			return true
		}
	}
	for _, id := range games.IDs() {
		g, _ := games.Lookup(id)
		for _, kind := range g.Info().BotKinds() {
			if nameKey(botSeatName(kind, 1)) == base {
				return true
			}
		}
	}
	return false
}

// nameKey is a name as reservedName compares it: NFKC, lower case, without
// joiners, every run of spaces one space.
func nameKey(name string) string {
	name = strings.Map(func(r rune) rune {
		if r == zwj || r == zwnj {
			return -1
		}
		return r
	}, norm.NFKC.String(name))
	return strings.ToLower(strings.Join(strings.Fields(name), " "))
}
