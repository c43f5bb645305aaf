-- +goose Up
-- A table's lease (store/lease.go): the node that runs the table, under
-- which epoch, until when (UTC ms by the database server's clock). state:
-- 'held' (until expires_ms), 'released' (the actor stopped with nothing to
-- do) or 'handed' (a draining node handed it over: an orphan at once).
CREATE TABLE leases (
    table_id   TEXT   NOT NULL PRIMARY KEY REFERENCES tables (id) ON DELETE CASCADE,
    node       TEXT   NOT NULL,
    epoch      BIGINT NOT NULL,
    expires_ms BIGINT NOT NULL,
    state      TEXT   NOT NULL
);
-- Renewals go by node; the orphan sweep by state and expiry.
CREATE INDEX leases_node ON leases (node, state);
CREATE INDEX leases_orphans ON leases (state, expires_ms);

-- +goose Down
DROP TABLE leases;
