package notify_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/dicehall/dicehall/notify"
)

// TestQuietHoursHoldUntilTheyEnd: notices in the quiet hours (in the
// account's zone, across midnight) wait for their end, the latest of each
// table only, in the order the tables first came.
func TestQuietHoursHoldUntilTheyEnd(t *testing.T) {
	f := newFixture(t, notify.Config{})
	subscribe(t, f.push, f.st, "acc-ann", "/sub/phone")
	f.settings(t, notify.Settings{Push: true, Turns: true, Results: true, Lang: "en",
		Quiet: &notify.Quiet{From: "22:00", To: "08:00", TZ: "Europe/Paris"}})
	// 12:00 UTC is 14:00 in Paris (summer time): not quiet.
	f.svc.Notify(context.Background(), turn("day"))
	f.push.WaitFor(t, "", 1)

	f.clock.Advance(9*time.Hour + 30*time.Minute) // 23:30 in Paris
	f.svc.Notify(context.Background(), turn("tb1"))
	f.svc.Notify(context.Background(), turn("tb2"))
	over := turn("tb1")
	over.Kind = notify.KindOver
	f.svc.Notify(context.Background(), over)
	f.clock.Advance(8*time.Hour + 29*time.Minute) // 07:59
	time.Sleep(50 * time.Millisecond)
	if got := f.push.Received(); len(got) != 1 {
		t.Fatalf("%d messages sent in the quiet hours", len(got)-1)
	}
	f.clock.Advance(time.Minute) // 08:00 in Paris
	got := f.push.WaitFor(t, "", 3)
	if got[1].Message.Title != "Game over: Dice Stars" || got[2].Message.Title != "Your turn: Dice Stars" || got[2].Message.URL != "/t/tb2" {
		t.Fatalf("after the quiet hours: %q (%s), %q (%s); want tb1's game over, then tb2's turn",
			got[1].Message.Title, got[1].Message.URL, got[2].Message.Title, got[2].Message.URL)
	}
}

// TestQuietHoursFollowChangedSettings: a held notice goes by the settings
// of when the quiet hours end (here: turns switched off meanwhile).
func TestQuietHoursFollowChangedSettings(t *testing.T) {
	f := newFixture(t, notify.Config{})
	subscribe(t, f.push, f.st, "acc-ann", "/sub/phone")
	f.settings(t, notify.Settings{Push: true, Turns: true, Quiet: &notify.Quiet{From: "12:30", To: "13:30", TZ: "UTC"}})
	f.clock.Advance(time.Hour) // 13:00 UTC
	f.svc.Notify(context.Background(), turn("tb1"))
	f.settings(t, notify.Settings{Push: true, Turns: false})
	f.clock.Advance(time.Hour)
	time.Sleep(50 * time.Millisecond)
	if got := f.push.Received(); len(got) != 0 {
		t.Fatalf("sent %+v after turns were switched off", got)
	}
}

// TestTurnBound: one "your turn" per table per TurnEvery; other tables and
// "game over" are not bounded.
func TestTurnBound(t *testing.T) {
	f := newFixture(t, notify.Config{TurnEvery: 10 * time.Minute})
	subscribe(t, f.push, f.st, "acc-ann", "/sub/phone")
	ctx := context.Background()
	f.svc.Notify(ctx, turn("tb1"))
	f.clock.Advance(9 * time.Minute)
	f.svc.Notify(ctx, turn("tb1")) // bounded
	f.svc.Notify(ctx, turn("tb2"))
	over := turn("tb1")
	over.Kind = notify.KindOver
	f.svc.Notify(ctx, over)
	f.clock.Advance(time.Minute)
	f.svc.Notify(ctx, turn("tb1"))
	got := f.push.WaitFor(t, "", 4)
	var paths []string
	for _, p := range got {
		paths = append(paths, p.Message.URL+" "+p.Message.Title)
	}
	want := "/t/tb1 Your turn: Dice Stars|/t/tb2 Your turn: Dice Stars|/t/tb1 Game over: Dice Stars|/t/tb1 Your turn: Dice Stars"
	if strings.Join(paths, "|") != want {
		t.Fatalf("sent %q, want %q", strings.Join(paths, "|"), want)
	}
}

// TestKindsFollowSettings: turns off drops "your turn" and reminders,
// results off drops "game over", and defaults apply to an account that
// never saved settings.
func TestKindsFollowSettings(t *testing.T) {
	f := newFixture(t, notify.Config{TurnEvery: -1})
	subscribe(t, f.push, f.st, "acc-ann", "/sub/phone")
	ctx := context.Background()
	rem := turn("tb1")
	rem.Kind = notify.KindReminder
	rem.Deadline = f.clock.Now().Add(45 * time.Minute)
	f.svc.Notify(ctx, rem) // defaults: sent
	got := f.push.WaitFor(t, "", 1)
	if m := got[0].Message; m.Title != "Your move is waiting: Dice Stars" || m.Body != "The clock is running. Time left: 45 min." || got[0].Header.Get("Urgency") != "high" {
		t.Fatalf("reminder %+v, urgency %q", m, got[0].Header.Get("Urgency"))
	}
	over := turn("tb1")
	over.Kind = notify.KindOver
	f.settings(t, notify.Settings{Push: true, Turns: false, Results: true})
	f.svc.Notify(ctx, turn("tb1"))
	f.svc.Notify(ctx, rem)
	f.svc.Notify(ctx, over)
	f.settings(t, notify.Settings{Push: true, Turns: true, Results: false})
	f.svc.Notify(ctx, over)
	f.settings(t, notify.Settings{Push: false, Turns: true, Results: true})
	f.svc.Notify(ctx, turn("tb1"))
	got = f.push.WaitFor(t, "", 2)
	if got[1].Message.Title != "Game over: Dice Stars" {
		t.Fatalf("second message %+v, want the game over only", got[1].Message)
	}
}

func TestSettingsCheck(t *testing.T) {
	ok := []notify.Settings{
		notify.DefaultSettings(),
		{Email: "ann@example.org", EmailOn: true, Lang: "fr"},
		{Quiet: &notify.Quiet{From: "22:00", To: "07:30", TZ: "America/New_York"}},
		{Quiet: &notify.Quiet{From: "00:00", To: "23:59", TZ: "UTC"}},
	}
	for _, s := range ok {
		if err := s.Check(); err != nil {
			t.Errorf("%+v refused: %v", s, err)
		}
	}
	bad := map[string]notify.Settings{
		"named address":  {Email: "Ann <ann@example.org>"},
		"two addresses":  {Email: "a@example.org, b@example.org"},
		"header break":   {Email: "a@example.org\r\nBcc: b@example.org"},
		"on without one": {EmailOn: true},
		"language":       {Lang: "de"},
		"hour 24":        {Quiet: &notify.Quiet{From: "24:00", To: "07:00", TZ: "UTC"}},
		"one digit":      {Quiet: &notify.Quiet{From: "7:00", To: "08:00", TZ: "UTC"}},
		"same time":      {Quiet: &notify.Quiet{From: "07:00", To: "07:00", TZ: "UTC"}},
		"no zone":        {Quiet: &notify.Quiet{From: "22:00", To: "07:00"}},
		"server's zone":  {Quiet: &notify.Quiet{From: "22:00", To: "07:00", TZ: "Local"}},
		"unknown zone":   {Quiet: &notify.Quiet{From: "22:00", To: "07:00", TZ: "Mars/Olympus"}},
		"long address":   {Email: strings.Repeat("a", 250) + "@example.org"},
	}
	for name, s := range bad {
		if err := s.Check(); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
