package tune

import (
	"context"
	"slices"
	"strings"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// challengeHeap is the heap a footprint challenger runs with at the
// incumbent's edge less a step: the heap the incumbent held at its edge
// (inc), so that the trial asks one question, whether the challenger's
// own non-heap is a step smaller. 0 where the challenger plans its own:
// for the other goals (the cost at the edge weighs the heap too), or when
// the launcher plans no heap for the incumbent.
//
// Planned on its own, a challenger that has not run yet has only the
// profile measured under the JDK's defaults, whose non-heap (C2's arenas
// and code, G1's tables) leaves its heap nothing at the edge: the planner
// gives it the JDK's heap, a quarter of the limit on top of a non-heap
// that no longer fits, or a heap under the live set (the panel of
// 2026-12-03: every challenger at the edge less a step was OOM-killed or
// died of Java heap space, 10 of 10 on each service). Those KOs said
// nothing about the challenger's options.
func (s *searcher) challengeHeap(inc Trial) int64 {
	if s.res.Goal != plan.Footprint {
		return 0
	}
	pl, err := s.cfg.Planner(inc.Point)
	if err != nil {
		return 0
	}
	return pl.HeapBytes()
}

// challengeOptions are the options of c's challenge trial with heap h:
// c's own (opts), with -Xmx h unless c sizes the heap itself (a heap
// variant's -Xmx, a RAM percentage: the heap is what it is a candidate
// for) or is the launcher's, which runs as exec plans it.
func challengeOptions(c *cand, opts []string, h int64) []string {
	if h <= 0 || c.Launcher || ownsHeap(opts) {
		return opts
	}
	return append(slices.Clone(opts), "-Xmx"+size.JVM(h))
}

// passHeap is the heap c's footprint trial at mem runs with when mem is
// under c's lowest pass and that pass ran a challenge's heap: the same
// heap, so that every step down asks what the challenge asked, whether
// the rest still fits. Planned from the profile c's pass measured, a lower
// limit got a heap that held nothing the pass had not: on filecache and
// sort (2026-12-03) serial-c1-appcds held 104Mi and 96Mi with the
// launcher's 20 and 18 MiB, then its own plan gave 48 and 44 MiB a step
// lower and the kernel killed it (its profile does not see the page
// cache of the files the app serves); on catalog it held 224Mi with
// 54 MiB (cgroup peak 204 MiB), and its own plan gave 44 MiB at 216Mi,
// which died of Java heap space. 0 where the plan's heap stands: not
// footprint, the launcher's own candidates (run as exec plans), a
// candidate that sizes the heap itself, or a pass planned with its own
// heap (a gallop's, from a limit far above the edge).
func (s *searcher) passHeap(c *cand, mem int64) int64 {
	if s.res.Goal != plan.Footprint || c.Launcher || ownsHeap(c.Options) || c.MinOKBytes == 0 || mem >= c.MinOKBytes {
		return 0
	}
	t, ok := s.trialOf(c, c.MinOKBytes)
	if !ok || !ownsHeap(t.Point.Options) {
		return 0
	}
	pl, err := s.cfg.Planner(t.Point)
	if err != nil {
		return 0
	}
	return pl.HeapBytes()
}

// limitCanHelp says whether a hold of c's point p that failed on kind
// could pass a step up. A point with a challenge's heap keeps that heap at
// every limit, so only a kill or a stall of the whole cgroup's memory can
// give way to more of it; a Java heap space, or a missed SLO, stays (on
// catalog, 2026-12-03: serial-c1-appcds passed 224Mi with the launcher's
// 54 MiB heap for 15 s, then missed the p99 for 30 s at 224, 232, 240 and
// 248Mi, and the climb spent the trials the launcher's own hold and soak
// needed: tune answered nothing).
func limitCanHelp(c *cand, p Point, kind trial.Kind) bool {
	if ownsHeap(c.Options) || !ownsHeap(p.Options) {
		return true
	}
	return kind == trial.KindOOMKilled || kind == trial.KindMemoryStall
}

// heapClimb is the point a failed hold of c's point p climbs to when p
// ran a challenge's heap and ran out of it (Java heap space) in the
// soak's length: a grid step up, with the whole step given to the heap.
// The rest of the JVM fitted at p's limit (the kernel did not kill it, it
// did not stall), so the step is the heap's to take, and the question
// stays one: is it the heap that was short? On catalog (2026-12-04)
// serial-c1-appcds held 208Mi for 15 s with the launcher's -Xmx52m, a
// heap only its own 15 s trial at 232Mi had run, and died of Java heap
// space in the 30 s hold; with no climb, the proof's reserve went to a
// third point, which failed too, and tune answered none. ok is false
// where another rule stands: c sizes its heap itself, p ran no
// challenge's heap, or it failed on something else.
func (s *searcher) heapClimb(c *cand, p Point, kind trial.Kind) (Point, bool) {
	if kind != trial.KindJavaOOM || ownsHeap(c.Options) || !ownsHeap(p.Options) {
		return p, false
	}
	h, err := size.Parse(strings.TrimPrefix(challengeHeapOption(p.Options), "-Xmx"))
	if err != nil || h <= 0 {
		return p, false
	}
	up := p
	up.MemoryBytes += s.cfg.Step
	up.Options = slices.DeleteFunc(slices.Clone(p.Options), func(o string) bool { return flagName(o) == "-Xmx" })
	up.Options = append(up.Options, "-Xmx"+size.JVM(h+s.cfg.Step))
	return up, true
}

// climbHeap holds c at up (heapClimb's) once, when the budget and the
// grid have room: a pass is c's edge there, with that heap.
func (s *searcher) climbHeap(ctx context.Context, c *cand, p, up Point) error {
	c.ko = max(c.ko, p.MemoryBytes)
	c.MinOKBytes = s.lowestOKAbove(c, c.ko)
	if up.MemoryBytes > s.top || s.res.Used()+2 > s.cfg.Budget {
		return nil
	}
	s.note("%s ran out of Java heap with %s at %s for the soak's length, the rest fitting: it is held a step up with the step given to the heap (%s)",
		p.Candidate, challengeHeapOption(p.Options), size.Format(p.MemoryBytes), challengeHeapOption(up.Options))
	o, err := s.run(ctx, up)
	if err != nil {
		return err
	}
	if o.Verdict == trial.OK {
		c.oks = append(c.oks, len(s.res.Trials)-1)
		c.MinOKBytes = up.MemoryBytes
		return nil
	}
	c.ko = max(c.ko, up.MemoryBytes)
	c.MinOKBytes = s.lowestOKAbove(c, c.ko)
	return nil
}

// challengeHeapOption is the -Xmx option among opts, for a note.
func challengeHeapOption(opts []string) string {
	for i := len(opts) - 1; i >= 0; i-- {
		if flagName(opts[i]) == "-Xmx" {
			return opts[i]
		}
	}
	return ""
}

// ownsHeap says whether options size the heap.
func ownsHeap(opts []string) bool {
	for _, o := range opts {
		switch flagName(o) {
		case "-Xmx", "XX:MaxHeapSize", "XX:MaxRAMPercentage", "XX:MaxRAM", "XX:MaxRAMFraction":
			return true
		}
	}
	return false
}
