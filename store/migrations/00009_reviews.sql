-- +goose Up
-- A finished table's review (store/review.go), one per analysis budget:
-- while it is made, a claim (the node making it, its progress done/total,
-- until expires_ms by the database's clock); once ready (1), the review as
-- JSON in body. Portable SQL like 00005: INTEGER 0/1 for a flag, times in
-- UTC milliseconds.
CREATE TABLE reviews (
    table_id   TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    budget     BIGINT  NOT NULL,
    node       TEXT    NOT NULL DEFAULT '',
    done       INTEGER NOT NULL DEFAULT 0,
    total      INTEGER NOT NULL DEFAULT 0,
    expires_ms BIGINT  NOT NULL DEFAULT 0,
    ready      INTEGER NOT NULL DEFAULT 0,
    body       TEXT    NOT NULL DEFAULT '',
    updated_ms BIGINT  NOT NULL,
    PRIMARY KEY (table_id, budget)
);
-- A restarted server takes up the reviews not ready, oldest first.
CREATE INDEX reviews_pending ON reviews (ready, updated_ms);

-- +goose Down
DROP TABLE reviews;
