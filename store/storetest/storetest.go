// Package storetest is the conformance suite for store.Store: every
// implementation (memstore, sqlite, later PostgreSQL) runs it from its own
// tests, so the server can rely on one behaviour whichever store it has.
//
// Usage, in an implementation's _test.go:
//
//	func TestConformance(t *testing.T) {
//		storetest.Run(t, func(t *testing.T) store.Store { return open(t) },
//			storetest.Reopen(func(t *testing.T, closed store.Store) store.Store { ... }))
//	}
package storetest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Option adjusts Run.
type Option func(*config)

type config struct {
	reopen func(t *testing.T, closed store.Store) store.Store
}

// Reopen declares the store persistent: given a store the suite has just
// closed, reopen returns a new store over the same data (same file, same
// database). The persistence tests run only with this option.
func Reopen(reopen func(t *testing.T, closed store.Store) store.Store) Option {
	return func(c *config) { c.reopen = reopen }
}

// Run runs the suite. open must return a new, empty store each time it is
// called; the suite closes it (Close may be called more than once).
func Run(t *testing.T, open func(t *testing.T) store.Store, opts ...Option) {
	var c config
	for _, o := range opts {
		o(&c)
	}
	s := &suite{open: open, cfg: c}
	t.Run("CreateGet", s.createGet)
	t.Run("CreateExists", s.createExists)
	t.Run("CreateInvalid", s.createInvalid)
	t.Run("GetNotFound", s.getNotFound)
	t.Run("Update", s.update)
	t.Run("NoAliasing", s.noAliasing)
	t.Run("AppendVersions", s.appendVersions)
	t.Run("AppendInvalidWritesNothing", s.appendInvalid)
	t.Run("MovesRoundTrip", s.movesRoundTrip)
	t.Run("List", s.list)
	t.Run("ListDefaultLimit", s.listDefaultLimit)
	t.Run("ListOpenSince", s.listOpenSince)
	t.Run("ListSeenSince", s.listSeenSince)
	t.Run("ListAndCountByCreator", s.byCreator)
	t.Run("ListPerCreator", s.perCreator)
	t.Run("CanceledContext", s.canceled)
	t.Run("AppendRace", s.appendRace)
	t.Run("Concurrent", s.concurrent)
	t.Run("Persistence", s.persistence)
	s.runAccounts(t)
	s.runNotify(t)
	s.runLeases(t)
	s.runLimits(t)
	s.runReviews(t)
}

type suite struct {
	open func(t *testing.T) store.Store
	cfg  config
}

// store opens a fresh store and closes it when the test ends.
func (s *suite) store(t *testing.T) store.Store {
	t.Helper()
	st := s.open(t)
	t.Cleanup(func() {
		if err := st.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	})
	return st
}

// base is a fixed instant with sub-millisecond digits and a non-UTC zone:
// stores keep UTC milliseconds, and the suite checks exactly that.
var base = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.FixedZone("X", 5*3600+30*60))

// ms is what a store must give back for tm.
func ms(tm time.Time) time.Time { return tm.UTC().Truncate(time.Millisecond) }

