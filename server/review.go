package server

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/dicehall/dicehall/engine"
	"github.com/dicehall/dicehall/store"
)

// Reviews (docs/protocol.md, Reviews and hints). A finished table of a game
// that judges decisions (engine.Analyst) is reviewed in the background:
// queued when its game ends (and by a GET of its review when it has none,
// such as the tables that ended before reviews existed), made by a small
// pool of workers that never run on a table's actor, and stored with the
// table (store.ReviewStore), one per table and budget. The store's row is
// the claim that makes one node of a cluster the maker; it shows the
// progress to every node, and a claim left by a node that stopped
// mid-review lapses, so the next GET, or the sweep at start-up, queues the
// review again.

// Reviews configures the reviews of finished tables and the coach's hints.
// Zero values take the defaults noted.
type Reviews struct {
	// Workers review finished tables, one table each at a time and one
	// decision at a time (engine.ReviewOptions.Workers 1), so reviews
	// never take more than Workers cores from the tables in play. 0 = 1;
	// negative = this server makes no reviews (stored ones are served).
	Workers int
	// Queue bounds the tables waiting for a worker: when it is full, a
	// table that ends is not queued (a GET of its review queues it later)
	// and a GET of a missing review answers 503 busy. 0 = 64.
	Queue int
	// Budget is the analysis's effort per decision of a review
	// (engine.JudgeOptions.Budget): 0 = each game's default for reviews.
	// A review is kept per budget: changing it makes new reviews.
	Budget int
	// HintBudget is a hint's effort: 0 = the game's default.
	HintBudget int
	// Hints bounds the hints worked out at once across the server; one
	// more is refused (error busy). 0 = half the cores, at least 1.
	Hints int
	// CacheBytes bounds the finished reviews kept encoded in memory
	// (least recently used go first). 0 = 16 MiB, negative = none.
	CacheBytes int64
}

// Defaults of Reviews.
const (
	DefaultReviewQueue      = 64
	DefaultReviewCacheBytes = 16 << 20

	// reviewClaimTTL is how long a review's claim holds without news from
	// its maker (by the store's clock); reviewProgressEvery how often the
	// maker writes its progress, which renews the claim.
	reviewClaimTTL      = time.Minute
	reviewProgressEvery = 5 * time.Second
	// reviewSweep bounds the pending reviews taken up at start-up.
	reviewSweep = 100
	// reviewFailures bounds the failed reviews remembered; a GET does not
	// queue one of them again before reviewRetry has passed.
	reviewFailures = 1000
	reviewRetry    = 10 * time.Minute
)

func (r *Reviews) defaults() {
	zeroDefault(&r.Workers, 1)
	setDefault(&r.Queue, DefaultReviewQueue)
	setDefault(&r.Hints, max(1, runtime.GOMAXPROCS(0)/2))
	zeroDefault(&r.CacheBytes, DefaultReviewCacheBytes)
}

var (
	errReviewsOff  = errors.New("this server makes no reviews")
	errReviewsBusy = errors.New("too many games are waiting for their review")
)

// reviewer is the server's review workers, its hint slots and the
// reviews' cache.
type reviewer struct {
	s      *Server
	cfg    Reviews
	ctx    context.Context // cancelled by stop: reviews end at their next decision
	cancel context.CancelFunc
	queue  chan string // table IDs waiting for a worker
	hints  chan struct{}
	cache  *replayCache // finished reviews' answers, encoded
	wg     sync.WaitGroup

	mu      sync.Mutex
	pending map[string]*reviewJob // queued or being made here, by table
	failed  map[string]time.Time  // reviews that failed here, when: a GET retries them after reviewRetry

	made       *prometheus.CounterVec
	hintsAsked prometheus.Counter
}

// reviewJob is one table's review waiting or under way here.
type reviewJob struct{ done, total int }

func newReviewer(s *Server) *reviewer {
	cfg := s.cfg.Reviews
	ctx, cancel := context.WithCancel(s.ctx) // New's failures end the workers too
	rv := &reviewer{s: s, cfg: cfg, ctx: ctx, cancel: cancel,
		queue: make(chan string, cfg.Queue), hints: make(chan struct{}, cfg.Hints),
		cache: newReplayCache(max(cfg.CacheBytes, 0)), pending: map[string]*reviewJob{}, failed: map[string]time.Time{}}
	rv.made = prometheus.NewCounterVec(prometheus.CounterOpts{Name: "dicehall_reviews_total",
		Help: "Reviews of finished tables this node made, by result: done (stored) or failed."}, []string{"result"})
	rv.hintsAsked = prometheus.NewCounter(prometheus.CounterOpts{Name: "dicehall_hint_requests_total",
		Help: "Hints asked for over WebSockets (refusals included: see dicehall_refused_total)."})
	for _, r := range []string{"done", "failed"} {
		rv.made.WithLabelValues(r) // present at 0 from the start
	}
	s.metrics.reg.MustRegister(rv.made, rv.hintsAsked,
		prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "dicehall_reviews_pending",
			Help: "Reviews queued or being made on this node."},
			func() float64 {
				rv.mu.Lock()
				defer rv.mu.Unlock()
				return float64(len(rv.pending))
			}))
	for range max(cfg.Workers, 0) {
		rv.wg.Add(1)
		go func() {
			defer rv.wg.Done()
			rv.work()
		}()
	}
	return rv
}

