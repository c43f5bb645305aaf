// Package sim runs many independent games in parallel and summarises their
// results. It knows nothing of any game: a caller supplies a function that
// plays game i from its own seed, and gets the results back in game order,
// so a simulation gives the same answer whatever the number of workers.
package sim

import (
	"context"
	"fmt"
	"runtime"
	"sync"
	"sync/atomic"
)

// Run plays games 0..n-1 with play on workers goroutines (GOMAXPROCS when
// workers < 1) and returns the results indexed by game. play must depend
// only on its index (derive seeds from it), which makes the results
// independent of scheduling. progress, if not nil, is called after each
// finished game with the number done so far (from any worker goroutine, but
// never concurrently). The first error stops the run and is returned.
//
// When ctx ends first (an interrupt), Run returns the results of the games
// finished so far, in game order, with an error that wraps ctx's (and
// says how many were played): the caller may report them.
func Run[R any](ctx context.Context, n, workers int, play func(i int) (R, error), progress func(done int)) ([]R, error) {
	if n < 0 {
		return nil, fmt.Errorf("sim: %d games", n)
	}
	if workers < 1 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = min(workers, max(n, 1))
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()

	results := make([]R, n)
	finished := make([]bool, n)
	var (
		next     atomic.Int64
		mu       sync.Mutex
		done     int
		firstErr error
		wg       sync.WaitGroup
	)
	for w := 0; w < workers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1) - 1)
				if i >= n {
					return
				}
				r, err := play(i)
				mu.Lock()
				if err != nil {
					if firstErr == nil {
						firstErr = fmt.Errorf("game %d: %w", i, err)
					}
					mu.Unlock()
					cancel()
					return
				}
				results[i], finished[i] = r, true
				done++
				if progress != nil {
					progress(done)
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if firstErr != nil {
		return nil, firstErr
	}
	if err := ctx.Err(); err != nil && done < n {
		var partial []R
		for i, f := range finished {
			if f {
				partial = append(partial, results[i])
			}
		}
		return partial, fmt.Errorf("sim: stopped after %d of %d games: %w", done, n, err)
	}
	return results, nil
}
