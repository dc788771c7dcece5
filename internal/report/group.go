package report

import (
	"sort"
	"strings"

	"github.com/jvmfit/jvmfit/internal/jvmopts"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A dimension is one thing experiments vary. Labels name only the
// dimensions that differ within the trials shown: "1 CPU · default" rather
// than every field of the spec.
type dimension int

const (
	dimApp dimension = iota
	dimCPUs
	dimMemory
	dimJVM
	dimJDK
	dimRate
)

func dimValue(r *trial.Result, d dimension) string {
	switch d {
	case dimApp:
		return appLabel(r)
	case dimCPUs:
		c := cpus(r.Spec.CPUs)
		if c == "1" {
			return "1 CPU"
		}
		return c + " CPUs"
	case dimMemory:
		if r.Spec.NoLimits || r.Spec.MemoryBytes == 0 {
			return "no limit"
		}
		return mem(r.Spec.MemoryBytes)
	case dimJVM:
		return jvmLabel(r.Spec.JVM)
	case dimJDK:
		return jdkLabel(r.Spec.JDKVersion)
	case dimRate:
		return num(rate(r)) + " req/s"
	}
	return ""
}

// varying reports which dimensions take more than one value.
func varying(trials []*trial.Result) map[dimension]bool {
	seen := map[dimension]map[string]bool{}
	for _, r := range trials {
		for d := dimApp; d <= dimRate; d++ {
			if seen[d] == nil {
				seen[d] = map[string]bool{}
			}
			seen[d][dimValue(r, d)] = true
		}
	}
	out := map[dimension]bool{}
	for d, vals := range seen {
		out[d] = len(vals) > 1
	}
	return out
}

// label joins the values of the given dimensions that vary.
func label(r *trial.Result, vary map[dimension]bool, dims ...dimension) string {
	var parts []string
	for _, d := range dims {
		if vary[d] {
			parts = append(parts, dimValue(r, d))
		}
	}
	return strings.Join(parts, " · ")
}

// group splits trials by a key, keeping groups in order of a sort key and
// trials in their given order.
type group struct {
	Label  string
	Trials []*trial.Result
}

func groupBy(trials []*trial.Result, key func(*trial.Result) string, order func(a, b *trial.Result) bool) []group {
	idx := map[string]int{}
	var out []group
	for _, r := range trials {
		k := key(r)
		i, ok := idx[k]
		if !ok {
			i = len(out)
			idx[k] = i
			out = append(out, group{Label: k})
		}
		out[i].Trials = append(out[i].Trials, r)
	}
	sort.SliceStable(out, func(i, j int) bool { return order(out[i].Trials[0], out[j].Trials[0]) })
	return out
}

// specOrder orders trials by app, CPUs, JDK, option mode, memory and rate:
// the order a reader scans the seeds' tables in. Option modes come as
// first run, with the JDK's defaults and then jvmfit first, so the
// baseline reads first and compare keeps the order the user gave.
func specOrder(trials []*trial.Result) func(a, b *trial.Result) bool {
	rank := map[string]int{}
	for _, r := range sorted(trials) {
		m := r.Spec.JVM
		if _, ok := rank[m]; ok {
			continue
		}
		switch {
		case m == "" || m == "default":
			rank[m] = -2
		case jvmopts.ParseMode(m).Launcher:
			rank[m] = -1
		default:
			rank[m] = len(rank)
		}
	}
	return func(a, b *trial.Result) bool {
		x, y := a.Spec, b.Spec
		switch {
		case appLabel(a) != appLabel(b):
			return appLabel(a) < appLabel(b)
		case x.CPUs != y.CPUs:
			return x.CPUs < y.CPUs
		case x.JDKVersion != y.JDKVersion:
			return x.JDKVersion < y.JDKVersion
		case x.JVM != y.JVM:
			if rank[x.JVM] != rank[y.JVM] {
				return rank[x.JVM] < rank[y.JVM]
			}
			return x.JVM < y.JVM
		case x.MemoryBytes != y.MemoryBytes:
			return x.MemoryBytes < y.MemoryBytes
		case rate(a) != rate(b):
			return rate(a) < rate(b)
		}
		return a.ID < b.ID
	}
}

func sortedBySpec(trials []*trial.Result) []*trial.Result {
	out := append([]*trial.Result(nil), trials...)
	less := specOrder(trials)
	sort.SliceStable(out, func(i, j int) bool { return less(out[i], out[j]) })
	return out
}
