package tune

import (
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/jvmfit/jvmfit/internal/detect"
)

// The framework's thread pools as knobs (docs/tune.md, "The framework's
// thread pools"). A pool sized for a big machine grows under concurrent
// load until each waiting request has its own thread, and every thread
// costs its stack, the JVM's per-thread native memory and the kernel's
// task: at a small limit that is heap the app does not get. tune tries
// one candidate more, the first GC and compiler pair with the pools
// capped, and judges it by its trials like any other: a cap that misses
// the SLO is never the answer.

// poolSizes are the two sizes the candidate's knobs take.
//
// Loops (event loops, I/O threads, virtual-thread carriers) never block,
// so one per two CPUs, at least one, keeps them busy and leaves the other
// CPUs to the GC, the compiler and blocking workers; a loop short of CPU
// shows as latency, which the SLO judges.
//
// Workers may block. Four per CPU keep each CPU busy while three of its
// requests wait on I/O, and twice the requests the load kept in flight
// (Little's law: the achieved rate × p99 of the profile trial, so a
// closed model counts its workers) lets the load's bursts in without
// queueing. The expert's set of issue 24 gives Tomcat 8 at 1 CPU and
// 100 req/s; this gives 4 there, and the search says whether 4 holds.
func poolSizes(cpus, inFlight float64) (workers, loops int) {
	n := max(1, int(math.Ceil(cpus)))
	workers = max(4*n, int(math.Ceil(2*inFlight)))
	loops = max(1, n/2)
	return workers, loops
}

// poolCandidate is base with the framework's pools capped: its options
// and the knobs' system properties, and the same settings as the
// environment the framework reads (for the answer's Kubernetes form).
// ok is false when the framework has no knobs.
func poolCandidate(base Candidate, knobs []detect.Knob, cpus, inFlight float64) (c Candidate, ok bool) {
	if len(knobs) == 0 {
		return c, false
	}
	w, l := poolSizes(cpus, inFlight)
	c = Candidate{Name: fmt.Sprintf("%s-pool%d", base.Name, w), Options: join(base.Options)}
	for _, k := range knobs {
		v := k.Value(w, l)
		c.Options = append(c.Options, k.SystemProperty(v))
		c.Pools = append(c.Pools, PoolSetting{Property: k.Property, Env: k.Env, Value: v})
	}
	return c, true
}

// PoolSetting is one framework knob a candidate sets.
type PoolSetting struct {
	Property string `json:"property"`
	Env      string `json:"env,omitempty"`
	Value    int    `json:"value"`
}

// withPools puts the pool candidate right after the first GC and
// compiler pair, which it caps (the launcher's own plans come before it):
// in a small container it is the likeliest to win.
func withPools(cs []Candidate, knobs []detect.Knob, cpus, inFlight float64) []Candidate {
	i := slices.IndexFunc(cs, func(c Candidate) bool { return !c.Launcher })
	if i < 0 {
		return cs
	}
	p, ok := poolCandidate(cs[i], knobs, cpus, inFlight)
	if !ok {
		return cs
	}
	return slices.Insert(slices.Clone(cs), i+1, p)
}

// pools adds the pool candidate for the app's framework, and says so.
func (s *searcher) pools(cs []Candidate) []Candidate {
	out := withPools(cs, s.cfg.Pools, s.cfg.CPUs, s.ref.InFlight)
	if len(out) > len(cs) {
		i := slices.IndexFunc(out, func(c Candidate) bool { return len(c.Pools) > 0 })
		p := out[i]
		s.note("%s caps the framework's thread pools (%s): %.1f requests were in flight in the profile trial at %g CPU", p.Name, strings.Join(p.Options[len(out[i-1].Options):], " "), s.ref.InFlight, s.cfg.CPUs)
	}
	return out
}
