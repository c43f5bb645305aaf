package storetest

import (
	"encoding/json"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/dicehall/dicehall/store"
)

// runReviews runs the tests of ReviewStore.
func (s *suite) runReviews(t *testing.T) {
	t.Run("ReviewClaim", s.reviewClaim)
	t.Run("ReviewPut", s.reviewPut)
	t.Run("ReviewLapses", s.reviewLapses)
	t.Run("ReviewPending", s.reviewPending)
	t.Run("ReviewInvalid", s.reviewInvalid)
	t.Run("ReviewRace", s.reviewRace)
	t.Run("ReviewPersistence", s.reviewPersistence)
}

// reviewBody is a review as a server stores it: JSON with text beyond ASCII.
var reviewBody = json.RawMessage(`{"game":"dicestars","players":["Ann","Zoë"],"decisions":[{"move":3,"verdict":"blunder","pointsLost":2.5}],"turning":-1}`)

func mustReview(t *testing.T, st store.Store, id string, budget int) store.Review {
	t.Helper()
	r, err := st.Review(ctx(t), id, budget)
	if err != nil {
		t.Fatalf("Review(%s, %d): %v", id, budget, err)
	}
	return r
}

func (s *suite) reviewClaim(t *testing.T) {
	st := s.store(t)
	if _, err := st.ClaimReview(ctx(t), "nope", 0, "n1", time.Minute); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("claim of an absent table: %v, want ErrNotFound", err)
	}
	mustCreate(t, st, sampleTable("t"))
	if _, err := st.Review(ctx(t), "t", 0); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("Review never claimed: %v, want ErrNotFound", err)
	}
	before := time.Now()
	r, err := st.ClaimReview(ctx(t), "t", 0, "n1", time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if r.Table != "t" || r.Budget != 0 || r.Node != "n1" || r.Ready || r.Done != 0 || r.Total != 0 || r.Body != nil {
		t.Fatalf("claim = %+v", r)
	}
	if d := r.Expires.Sub(before); d < 50*time.Second || d > 2*time.Minute || r.Expires.Location() != time.UTC {
		t.Errorf("a claim for a minute expires at %v (%v from now)", r.Expires, d)
	}
	if got := mustReview(t, st, "t", 0); got.Node != "n1" || got.Ready || !got.Expires.Equal(r.Expires) {
		t.Errorf("Review after the claim = %+v, want %+v", got, r)
	}
	// Another node is refused and told who holds it.
	if o, err := st.ClaimReview(ctx(t), "t", 0, "n2", time.Minute); !errors.Is(err, store.ErrClaimed) || o.Node != "n1" {
		t.Fatalf("claim by n2 = %+v, %v; want n1's claim and ErrClaimed", o, err)
	}
	// Progress by the holder shows; by another node it is refused.
	if err := st.ReviewProgress(ctx(t), "t", 0, "n1", 3, 40, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := st.ReviewProgress(ctx(t), "t", 0, "n2", 4, 40, time.Minute); !errors.Is(err, store.ErrClaimed) {
		t.Fatalf("progress by n2: %v, want ErrClaimed", err)
	}
	if got := mustReview(t, st, "t", 0); got.Done != 3 || got.Total != 40 || got.Node != "n1" {
		t.Errorf("Review after progress = %+v, want 3 of 40 by n1", got)
	}
	// Another budget is another review.
	if o, err := st.ClaimReview(ctx(t), "t", 500, "n2", time.Minute); err != nil || o.Node != "n2" || o.Budget != 500 {
		t.Fatalf("claim of another budget = %+v, %v", o, err)
	}
	// The holder claiming again (a restarted node) starts afresh.
	if r, err := st.ClaimReview(ctx(t), "t", 0, "n1", time.Minute); err != nil || r.Node != "n1" || r.Done != 0 || r.Total != 0 {
		t.Fatalf("claim again by n1 = %+v, %v", r, err)
	}
	// A server alone claims as "".
	mustCreate(t, st, sampleTable("u"))
	if r, err := st.ClaimReview(ctx(t), "u", 0, "", time.Minute); err != nil || r.Node != "" {
		t.Fatalf("claim by a server alone = %+v, %v", r, err)
	}
}

func (s *suite) reviewPut(t *testing.T) {
	st := s.store(t)
	if err := st.PutReview(ctx(t), "nope", 0, reviewBody); !errors.Is(err, store.ErrNotFound) {
		t.Fatalf("put on an absent table: %v, want ErrNotFound", err)
	}
	mustCreate(t, st, sampleTable("t"))
	if _, err := st.ClaimReview(ctx(t), "t", 0, "n1", time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := st.ReviewProgress(ctx(t), "t", 0, "n1", 39, 40, time.Minute); err != nil {
		t.Fatal(err)
	}
	if err := st.PutReview(ctx(t), "t", 0, reviewBody); err != nil {
		t.Fatal(err)
	}
	r := mustReview(t, st, "t", 0)
	if !r.Ready || !equalJSON(r.Body, reviewBody) || !r.Expires.IsZero() || r.Updated.IsZero() {
		t.Fatalf("Review once put = %+v (%s)", r, r.Body)
	}
	// Ready: a claim changes nothing and says so; progress is refused.
	c, err := st.ClaimReview(ctx(t), "t", 0, "n2", time.Minute)
	if err != nil || !c.Ready || !equalJSON(c.Body, reviewBody) {
		t.Fatalf("claim of a ready review = %+v, %v; want the review", c, err)
	}
	if err := st.ReviewProgress(ctx(t), "t", 0, "n1", 40, 40, time.Minute); !errors.Is(err, store.ErrClaimed) {
		t.Fatalf("progress on a ready review: %v, want ErrClaimed", err)
	}
	// Put without a claim (whoever made it), and put again: the last one stays.
	mustCreate(t, st, sampleTable("u"))
	other := json.RawMessage(`{"game":"dicestars","decisions":[]}`)
	for _, b := range []json.RawMessage{reviewBody, other} {
		if err := st.PutReview(ctx(t), "u", 7, b); err != nil {
			t.Fatal(err)
		}
	}
	if r := mustReview(t, st, "u", 7); !r.Ready || !equalJSON(r.Body, other) {
		t.Fatalf("Review put twice = %+v (%s)", r, r.Body)
	}
	// The stored body does not alias the caller's.
	buf := append(json.RawMessage(nil), reviewBody...)
	if err := st.PutReview(ctx(t), "u", 8, buf); err != nil {
		t.Fatal(err)
	}
	buf[2] = 'X'
	if r := mustReview(t, st, "u", 8); !equalJSON(r.Body, reviewBody) {
		t.Fatalf("stored body changed with the caller's buffer: %s", r.Body)
	}
}

func (s *suite) reviewLapses(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("t"))
	if _, err := st.ClaimReview(ctx(t), "t", 0, "n1", lapse); err != nil {
		t.Fatal(err)
	}
	time.Sleep(lapse + 200*time.Millisecond)
	// Lapsed: progress is refused, another node takes it.
	if err := st.ReviewProgress(ctx(t), "t", 0, "n1", 1, 2, time.Minute); !errors.Is(err, store.ErrClaimed) {
		t.Fatalf("progress on a lapsed claim: %v, want ErrClaimed", err)
	}
	if r, err := st.ClaimReview(ctx(t), "t", 0, "n2", time.Minute); err != nil || r.Node != "n2" {
		t.Fatalf("claim of a lapsed claim = %+v, %v", r, err)
	}
	if err := st.ReviewProgress(ctx(t), "t", 0, "n1", 1, 2, time.Minute); !errors.Is(err, store.ErrClaimed) {
		t.Fatalf("progress by the old holder: %v, want ErrClaimed", err)
	}
}

func (s *suite) reviewPending(t *testing.T) {
	st := s.store(t)
	if p, err := st.PendingReviews(ctx(t), 10); err != nil || p == nil || len(p) != 0 {
		t.Fatalf("PendingReviews of an empty store = %#v, %v; want empty, not nil", p, err)
	}
	for _, id := range []string{"a", "b", "c"} {
		mustCreate(t, st, sampleTable(id))
		if _, err := st.ClaimReview(ctx(t), id, 0, "n1", time.Minute); err != nil {
			t.Fatal(err)
		}
		time.Sleep(5 * time.Millisecond) // distinct write times, in order
	}
	if err := st.PutReview(ctx(t), "b", 0, reviewBody); err != nil {
		t.Fatal(err)
	}
	p, err := st.PendingReviews(ctx(t), 10)
	if err != nil || len(p) != 2 || p[0].Table != "a" || p[1].Table != "c" || p[0].Ready || p[0].Node != "n1" {
		t.Fatalf("PendingReviews = %+v, %v; want a then c", p, err)
	}
	if p, err := st.PendingReviews(ctx(t), 1); err != nil || len(p) != 1 || p[0].Table != "a" {
		t.Fatalf("PendingReviews(1) = %+v, %v; want a", p, err)
	}
}

func (s *suite) reviewInvalid(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("t"))
	for name, err := range map[string]error{
		"negative budget": func() error { _, err := st.ClaimReview(ctx(t), "t", -1, "n1", time.Minute); return err }(),
		"no ttl":          func() error { _, err := st.ClaimReview(ctx(t), "t", 0, "n1", 0); return err }(),
		"progress no ttl": st.ReviewProgress(ctx(t), "t", 0, "n1", 1, 1, 0),
		"empty body":      st.PutReview(ctx(t), "t", 0, nil),
		"bad body":        st.PutReview(ctx(t), "t", 0, json.RawMessage(`{"a":`)),
		"put budget":      st.PutReview(ctx(t), "t", -1, reviewBody),
	} {
		if err == nil || errors.Is(err, store.ErrNotFound) || errors.Is(err, store.ErrClaimed) {
			t.Errorf("%s: err = %v, want invalid", name, err)
		}
	}
	if _, err := st.Review(ctx(t), "t", 0); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a refused write left a review: %v", err)
	}
}

