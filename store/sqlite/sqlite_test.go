package sqlite_test

import (
	"path/filepath"
	"testing"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/sqlite"
	"github.com/dicehall/dicehall/store/storetest"
)

func open(t *testing.T, path string) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(path)
	if err != nil {
		t.Fatalf("Open(%s): %v", path, err)
	}
	return s
}

func TestConformance(t *testing.T) {
	storetest.Run(t,
		func(t *testing.T) store.Store { return open(t, filepath.Join(t.TempDir(), "dicehall.db")) },
		storetest.Reopen(func(t *testing.T, closed store.Store) store.Store {
			return open(t, closed.(*sqlite.Store).Path())
		}))
}