func sampleTable(id string) store.Table {
	return store.Table{
		ID:       id,
		Game:     "dicestars",
		Options:  json.RawMessage(`{"layout":"default","solo":false,"n":[1,2,3]}`),
		Settings: json.RawMessage(`{"clock":{"turnMs":60000},"name":"Ümlaut \"quoted\" ✓"}`),
		Seed:     math.MaxUint64, // beyond int64: must survive signed columns
		Seats: []store.Seat{
			{Name: "ann", Kind: "human", TokenHash: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
			{Name: "bot 1", Kind: "bot", Bot: "expert"},
			{Name: "bob", Kind: "human", Bot: "greedy", TakenOver: true, TokenHash: "ab"},
		},
		Status:      store.StatusOpen,
		Created:     base,
		Updated:     base.Add(1500 * time.Microsecond),
		Creator:     "c:5e884898da28047151d0e56f8dc6292773603d0d6aabbdd62a11ef721d1542d8",
		CreatorAddr: "a:2001:db8:1:2::/64",
	}
}

func ctx(t *testing.T) context.Context {
	c, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return c
}

// equalJSON reports whether a and b hold the same JSON value; stores may
// reformat JSON (PostgreSQL's jsonb does) but not change it. Empty equals
// empty.
func equalJSON(a, b []byte) bool {
	if len(a) == 0 || len(b) == 0 {
		return len(a) == len(b)
	}
	var va, vb any
	if json.Unmarshal(a, &va) != nil || json.Unmarshal(b, &vb) != nil {
		return false
	}
	return reflect.DeepEqual(va, vb)
}

// diffTable describes how got differs from want, or returns "".
func diffTable(got, want store.Table) string {
	var d []string
	add := func(f string, g, w any) { d = append(d, fmt.Sprintf("%s: got %v, want %v", f, g, w)) }
	if got.ID != want.ID {
		add("ID", got.ID, want.ID)
	}
	if got.Game != want.Game {
		add("Game", got.Game, want.Game)
	}
	if !equalJSON(got.Options, want.Options) {
		add("Options", string(got.Options), string(want.Options))
	}
	if !equalJSON(got.Settings, want.Settings) {
		add("Settings", string(got.Settings), string(want.Settings))
	}
	if got.Seed != want.Seed {
		add("Seed", got.Seed, want.Seed)
	}
	if !(len(got.Seats) == 0 && len(want.Seats) == 0) && !reflect.DeepEqual(got.Seats, want.Seats) {
		add("Seats", got.Seats, want.Seats)
	}
	if got.Status != want.Status {
		add("Status", got.Status, want.Status)
	}
	// == (not Equal) so a store must also hand back UTC.
	if got.Created != ms(want.Created) {
		add("Created", got.Created, ms(want.Created))
	}
	if got.Updated != ms(want.Updated) {
		add("Updated", got.Updated, ms(want.Updated))
	}
	if got.Version != want.Version {
		add("Version", got.Version, want.Version)
	}
	if !reflect.DeepEqual(got.Result, want.Result) {
		add("Result", fmt.Sprintf("%+v", got.Result), fmt.Sprintf("%+v", want.Result))
	}
	if got.Rematch != want.Rematch {
		add("Rematch", got.Rematch, want.Rematch)
	}
	// The zero time stays zero (not recorded).
	if got.Seen != ms(want.Seen) && !(got.Seen.IsZero() && want.Seen.IsZero()) {
		add("Seen", got.Seen, ms(want.Seen))
	}
	if got.Creator != want.Creator || got.CreatorAddr != want.CreatorAddr {
		add("Creator, CreatorAddr", got.Creator+", "+got.CreatorAddr, want.Creator+", "+want.CreatorAddr)
	}
	if len(d) == 0 {
		return ""
	}
	return fmt.Sprint(d)
}

func mustCreate(t *testing.T, st store.Store, tb store.Table) {
	t.Helper()
	if err := st.CreateTable(ctx(t), tb); err != nil {
		t.Fatalf("CreateTable(%q): %v", tb.ID, err)
	}
}

func mustGet(t *testing.T, st store.Store, id string) store.Table {
	t.Helper()
	tb, err := st.GetTable(ctx(t), id)
	if err != nil {
		t.Fatalf("GetTable(%q): %v", id, err)
	}
	return tb
}

func mustMoves(t *testing.T, st store.Store, id string) []engine.LoggedMove {
	t.Helper()
	ms, err := st.Moves(ctx(t), id)
	if err != nil {
		t.Fatalf("Moves(%q): %v", id, err)
	}
	return ms
}

func mustAppend(t *testing.T, st store.Store, id string, version int, moves []engine.LoggedMove) {
	t.Helper()
	if err := st.AppendMoves(ctx(t), id, version, moves, store.NoFence); err != nil {
		t.Fatalf("AppendMoves(%q, %d, %d moves): %v", id, version, len(moves), err)
	}
}

// move is the i-th move of a synthetic log: its content is a function of i,
// so any lost, duplicated or reordered move shows.
func move(i int) engine.LoggedMove {
	seat := engine.Seat(i % 4)
	if i%5 == 4 {
		seat = engine.ChanceSeat
	}
	return engine.LoggedMove{
		Seat:   seat,
		At:     int64(i) * 1234,
		Action: json.RawMessage(fmt.Sprintf(`{"i":%d,"take":"value","value":%d}`, i, i%6+1)),
	}
}

func moves(from, n int) []engine.LoggedMove {
	out := make([]engine.LoggedMove, n)
	for k := range out {
		out[k] = move(from + k)
	}
	return out
}

// checkLog fails unless log is exactly want, move by move.
func checkLog(t *testing.T, log, want []engine.LoggedMove) {
	t.Helper()
	if len(log) != len(want) {
		t.Fatalf("log has %d moves, want %d", len(log), len(want))
	}
	for i := range log {
		if log[i].Seat != want[i].Seat || log[i].At != want[i].At || !equalJSON(log[i].Action, want[i].Action) {
			t.Fatalf("move %d = {%d %d %s}, want {%d %d %s}", i,
				log[i].Seat, log[i].At, log[i].Action, want[i].Seat, want[i].At, want[i].Action)
		}
	}
}

func (s *suite) createGet(t *testing.T) {
	st := s.store(t)
	want := sampleTable("t1")
	mustCreate(t, st, want)
	got := mustGet(t, st, "t1")
	if d := diffTable(got, want); d != "" {
		t.Fatalf("GetTable after CreateTable: %s", d)
	}
	if got.Created.Location() != time.UTC {
		t.Errorf("Created in %v, want UTC", got.Created.Location())
	}

	// Minimal table: no options, settings or seats, seed 0, a seed with the
	// top bit set in another.
	min := store.Table{ID: "t2", Game: "bookworm", Status: store.StatusLive, Created: base, Updated: base}
	mustCreate(t, st, min)
	if d := diffTable(mustGet(t, st, "t2"), min); d != "" {
		t.Fatalf("minimal table: %s", d)
	}
	top := sampleTable("t3")
	top.Seed = 1 << 63
	mustCreate(t, st, top)
	if got := mustGet(t, st, "t3").Seed; got != 1<<63 {
		t.Fatalf("Seed = %d, want %d", got, uint64(1<<63))
	}
}

func (s *suite) createExists(t *testing.T) {
	st := s.store(t)
	first := sampleTable("dup")
	mustCreate(t, st, first)
	second := sampleTable("dup")
	second.Game = "diceflick"
	second.Status = store.StatusLive
	err := st.CreateTable(ctx(t), second)
	if !errors.Is(err, store.ErrExists) {
		t.Fatalf("second CreateTable = %v, want ErrExists", err)
	}
	if d := diffTable(mustGet(t, st, "dup"), first); d != "" {
		t.Fatalf("a refused create changed the table: %s", d)
	}
}

func (s *suite) createInvalid(t *testing.T) {
	st := s.store(t)
	cases := map[string]func(*store.Table){
		"version":  func(tb *store.Table) { tb.Version = 3 },
		"no id":    func(tb *store.Table) { tb.ID = "" },
		"no game":  func(tb *store.Table) { tb.Game = "" },
		"status":   func(tb *store.Table) { tb.Status = "paused" },
		"options":  func(tb *store.Table) { tb.Options = json.RawMessage(`{"a":`) },
		"settings": func(tb *store.Table) { tb.Settings = json.RawMessage(`nope`) },
	}
	for name, mutate := range cases {
		tb := sampleTable("bad")
		mutate(&tb)
		err := st.CreateTable(ctx(t), tb)
		if err == nil {
			t.Errorf("%s: CreateTable accepted %+v", name, tb)
			continue
		}
		if errors.Is(err, store.ErrExists) || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
			t.Errorf("%s: CreateTable = %v, want a validation error, not a sentinel", name, err)
		}
	}
	all, err := st.List(ctx(t), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(all) != 0 {
		t.Fatalf("refused creates stored %d tables", len(all))
	}
}

func (s *suite) getNotFound(t *testing.T) {
	st := s.store(t)
	if _, err := st.GetTable(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("GetTable(absent) = %v, want ErrNotFound", err)
	}
	if _, err := st.Moves(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Moves(absent) = %v, want ErrNotFound", err)
	}
	if err := st.AppendMoves(ctx(t), "nope", 0, moves(0, 1), store.NoFence); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("AppendMoves(absent) = %v, want ErrNotFound", err)
	}
	if err := st.UpdateTable(ctx(t), sampleTable("nope"), store.NoFence); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UpdateTable(absent) = %v, want ErrNotFound", err)
	}
	if _, err := st.GetTable(ctx(t), "nope"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("UpdateTable(absent) created the table: GetTable = %v", err)
	}
}

