package main

import (
	"fmt"
	"os"

	"github.com/spf13/cobra"

	"github.com/dicehall/dicehall/store/postgres"
	"github.com/dicehall/dicehall/store/sqlite"
)

var backupDB string

var backupCmd = &cobra.Command{
	Use:   "backup FILE",
	Short: "Copy the server's SQLite database to a new file, while it runs",
	Long: `backup writes a consistent copy of the database (tables, moves, accounts,
ratings, chats) to FILE, a new file, while ` + "`serve`" + ` goes on using it: the copy is
one snapshot, so a move is in it whole or not at all. To restore, stop the
server and put the copy in the place of the database file.

For PostgreSQL, use pg_dump (see docs/architecture.md).`,
	Example: "  dicehall backup --db dicehall.db backups/dicehall-2026-11-25.db",
	Args:    cobra.ExactArgs(1),
	RunE: func(cmd *cobra.Command, args []string) error {
		if postgres.IsURL(backupDB) {
			return refusePostgres(backupDB)
		}
		if _, err := os.Stat(backupDB); err != nil {
			return fmt.Errorf("backup: the database %q: %w", backupDB, err)
		}
		st, err := sqlite.Open(backupDB)
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		defer st.Close()
		if err := st.Backup(cmd.Context(), args[0]); err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		info, err := os.Stat(args[0])
		if err != nil {
			return fmt.Errorf("backup: %w", err)
		}
		fmt.Fprintf(cmd.OutOrStdout(), "dicehall: %s backed up to %s (%d bytes)\n", backupDB, args[0], info.Size())
		return nil
	},
}

func init() {
	backupCmd.Flags().StringVar(&backupDB, "db", "dicehall.db", "the SQLite file `serve` uses")
	rootCmd.AddCommand(backupCmd)
}