// reviewRace: nodes claiming at once, exactly one gets the claim.
func (s *suite) reviewRace(t *testing.T) {
	st := s.store(t)
	mustCreate(t, st, sampleTable("t"))
	const nodes = 8
	var wg sync.WaitGroup
	won := make(chan string, nodes)
	for i := range nodes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			node := string(rune('a' + i))
			r, err := st.ClaimReview(ctx(t), "t", 0, node, time.Minute)
			switch {
			case err == nil && r.Node == node:
				won <- node
			case errors.Is(err, store.ErrClaimed):
			default:
				t.Errorf("claim by %s = %+v, %v", node, r, err)
			}
		}()
	}
	wg.Wait()
	close(won)
	var winners []string
	for w := range won {
		winners = append(winners, w)
	}
	if len(winners) != 1 {
		t.Fatalf("claims won: %v, want exactly one", winners)
	}
	if r := mustReview(t, st, "t", 0); r.Node != winners[0] {
		t.Fatalf("stored claim by %q, won by %q", r.Node, winners[0])
	}
}

func (s *suite) reviewPersistence(t *testing.T) {
	st, reopen := s.reopenable(t)
	mustCreate(t, st, sampleTable("t"))
	mustCreate(t, st, sampleTable("u"))
	if err := st.PutReview(ctx(t), "t", 0, reviewBody); err != nil {
		t.Fatal(err)
	}
	if _, err := st.ClaimReview(ctx(t), "u", 0, "n1", time.Hour); err != nil {
		t.Fatal(err)
	}
	st2 := reopen()
	if r := mustReview(t, st2, "t", 0); !r.Ready || !equalJSON(r.Body, reviewBody) {
		t.Fatalf("review after reopen = %+v", r)
	}
	if p, err := st2.PendingReviews(ctx(t), 0); err != nil || len(p) != 1 || p[0].Table != "u" || p[0].Node != "n1" {
		t.Fatalf("pending after reopen = %+v, %v", p, err)
	}
}
