package sqlite

import (
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestDiskTooSmallRefused: on a disk with less room than a WAL cycle, Open
// refuses before touching the file, naming the path, the free and the
// needed bytes. (Such a database used to fill the disk and then stay
// stuck: a WAL that cannot grow cannot be checkpointed either.)
func TestDiskTooSmallRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "d.db")
	const free = 2 << 20
	small := func(string) (uint64, error) { return free, nil }
	_, err := open(path, small)
	var se *spaceError
	if !errors.As(err, &se) {
		t.Fatalf("open on a 2 MiB disk: %v", err)
	}
	need := uint64(2*1000*4096 + 1<<20)
	for _, s := range []string{path, strconv.Itoa(free), strconv.FormatUint(need, 10), "free"} {
		if !strings.Contains(err.Error(), s) {
			t.Errorf("the refusal does not say %q: %v", s, err)
		}
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the file was created on a disk too small: %v", err)
	}
	// Exactly enough is enough.
	s, err := open(path, func(string) (uint64, error) { return need, nil })
	if err != nil {
		t.Fatalf("open with exactly the room needed: %v", err)
	}
	s.Close()
	// The measure failing is an error too, not a pass.
	if _, err := open(path, func(string) (uint64, error) { return 0, errors.New("statfs broke") }); err == nil || !strings.Contains(err.Error(), "statfs broke") {
		t.Fatalf("open when free space cannot be read: %v", err)
	}
}

// TestDiskCheckReadsThePageSize: a file with 64 KiB pages needs sixteen
// times the room of SQLite's default: the check after opening reads it.
func TestDiskCheckReadsThePageSize(t *testing.T) {
	path := filepath.Join(t.TempDir(), "big-pages.db")
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{"PRAGMA page_size = 65536", "CREATE TABLE x (y)"} {
		if _, err := db.Exec(q); err != nil {
			t.Fatal(err)
		}
	}
	db.Close()
	roomy := func(string) (uint64, error) { return 20 << 20, nil } // enough for 4 KiB pages
	_, err = open(path, roomy)
	var se *spaceError
	if !errors.As(err, &se) || se.pageSize != 65536 || se.need != 2*1000*65536+1<<20 {
		t.Fatalf("open of a 64 KiB-page file on 20 MiB: %v (%+v)", err, se)
	}
}

// TestDiskCheckOnARealDisk: the real measure passes in a test's temporary
// directory, and says something plausible there.
func TestDiskCheckOnARealDisk(t *testing.T) {
	dir := t.TempDir()
	if runtime.GOOS == "linux" {
		free, err := freeSpace(dir)
		if err != nil || free == 0 {
			t.Fatalf("free space of %s: %d, %v", dir, free, err)
		}
	}
	s, err := Open(filepath.Join(dir, "d.db"))
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
}