func (s *suite) update(t *testing.T) {
	st := s.store(t)
	orig := sampleTable("u")
	mustCreate(t, st, orig)
	mustAppend(t, st, "u", 0, moves(0, 2))

	up := orig
	up.Seats = []store.Seat{{Name: "carl", Kind: "human", TokenHash: "cd"}, {Name: "b", Kind: "bot", Bot: "greedy"}}
	up.Status = store.StatusLive
	up.Settings = json.RawMessage(`{"clock":null}`)
	up.Updated = base.Add(time.Hour + 7*time.Millisecond + 3*time.Microsecond)
	up.Rematch = "next-table"
	up.Seen = base.Add(2*time.Hour + 5*time.Millisecond + 9*time.Microsecond)
	// Fields UpdateTable must leave alone.
	up.Game = "other"
	up.Options = json.RawMessage(`{"changed":true}`)
	up.Seed = 42
	up.Created = base.Add(-time.Hour)
	up.Version = 99
	up.Creator, up.CreatorAddr = "c:someone-else", "a:198.51.100.7"
	if err := st.UpdateTable(ctx(t), up, store.NoFence); err != nil {
		t.Fatalf("UpdateTable: %v", err)
	}
	want := orig
	want.Seats, want.Status, want.Settings, want.Updated = up.Seats, up.Status, up.Settings, up.Updated
	want.Rematch, want.Seen = up.Rematch, up.Seen
	want.Version = 2
	if d := diffTable(mustGet(t, st, "u"), want); d != "" {
		t.Fatalf("after UpdateTable: %s", d)
	}
	checkLog(t, mustMoves(t, st, "u"), moves(0, 2))

	// The game ends: its result is stored with the row.
	up.Status, up.Result = store.StatusOver, finalResult()
	if err := st.UpdateTable(ctx(t), up, store.NoFence); err != nil {
		t.Fatalf("UpdateTable with a result: %v", err)
	}
	want.Status, want.Result = store.StatusOver, finalResult()
	if d := diffTable(mustGet(t, st, "u"), want); d != "" {
		t.Fatalf("after storing the result: %s", d)
	}
	list, err := st.List(ctx(t), store.Filter{Status: []string{store.StatusOver}})
	if err != nil || len(list) != 1 || !reflect.DeepEqual(list[0].Result, finalResult()) {
		t.Fatalf("List of finished tables = %+v, %v: want the stored result", list, err)
	}

	// Settings, seats and the result may be cleared.
	up.Settings, up.Seats, up.Result = nil, nil, nil
	if err := st.UpdateTable(ctx(t), up, store.NoFence); err != nil {
		t.Fatalf("UpdateTable clearing: %v", err)
	}
	want.Settings, want.Seats, want.Result = nil, nil, nil
	if d := diffTable(mustGet(t, st, "u"), want); d != "" {
		t.Fatalf("after clearing UpdateTable: %s", d)
	}

	// A bad status is refused and changes nothing.
	bad := up
	bad.Status = "weird"
	if err := st.UpdateTable(ctx(t), bad, store.NoFence); err == nil {
		t.Fatal("UpdateTable accepted an unknown status")
	}
	if d := diffTable(mustGet(t, st, "u"), want); d != "" {
		t.Fatalf("refused UpdateTable changed the table: %s", d)
	}
}

// finalResult is a finished game's outcome, new on every call.
func finalResult() *engine.Result {
	return &engine.Result{Over: true, Scores: []int{31, -4, 31}, Winners: []engine.Seat{0, 2}}
}

