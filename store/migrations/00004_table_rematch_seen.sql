-- +goose Up
-- rematch: the id of the table made for a rematch of this one ('' = none).
-- seen_ms: the last time somebody had the table's page open (UTC ms; 0 =
-- not recorded), by which the lobby leaves out live tables people have
-- abandoned.
ALTER TABLE tables ADD COLUMN rematch TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN seen_ms BIGINT NOT NULL DEFAULT 0;

-- +goose Down
ALTER TABLE tables DROP COLUMN seen_ms;
ALTER TABLE tables DROP COLUMN rematch;