// stop ends the workers (a review under way stops after its current
// decision; its claim lapses, for the next start to take up) and waits for
// them and for the hints being worked out.
func (rv *reviewer) stop() {
	rv.cancel()
	rv.wg.Wait()
}

// request queues table id's review unless it is queued or under way here
// already. It never blocks: a full queue is errReviewsBusy.
func (rv *reviewer) request(id string) error {
	if rv.cfg.Workers < 0 {
		return errReviewsOff
	}
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if _, ok := rv.pending[id]; ok {
		return nil
	}
	select {
	case <-rv.ctx.Done():
		return errClosed
	case rv.queue <- id:
		rv.pending[id] = &reviewJob{}
		return nil
	default:
		return errReviewsBusy
	}
}

// progress is table id's review's progress here, if it is queued or under
// way here.
func (rv *reviewer) progress(id string) (done, total int, ok bool) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	j, ok := rv.pending[id]
	if !ok {
		return 0, 0, false
	}
	return j.done, j.total, true
}

// hasFailed reports whether table id's review failed here lately.
func (rv *reviewer) hasFailed(id string) bool {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	at, ok := rv.failed[id]
	return ok && time.Since(at) < reviewRetry
}

// sweep queues the reviews a stopped server left unfinished (their claims
// lapse, or are this node's own from before it restarted).
func (rv *reviewer) sweep(ctx context.Context) {
	if rv.cfg.Workers < 0 {
		return
	}
	rows, err := rv.s.store.PendingReviews(ctx, reviewSweep)
	if err != nil {
		rv.s.log.Error("review sweep", "err", err)
		return
	}
	n := 0
	for _, r := range rows {
		if r.Budget == rv.cfg.Budget && rv.request(r.Table) == nil {
			n++
		}
	}
	if n > 0 {
		rv.s.log.Info("review sweep", "queued", n)
	}
}

func (rv *reviewer) work() {
	for {
		select {
		case <-rv.ctx.Done():
			return
		case id := <-rv.queue:
			err := rv.review(id)
			rv.mu.Lock()
			delete(rv.pending, id)
			if err != nil && rv.ctx.Err() == nil {
				if len(rv.failed) >= reviewFailures {
					clear(rv.failed)
				}
				rv.failed[id] = time.Now()
			}
			rv.mu.Unlock()
			switch {
			case err == nil:
			case rv.ctx.Err() != nil:
			default:
				rv.made.WithLabelValues("failed").Inc()
				rv.s.log.Error("review failed", "table", id, "err", err)
			}
		}
	}
}

// storeCtx bounds one store call of a review.
func (rv *reviewer) storeCtx() (context.Context, context.CancelFunc) {
	return context.WithTimeout(rv.ctx, rv.s.cfg.StoreTimeout)
}

// review makes table id's review, unless it is made already or being made
// by another node, and stores it.
func (rv *reviewer) review(id string) error {
	s := rv.s
	ctx, cancel := rv.storeCtx()
	defer cancel()
	meta, err := s.store.GetTable(ctx, id)
	if err != nil {
		return fmt.Errorf("load table: %w", err)
	}
	g, ok := s.games.Lookup(meta.Game)
	if meta.Status != store.StatusOver || !ok || !engine.Reviewable(g) {
		return nil // nothing to review (the GET says why)
	}
	node, budget := s.Node(), rv.cfg.Budget
	claim, err := s.store.ClaimReview(ctx, id, budget, node, reviewClaimTTL)
	switch {
	case errors.Is(err, store.ErrClaimed):
		return nil // another node makes it
	case err != nil:
		return fmt.Errorf("claim: %w", err)
	case claim.Ready:
		return nil
	}
	moves, err := s.store.Moves(ctx, id)
	if err != nil {
		return fmt.Errorf("moves: %w", err)
	}
	total := 0
	for _, m := range moves {
		if m.Seat >= 0 {
			total++
		}
	}
	rv.note(id, 0, total)
	if err := s.store.ReviewProgress(ctx, id, budget, node, 0, total, reviewClaimTTL); errors.Is(err, store.ErrClaimed) {
		return nil // another node took it over since
	} else if err != nil {
		return fmt.Errorf("progress: %w", err)
	}
	cancel()

	rctx, stop := context.WithCancel(rv.ctx)
	defer stop()
	var lost error
	last := time.Now() // real time: this paces store writes, no game's clock
	opts := engine.ReviewOptions{Budget: budget, Seed: reviewSeed(meta.Seed), Workers: 1,
		Progress: func(done, total int) {
			rv.note(id, done, total)
			if time.Since(last) < reviewProgressEvery || done == total {
				return
			}
			last = time.Now()
			pctx, cancel := rv.storeCtx()
			defer cancel()
			if err := s.store.ReviewProgress(pctx, id, budget, node, done, total, reviewClaimTTL); errors.Is(err, store.ErrClaimed) {
				lost = err
				stop() // another node took it over: its review will be the same
			}
		}}
	rec := engine.Record{Game: meta.Game, Players: playerNames(meta), Options: meta.Options, Moves: moves}
	review, err := engine.ReviewRecord(rctx, g, rec, opts)
	if lost != nil {
		return nil
	}
	if err != nil {
		return err
	}
	body, err := json.Marshal(review)
	if err != nil {
		return fmt.Errorf("encode: %w", err)
	}
	ctx, cancel = rv.storeCtx()
	defer cancel()
	if err := s.store.PutReview(ctx, id, budget, body); err != nil {
		return fmt.Errorf("store: %w", err)
	}
	rv.made.WithLabelValues("done").Inc()
	return nil
}

