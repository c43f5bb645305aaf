-- +goose Up
-- Notifications: each account's settings, its browsers' Web Push
-- subscriptions, and the server's own values (its VAPID keys). Portable SQL
-- like 00005: TEXT, BIGINT, INTEGER (0/1 for a flag), times in UTC
-- milliseconds.

-- quiet_from/quiet_to are "HH:MM" in the IANA zone quiet_tz; all '' = no
-- quiet hours.
CREATE TABLE notify_settings (
    account    TEXT    NOT NULL PRIMARY KEY REFERENCES accounts (id) ON DELETE CASCADE,
    push       INTEGER NOT NULL,
    email      TEXT    NOT NULL DEFAULT '',
    email_on   INTEGER NOT NULL,
    turns      INTEGER NOT NULL,
    results    INTEGER NOT NULL,
    quiet_from TEXT    NOT NULL DEFAULT '',
    quiet_to   TEXT    NOT NULL DEFAULT '',
    quiet_tz   TEXT    NOT NULL DEFAULT '',
    lang       TEXT    NOT NULL DEFAULT '',
    updated_ms BIGINT  NOT NULL
);

-- One row per browser: the push service's endpoint is unique (a browser
-- signed into another account moves its row there).
CREATE TABLE push_subscriptions (
    endpoint   TEXT   NOT NULL PRIMARY KEY,
    account    TEXT   NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
    p256dh     TEXT   NOT NULL,
    auth       TEXT   NOT NULL,
    created_ms BIGINT NOT NULL
);
CREATE INDEX push_subscriptions_account ON push_subscriptions (account, created_ms);

-- Values the server makes once and keeps (e.g. "vapid": its key pair).
CREATE TABLE server_values (
    name TEXT NOT NULL PRIMARY KEY,
    val  TEXT NOT NULL
);

-- +goose Down
DROP TABLE server_values;
DROP TABLE push_subscriptions;
DROP TABLE notify_settings;
