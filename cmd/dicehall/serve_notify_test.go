package main

import (
	"context"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/store/sqlite"
)

func TestServeNotifyFlags(t *testing.T) {
	db := func() string { return filepath.Join(t.TempDir(), "x.db") }
	for _, bad := range [][]string{
		{"--vapid-subject", "ops@example.org"},
		{"--smtp-addr", "mail.example.org:587"}, // no --public-url
		{"--smtp-addr", "mail.example.org", "--public-url", "https://example.org"},
		{"--smtp-from", "x@example.org"},
		{"--smtp-addr", "mail.example.org:587", "--public-url", "https://example.org", "--smtp-password-file", "/no/such/file"},
		{"--smtp-addr", "mail.example.org:587", "--public-url", "https://example.org", "--smtp-from", "Dice <x@example.org>"},
	} {
		if _, code := runDicehall(t, "", append([]string{"serve", "--addr", "127.0.0.1:0", "--db", db()}, bad...)...); code == 0 {
			t.Errorf("serve %v succeeded", bad)
		}
	}
	out, code := runDicehall(t, "", "serve", "--help")
	for _, want := range []string{"--vapid-subject", "--smtp-addr", "--smtp-from", "--smtp-user", "--smtp-password-file"} {
		if code != 0 || !strings.Contains(out, want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
}

// TestServeKeepsVAPIDKeys: the keys made at the first start are the ones
// of every later start on the same database (browsers subscribed with
// them).
func TestServeKeepsVAPIDKeys(t *testing.T) {
	path := filepath.Join(t.TempDir(), "dicehall.db")
	pw := filepath.Join(t.TempDir(), "pw")
	if err := os.WriteFile(pw, []byte("s3cret\nignored\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	serveFlags.publicURL, serveFlags.smtpAddr, serveFlags.smtpPasswordFile = "https://dice.example", "127.0.0.1:2525", pw
	t.Cleanup(func() { serveFlags.publicURL, serveFlags.smtpAddr, serveFlags.smtpPasswordFile = "", "", "" })
	var keys []string
	for range 2 {
		st, err := sqlite.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		svc, err := notifyService(context.Background(), st, slog.Default())
		if err != nil {
			t.Fatal(err)
		}
		if !svc.EmailAvailable() {
			t.Fatal("--smtp-addr gave no e-mail")
		}
		keys = append(keys, svc.PublicKey())
		svc.Close()
		st.Close()
	}
	if keys[0] == "" || keys[0] != keys[1] {
		t.Fatalf("VAPID keys %q then %q: want one pair for good", keys[0], keys[1])
	}
}