// noAliasing: what a caller passes in or gets back is its own; changing it
// changes nothing stored.
func (s *suite) noAliasing(t *testing.T) {
	st := s.store(t)
	tb := sampleTable("a")
	want := sampleTable("a")
	mustCreate(t, st, tb)
	tb.Seats[0].Name = "mallory"
	tb.Options[2] = 'X'
	tb.Settings[2] = 'X'

	got := mustGet(t, st, "a")
	got.Seats[1].Bot = "evil"
	got.Options[2] = 'Y'
	if d := diffTable(mustGet(t, st, "a"), want); d != "" {
		t.Fatalf("caller's changes reached the store: %s", d)
	}

	in := moves(0, 2)
	mustAppend(t, st, "a", 0, in)
	in[0].Action[2] = 'Z'
	out := mustMoves(t, st, "a")
	out[1].Action[2] = 'Z'
	checkLog(t, mustMoves(t, st, "a"), moves(0, 2))

	list, err := st.List(ctx(t), store.Filter{})
	if err != nil || len(list) != 1 {
		t.Fatalf("List = %d tables, %v", len(list), err)
	}
	list[0].Seats[2].Name = "x"
	want.Version = 2
	if d := diffTable(mustGet(t, st, "a"), want); d != "" {
		t.Fatalf("changing List's result reached the store: %s", d)
	}

	over := want
	over.Status, over.Result = store.StatusOver, finalResult()
	if err := st.UpdateTable(ctx(t), over, store.NoFence); err != nil {
		t.Fatal(err)
	}
	over.Result.Scores[0], over.Result.Winners[0] = 99, 1
	got = mustGet(t, st, "a")
	got.Result.Scores[1] = 99
	want.Status, want.Result = store.StatusOver, finalResult()
	if d := diffTable(mustGet(t, st, "a"), want); d != "" {
		t.Fatalf("changing a result reached the store: %s", d)
	}
}

func (s *suite) appendVersions(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("v"))

	mustAppend(t, st, "v", 0, moves(0, 1))
	mustAppend(t, st, "v", 1, moves(1, 3)) // several at once
	if v := mustGet(t, st, "v").Version; v != 4 {
		t.Fatalf("Version = %d after 4 moves", v)
	}
	for _, bad := range []int{0, 1, 3, 5, 100, -1} {
		err := st.AppendMoves(ctx(t), "v", bad, moves(4, 2), store.NoFence)
		if !errors.Is(err, store.ErrConflict) {
			t.Fatalf("AppendMoves at version %d (stored 4) = %v, want ErrConflict", bad, err)
		}
	}
	// An empty append checks the version and writes nothing.
	if err := st.AppendMoves(ctx(t), "v", 4, nil, store.NoFence); err != nil {
		t.Fatalf("empty AppendMoves at the right version: %v", err)
	}
	if err := st.AppendMoves(ctx(t), "v", 2, nil, store.NoFence); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("empty AppendMoves at a stale version = %v, want ErrConflict", err)
	}
	if v := mustGet(t, st, "v").Version; v != 4 {
		t.Fatalf("refused appends changed Version to %d", v)
	}
	checkLog(t, mustMoves(t, st, "v"), moves(0, 4))

	mustAppend(t, st, "v", 4, moves(4, 2))
	checkLog(t, mustMoves(t, st, "v"), moves(0, 6))

	// Logs are per table.
	mustCreate(t, st, sampleTable("w"))
	if got := mustMoves(t, st, "w"); got == nil || len(got) != 0 {
		t.Fatalf("a new table's log = %#v, want an empty slice", got)
	}
	mustAppend(t, st, "w", 0, moves(100, 1))
	checkLog(t, mustMoves(t, st, "w"), moves(100, 1))
	checkLog(t, mustMoves(t, st, "v"), moves(0, 6))
}

// appendInvalid: a batch with one bad move is refused whole.
func (s *suite) appendInvalid(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("x"))
	mustAppend(t, st, "x", 0, moves(0, 2))
	batch := moves(2, 3)
	batch[2].Action = json.RawMessage(`{"broken":`)
	if err := st.AppendMoves(ctx(t), "x", 2, batch, store.NoFence); err == nil {
		t.Fatal("AppendMoves accepted an action that is not JSON")
	}
	batch[2].Action = nil
	if err := st.AppendMoves(ctx(t), "x", 2, batch, store.NoFence); err == nil {
		t.Fatal("AppendMoves accepted an empty action")
	}
	if v := mustGet(t, st, "x").Version; v != 2 {
		t.Fatalf("refused batch changed Version to %d", v)
	}
	checkLog(t, mustMoves(t, st, "x"), moves(0, 2))
}

func (s *suite) movesRoundTrip(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("m"))
	in := []engine.LoggedMove{
		{Seat: 0, At: 0, Action: json.RawMessage(`{"draw":3,"returnReserve":true}`)},
		{Seat: engine.ChanceSeat, At: 1, Action: json.RawMessage(`{"roll":["blue:5","orange:star"]}`)},
		{Seat: engine.SystemSeat, At: math.MaxInt64, Action: json.RawMessage(`{"timeout":{"seat":2}}`)},
		{Seat: 3, At: 1700000000123, Action: json.RawMessage(` [1, 2.5, -3e2, "ü\u00e9\"", null, true, {}] `)},
		{Seat: 1, At: -5, Action: json.RawMessage(`"pass"`)},
		{Seat: 2, At: 7, Action: json.RawMessage(`12345678901234567`)},
	}
	mustAppend(t, st, "m", 0, in)
	checkLog(t, mustMoves(t, st, "m"), in)

	// A long log keeps its order (stores must not order by text).
	long := moves(len(in), 120)
	mustAppend(t, st, "m", len(in), long)
	checkLog(t, mustMoves(t, st, "m"), append(slices.Clone(in), long...))
}

