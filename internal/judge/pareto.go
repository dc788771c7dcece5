// Package judge holds pure functions that judge trial results: which
// limits pass, where the boundary lies, where the knee is, which points
// are on the Pareto front. It imports neither experiment nor report, so
// both can use it.
package judge

import (
	"sort"
	"time"
)

// ParetoPoint is one trial as tune compares them. Every figure is a cost:
// less is better on each axis.
type ParetoPoint struct {
	MemoryBytes  int64
	P99          time.Duration
	StartSeconds float64
	// Throttling is the share of the trial's wall time the cgroup was
	// throttled (CPU throttled seconds per second).
	Throttling float64
	// OK is the trial's verdict; only OK points can be on the front.
	OK bool
}

// Dominates says whether a is at least as good as b on every axis and
// strictly better on one. Equal points do not dominate each other.
func Dominates(a, b ParetoPoint) bool {
	if a.MemoryBytes > b.MemoryBytes || a.P99 > b.P99 || a.StartSeconds > b.StartSeconds || a.Throttling > b.Throttling {
		return false
	}
	return a.MemoryBytes < b.MemoryBytes || a.P99 < b.P99 || a.StartSeconds < b.StartSeconds || a.Throttling < b.Throttling
}

// Front returns the indexes of the OK points that no other OK point
// dominates, ordered by memory, then p99, start and throttling, then
// input order. Points that tie on every axis are all kept: each is a
// different way (other options) to the same figures, and the reader may
// prefer one. A KO point dominates nothing: it did not hold the SLO.
func Front(ps []ParetoPoint) []int {
	var front []int
	for i, p := range ps {
		if !p.OK {
			continue
		}
		dominated := false
		for j, q := range ps {
			if j != i && q.OK && Dominates(q, p) {
				dominated = true
				break
			}
		}
		if !dominated {
			front = append(front, i)
		}
	}
	sort.SliceStable(front, func(x, y int) bool {
		a, b := ps[front[x]], ps[front[y]]
		switch {
		case a.MemoryBytes != b.MemoryBytes:
			return a.MemoryBytes < b.MemoryBytes
		case a.P99 != b.P99:
			return a.P99 < b.P99
		case a.StartSeconds != b.StartSeconds:
			return a.StartSeconds < b.StartSeconds
		}
		return a.Throttling < b.Throttling
	})
	return front
}
