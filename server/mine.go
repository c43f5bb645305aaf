package server

import (
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

const (
	// mineCookies bounds the seat cookies GET /api/tables/mine looks at.
	mineCookies = 50
	// mineOver bounds the finished tables it lists (the latest).
	mineOver = 10
)

// MyTable is one table of GET /api/tables/mine: its summary, the seat the
// request's cookie holds there, and whether that seat is to act now.
type MyTable struct {
	TableSummary
	Seat     int  `json:"seat"`
	YourTurn bool `json:"yourTurn"`
	// Deadline is when the seat's clock (bank included) runs out, while
	// it is the seat's turn and a clock runs.
	Deadline *time.Time `json:"deadline,omitempty"`
}

// myTables answers GET /api/tables/mine: the tables where the request's
// seat cookies (the first mineCookies of them) hold a seat, and those of
// the signed-in account (the latest mineCookies in play and mineOver
// finished); the seats to act first, then live, open and the latest
// finished tables. Cookies of unknown tables, or whose token holds no
// seat, are skipped.
func (s *Server) myTables(w http.ResponseWriter, r *http.Request) {
	if !s.allowGet(w, r, false) {
		return
	}
	out := []MyTable{}
	seen := map[string]bool{}
	account := s.accountID(r)
	for _, ck := range seatCookies(r) {
		seen[ck.id] = true
		meta, err := s.store.GetTable(r.Context(), ck.id)
		if err != nil {
			if !errors.Is(err, store.ErrNotFound) {
				s.log.Error("my tables: table not read", "table", ck.id, "err", err)
			}
			continue
		}
		if mine, ok := s.myTable(r, meta, seatHolder{ck.hash, account}); ok {
			out = append(out, mine)
		}
	}
	if account != "" {
		for _, f := range []store.Filter{
			{Account: account, Status: []string{store.StatusOpen, store.StatusLive}, Limit: mineCookies},
			{Account: account, Status: []string{store.StatusOver}, Limit: mineOver},
		} {
			metas, err := s.store.List(r.Context(), f)
			if err != nil {
				s.log.Error("my tables: account's tables not listed", "err", err)
				continue
			}
			for _, meta := range metas {
				if seen[meta.ID] {
					continue
				}
				seen[meta.ID] = true
				if mine, ok := s.myTable(r, meta, seatHolder{account: account}); ok {
					out = append(out, mine)
				}
			}
		}
	}
	rank := func(m MyTable) int {
		switch {
		case m.YourTurn:
			return 0
		case m.Status == store.StatusLive:
			return 1
		case m.Status == store.StatusOpen:
			return 2
		}
		return 3
	}
	slices.SortStableFunc(out, func(a, b MyTable) int {
		if ra, rb := rank(a), rank(b); ra != rb {
			return ra - rb
		}
		if c := b.Updated.Compare(a.Updated); c != 0 {
			return c
		}
		return strings.Compare(a.ID, b.ID)
	})
	over := 0
	out = slices.DeleteFunc(out, func(m MyTable) bool {
		if m.Status == store.StatusOver {
			over++
			return over > mineOver
		}
		return false
	})
	writeJSON(w, http.StatusOK, out)
}

// myTable is a table as holder sees it in their list; false if holder
// holds no seat there, or the table has expired.
func (s *Server) myTable(r *http.Request, meta store.Table, holder seatHolder) (MyTable, bool) {
	id := meta.ID
	seat := seatOf(meta, holder.token, holder.account)
	if seat < 0 || s.expired(meta) {
		return MyTable{}, false
	}
	sum := s.summaryOf(r.Context(), meta)
	if sum.Status == store.StatusLive && !sum.loaded {
		// Whose turn it is needs the state: load the table (it stops
		// again at once if it has nothing to do).
		if t, release, err := s.actor(r.Context(), id); err == nil {
			if loaded, err := call(r.Context(), t, t.publish); err == nil {
				sum = loaded
			}
			release()
		}
	}
	turn := sum.Status == store.StatusLive && slices.Contains(sum.actors, engine.Seat(seat)) &&
		seat < len(sum.Seats) && !sum.Seats[seat].TakenOver
	mine := MyTable{TableSummary: sum, Seat: seat, YourTurn: turn}
	if at, ok := sum.clocks[engine.Seat(seat)]; ok && turn {
		mine.Deadline = &at
	}
	return mine, true
}
