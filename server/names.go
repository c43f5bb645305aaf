package server

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// cleanName checks a player's name: trimmed, 1 to 24 characters, no
// control or text-direction characters. It is stored as text; pages escape it.
func cleanName(name string) (string, error) {
	name = strings.TrimSpace(name)
	if !utf8.ValidString(name) {
		return "", errors.New("the name is not valid text")
	}
	n := utf8.RuneCountInString(name)
	if n == 0 {
		return "", errors.New("pick a name")
	}
	if n > maxNameRunes {
		return "", fmt.Errorf("names are at most %d characters", maxNameRunes)
	}
	for _, r := range name {
		if unicode.IsControl(r) || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069 || r == 0x200e || r == 0x200f {
			return "", errors.New("the name contains a control character")
		}
	}
	return name, nil
}
