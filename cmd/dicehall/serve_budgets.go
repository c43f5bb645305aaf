package main

import (
	"errors"

	"github.com/dicehall/dicehall/server"
)

// The table budgets and the limits of costly GETs (server.Budgets): flags
// of their own, 0 meaning no limit as for the connection caps.
var budgetFlags struct {
	tablesPerCreator int
	tablesPerHour    int
	creatorsPerAddr  int
	openTables       int
	getRate          float64
	replayCacheMiB   int
}

func init() {
	f := serveCmd.Flags()
	f.IntVar(&budgetFlags.tablesPerCreator, "tables-per-creator", server.DefaultTablesPerCreator, "tables one creator (a browser, else a client address) may have waiting for players or being played (0 = no limit)")
	f.IntVar(&budgetFlags.tablesPerHour, "tables-per-hour", server.DefaultTablesPerHour, "tables one creator may make in an hour (0 = no limit)")
	f.IntVar(&budgetFlags.creatorsPerAddr, "creators-per-addr", server.DefaultCreatorsPerAddress, "a client address (IPv6: /64) may make as many tables as this many creators (0 = no limit per address; behind a proxy every client has its address)")
	f.IntVar(&budgetFlags.openTables, "max-open-tables", server.DefaultOpenTables, "tables waiting for players across the server; more are refused (0 = no limit)")
	f.Float64Var(&budgetFlags.getRate, "get-rate", server.DefaultGetRate, "lobby and table requests a second per client address, in bursts of 6 seconds' worth; replays count as ten (0 = no limit)")
	f.IntVar(&budgetFlags.replayCacheMiB, "replay-cache-mb", server.DefaultReplayCacheBytes>>20, "MiB of finished games' replays kept in memory (0 = none)")
}

// budgets turns the flags into server.Budgets.
func budgets() (server.Budgets, error) {
	bf := budgetFlags
	if bf.tablesPerCreator < 0 || bf.tablesPerHour < 0 || bf.creatorsPerAddr < 0 || bf.openTables < 0 || bf.getRate < 0 || bf.replayCacheMiB < 0 {
		return server.Budgets{}, errors.New("--tables-per-creator, --tables-per-hour, --creators-per-addr, --max-open-tables, --get-rate and --replay-cache-mb cannot be negative (0 = no limit)")
	}
	// The server reads 0 as "default"; the flags' 0 means none.
	none := func(n int) int {
		if n == 0 {
			return -1
		}
		return n
	}
	b := server.Budgets{TablesPerCreator: none(bf.tablesPerCreator), TablesPerHour: none(bf.tablesPerHour),
		CreatorsPerAddress: none(bf.creatorsPerAddr), OpenTables: none(bf.openTables),
		GetRate: bf.getRate, GetBurst: max(1, int(bf.getRate*6)), ReplayCacheBytes: int64(bf.replayCacheMiB) << 20}
	if bf.getRate == 0 {
		b.GetRate, b.GetBurst = -1, -1
	}
	if bf.replayCacheMiB == 0 {
		b.ReplayCacheBytes = -1
	}
	return b, nil
}
