package bookworm

import (
	"sync"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/games/bookworm/words"
)

// Report is the public picture of a game: the JSON `dicehall script` prints
// (a public contract, docs/rules/bookworm.md#in-scripts) and the heart of every seat's view.
// Fields are only ever added.
type Report struct {
	Over     bool     `json:"over"`
	Winners  []string `json:"winners"`
	Phase    string   `json:"phase"`
	Next     []string `json:"next"` // who may act ([] in chance phases and once over)
	Round    int      `json:"round"`
	Bookworm string   `json:"bookworm"`
	Current  string   `json:"current"` // the player on turn (or choosing a category)
	// Card is the category card in play; Category the chosen one (nil
	// until chosen).
	Card     *words.Card     `json:"card"`
	Category *CategoryReport `json:"category"`
	// Special is the Special die's face this round ("" before the roll or
	// without the die).
	Special       string         `json:"special"`
	Display       []DieReport    `json:"display"`
	BookwormCards int            `json:"bookwormCards"` // left in the centre
	Steals        int            `json:"steals"`
	Players       []PlayerReport `json:"players"`
	Words         []WordReport   `json:"words"` // named this round, in order
	Judging       *JudgingReport `json:"judging"`
	// Clock, in ms of game time: Now is the latest move's time; while a
	// player is to name a word the countdown shows from CountdownAt and
	// the turn fails at Deadline; in a challenge window or a vote, Deadline
	// closes it. 0 when no clock runs.
	Now         int64        `json:"now"`
	CountdownAt int64        `json:"countdownAt"`
	Deadline    int64        `json:"deadline"`
	LastRound   *RoundReport `json:"lastRound"`
	Rounds      [][]int      `json:"rounds"` // every finished round's scores, by seat
}

// CategoryReport is the chosen category and its place on the card.
type CategoryReport struct {
	Index int    `json:"index"`
	ID    string `json:"id"`
	Name  string `json:"name"`
	Level string `json:"level"`
}

// DieReport is a die: its number, the face it shows and its points (for a
// held NOT die, as it would score now).
type DieReport struct {
	Die     int    `json:"die"`
	Face    string `json:"face"`
	Points  int    `json:"points"`
	Special bool   `json:"special,omitempty"`
}

// PlayerReport is one seat.
type PlayerReport struct {
	Name          string      `json:"name"`
	Total         int         `json:"total"`
	Dice          []DieReport `json:"dice"` // in the order taken: the last is the top of the pile
	BookwormCards int         `json:"bookwormCards"`
}

// WordReport is a word named this round.
type WordReport struct {
	By     string `json:"by"`
	Word   string `json:"word"`
	Letter string `json:"letter"`
	Die    int    `json:"die"`
	From   string `json:"from"` // "display" or the player robbed
	Known  bool   `json:"known"`
	Status string `json:"status"` // pending, accepted, rejected
}

// JudgingReport is the word under judgement: a challenge window (Allowed:
// who let it pass) or a vote (Votes: "accept"/"reject" by voter name).
type JudgingReport struct {
	Speaker    string            `json:"speaker"`
	Word       string            `json:"word"`
	Die        int               `json:"die"`
	Challenger string            `json:"challenger,omitempty"`
	Allowed    []string          `json:"allowed"`
	Votes      map[string]string `json:"votes"`
	// Known: the lexicon knows the word (its window is the short one).
	Known bool `json:"known,omitempty"`
}

// RoundReport is how the last round was scored.
type RoundReport struct {
	Round  int         `json:"round"`
	Ender  string      `json:"ender"`
	Failer string      `json:"failer,omitempty"`
	Scores []ScoreLine `json:"scores"`
}

func (m *Match) dieReport(d int) DieReport {
	s := m.S
	return DieReport{Die: d, Face: s.FaceName(d), Points: s.Points(d), Special: s.IsSpecial(d)}
}

