package app

import (
	"math"
	"strconv"
)

// positiveNumber parses a descriptor's count (CPUs, a rate). ParseFloat
// also takes "NaN" and "Inf", and NaN fails every comparison, so a plain
// "<= 0" check let cpus: NaN through as no limit at all: only a finite
// value above zero is one.
func positiveNumber(s string) (float64, bool) {
	v, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) || v <= 0 {
		return 0, false
	}
	return v, true
}
