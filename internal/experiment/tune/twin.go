package tune

import (
	"fmt"
	"slices"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// c1Twin is the candidate whose options are c's with C1 alone where c
// compiles tiered (serial-c1 for serial-tiered), or nil.
func (s *searcher) c1Twin(c *cand) *cand {
	tiered := jitOptions("tiered")
	i := slices.IndexFunc(c.Options, func(o string) bool { return o == tiered[0] })
	if i < 0 || i+len(tiered) > len(c.Options) || !slices.Equal(c.Options[i:i+len(tiered)], tiered) {
		return nil
	}
	want := slices.Concat(c.Options[:i], jitOptions("c1"), c.Options[i+len(tiered):])
	for _, o := range s.cands {
		if !o.Launcher && o != c && slices.Equal(o.Options, want) {
			return o
		}
	}
	return nil
}

// twinKilled says why footprint challenger c cannot hold mem with the
// challenge's heap: its C1 twin ran with that very heap at mem or above
// and the kernel killed it, or it stalled. Tiered compilation is C1 with
// C2 on top: C2's compiler thread, its arenas, the profiled code and the
// MethodData it compiles from only add to what the twin did not fit, and
// a smaller limit with the same heap leaves less room still, so c's trial
// would say nothing new. "" where it may hold: another goal, no challenge
// heap, no twin, the twin not tried at mem or above with that heap, or a
// failure the heap or the latency decides (C2 may meet an SLO that C1
// missed). On catalog (1 CPU) each challenge trial took about 40 s: on
// 2026-12-03 the tiered pairs' two were spent on kills their C1 twins had
// met at the same limit, and on 2026-12-04 serial-tiered ran at 192Mi
// with the 56 MiB heap serial-c1 had been killed with at 224Mi.
func (s *searcher) twinKilled(c *cand, mem, heap int64) string {
	if s.res.Goal != plan.Footprint || heap <= 0 {
		return ""
	}
	tw := s.c1Twin(c)
	if tw == nil {
		return ""
	}
	want := "-Xmx" + size.JVM(heap)
	for _, t := range s.res.Trials {
		p, o := t.Point, t.Outcome
		if p.Purpose != PurposeSearch || p.Candidate != tw.Name || p.MemoryBytes < mem || o.Verdict == trial.OK ||
			(o.Kind != trial.KindOOMKilled && o.Kind != trial.KindMemoryStall) || challengeHeapOption(p.Options) != want {
			continue
		}
		return fmt.Sprintf("its C1 twin %s was %s at %s with the same heap (%s), and C2 only adds to that",
			tw.Name, o.Kind, size.Format(p.MemoryBytes), want)
	}
	return ""
}