// Report builds the public picture of the match.
func (m *Match) Report() Report {
	s := m.S
	r := Report{Over: s.Over(), Winners: []string{}, Phase: s.Phase.String(), Next: []string{},
		Round: int(s.Round), Bookworm: m.name(int(s.Bookworm)), Current: m.name(int(s.Current)),
		Display: []DieReport{}, BookwormCards: int(s.CardsLeft), Steals: s.cfg.C.BookwormCards - int(s.CardsLeft),
		Words: []WordReport{}, Now: s.Now, Rounds: [][]int{}}
	for _, p := range s.Actors() {
		r.Next = append(r.Next, m.name(int(p)))
	}
	if s.Over() {
		for _, w := range s.Winners() {
			r.Winners = append(r.Winners, m.name(w))
		}
	}
	if c, ok := s.CardInPlay(); ok {
		r.Card = &c
	}
	if c, ok := s.CategoryInPlay(); ok {
		r.Category = &CategoryReport{Index: int(s.Category), ID: c.ID, Name: c.Name, Level: c.Level.String()}
	}
	if f, ok := s.SpecialFace(); ok {
		r.Special = f.String()
	}
	if s.Rolled {
		for d := 0; d < int(s.NDice); d++ {
			if s.Owner[d] == Display {
				r.Display = append(r.Display, m.dieReport(d))
			}
		}
	}
	for p := int8(0); p < s.NPlayers; p++ {
		pr := PlayerReport{Name: m.name(int(p)), Total: s.Totals[p], Dice: []DieReport{}, BookwormCards: int(s.Cards[p])}
		for _, d := range s.DiceOf(p) {
			pr.Dice = append(pr.Dice, m.dieReport(d))
		}
		r.Players = append(r.Players, pr)
	}
	for _, w := range s.Named {
		from := "display"
		if w.From != Display {
			from = m.name(int(w.From))
		}
		r.Words = append(r.Words, WordReport{By: m.name(int(w.Seat)), Word: w.Word, Letter: string(rune(w.Letter - 'a' + 'A')),
			Die: int(w.Die), From: from, Known: w.Known, Status: w.Status})
	}
	if s.Pending >= 0 {
		w := s.Named[s.Pending]
		j := &JudgingReport{Speaker: m.name(int(w.Seat)), Word: w.Word, Die: int(w.Die), Allowed: []string{}, Votes: map[string]string{}, Known: w.Known}
		if s.Challenger >= 0 {
			j.Challenger = m.name(int(s.Challenger))
		}
		for p := int8(0); p < s.NPlayers; p++ {
			if s.Phase == PhaseChallenge && s.Allowed&seatMask(p) != 0 {
				j.Allowed = append(j.Allowed, m.name(int(p)))
			}
			if s.Phase == PhaseVote && s.Votes[p] != 0 {
				j.Votes[m.name(int(p))] = map[bool]string{true: "accept", false: "reject"}[s.Votes[p] > 0]
			}
		}
		r.Judging = j
	}
	if s.Timed() {
		r.Deadline = s.Deadline
		if s.Phase == PhaseName {
			r.CountdownAt = s.CountdownAt
		}
	}
	if lr := s.LastRound; lr != nil {
		rr := &RoundReport{Round: lr.Round, Ender: m.name(int(lr.Ender)), Scores: append([]ScoreLine(nil), lr.Lines[:s.NPlayers]...)}
		if lr.Failer >= 0 {
			rr.Failer = m.name(int(lr.Failer))
		}
		r.LastRound = rr
	}
	for _, h := range s.History {
		r.Rounds = append(r.Rounds, append([]int(nil), h[:s.NPlayers]...))
	}
	return r
}

// View is what one seat sees. Nothing is hidden but the future (the order
// of the remaining category cards and the dice not yet rolled).
type View struct {
	Report
	Seat engine.Seat `json:"seat"`
	// Legal are the kinds of action the seat may make now ("name",
	// "question", "give-up", "category", "turn-to", "challenge", "allow",
	// "vote").
	Legal []string `json:"legal"`
	// Takeable: on the seat's turn, the dice a word may take and the
	// letters that take each.
	Takeable []TakeOption `json:"takeable,omitempty"`
	// Language is the table's word language (words.Languages): the
	// language words are said in.
	Language string `json:"language"`
	// CardNames are the names of the card's categories in every language
	// of words.Languages (so a page in French names them in French even
	// when the table plays English words); nil before the first card.
	CardNames map[string][3]string `json:"cardNames,omitempty"`
	// Rejected explains, while its speaker tries again, the word the vote
	// just turned down (nil otherwise).
	Rejected *RejectedReport `json:"rejected,omitempty"`
	// State is the compact state for bots (it holds only what the view
	// shows).
	State *State `json:"-"`
}

