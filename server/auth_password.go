package server

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"golang.org/x/crypto/argon2"
)

// Passwords are hashed with argon2id (RFC 9106) at the parameters OWASP
// recommends for a server: 19 MiB of memory, 2 passes, 1 lane, a 16-byte
// random salt and a 32-byte key; stored in the PHC string form
// $argon2id$v=19$m=19456,t=2,p=1$<salt>$<key> (unpadded standard base64),
// so the parameters can be raised later without breaking old hashes.
const (
	argonMemory  = 19 * 1024 // KiB
	argonTime    = 2
	argonThreads = 1
	argonSaltLen = 16
	argonKeyLen  = 32

	// Bounds on a stored hash's parameters: a damaged or hostile row must
	// not make one check cost more than this.
	argonMaxMemory = 256 * 1024
	argonMaxTime   = 10

	minPasswordRunes = 10
	maxPasswordBytes = 256
	minUsernameRunes = 3
)

// hashPassword returns the PHC string of password's argon2id hash with a
// fresh salt.
func hashPassword(password string) string {
	salt := make([]byte, argonSaltLen)
	_, _ = rand.Read(salt)
	key := argon2.IDKey([]byte(password), salt, argonTime, argonMemory, argonThreads, argonKeyLen)
	return fmt.Sprintf("$argon2id$v=%d$m=%d,t=%d,p=%d$%s$%s", argon2.Version, argonMemory, argonTime, argonThreads,
		base64.RawStdEncoding.EncodeToString(salt), base64.RawStdEncoding.EncodeToString(key))
}

// checkPassword reports whether password hashes to phc, comparing in
// constant time. A hash that is not argon2id PHC, or whose parameters are
// out of bounds, matches nothing.
func checkPassword(phc, password string) bool {
	parts := strings.Split(phc, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" || parts[2] != fmt.Sprintf("v=%d", argon2.Version) {
		return false
	}
	var m, t uint32
	var p uint8
	if n, err := fmt.Sscanf(parts[3], "m=%d,t=%d,p=%d", &m, &t, &p); err != nil || n != 3 ||
		m < 8 || m > argonMaxMemory || t < 1 || t > argonMaxTime || p < 1 {
		return false
	}
	salt, err1 := base64.RawStdEncoding.DecodeString(parts[4])
	key, err2 := base64.RawStdEncoding.DecodeString(parts[5])
	if err1 != nil || err2 != nil || len(salt) < 8 || len(key) < 16 || len(key) > 64 {
		return false
	}
	got := argon2.IDKey([]byte(password), salt, t, m, p, uint32(len(key)))
	return subtle.ConstantTimeCompare(got, key) == 1
}

// dummyHash is checked when a sign-in names no account, so that the
// answer takes as long as for a wrong password.
var dummyHash = hashPassword("no account has this password")

// errBusy: every hashing slot stayed taken for hashWait.
var errHashBusy = errors.New("the server is busy checking other passwords: try again in a moment")

// hashWait bounds the wait for a hashing slot.
const hashWait = 10 * time.Second

// withHashSlot runs f holding one of Identity.HashSlots: each argon2id
// hash takes argonMemory, so a flood of sign-ins waits in line instead of
// taking all the memory.
func (s *Server) withHashSlot(ctx context.Context, f func()) error {
	ctx, cancel := context.WithTimeout(ctx, hashWait)
	defer cancel()
	select {
	case s.auth.hashSlots <- struct{}{}:
	case <-ctx.Done():
		return errHashBusy
	}
	defer func() { <-s.auth.hashSlots }()
	f()
	return nil
}

// cleanUsername checks a username: a player's name (cleanName: trimmed,
// visible, no invisible or control characters, at most 24 characters) of
// at least 3 characters, made of letters, digits and the marks letters
// carry, with single '.', '_' or '-' between them (no spaces: a username
// is also written in addresses and typed at sign-in), not a name the
// server gives seats. It returns the name and its key (nameKey: case and
// width folded), unique among accounts.
func (s *Server) cleanUsername(raw string) (name, key string, err error) {
	name, err = s.personName(raw)
	if err != nil {
		return "", "", err
	}
	runes := []rune(name)
	if len(runes) < minUsernameRunes {
		return "", "", fmt.Errorf("usernames are at least %d characters", minUsernameRunes)
	}
	for i, r := range runes {
		switch {
		case unicode.In(r, unicode.L, unicode.N):
		case unicode.Is(unicode.M, r) && i > 0:
		case strings.ContainsRune("._-", r):
			if i == 0 || i == len(runes)-1 || strings.ContainsRune("._-", runes[i-1]) {
				return "", "", errors.New("'.', '_' and '-' may only stand alone between letters or digits")
			}
		default:
			return "", "", fmt.Errorf("usernames are letters and digits, with '.', '_' or '-' between them (not %q)", r)
		}
	}
	return name, nameKey(name), nil
}

// commonPasswords are refused outright: the first ones any attacker tries.
var commonPasswords = []string{"1234567890", "0123456789", "12345678910", "1111111111", "0000000000",
	"password12", "password123", "password1234", "qwertyuiop", "azertyuiop", "1q2w3e4r5t", "qwerty1234",
	"iloveyou12", "motdepasse", "motdepasse1", "motdepasse123", "abcdefghij", "letmein123", "welcome123",
	"dicehall123", "passw0rd12"}

// checkNewPassword checks a password someone chooses: 10 to 256 bytes
// long (argon2 reads it all), not the username, not one of the commonest,
// not one character repeated.
func checkNewPassword(password, username string) error {
	n := utf8.RuneCountInString(password)
	lower := strings.ToLower(password)
	switch {
	case !utf8.ValidString(password):
		return errors.New("the password is not valid text")
	case n < minPasswordRunes:
		return fmt.Errorf("passwords are at least %d characters: a short sentence is easy to remember and hard to guess", minPasswordRunes)
	case len(password) > maxPasswordBytes:
		return fmt.Errorf("passwords are at most %d bytes", maxPasswordBytes)
	case strings.Contains(nameKey(password), nameKey(username)):
		return errors.New("the password must not contain your username")
	case strings.Count(password, string([]rune(password)[:1])) == n:
		return errors.New("the password is one character repeated: pick something harder to guess")
	}
	for _, c := range commonPasswords {
		if lower == c {
			return errors.New("this password is among the first any attacker tries: pick another")
		}
	}
	return nil
}

// ---- attempt limits

// retryAfter is how long until key's bucket holds a whole token again (0
// when it does).
func (l *ipLimiter) retryAfter(key string, now time.Time) time.Duration {
	l.mu.Lock()
	defer l.mu.Unlock()
	b, ok := l.m[key]
	if !ok || l.rate <= 0 {
		return 0
	}
	tokens := min(b.burst, b.tokens+max(now.Sub(b.last).Seconds(), 0)*l.rate)
	if tokens >= 1 {
		return 0
	}
	return time.Duration((1 - tokens) / l.rate * float64(time.Second))
}

// refund gives back the token key took last (a sign-in that succeeded
// costs nothing).
func (l *ipLimiter) refund(key string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if b, ok := l.m[key]; ok {
		b.tokens = min(b.burst, b.tokens+1)
	}
}

// minutesText says d in whole minutes, rounded up.
func minutesText(d time.Duration) string {
	n := int(math.Ceil(d.Minutes()))
	if n <= 1 {
		return "1 minute"
	}
	return fmt.Sprintf("%d minutes", n)
}