func (s *suite) list(t *testing.T) {
	st := s.store(t)
	c := ctx(t)
	type spec struct {
		id, game, status string
		minutes          int // Updated = base + minutes
	}
	specs := []spec{
		{"a", "dicestars", store.StatusOpen, 5},
		{"b", "dicestars", store.StatusLive, 9},
		{"c", "bookworm", store.StatusOpen, 1},
		{"d", "dicestars", store.StatusOver, 7},
		{"e", "bookworm", store.StatusLive, 3},
		{"f", "diceflick", store.StatusOpen, 8},
	}
	for _, sp := range specs {
		tb := sampleTable(sp.id)
		tb.Game, tb.Status = sp.game, sp.status
		// Created in the opposite order, so ordering by creation fails.
		tb.Created = base.Add(time.Duration(-sp.minutes) * time.Minute)
		tb.Updated = base.Add(time.Duration(sp.minutes) * time.Minute)
		mustCreate(t, st, tb)
	}
	mustAppend(t, st, "b", 0, moves(0, 3))

	ids := func(f store.Filter) []string {
		t.Helper()
		got, err := st.List(c, f)
		if err != nil {
			t.Fatalf("List(%+v): %v", f, err)
		}
		out := make([]string, len(got))
		for i, tb := range got {
			out[i] = tb.ID
		}
		return out
	}
	check := func(f store.Filter, want ...string) {
		t.Helper()
		if got := ids(f); !slices.Equal(got, want) {
			t.Errorf("List(%+v) = %v, want %v", f, got, want)
		}
	}
	check(store.Filter{}, "b", "f", "d", "a", "e", "c")
	check(store.Filter{Status: []string{store.StatusOpen}}, "f", "a", "c")
	check(store.Filter{Status: []string{store.StatusLive, store.StatusOver}}, "b", "d", "e")
	check(store.Filter{Game: "dicestars"}, "b", "d", "a")
	check(store.Filter{Game: "bookworm", Status: []string{store.StatusLive}}, "e")
	check(store.Filter{Game: "nogame"})
	// No match is an empty slice, not nil: handlers encode it as [] either way.
	if got, err := st.List(c, store.Filter{Game: "nogame"}); err != nil || got == nil {
		t.Errorf("List with no match = %#v, %v; want an empty slice", got, err)
	}
	check(store.Filter{Status: []string{"nostatus"}})
	check(store.Filter{Limit: 2}, "b", "f")
	check(store.Filter{Limit: 1, Status: []string{store.StatusOpen}, Game: "bookworm"}, "c")

	// List returns whole tables, Version included.
	got, err := st.List(c, store.Filter{Limit: 1})
	if err != nil || len(got) != 1 {
		t.Fatalf("List = %v, %v", got, err)
	}
	want := sampleTable("b")
	want.Status = store.StatusLive
	want.Created = base.Add(-9 * time.Minute)
	want.Updated = base.Add(9 * time.Minute)
	want.Version = 3
	if d := diffTable(got[0], want); d != "" {
		t.Errorf("List's table: %s", d)
	}

	// Updating moves a table to the front; a millisecond is enough.
	c2 := mustGet(t, st, "c")
	c2.Updated = base.Add(9*time.Minute + time.Millisecond)
	if err := st.UpdateTable(c, c2, store.NoFence); err != nil {
		t.Fatal(err)
	}
	check(store.Filter{}, "c", "b", "f", "d", "a", "e")
}