// RejectedReport is a word voted down, for the speaker's second try: the
// vote (abstentions are the voters who let the clock run out) and what
// the lexicon says of the word (Verdict: "not-a-word", "unknown" or
// "fits"; "" without a lexicon).
type RejectedReport struct {
	Speaker string            `json:"speaker"`
	Word    string            `json:"word"`
	Accept  int               `json:"accept"`
	Reject  int               `json:"reject"`
	Abstain int               `json:"abstain"`
	Votes   map[string]string `json:"votes"`
	Verdict string            `json:"verdict"`
}

// categoryNames maps a category ID to its name, per language.
var categoryNames = sync.OnceValue(func() map[string]map[string]string {
	out := map[string]map[string]string{}
	for _, l := range words.Languages() {
		deck, err := words.DeckIn(l)
		if err != nil {
			continue
		}
		m := map[string]string{}
		for _, c := range deck {
			for _, cat := range c.Categories {
				m[cat.ID] = cat.Name
			}
		}
		out[l] = m
	}
	return out
})

// cardNames names the card in play's categories in every language (the
// table's own names where a language lacks one: a test deck).
func (s *State) cardNames() map[string][3]string {
	c, ok := s.CardInPlay()
	if !ok {
		return nil
	}
	out := map[string][3]string{}
	for l, names := range categoryNames() {
		var n [3]string
		for i, cat := range c.Categories {
			if n[i] = names[cat.ID]; n[i] == "" {
				n[i] = cat.Name
			}
		}
		out[l] = n
	}
	return out
}

// rejected reports the word the vote turned down while its speaker names
// another (the votes of that vote stay in the state until the next
// challenge, and none can come before the speaker's next word).
func (m *Match) rejected() *RejectedReport {
	s := m.S
	if s.Phase != PhaseName || len(s.Named) == 0 {
		return nil
	}
	w := s.Named[len(s.Named)-1]
	if w.Status != WordRejected || w.Seat != s.Current {
		return nil
	}
	r := &RejectedReport{Speaker: m.name(int(w.Seat)), Word: w.Word, Votes: map[string]string{}}
	for p := int8(0); p < s.NPlayers; p++ {
		switch {
		case p == w.Seat:
		case s.Votes[p] > 0:
			r.Accept++
			r.Votes[m.name(int(p))] = "accept"
		case s.Votes[p] < 0:
			r.Reject++
			r.Votes[m.name(int(p))] = "reject"
		default:
			r.Abstain++
		}
	}
	if cat, ok := s.CategoryInPlay(); ok && s.cfg.Lex != nil {
		r.Verdict = words.Judge(s.cfg.Lex, cat.ID, w.Word).String()
	}
	return r
}

// View returns seat's view (Spectator for the public one).
func (m *Match) View(seat engine.Seat) any { return m.SeatView(seat) }

// SeatView is View with its concrete type.
func (m *Match) SeatView(seat engine.Seat) *View {
	v := &View{Report: m.Report(), Seat: seat, Legal: []string{}, State: m.S.clone(),
		Language: m.S.cfg.Set.Language, CardNames: m.S.cardNames(), Rejected: m.rejected()}
	if v.Language == "" {
		v.Language = "en"
	}
	if seat < 0 || seat >= engine.Seat(m.S.NPlayers) {
		return v
	}
	p := int8(seat)
	if m.S.Phase == PhaseName && p == m.S.Current {
		v.Legal = append(v.Legal, "name")
		v.Takeable = m.S.Takeable(p)
	}
	for _, a := range m.Legal(seat) {
		k := a.(Action).Kind()
		if len(v.Legal) == 0 || v.Legal[len(v.Legal)-1] != k {
			v.Legal = append(v.Legal, k)
		}
	}
	return v
}
