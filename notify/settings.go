package notify

import (
	"errors"
	"fmt"
	"net/mail"
	"slices"
	"strconv"
	"strings"
	"time"
	_ "time/tzdata" // quiet hours' zones, whatever the host has installed

	"github.com/dicehall/dicehall/store"
)

// Settings are an account's notification settings as the account page
// reads and writes them (GET/PUT /api/notify/settings; docs/protocol.md,
// Notifications).
type Settings struct {
	// Push sends Web Push notifications to the account's subscribed
	// browsers.
	Push bool `json:"push"`
	// Email is where e-mail goes ("" = none); EmailOn sends it.
	Email   string `json:"email"`
	EmailOn bool   `json:"emailOn"`
	// Turns: "your turn" and deadline reminders; Results: "game over".
	Turns   bool `json:"turns"`
	Results bool `json:"results"`
	// Quiet is the quiet hours, nil = none.
	Quiet *Quiet `json:"quiet"`
	// Lang is the language of the notices, "en" or "fr": the page's. ""
	// in a PUT keeps the one stored.
	Lang string `json:"lang,omitempty"`
}

// Quiet is a daily window in which nothing is sent: from From to To
// ("HH:MM", 24-hour clock; To before From spans midnight) in the IANA
// time zone TZ ("Europe/Paris").
type Quiet struct {
	From string `json:"from"`
	To   string `json:"to"`
	TZ   string `json:"tz"`
}

// Languages are the languages notices are written in; the first is the
// default.
var Languages = []string{"en", "fr"}

// DefaultSettings are an account's settings until it saves its own: push
// on (a browser still has to subscribe), no e-mail, both kinds, no quiet
// hours, English.
func DefaultSettings() Settings {
	return Settings{Push: true, Turns: true, Results: true, Lang: Languages[0]}
}

// maxEmail is the longest address accepted (RFC 5321's path limit).
const maxEmail = 254

// Check refuses settings the service cannot follow, saying why in words
// for the page: an address that is not a bare address, quiet hours that
// are not times or name no zone, an unknown language.
func (s Settings) Check() error {
	if s.Email != "" {
		a, err := mail.ParseAddress(s.Email)
		if err != nil || a.Address != s.Email || a.Name != "" || len(s.Email) > maxEmail {
			return errors.New("the e-mail address is not a plain address like name@example.org")
		}
	}
	if s.EmailOn && s.Email == "" {
		return errors.New("e-mail is on but there is no address")
	}
	if s.Lang != "" && !slices.Contains(Languages, s.Lang) {
		return fmt.Errorf("unknown language %q (%s)", s.Lang, strings.Join(Languages, ", "))
	}
	if q := s.Quiet; q != nil {
		from, err1 := minutes(q.From)
		to, err2 := minutes(q.To)
		if err := errors.Join(err1, err2); err != nil {
			return err
		}
		if from == to {
			return errors.New("quiet hours start and end at the same time")
		}
		if _, err := zone(q.TZ); err != nil {
			return err
		}
	}
	return nil
}

// minutes reads "HH:MM" as minutes after midnight.
func minutes(hhmm string) (int, error) {
	h, m, ok := strings.Cut(hhmm, ":")
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if !ok || len(h) != 2 || len(m) != 2 || err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 {
		return 0, fmt.Errorf("quiet hours: %q is not a time like 22:00", hhmm)
	}
	return hh*60 + mm, nil
}

// zone loads an IANA time zone; the server's own ("Local", "") is refused:
// it would change with the host.
func zone(name string) (*time.Location, error) {
	if name == "" || name == "Local" {
		return nil, errors.New("quiet hours need a time zone like Europe/Paris")
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("quiet hours: unknown time zone %q", name)
	}
	return loc, nil
}

// quietUntil says whether now falls in the quiet hours and, if so, when
// they end.
func (q *Quiet) quietUntil(now time.Time) (time.Time, bool) {
	if q == nil {
		return time.Time{}, false
	}
	from, err1 := minutes(q.From)
	to, err2 := minutes(q.To)
	loc, err3 := zone(q.TZ)
	if err1 != nil || err2 != nil || err3 != nil || from == to {
		return time.Time{}, false // checked when saved; a stored oddity means none
	}
	local := now.In(loc)
	m := local.Hour()*60 + local.Minute()
	quiet := from <= m && m < to
	if from > to { // across midnight
		quiet = m >= from || m < to
	}
	if !quiet {
		return time.Time{}, false
	}
	end := time.Date(local.Year(), local.Month(), local.Day(), to/60, to%60, 0, 0, loc)
	if !end.After(now) {
		end = time.Date(local.Year(), local.Month(), local.Day()+1, to/60, to%60, 0, 0, loc)
	}
	return end, true
}

// FromStore is the settings an account saved, or the defaults for
// ErrNotFound.
func FromStore(n store.NotifySettings, err error) (Settings, error) {
	if errors.Is(err, store.ErrNotFound) {
		return DefaultSettings(), nil
	}
	if err != nil {
		return Settings{}, err
	}
	s := Settings{Push: n.Push, Email: n.Email, EmailOn: n.EmailOn, Turns: n.Turns, Results: n.Results, Lang: n.Lang}
	if n.QuietFrom != "" || n.QuietTo != "" || n.QuietTZ != "" {
		s.Quiet = &Quiet{From: n.QuietFrom, To: n.QuietTo, TZ: n.QuietTZ}
	}
	if s.Lang == "" {
		s.Lang = Languages[0]
	}
	return s, nil
}

// ToStore is the row to store for an account's settings at now.
func (s Settings) ToStore(account string, now time.Time) store.NotifySettings {
	n := store.NotifySettings{Account: account, Push: s.Push, Email: s.Email, EmailOn: s.EmailOn,
		Turns: s.Turns, Results: s.Results, Lang: s.Lang, Updated: now}
	if s.Quiet != nil {
		n.QuietFrom, n.QuietTo, n.QuietTZ = s.Quiet.From, s.Quiet.To, s.Quiet.TZ
	}
	return n
}
