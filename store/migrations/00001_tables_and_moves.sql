-- +goose Up
-- One row per table. JSON travels as TEXT (the store checks it is JSON);
-- times are UTC milliseconds since the Unix epoch; seed is the uint64 seed
-- reinterpreted as a signed 64-bit integer.
CREATE TABLE tables (
    id         TEXT    NOT NULL PRIMARY KEY,
    game       TEXT    NOT NULL,
    options    TEXT,
    settings   TEXT,
    seed       BIGINT  NOT NULL,
    seats      TEXT    NOT NULL,
    status     TEXT    NOT NULL,
    created_ms BIGINT  NOT NULL,
    updated_ms BIGINT  NOT NULL,
    -- version = number of rows in moves for this table, kept by AppendMoves
    -- in the same transaction as the inserts.
    version    BIGINT  NOT NULL DEFAULT 0
);

-- The lobby lists by status, newest first.
CREATE INDEX tables_status_updated ON tables (status, updated_ms);
CREATE INDEX tables_updated ON tables (updated_ms);

-- The move log. idx is the move's position (0-based); the primary key makes
-- a duplicate position impossible even if a version check were wrong.
CREATE TABLE moves (
    table_id TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    idx      BIGINT  NOT NULL,
    seat     INTEGER NOT NULL,
    at_ms    BIGINT  NOT NULL,
    action   TEXT    NOT NULL,
    PRIMARY KEY (table_id, idx)
);

-- +goose Down
DROP TABLE moves;
DROP TABLE tables;
