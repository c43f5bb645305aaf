package server

import (
	"context"
	"strings"
	"time"

	"github.com/dicehall/dicehall/engine"
)

// Notifications (the hook): at a turn-based table, when a seat held by an
// account becomes to act, and when the game ends, the server tells
// Config.Notifier, after the move is stored, through a bounded queue that
// never holds the table up (a full queue drops the notice, with a log
// line). What a notice becomes (a push, an e-mail, nothing in quiet hours)
// is the notifier's.

// Notice kinds.
const (
	NoticeYourTurn = "your-turn"
	NoticeGameOver = "game-over"
)

// TurnNotice is one thing an account should hear of.
type TurnNotice struct {
	Account   string // the account to tell (store.Account.ID)
	Table     string // the table's ID
	Game      string // the game's ID
	GameTitle string
	// Opponent is whose move (or join) made it the account's turn; at the
	// end of a game, the other players' names.
	Opponent string
	Seat     int
	// Deadline is when the seat's clock (bank included) runs out; zero
	// when none runs (and for "game-over").
	Deadline time.Time
	// URL is the table's page: absolute when Config.PublicURL is set,
	// else "/t/<id>".
	URL  string
	Kind string // NoticeYourTurn or NoticeGameOver
}

// Notifier hears of turns and ends at turn-based tables. Notify runs on
// the server's notice worker, never on a table's: it may take its time
// (ctx bounds it) but a slow one makes the queue drop notices.
type Notifier interface {
	Notify(ctx context.Context, n TurnNotice)
}

const (
	// noticeQueue bounds the notices waiting for the notifier.
	noticeQueue = 256
	// noticeTimeout bounds one Notify call.
	noticeTimeout = 30 * time.Second
)

// startNotices runs the worker that hands notices to Config.Notifier, one
// at a time, until the server closes.
func (s *Server) startNotices() {
	if s.cfg.Notifier == nil {
		return
	}
	s.notices = make(chan TurnNotice, noticeQueue)
	go func() {
		for {
			select {
			case n := <-s.notices:
				ctx, cancel := context.WithTimeout(s.ctx, noticeTimeout)
				s.cfg.Notifier.Notify(ctx, n)
				cancel()
			case <-s.ctx.Done():
				return
			}
		}
	}()
}

// notify queues a notice without waiting: a full queue drops it.
func (s *Server) notify(n TurnNotice) {
	if s.notices == nil {
		return
	}
	select {
	case s.notices <- n:
	default:
		s.log.Warn("notice dropped: the queue is full", "table", n.Table, "kind", n.Kind)
	}
}

// tableURL is the address of a table's page for a notice.
func (s *Server) tableURL(id string) string {
	u := "/t/" + id
	if s.public != nil {
		u = strings.TrimSuffix(s.public.String(), "/") + u
	}
	return u
}

// noticeTurns tells the accounts of the seats that began a turn (by's
// move or join gave it to them), and every account seated when the game
// has ended: at turn-based tables only, after the move is stored.
func (t *table) noticeTurns(began []engine.Seat, by engine.Seat) {
	if t.s.notices == nil || !t.set.turnBased() {
		return
	}
	names := t.players()
	base := TurnNotice{Table: t.id, Game: t.meta.Game, GameTitle: t.game.Info().Title, URL: t.s.tableURL(t.id)}
	if t.state.Turn().Over {
		for i, st := range t.meta.Seats {
			if st.Kind != kindHuman || st.Account == "" {
				continue
			}
			n := base
			n.Account, n.Seat, n.Kind = st.Account, i, NoticeGameOver
			n.Opponent = strings.Join(append(append([]string{}, names[:i]...), names[i+1:]...), ", ")
			t.s.notify(n)
		}
		return
	}
	for _, seat := range began {
		if !t.humanControlled(seat) || t.meta.Seats[seat].Account == "" {
			continue
		}
		n := base
		n.Account, n.Seat, n.Kind = t.meta.Seats[seat].Account, int(seat), NoticeYourTurn
		if by >= 0 && int(by) < len(names) && by != seat {
			n.Opponent = names[by]
		}
		n.Deadline, _ = t.clockAt(seat)
		t.s.notify(n)
	}
}