func (s *suite) listDefaultLimit(t *testing.T) {
	st := s.store(t)
	const n = 105
	for i := range n {
		tb := store.Table{
			ID: fmt.Sprintf("t%03d", i), Game: "dicestars", Status: store.StatusOpen,
			Created: base, Updated: base.Add(time.Duration(i) * time.Second),
		}
		mustCreate(t, st, tb)
	}
	got, err := st.List(ctx(t), store.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 100 {
		t.Fatalf("List with Limit 0 returned %d of %d tables, want the default 100", len(got), n)
	}
	if got[0].ID != "t104" || got[99].ID != "t005" {
		t.Fatalf("List = %s ... %s, want t104 ... t005", got[0].ID, got[99].ID)
	}
	got, err = st.List(ctx(t), store.Filter{Limit: 1000})
	if err != nil || len(got) != n {
		t.Fatalf("List with Limit 1000 = %d tables, %v; want %d", len(got), err, n)
	}
}

// canceled: a canceled context is refused and writes nothing.
// listOpenSince: open tables last updated before Filter.OpenSince have
// expired and are left out; tables in other states stay, however old.
func (s *suite) listOpenSince(t *testing.T) {
	st := s.store(t)
	add := func(id, status string, updated time.Duration) {
		tb := sampleTable(id)
		tb.Status, tb.Updated = status, base.Add(updated)
		mustCreate(t, st, tb)
	}
	add("old-open", store.StatusOpen, time.Minute)
	add("edge-open", store.StatusOpen, time.Hour)
	add("new-open", store.StatusOpen, 2*time.Hour)
	add("old-live", store.StatusLive, time.Minute)
	add("old-over", store.StatusOver, time.Minute)
	ids := func(f store.Filter) []string {
		t.Helper()
		list, err := st.List(ctx(t), f)
		if err != nil {
			t.Fatalf("List(%+v): %v", f, err)
		}
		var out []string
		for _, tb := range list {
			out = append(out, tb.ID)
		}
		slices.Sort(out)
		return out
	}
	if got := ids(store.Filter{}); len(got) != 5 {
		t.Fatalf("without OpenSince List = %v, want all 5", got)
	}
	want := []string{"edge-open", "new-open", "old-live", "old-over"}
	if got := ids(store.Filter{OpenSince: base.Add(time.Hour)}); !slices.Equal(got, want) {
		t.Fatalf("List with OpenSince = %v, want %v", got, want)
	}
	want = []string{"edge-open", "new-open"}
	if got := ids(store.Filter{Status: []string{store.StatusOpen}, OpenSince: base.Add(time.Hour)}); !slices.Equal(got, want) {
		t.Fatalf("List of open tables with OpenSince = %v, want %v", got, want)
	}
}

// listSeenSince: live tables nobody has been at since the time (neither
// seen nor updated since) are left out; others are kept whatever their age.
func (s *suite) listSeenSince(t *testing.T) {
	st := s.store(t)
	add := func(id, status string, updated, seen time.Duration) {
		tb := sampleTable(id)
		tb.Status, tb.Updated = status, base.Add(updated)
		mustCreate(t, st, tb)
		if seen > 0 {
			tb.Seen = base.Add(seen)
			if err := st.UpdateTable(ctx(t), tb, store.NoFence); err != nil {
				t.Fatal(err)
			}
		}
	}
	add("gone", store.StatusLive, time.Minute, 0)
	add("gone-seen", store.StatusLive, time.Minute, 30*time.Minute)
	add("seen", store.StatusLive, time.Minute, time.Hour)
	add("changed", store.StatusLive, 2*time.Hour, 0)
	add("old-open", store.StatusOpen, time.Minute, 0)
	add("old-over", store.StatusOver, time.Minute, 0)
	f := store.Filter{SeenSince: base.Add(time.Hour)}
	list, err := st.List(ctx(t), f)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, tb := range list {
		got = append(got, tb.ID)
	}
	slices.Sort(got)
	if want := []string{"changed", "old-open", "old-over", "seen"}; !slices.Equal(got, want) {
		t.Fatalf("List with SeenSince = %v, want %v", got, want)
	}
	if n, err := st.Count(ctx(t), f); err != nil || n != 4 {
		t.Fatalf("Count with SeenSince = %d, %v; want 4", n, err)
	}
}

// byCreator: the filters of the table budgets (creator, address, when
// created, live tables by age) select the same tables in List and Count.
func (s *suite) byCreator(t *testing.T) {
	st := s.store(t)
	type spec struct {
		id, creator, addr, status string
		created, updated          int // minutes after base
	}
	specs := []spec{
		{"a1", "c:ann", "a:1", store.StatusOpen, 0, 50},
		{"a2", "c:ann", "a:1", store.StatusLive, 10, 20},
		{"a3", "c:ann", "a:1", store.StatusOver, 20, 30},
		{"b1", "c:bob", "a:1", store.StatusOpen, 30, 30},
		{"b2", "c:bob", "a:2", store.StatusLive, 40, 60},
		{"x1", "", "", store.StatusOpen, 50, 50},
	}
	for _, sp := range specs {
		tb := sampleTable(sp.id)
		tb.Creator, tb.CreatorAddr, tb.Status = sp.creator, sp.addr, sp.status
		tb.Created = base.Add(time.Duration(sp.created) * time.Minute)
		tb.Updated = base.Add(time.Duration(sp.updated) * time.Minute)
		mustCreate(t, st, tb)
	}
	at := func(min int) time.Time { return base.Add(time.Duration(min) * time.Minute) }
	inPlay := []string{store.StatusOpen, store.StatusLive}
	for _, c := range []struct {
		f    store.Filter
		want []string
	}{
		{store.Filter{Creator: "c:ann"}, []string{"a1", "a2", "a3"}},
		{store.Filter{Creator: "c:ann", Status: inPlay}, []string{"a1", "a2"}},
		{store.Filter{CreatorAddr: "a:1", Status: inPlay}, []string{"a1", "a2", "b1"}},
		{store.Filter{CreatorAddr: "a:1", Creator: "c:bob"}, []string{"b1"}},
		{store.Filter{Creator: "c:nobody"}, nil},
		{store.Filter{CreatedSince: at(30)}, []string{"b1", "b2", "x1"}},
		{store.Filter{Creator: "c:ann", CreatedSince: at(10)}, []string{"a2", "a3"}},
		// LiveSince leaves out live tables updated before it, only them.
		{store.Filter{Status: inPlay, LiveSince: at(21)}, []string{"a1", "b1", "b2", "x1"}},
		{store.Filter{Status: inPlay, LiveSince: at(20)}, []string{"a1", "a2", "b1", "b2", "x1"}},
		{store.Filter{Status: inPlay, LiveSince: at(21), OpenSince: at(40)}, []string{"a1", "b2", "x1"}},
	} {
		list, err := st.List(ctx(t), c.f)
		if err != nil {
			t.Fatalf("List(%+v): %v", c.f, err)
		}
		var got []string
		for _, tb := range list {
			got = append(got, tb.ID)
		}
		slices.Sort(got)
		if !slices.Equal(got, c.want) {
			t.Errorf("List(%+v) = %v, want %v", c.f, got, c.want)
		}
		n, err := st.Count(ctx(t), c.f)
		if err != nil || n != len(c.want) {
			t.Errorf("Count(%+v) = %d, %v; want %d", c.f, n, err, len(c.want))
		}
	}
	// Count ignores Limit.
	if n, err := st.Count(ctx(t), store.Filter{Limit: 1}); err != nil || n != len(specs) {
		t.Errorf("Count with Limit 1 = %d, %v; want %d", n, err, len(specs))
	}
}

// perCreator: PerCreator keeps each creator's most recently updated
// tables; tables with no creator are each their own; Limit applies after.
func (s *suite) perCreator(t *testing.T) {
	st := s.store(t)
	add := func(id, creator string, updated int) {
		tb := sampleTable(id)
		tb.Creator, tb.Updated = creator, base.Add(time.Duration(updated)*time.Second)
		mustCreate(t, st, tb)
	}
	for i := range 10 {
		add(fmt.Sprintf("spam%d", i), "c:spammer", 100+i)
	}
	add("ann1", "c:ann", 50)
	add("ann2", "c:ann", 40)
	add("ann3", "c:ann", 30)
	add("old1", "", 20)
	add("old2", "", 10)
	ids := func(f store.Filter) []string {
		t.Helper()
		list, err := st.List(ctx(t), f)
		if err != nil {
			t.Fatalf("List(%+v): %v", f, err)
		}
		var out []string
		for _, tb := range list {
			out = append(out, tb.ID)
		}
		return out
	}
	if got, want := ids(store.Filter{PerCreator: 2}), []string{"spam9", "spam8", "ann1", "ann2", "old1", "old2"}; !slices.Equal(got, want) {
		t.Errorf("PerCreator 2 = %v, want %v", got, want)
	}
	if got, want := ids(store.Filter{PerCreator: 1, Limit: 3}), []string{"spam9", "ann1", "old1"}; !slices.Equal(got, want) {
		t.Errorf("PerCreator 1, Limit 3 = %v, want %v", got, want)
	}
	if got := ids(store.Filter{}); len(got) != 15 {
		t.Errorf("without PerCreator: %d tables, want 15", len(got))
	}
	// Filters apply before the count per creator.
	if got, want := ids(store.Filter{PerCreator: 1, CreatedSince: base, Creator: "c:ann"}), []string{"ann1"}; !slices.Equal(got, want) {
		t.Errorf("PerCreator 1 of ann = %v, want %v", got, want)
	}
}

func (s *suite) canceled(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("c"))
	c, cancel := context.WithCancel(context.Background())
	cancel()
	if err := st.AppendMoves(c, "c", 0, moves(0, 2), store.NoFence); err == nil {
		t.Fatal("AppendMoves with a canceled context succeeded")
	}
	if err := st.CreateTable(c, sampleTable("d")); err == nil {
		t.Fatal("CreateTable with a canceled context succeeded")
	}
	if v := mustGet(t, st, "c").Version; v != 0 {
		t.Fatalf("canceled AppendMoves wrote: Version %d", v)
	}
	if _, err := st.GetTable(ctx(t), "d"); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("canceled CreateTable wrote: GetTable = %v", err)
	}
}

