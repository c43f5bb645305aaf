package main

import (
	"context"
	"fmt"

	"github.com/dicehall/dicehall/store"
	"github.com/dicehall/dicehall/store/postgres"
	"github.com/dicehall/dicehall/store/sqlite"
)

// openStore opens the store --db names: a postgres:// (or postgresql://)
// URL is a PostgreSQL database, which several nodes may share; anything
// else is a SQLite file, the default.
func openStore(ctx context.Context, db string) (store.Store, error) {
	if postgres.IsURL(db) {
		st, err := postgres.Open(ctx, db)
		if err != nil {
			return nil, err
		}
		return st, nil
	}
	st, err := sqlite.Open(db)
	if err != nil {
		return nil, err
	}
	return st, nil
}

// dbForLog is --db as logs and messages show it: a URL without its
// password.
func dbForLog(db string) string {
	if postgres.IsURL(db) {
		return postgres.Redact(db)
	}
	return db
}

// refusePostgres is backup's answer to a PostgreSQL URL: PostgreSQL has
// its own tools for a consistent copy.
func refusePostgres(db string) error {
	return fmt.Errorf("backup: %s is a PostgreSQL database: back it up with pg_dump (e.g. pg_dump --format=custom --file=dicehall.dump URL; see docs/architecture.md)", dbForLog(db))
}
