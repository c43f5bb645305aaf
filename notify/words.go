package notify

import (
	"fmt"
	"strings"
	"time"
)

// Notice kinds (Notice.Kind).
const (
	KindTurn     = "your-turn"
	KindReminder = "reminder"
	KindOver     = "game-over"
)

// words are a language's sentences for notices and e-mails.
type words struct {
	turnTitle, reminderTitle, overTitle string // %s: the game's title
	turnBy                              string // %s: who played
	turn, reminder, over                string
	left                                string // %s: time left
	day, hour, minute, soon             string
	open                                string // %s: the table's link
	footer                              string // %s: the site, %s: the account page
}

var dictionary = map[string]words{
	"en": {
		turnTitle:     "Your turn: %s",
		reminderTitle: "Your move is waiting: %s",
		overTitle:     "Game over: %s",
		turnBy:        "%s has played. It is your move.",
		turn:          "It is your move.",
		reminder:      "The clock is running.",
		over:          "The game has ended: see how it went.",
		left:          "Time left: %s.",
		day:           "d", hour: "h", minute: "min", soon: "under a minute",
		open:   "Open the table: %s",
		footer: "You get this e-mail because you asked %s for it. Change or stop these e-mails: %s",
	},
	"fr": {
		turnTitle:     "À vous de jouer\u00a0: %s",
		reminderTitle: "Votre coup est attendu\u00a0: %s",
		overTitle:     "Partie terminée\u00a0: %s",
		turnBy:        "%s a joué. C'est à vous.",
		turn:          "C'est à vous de jouer.",
		reminder:      "L'horloge tourne.",
		over:          "La partie est finie\u00a0: voyez comment elle s'est jouée.",
		left:          "Temps restant\u00a0: %s.",
		day:           "j", hour: "h", minute: "min", soon: "moins d'une minute",
		open:   "Ouvrir la table\u00a0: %s",
		footer: "Vous recevez ce courriel parce que vous l'avez demandé à %s. Pour changer ou arrêter ces courriels\u00a0: %s",
	},
}

func lookup(lang string) words {
	if w, ok := dictionary[lang]; ok {
		return w
	}
	return dictionary[Languages[0]]
}

// Message is what a notice says: the push payload's JSON, and the
// e-mail's subject and first paragraph.
type Message struct {
	Title string `json:"title"`
	Body  string `json:"body"`
	URL   string `json:"url"`
	Tag   string `json:"tag"`
}

// message words a notice in a language at now (for the time left).
func message(n Notice, lang string, now time.Time) Message {
	w := lookup(lang)
	title := n.GameTitle
	if title == "" {
		title = n.Game
	}
	var m Message
	var body []string
	switch n.Kind {
	case KindOver:
		m.Title = fmt.Sprintf(w.overTitle, title)
		body = append(body, w.over)
	case KindReminder:
		m.Title = fmt.Sprintf(w.reminderTitle, title)
		body = append(body, w.reminder)
	default:
		m.Title = fmt.Sprintf(w.turnTitle, title)
		if n.Opponent != "" {
			body = append(body, fmt.Sprintf(w.turnBy, n.Opponent))
		} else {
			body = append(body, w.turn)
		}
	}
	if n.Kind != KindOver && !n.Deadline.IsZero() {
		body = append(body, fmt.Sprintf(w.left, w.duration(n.Deadline.Sub(now))))
	}
	m.Body = strings.Join(body, " ")
	m.URL = tableURL(n)
	// One tag per table: a newer notice replaces the older one on screen.
	m.Tag = "turn-" + n.Table
	return m
}

// tableURL is the notice's link, relative to the site.
func tableURL(n Notice) string {
	if n.URL != "" {
		return n.URL
	}
	return "/t/" + n.Table
}

// duration is a compact "2 d 3 h" / "3 h 5 min" / "12 min".
func (w words) duration(d time.Duration) string {
	if d < time.Minute {
		return w.soon
	}
	days, hours, mins := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour), int(d%time.Hour/time.Minute)
	var parts []string
	if days > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", days, w.day))
	}
	if hours > 0 {
		parts = append(parts, fmt.Sprintf("%d %s", hours, w.hour))
	}
	if mins > 0 && days == 0 {
		parts = append(parts, fmt.Sprintf("%d %s", mins, w.minute))
	}
	return strings.Join(parts, " ")
}
