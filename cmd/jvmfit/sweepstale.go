package main

import (
	"time"

	"github.com/spf13/pflag"
)

// sweepStaleHelp is --sweep-stale's one help text, on every command that
// runs trials (and so sweeps what gone runs left before the first).
const sweepStaleHelp = "also remove anyone's leftover jvmfit containers and Jobs older than this (e.g. 24h; 0 = only those of this database's runs whose jvmfit is gone)"

func registerSweepStale(fl *pflag.FlagSet, d *time.Duration) {
	fl.DurationVar(d, "sweep-stale", 0, sweepStaleHelp)
}
