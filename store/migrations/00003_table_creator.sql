-- +goose Up
-- Who made a table: opaque keys the server chooses (a hash of the
-- creator's cookie, the client's address or network), for the budgets of
-- tables per creator and per address and a lobby that shows few of each
-- creator's tables. '' for tables made before this column existed.
ALTER TABLE tables ADD COLUMN creator TEXT NOT NULL DEFAULT '';
ALTER TABLE tables ADD COLUMN creator_addr TEXT NOT NULL DEFAULT '';

-- Budgets count a creator's (an address's) tables, recent ones first.
CREATE INDEX tables_creator ON tables (creator, created_ms);
CREATE INDEX tables_creator_addr ON tables (creator_addr, created_ms);

-- +goose Down
DROP INDEX tables_creator_addr;
DROP INDEX tables_creator;
ALTER TABLE tables DROP COLUMN creator_addr;
ALTER TABLE tables DROP COLUMN creator;
