package storetest

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

// runLimits runs the tests of LimitStore.
func (s *suite) runLimits(t *testing.T) {
	t.Run("BucketTake", s.bucketTake)
	t.Run("BucketRefills", s.bucketRefills)
	t.Run("BucketRace", s.bucketRace)
	t.Run("BucketsDropFull", s.bucketsDropFull)
	t.Run("BucketsPersist", s.bucketsPersist)
	t.Run("CreateTableCapped", s.createCapped)
	t.Run("CreateTableCappedRace", s.createCappedRace)
}

// hourly is a bucket that refills too slowly to matter in a test.
var hourly = store.Bucket{Rate: 3.0 / 3600, Burst: 3}

func take(t *testing.T, st store.Store, key string, n int, b store.Bucket) (bool, time.Duration) {
	t.Helper()
	ok, wait, err := st.TakeTokens(ctx(t), key, n, b)
	if err != nil {
		t.Fatalf("TakeTokens(%s, %d): %v", key, n, err)
	}
	return ok, wait
}

func (s *suite) bucketTake(t *testing.T) {
	st := s.store(t)
	for i := range 3 {
		if ok, _ := take(t, st, "k", 1, hourly); !ok {
			t.Fatalf("take %d of a full bucket of 3 refused", i+1)
		}
	}
	ok, wait := take(t, st, "k", 1, hourly)
	if ok || wait <= 0 || wait > 20*time.Minute {
		t.Fatalf("4th take = %v, wait %v; want refused, about 20 minutes", ok, wait)
	}
	if ok, _ := take(t, st, "other", 3, hourly); !ok {
		t.Error("another key's bucket is not full")
	}
	if ok, _ := take(t, st, "k", -1, hourly); !ok {
		t.Error("giving a token back refused")
	}
	if ok, _ := take(t, st, "k", 2, hourly); ok {
		t.Error("2 tokens taken from a bucket holding 1")
	}
	if ok, _ := take(t, st, "k", 1, hourly); !ok {
		t.Error("the token given back is not there (or a refused take of 2 took some)")
	}
	// Giving back never fills a bucket beyond its burst.
	for range 5 {
		take(t, st, "k2", -1, hourly)
	}
	for i := range 4 {
		if ok, _ := take(t, st, "k2", 1, hourly); ok != (i < 3) {
			t.Fatalf("take %d after giving back more than taken: %v", i+1, ok)
		}
	}
	for _, bad := range []struct {
		key string
		n   int
		b   store.Bucket
	}{
		{"", 1, hourly},
		{string(make([]byte, 201)), 1, hourly},
		{"k", 0, hourly},
		{"k", 4, hourly},
		{"k", 1, store.Bucket{Rate: 0, Burst: 1}},
		{"k", 1, store.Bucket{Rate: 1, Burst: 0}},
	} {
		_, _, err := st.TakeTokens(ctx(t), bad.key, bad.n, bad.b)
		if err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrConflict) {
			t.Errorf("TakeTokens(%.8q, %d, %+v) = %v, want an invalid-input error", bad.key, bad.n, bad.b, err)
		}
	}
}

// bucketRefills: tokens come back at the rate, by the store's clock.
func (s *suite) bucketRefills(t *testing.T) {
	st := s.store(t)
	fast := store.Bucket{Rate: 10, Burst: 1} // a token every 100ms
	if ok, _ := take(t, st, "f", 1, fast); !ok {
		t.Fatal("first take refused")
	}
	ok, wait := take(t, st, "f", 1, fast)
	if ok {
		// More than 100ms passed between the two statements: a loaded
		// machine. Nothing to check then.
		t.Skip("the machine is too slow for this test")
	}
	if wait <= 0 || wait > 100*time.Millisecond {
		t.Fatalf("wait %v, want within 100ms", wait)
	}
	time.Sleep(wait + 20*time.Millisecond)
	if ok, _ := take(t, st, "f", 1, fast); !ok {
		t.Errorf("refused after waiting the %v it said", wait)
	}
}

func (s *suite) bucketRace(t *testing.T) {
	st := s.store(t)
	const takers = 12
	var wg sync.WaitGroup
	oks := make([]bool, takers)
	errs := make([]error, takers)
	for i := range takers {
		wg.Go(func() { oks[i], _, errs[i] = st.TakeTokens(ctx(t), "race", 1, hourly) })
	}
	wg.Wait()
	taken := 0
	for i := range takers {
		if errs[i] != nil {
			t.Fatalf("taker %d: %v", i, errs[i])
		}
		if oks[i] {
			taken++
		}
	}
	if taken != hourly.Burst {
		t.Errorf("%d racing takers got a token from a bucket of %d", taken, hourly.Burst)
	}
}

