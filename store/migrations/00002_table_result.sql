-- +goose Up
-- A finished table's outcome (engine.Result as JSON), so the lobby lists
-- finished games without replaying them. NULL while the game runs, and for
-- tables finished before this column existed (the server fills it in when
-- it next loads one).
ALTER TABLE tables ADD COLUMN result TEXT;

-- +goose Down
ALTER TABLE tables DROP COLUMN result;
