package store

import (
	"context"
	"encoding/json"
	"errors"
	"time"
)

// Reviews: the analysis of a finished table's decisions (engine.Review),
// made in the background by one server node and kept with the table, one
// per table and budget (the analysis's effort per decision). While a
// review is being made its row is a claim: the node making it, how far it
// got, and until when the claim holds by the store's clock (as a lease's),
// renewed with each progress report. A node that dies mid-review leaves a
// claim that lapses; another node, or the same one restarted, takes it.

// ErrClaimed: another node's live claim holds the review (it is being made
// there), or the caller's claim is no longer its own.
var ErrClaimed = errors.New("store: the review is claimed by another node")

// Review is a table's review row: a claim until Ready, then the review.
type Review struct {
	Table  string `json:"table"`
	Budget int    `json:"budget"`
	// Node is the node that claimed it ("" for a server alone).
	Node string `json:"node"`
	// Done and Total are the claim's progress: decisions judged of all.
	Done  int `json:"done"`
	Total int `json:"total"`
	// Expires is when the claim lapses unless renewed, by the store's
	// clock (UTC, milliseconds); zero once Ready.
	Expires time.Time `json:"expires"`
	// Ready: Body holds the review (engine.Review as JSON).
	Ready bool            `json:"ready"`
	Body  json.RawMessage `json:"body,omitempty"`
	// Updated is the store's time of the row's last write.
	Updated time.Time `json:"updated"`
}

// ReviewStore keeps the reviews of finished tables. A table's reviews go
// with it.
type ReviewStore interface {
	// ClaimReview makes node the maker of table id's review at budget for
	// ttl from now by the store's clock, with no progress yet: when there
	// is no row, when the claim lapsed, or when node holds it already (a
	// node that restarted takes its own claim again). It returns the row
	// as it is after the call: when it is Ready, nothing changed and
	// there is nothing to make; when another node's claim is live, that
	// claim and ErrClaimed. ErrNotFound when there is no such table.
	ClaimReview(ctx context.Context, id string, budget int, node string, ttl time.Duration) (Review, error)
	// ReviewProgress records node's progress on its claim and renews it
	// for ttl. ErrClaimed (nothing written) when node no longer holds the
	// claim (it lapsed and another node took it) or the review is Ready.
	ReviewProgress(ctx context.Context, id string, budget int, node string, done, total int, ttl time.Duration) error
	// PutReview stores the finished review (JSON) as Ready, whoever holds
	// the claim: a table, budget and seed always give the same review.
	// ErrNotFound when there is no such table.
	PutReview(ctx context.Context, id string, budget int, body json.RawMessage) error
	// Review loads table id's review row at budget; ErrNotFound if none.
	Review(ctx context.Context, id string, budget int) (Review, error)
	// PendingReviews lists up to limit rows that are not Ready (claimed,
	// live or lapsed), least recently written first: the reviews a
	// restarted server takes up again. limit 0 = a default of 100.
	PendingReviews(ctx context.Context, limit int) ([]Review, error)
}