// note records a review's progress here.
func (rv *reviewer) note(id string, done, total int) {
	rv.mu.Lock()
	defer rv.mu.Unlock()
	if j, ok := rv.pending[id]; ok {
		j.done, j.total = done, total
	}
}

// reviewSeed is the seed of a table's review: the spectator's bot seed,
// which is no seat's bot and no chance move's (engine.BotSeed), so the
// analysis never draws the dice the table drew.
func reviewSeed(seed uint64) uint64 { return engine.BotSeed(seed, engine.Spectator) }

// reviewLater queues the review of a table whose game has just ended, from
// its actor: it never blocks, and a full queue only delays the review
// until someone asks for it.
func (t *table) reviewLater() {
	if !engine.Reviewable(t.game) {
		return
	}
	if err := t.s.reviews.request(t.id); err != nil && !errors.Is(err, errReviewsOff) {
		t.log.Warn("review not queued: the next look at it queues it", "err", err)
	}
}

// reviewPending is the 202 answer while a review is queued or being made.
type reviewPending struct {
	Status string `json:"status"` // "pending"
	Done   int    `json:"done"`
	Total  int    `json:"total"`
}

// getReview answers GET /api/tables/{id}/review: the review of a finished
// table, 202 with its progress while it is made (and queued now if it was
// never asked for), 409 not-finished while the game runs, 404 no-review
// for a game that judges no decisions.
func (s *Server) getReview(w http.ResponseWriter, r *http.Request) {
	meta, ok := s.finishedTable(w, r, false, "not-finished", "reviews open once the game is over")
	if !ok {
		return
	}
	if g, ok := s.games.Lookup(meta.Game); !ok || !engine.Reviewable(g) {
		writeError(w, http.StatusNotFound, "no-review", "this game has no reviews")
		return
	}
	rv := s.reviews
	key := fmt.Sprintf("%s-%d", meta.ID, rv.cfg.Budget)
	if body, ok := rv.cache.get(key); ok {
		writeReview(w, body)
		return
	}
	row, err := s.store.Review(r.Context(), meta.ID, rv.cfg.Budget)
	switch {
	case err == nil && row.Ready:
		body := append(append(append([]byte(`{"status":"ready","review":`), row.Body...), '}'), '\n')
		rv.cache.put(key, body)
		writeReview(w, body)
		return
	case err != nil && !errors.Is(err, store.ErrNotFound):
		s.log.Error("review", "table", meta.ID, "err", err)
		writeError(w, http.StatusInternalServerError, "internal", "the review could not be read")
		return
	}
	if done, total, ok := rv.progress(meta.ID); ok {
		writeJSON(w, http.StatusAccepted, reviewPending{Status: "pending", Done: done, Total: total})
		return
	}
	if err == nil && row.Node != s.Node() && row.Expires.After(time.Now()) {
		// Another node makes it (its claim is live by the store's clock,
		// which is near enough this one's for a minute's claim).
		writeJSON(w, http.StatusAccepted, reviewPending{Status: "pending", Done: row.Done, Total: row.Total})
		return
	}
	if rv.hasFailed(meta.ID) {
		writeError(w, http.StatusInternalServerError, "internal", "this game could not be reviewed")
		return
	}
	switch err := rv.request(meta.ID); {
	case errors.Is(err, errReviewsOff):
		writeError(w, http.StatusNotFound, "no-review", "this server makes no reviews")
		return
	case err != nil:
		w.Header().Set("Retry-After", "5")
		writeError(w, http.StatusServiceUnavailable, "busy", "the server is busy reviewing other games: try again in a moment")
		return
	}
	done, total, _ := rv.progress(meta.ID)
	writeJSON(w, http.StatusAccepted, reviewPending{Status: "pending", Done: done, Total: total})
}

// writeReview sends a finished review: it never changes, so browsers may
// keep it as long as a finished table's replay.
func writeReview(w http.ResponseWriter, body []byte) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.Header().Set("Cache-Control", fmt.Sprintf("public, max-age=%d", int(replayMaxAge.Seconds())))
	_, _ = w.Write(body)
}
