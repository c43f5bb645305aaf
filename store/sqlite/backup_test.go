package sqlite_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// TestBackup: a backup taken while the store keeps serving holds every
// table, move, account and chat line committed before it, opens as a store
// of its own, and is never written over an existing file.
func TestBackup(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	s := open(t, filepath.Join(dir, "dicehall.db"))
	defer s.Close()
	now := time.Now().UTC().Truncate(time.Millisecond)
	tb := store.Table{ID: "t1", Game: "dicestars", Status: store.StatusLive, Seed: 7, Created: now, Updated: now,
		Seats: []store.Seat{{Name: "ann", Kind: "human", Account: "a1"}, {Name: "bot", Kind: "bot", Bot: "greedy"}}}
	if err := s.CreateAccount(ctx, store.Account{ID: "a1", Name: "Ann", NameKey: "ann", Created: now}); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTable(ctx, tb); err != nil {
		t.Fatal(err)
	}
	moves := []engine.LoggedMove{{Seat: 0, At: 5, Action: json.RawMessage(`{"draw":3}`)}, {Seat: 1, At: 9, Action: json.RawMessage(`{"take":"stars"}`)}}
	if err := s.AppendMoves(ctx, "t1", 0, moves, store.NoFence); err != nil {
		t.Fatal(err)
	}
	if _, err := s.AppendChat(ctx, store.ChatMessage{Table: "t1", At: now, Seat: 0, Role: store.ChatPlayer, Name: "ann", Text: "hi"}); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(dir, "backup.db")
	if err := s.Backup(ctx, out); err != nil {
		t.Fatal(err)
	}
	// The store goes on after the backup; the copy does not follow.
	if err := s.AppendMoves(ctx, "t1", 2, moves[:1], store.NoFence); err != nil {
		t.Fatal(err)
	}
	if err := s.Backup(ctx, out); err == nil || !strings.Contains(err.Error(), "exists") {
		t.Errorf("a second backup over the first: %v", err)
	}

	b := open(t, out)
	defer b.Close()
	got, err := b.GetTable(ctx, "t1")
	if err != nil {
		t.Fatal(err)
	}
	if got.Version != 2 || !reflect.DeepEqual(got.Seats, tb.Seats) {
		t.Errorf("the backup's table: version %d seats %+v", got.Version, got.Seats)
	}
	if log, err := b.Moves(ctx, "t1"); err != nil || len(log) != 2 {
		t.Errorf("the backup's moves: %d, %v", len(log), err)
	}
	if a, err := b.AccountByName(ctx, "ann"); err != nil || a.ID != "a1" {
		t.Errorf("the backup's account: %+v, %v", a, err)
	}
	if chat, err := b.Chat(ctx, "t1", 0, 0); err != nil || len(chat) != 1 || chat[0].Text != "hi" {
		t.Errorf("the backup's chat: %+v, %v", chat, err)
	}
}