// appendRace: writers racing on the same version; exactly one wins.
func (s *suite) appendRace(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("r"))
	const writers, rounds = 8, 10
	var want []engine.LoggedMove
	for round := range rounds {
		version := len(want)
		errs := make([]error, writers)
		var start, done sync.WaitGroup
		start.Add(1)
		for w := range writers {
			done.Go(func() {
				start.Wait()
				// Writer w's batch is recognisable: moves from w*1000.
				errs[w] = st.AppendMoves(context.Background(), "r", version, moves(w*1000+round*10, 1+w%3), store.NoFence)
			})
		}
		start.Done()
		done.Wait()
		winner := -1
		for w, err := range errs {
			switch {
			case err == nil:
				if winner >= 0 {
					t.Fatalf("round %d: writers %d and %d both appended at version %d", round, winner, w, version)
				}
				winner = w
			case !errors.Is(err, store.ErrConflict):
				t.Fatalf("round %d: writer %d: %v, want nil or ErrConflict", round, w, err)
			}
		}
		if winner < 0 {
			t.Fatalf("round %d: no writer won", round)
		}
		want = append(want, moves(winner*1000+round*10, 1+winner%3)...)
		checkLog(t, mustMoves(t, st, "r"), want)
		if v := mustGet(t, st, "r").Version; v != len(want) {
			t.Fatalf("round %d: Version %d, want %d", round, v, len(want))
		}
	}
}

