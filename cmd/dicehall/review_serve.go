package main

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/dicehall/dicehall/server"
)

// The reviews `serve` makes of finished tables (docs/protocol.md, Reviews
// and hints).
var reviewFlags struct {
	workers, budget int
}

func reviewServeFlags(f *pflag.FlagSet) {
	f.IntVar(&reviewFlags.workers, "review-workers", 1, "finished games reviewed at once in the background, each on one core at most (0 = this server makes no reviews; stored ones are still served)")
	f.IntVar(&reviewFlags.budget, "review-budget", 0, "the analysis's effort per decision of a review (0 = each game's default); reviews are kept per budget")
}

// reviewConfig is the server's Reviews from the flags.
func reviewConfig() (server.Reviews, error) {
	if reviewFlags.workers < 0 || reviewFlags.budget < 0 {
		return server.Reviews{}, fmt.Errorf("--review-workers and --review-budget cannot be negative")
	}
	r := server.Reviews{Workers: reviewFlags.workers, Budget: reviewFlags.budget}
	if r.Workers == 0 {
		r.Workers = -1 // the server reads 0 as "default"; the flag's 0 means none
	}
	return r, nil
}