func (s *suite) bucketsDropFull(t *testing.T) {
	st := s.store(t)
	take(t, st, "slow", 3, hourly)
	take(t, st, "fast", 1, store.Bucket{Rate: 50, Burst: 1}) // full again in 20ms
	time.Sleep(50 * time.Millisecond)
	n, err := st.DropFullBuckets(ctx(t))
	if err != nil || n != 1 {
		t.Fatalf("DropFullBuckets = %d, %v; want 1 (the refilled bucket)", n, err)
	}
	if ok, _ := take(t, st, "slow", 1, hourly); ok {
		t.Error("the empty bucket was dropped (a take went through)")
	}
	if n, err := st.DropFullBuckets(ctx(t)); err != nil || n != 0 {
		t.Errorf("DropFullBuckets again = %d, %v; want 0", n, err)
	}
}

func (s *suite) bucketsPersist(t *testing.T) {
	st, reopen := s.reopenable(t)
	take(t, st, "p", 3, hourly)
	if ok, _ := take(t, reopen(), "p", 1, hourly); ok {
		t.Error("an empty bucket is full again after a reopen")
	}
}

func capped(i int, creator string) store.Table {
	tb := sampleTable(fmt.Sprintf("c%d", i))
	tb.Creator = creator
	return tb
}

func (s *suite) createCapped(t *testing.T) {
	st := s.store(t)
	// A creator's tables, and the open tables of everybody.
	caps := func(creator string) []store.Cap {
		return []store.Cap{
			{Filter: store.Filter{Creator: creator}, Max: 2},
			{Filter: store.Filter{Status: []string{store.StatusOpen}}, Max: 3},
		}
	}
	for i := range 2 {
		if n, err := st.CreateTableCapped(ctx(t), capped(i, "ann"), caps("ann")); err != nil || n != -1 {
			t.Fatalf("table %d of 2: %d, %v; want stored (-1)", i, n, err)
		}
	}
	if n, err := st.CreateTableCapped(ctx(t), capped(2, "ann"), caps("ann")); err != nil || n != 0 {
		t.Fatalf("ann's third table: %d, %v; want refused by cap 0", n, err)
	}
	if _, err := st.GetTable(ctx(t), "c2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused table was stored: %v", err)
	}
	if n, err := st.CreateTableCapped(ctx(t), capped(3, "bob"), caps("bob")); err != nil || n != -1 {
		t.Fatalf("bob's table: %d, %v; want stored", n, err)
	}
	if n, err := st.CreateTableCapped(ctx(t), capped(4, "cy"), caps("cy")); err != nil || n != 1 {
		t.Fatalf("a fourth open table: %d, %v; want refused by cap 1", n, err)
	}
	// A table past what the caps count still goes; no caps is CreateTable.
	live := capped(5, "cy")
	live.Status = store.StatusLive
	if n, err := st.CreateTableCapped(ctx(t), live, caps("cy")[:1]); err != nil || n != -1 {
		t.Fatalf("cy's first table, live: %d, %v; want stored", n, err)
	}
	if _, err := st.CreateTableCapped(ctx(t), live, nil); !errors.Is(err, store.ErrExists) {
		t.Errorf("a taken ID without caps: %v, want ErrExists", err)
	}
	if got := mustGet(t, st, "c0"); got.Creator != "ann" || got.Seed != sampleTable("c0").Seed {
		t.Errorf("stored table = %+v", got)
	}
}

func (s *suite) createCappedRace(t *testing.T) {
	st := s.store(t)
	const racers, max = 12, 3
	caps := []store.Cap{{Filter: store.Filter{Creator: "ann"}, Max: max}}
	var wg sync.WaitGroup
	errs := make([]error, racers)
	for i := range racers {
		wg.Go(func() { _, errs[i] = st.CreateTableCapped(ctx(t), capped(i, "ann"), caps) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("racer %d: %v", i, err)
		}
	}
	if n, err := st.Count(ctx(t), store.Filter{Creator: "ann"}); err != nil || n != max {
		t.Errorf("%d tables stored by racing creates under a cap of %d (%v)", n, max, err)
	}
}
