-- +goose Up
-- Accounts, their sessions and passkeys, ratings, chats. Portable SQL (the
-- same file runs on PostgreSQL): TEXT, BIGINT, DOUBLE PRECISION, times in
-- UTC milliseconds (0 = not recorded where a time is optional).

-- name_key is the canonical username, unique among accounts.
-- password_hash is '' for an account with passkeys only.
CREATE TABLE accounts (
    id            TEXT   NOT NULL PRIMARY KEY,
    name          TEXT   NOT NULL,
    name_key      TEXT   NOT NULL,
    password_hash TEXT   NOT NULL DEFAULT '',
    created_ms    BIGINT NOT NULL
);
CREATE UNIQUE INDEX accounts_name_key ON accounts (name_key);

-- A signed-in browser: the hex SHA-256 of its cookie's secret.
CREATE TABLE sessions (
    token_hash TEXT   NOT NULL PRIMARY KEY,
    account    TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    created_ms BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL
);
CREATE INDEX sessions_account ON sessions (account);
CREATE INDEX sessions_expires ON sessions (expires_ms);

-- Passkeys. id is the credential ID in lowercase hex (TEXT on every
-- database, and it sorts like the bytes); data is the WebAuthn library's
-- JSON.
CREATE TABLE credentials (
    id           TEXT   NOT NULL PRIMARY KEY,
    account      TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    data         TEXT   NOT NULL,
    name         TEXT   NOT NULL DEFAULT '',
    created_ms   BIGINT NOT NULL,
    last_used_ms BIGINT NOT NULL DEFAULT 0
);
CREATE INDEX credentials_account ON credentials (account, created_ms);

-- One rating per account and game. display is mu - 3*sigma, computed by
-- the store when it writes the row, so the leaderboard's order has an index.
CREATE TABLE ratings (
    account    TEXT             NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game       TEXT             NOT NULL,
    mu         DOUBLE PRECISION NOT NULL,
    sigma      DOUBLE PRECISION NOT NULL,
    display    DOUBLE PRECISION NOT NULL,
    games      BIGINT           NOT NULL,
    updated_ms BIGINT           NOT NULL,
    PRIMARY KEY (account, game)
);
CREATE INDEX ratings_leaderboard ON ratings (game, display DESC, games DESC, account);

-- An account's rating at a game after each rated table (the profile's
-- chart); n is the rating's game count after that table (1, 2, ...), so
-- the points of an account at a game are numbered in the order they came.
CREATE TABLE rating_points (
    account  TEXT             NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    game     TEXT             NOT NULL,
    n        BIGINT           NOT NULL,
    table_id TEXT             NOT NULL,
    mu       DOUBLE PRECISION NOT NULL,
    sigma    DOUBLE PRECISION NOT NULL,
    at_ms    BIGINT           NOT NULL,
    PRIMARY KEY (account, game, n)
);

-- The tables whose ratings were applied, written in the same transaction
-- as the ratings: a table is rated exactly once.
CREATE TABLE rated_tables (
    table_id TEXT   NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    rated_ms BIGINT NOT NULL
);

-- A table's chat. idx is the message's position (0-based); seat is -1 for
-- a spectator; account is '' for a guest.
CREATE TABLE chat (
    table_id TEXT    NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    idx      BIGINT  NOT NULL,
    at_ms    BIGINT  NOT NULL,
    seat     INTEGER NOT NULL,
    role     TEXT    NOT NULL,
    account  TEXT    NOT NULL DEFAULT '',
    name     TEXT    NOT NULL,
    body     TEXT    NOT NULL,
    PRIMARY KEY (table_id, idx)
);
-- Deleting an account renames its lines.
CREATE INDEX chat_account ON chat (account) WHERE account <> '';

-- Which accounts hold a seat at which table (the seats themselves stay JSON
-- in tables.seats), kept by CreateTable, UpdateTable and DeleteAccount, so
-- "the tables of an account" is an indexed query. Tables made before this
-- migration have no account in their seats: nothing to fill in.
CREATE TABLE table_accounts (
    account  TEXT NOT NULL,
    table_id TEXT NOT NULL REFERENCES tables (id) ON DELETE CASCADE,
    PRIMARY KEY (account, table_id)
);
CREATE INDEX table_accounts_table ON table_accounts (table_id);

-- +goose Down
DROP TABLE table_accounts;
DROP TABLE chat;
DROP TABLE rated_tables;
DROP TABLE rating_points;
DROP TABLE ratings;
DROP TABLE credentials;
DROP TABLE sessions;
DROP TABLE accounts;
