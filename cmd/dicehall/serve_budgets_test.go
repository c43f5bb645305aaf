package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/dicehall/dicehall/server"
)

// TestServeBudgetFlags: the table budgets and the GET limits are flags of
// serve with the server's defaults; 0 turns one off; negative is refused.
func TestServeBudgetFlags(t *testing.T) {
	saved := budgetFlags // runDicehall runs in this process: flags stay set
	t.Cleanup(func() { budgetFlags = saved })
	out, code := runDicehall(t, "", "serve", "--help")
	if code != 0 {
		t.Fatalf("serve --help: exit %d", code)
	}
	for _, want := range []string{"--tables-per-creator int", "(default 8)", "--tables-per-hour int", "(default 30)",
		"--creators-per-addr int", "(default 4)", "--max-open-tables int", "(default 1000)", "--get-rate float", "(default 20)",
		"--replay-cache-mb int", "(default 64)"} {
		if !strings.Contains(out, want) {
			t.Errorf("serve --help lacks %q", want)
		}
	}
	for _, bad := range []string{"--tables-per-creator", "--tables-per-hour", "--creators-per-addr", "--max-open-tables", "--get-rate", "--replay-cache-mb"} {
		if _, code := runDicehall(t, "", "serve", "--addr", "127.0.0.1:0", "--db", filepath.Join(t.TempDir(), "x.db"), bad, "-1"); code == 0 {
			t.Errorf("serve %s -1 succeeded", bad)
		}
	}

	budgetFlags.tablesPerCreator, budgetFlags.tablesPerHour, budgetFlags.creatorsPerAddr = 0, 0, 0
	budgetFlags.openTables, budgetFlags.getRate, budgetFlags.replayCacheMiB = 0, 0, 0
	b, err := budgets()
	want := server.Budgets{TablesPerCreator: -1, TablesPerHour: -1, CreatorsPerAddress: -1, OpenTables: -1, GetRate: -1, GetBurst: -1, ReplayCacheBytes: -1}
	if err != nil || b != want {
		t.Fatalf("all 0: %+v, %v; want %+v", b, err, want)
	}
	budgetFlags = saved
	if b, err = budgets(); err != nil || b.TablesPerCreator != server.DefaultTablesPerCreator || b.GetBurst != server.DefaultGetBurst ||
		b.ReplayCacheBytes != server.DefaultReplayCacheBytes {
		t.Fatalf("defaults: %+v, %v", b, err)
	}
}
