-- +goose Up
-- The rate limits several nodes share (store/limits.go): a token bucket
-- per key, kept as the moment it is full again (UTC ms by the database
-- server's clock; at or before now: full, and the row may go).
CREATE TABLE buckets (
    key     TEXT   NOT NULL PRIMARY KEY,
    full_ms BIGINT NOT NULL
);
CREATE INDEX buckets_full ON buckets (full_ms);

-- +goose Down
DROP TABLE buckets;