// concurrent: many goroutines use one store at once (run with -race). Writers
// share tables and append with read-version-then-append retries, the way a
// server would; readers check that every log they see is a clean prefix.
func (s *suite) concurrent(t *testing.T) {
	st := s.store(t)
	const tables, writers, appendsEach = 3, 6, 8
	for i := range tables {
		mustCreate(t, st, sampleTable(fmt.Sprintf("c%d", i)))
	}
	deadline := time.Now().Add(20 * time.Second)
	var wg sync.WaitGroup
	errc := make(chan error, 64)
	fail := func(err error) {
		select {
		case errc <- err:
		default:
		}
	}
	for w := range writers {
		wg.Go(func() {
			c := context.Background()
			for k := range appendsEach {
				id := fmt.Sprintf("c%d", (w+k)%tables)
				// Every move says who wrote it, so the log can be audited.
				m := engine.LoggedMove{Seat: engine.Seat(w), At: int64(k),
					Action: json.RawMessage(fmt.Sprintf(`{"w":%d,"k":%d}`, w, k))}
				for {
					if time.Now().After(deadline) {
						fail(fmt.Errorf("writer %d: gave up retrying", w))
						return
					}
					tb, err := st.GetTable(c, id)
					if err != nil {
						fail(fmt.Errorf("writer %d: GetTable: %w", w, err))
						return
					}
					err = st.AppendMoves(c, id, tb.Version, []engine.LoggedMove{m}, store.NoFence)
					if err == nil {
						break
					}
					if !errors.Is(err, store.ErrConflict) {
						fail(fmt.Errorf("writer %d: AppendMoves: %w", w, err))
						return
					}
				}
				tb, err := st.GetTable(c, id)
				if err != nil {
					fail(err)
					return
				}
				tb.Updated = base.Add(time.Duration(w*100+k) * time.Millisecond)
				if err := st.UpdateTable(c, tb, store.NoFence); err != nil {
					fail(fmt.Errorf("writer %d: UpdateTable: %w", w, err))
					return
				}
			}
		})
	}
	for r := range 3 {
		wg.Go(func() {
			c := context.Background()
			for i := range 20 {
				id := fmt.Sprintf("c%d", (r+i)%tables)
				log, err := st.Moves(c, id)
				if err != nil {
					fail(fmt.Errorf("reader: Moves: %w", err))
					return
				}
				seen := map[string]bool{}
				for _, m := range log {
					if seen[string(m.Action)] {
						fail(fmt.Errorf("reader: %s appears twice in %s", m.Action, id))
						return
					}
					seen[string(m.Action)] = true
				}
				if _, err := st.List(c, store.Filter{Limit: 2}); err != nil {
					fail(fmt.Errorf("reader: List: %w", err))
					return
				}
			}
		})
	}
	wg.Wait()
	close(errc)
	for err := range errc {
		t.Fatal(err)
	}

	// Every writer's moves are each in the log once, in its own order.
	total := 0
	for i := range tables {
		id := fmt.Sprintf("c%d", i)
		log := mustMoves(t, st, id)
		if v := mustGet(t, st, id).Version; v != len(log) {
			t.Fatalf("%s: Version %d but %d moves", id, v, len(log))
		}
		last := map[int]int{}
		for _, m := range log {
			var a struct{ W, K int }
			if err := json.Unmarshal(m.Action, &a); err != nil {
				t.Fatal(err)
			}
			if k, ok := last[a.W]; ok && a.K <= k {
				t.Fatalf("%s: writer %d's move %d after its move %d", id, a.W, a.K, k)
			}
			if (a.W+a.K)%tables != i || int(m.Seat) != a.W || m.At != int64(a.K) {
				t.Fatalf("%s: move %s does not belong here (seat %d, at %d)", id, m.Action, m.Seat, m.At)
			}
			last[a.W] = a.K
		}
		total += len(log)
	}
	if total != writers*appendsEach {
		t.Fatalf("%d moves stored, want %d", total, writers*appendsEach)
	}
}

func (s *suite) persistence(t *testing.T) {
	if s.cfg.reopen == nil {
		t.Skip("not a persistent store (no storetest.Reopen option)")
	}
	st := s.open(t)
	closed := false
	t.Cleanup(func() {
		if !closed {
			st.Close()
		}
	})
	a := sampleTable("p1")
	mustCreate(t, st, a)
	mustAppend(t, st, "p1", 0, moves(0, 3))
	mustAppend(t, st, "p1", 3, moves(3, 2))
	a.Status = store.StatusOver
	a.Seats[0].TakenOver = true
	a.Result = finalResult()
	a.Updated = base.Add(time.Minute)
	if err := st.UpdateTable(ctx(t), a, store.NoFence); err != nil {
		t.Fatal(err)
	}
	b := sampleTable("p2")
	b.Options, b.Seed = nil, 7
	mustCreate(t, st, b)
	if err := st.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	closed = true

	st2 := s.cfg.reopen(t, st)
	t.Cleanup(func() { st2.Close() })
	a.Version = 5
	if d := diffTable(mustGet(t, st2, "p1"), a); d != "" {
		t.Fatalf("after reopen: %s", d)
	}
	if d := diffTable(mustGet(t, st2, "p2"), b); d != "" {
		t.Fatalf("after reopen: %s", d)
	}
	checkLog(t, mustMoves(t, st2, "p1"), moves(0, 5))
	// The reopened store goes on where the old one stopped.
	if err := st2.AppendMoves(ctx(t), "p1", 3, moves(3, 1), store.NoFence); !errors.Is(err, store.ErrConflict) {
		t.Fatalf("stale append after reopen = %v, want ErrConflict", err)
	}
	mustAppend(t, st2, "p1", 5, moves(5, 1))
	checkLog(t, mustMoves(t, st2, "p1"), moves(0, 6))
	if err := st2.CreateTable(ctx(t), sampleTable("p2")); !errors.Is(err, store.ErrExists) {
		t.Fatalf("CreateTable of a reopened table = %v, want ErrExists", err)
	}
	list, err := st2.List(ctx(t), store.Filter{})
	if err != nil || len(list) != 2 || list[0].ID != "p1" {
		t.Fatalf("List after reopen = %v, %v", list, err)
	}
}
