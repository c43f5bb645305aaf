package postgres_test

import (
	"context"
	"sync"
	"testing"

	"github.com/dicehall/dicehall/internal/testpg"
	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
	"github.com/dicehall/dicehall/store/storetest"
)

func TestMain(m *testing.M) { testpg.Main(m) }

func open(t testing.TB, url string) *postgres.Store {
	t.Helper()
	s, err := postgres.Open(context.Background(), url)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

func TestConformance(t *testing.T) {
	srv := testpg.Start(t)
	var (
		mu   sync.Mutex
		urls = map[store.Store]string{} // for Reopen
	)
	storetest.Run(t,
		func(t *testing.T) store.Store {
			u := srv.CreateDB(t)
			s := open(t, u)
			mu.Lock()
			urls[s] = u
			mu.Unlock()
			return s
		},
		storetest.Reopen(func(t *testing.T, closed store.Store) store.Store {
			mu.Lock()
			u := urls[closed]
			mu.Unlock()
			return open(t, u)
		}))
}
