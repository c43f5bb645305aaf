// Package migrations holds the store's schema as goose migrations, embedded
// in the binary. The same files run on SQLite and PostgreSQL, so they use
// only portable SQL: TEXT, BIGINT, INTEGER, composite primary keys, plain
// indexes. A file that cannot be portable would go in a per-dialect
// directory (sqlite/, postgres/) next to these, with the same version number.
package migrations

import "embed"

// FS holds the migration files (NNNNN_name.sql) at its root, as goose's
// Provider expects.
//
//go:embed *.sql
var FS embed.FS
