package plan

import (
	"fmt"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/size"
)

// Compute makes a plan. It fails with a *RefusedError when the limit is too
// small, and with a plain error for invalid input.
func Compute(in Input) (*Plan, error) {
	goal, err := ParseGoal(in.Goal)
	if err != nil {
		return nil, err
	}
	if in.JDK.Version == 0 {
		return nil, fmt.Errorf("unknown JDK version: inspect the java launcher first")
	}
	if in.Limits.EffectiveMemory() <= 0 {
		return nil, fmt.Errorf("no memory limit and no host memory: give --memory")
	}
	if in.Limits.EffectiveCPUs() <= 0 {
		return nil, fmt.Errorf("no CPU count: give --cpus")
	}
	if in.Profile != nil {
		if err := in.Profile.Validate(); err != nil {
			return nil, fmt.Errorf("bad profile: %v", err)
		}
		// Estimated and unmeasured regions plan as without a profile.
		in.Profile = in.Profile.Planned()
	}
	if in.MaxMemRatio < 0 || in.MaxMemRatio > 100 || in.InitMemRatio < 0 || in.InitMemRatio > 100 {
		return nil, fmt.Errorf("JAVA_MAX_MEM_RATIO and JAVA_INIT_MEM_RATIO must be percentages from 1 to 100")
	}
	u, err := parseUser(in.UserOptions)
	if err != nil {
		return nil, err
	}
	if err := checkClassSpace(u, in.Profile); err != nil {
		return nil, err
	}
	in.Goal = goal
	in.cdsBytes = in.JDK.CDSArchiveBytes()
	var headerNote string
	in.Profile, headerNote = headerAdjusted(in.Profile, u, goal, in.JDK)
	limit := in.Limits.EffectiveMemory()
	p, err := compute(in, u, limit)
	if ref, ok := err.(*RefusedError); ok {
		ref.MinBytes = smallestAccepted(in, u, limit)
	}
	if p != nil {
		if headerNote != "" {
			p.Warnings = append(p.Warnings, headerNote)
		}
		p.Warnings = append(p.Warnings, VerifierWarnings(in.UserOptions)...)
	}
	return p, err
}

// smallestAccepted finds the smallest limit above limit that plans, or 0.
// The split is not monotonic (C2 comes in above 300 MiB, bringing a larger
// code cache), so it scans upwards instead of bisecting: 1 MiB steps, or
// 1/4096 of the range when that is larger.
func smallestAccepted(in Input, u userSet, limit int64) int64 {
	hi := limit
	for {
		hi *= 2
		if hi > size.TiB {
			return 0
		}
		if _, err := compute(in, u, hi); err == nil {
			break
		}
	}
	step := max(mib, (hi-limit)/4096/mib*mib)
	for m := (limit/mib + 1) * mib; m < hi; m += step {
		if _, err := compute(in, u, m); err == nil {
			return m
		}
	}
	return hi
}

func compute(in Input, u userSet, limit int64) (*Plan, error) {
	lim := in.Limits
	n := lim.CPUCount()
	if v, ok := u.number("ActiveProcessorCount"); ok && v >= 1 {
		n = int(v)
	}
	c1, tieredOff := jitChoice(in.Goal, u, limit, profileOf(in))
	compilers := compilerCount(n, c1, tieredOff)
	if v, ok := u.number("CICompilerCount"); ok && v >= 1 {
		compilers = int(v)
	}

	s := &sizing{limit: limit, src: map[string]string{}, why: map[string]string{}}
	s.sizeFixed(in, u, c1, compilers)
	s.sizeMeasured(u, profileOf(in))
	gc, err := s.sizeHeap(in, u, n)
	if err != nil && in.fit {
		gc, err = s.fitAround(in, u, n) // fit.go: plan anyway, nothing capped that does not fit
	}
	if err != nil {
		return nil, err
	}
	p := &Plan{
		Env:        map[string]string{},
		LimitBytes: limit,
		CPUs:       lim.EffectiveCPUs(),
		CPUCount:   n,
		Goal:       in.Goal,
		JDK:        in.JDK.Version,
		GC:         gc,
		C1Only:     c1,
		Threads:    s.threads,
	}
	p.regions(s, gc)
	if s.lean != "" {
		p.Doubt = s.lean
		if h := &p.Regions[len(p.Regions)-1]; h.Bytes < 0 {
			h.Bytes, h.Why = 0, "none left when every cap fills: the heap is sized beside the measured non-heap"
		}
	}
	if s.measuredNative && !s.jdkHeap {
		p.Regions[0].Why += p.nonHeapAgainstMeasured(profileOf(in))
	}
	e := &emitter{p: p, u: u, j: in.JDK}
	e.memory(s, in)
	e.gc(gc, in.Goal, n)
	e.young(s, gc, profileOf(in))
	e.jit(c1, leanC2(in.Goal, c1, tieredOff, limit), compilers, n, limit)
	e.cpu(in, n)
	e.general(in.Goal)
	return p, nil
}

// jitChoice is C1 only or tiered, from the goal, the limit, the profile
// and the user's options: footprint is C1 only at any size unless a
// profile counts more threads than C1 pays for (c1BreakEven), throughput
// never, balanced at or below 300 MiB (seed 000) only when a profile says
// the app has few threads (c1Threads). Without a profile balanced keeps
// the JDK's tiered compilation: C1's uninlined frames made threads' deep
// stacks cost 88 MiB of NMT Thread against 50 under tiered, and the plan
// lost to the defaults (docs/launcher.md, "C1 and deep stacks"); footprint
// without a profile lost threads the same way (152 MiB against the
// defaults' 136), and won on the panel's other apps.
func jitChoice(goal string, u userSet, limit int64, pr *Profile) (c1, tieredOff bool) {
	c1 = goal == Footprint && !manyThreads(pr) || goal == Balanced && limit <= smallLimit && fewThreads(pr)
	tieredOff = u.has("TieredCompilation") && !u.bools["TieredCompilation"]
	if v, ok := u.number("TieredStopAtLevel"); ok {
		c1 = v < 4
	}
	if tieredOff {
		c1 = false
	}
	return c1, tieredOff
}

// regions lists the split; headroom takes whatever is not assigned.
func (p *Plan) regions(s *sizing, gc string) {
	metaWhy := s.why[RegMetaspace]
	if s.class == 0 {
		metaWhy += " (with class space: the 1 GiB class space reservation is not resident)"
	}
	p.Regions = []Region{
		{RegHeap, s.heap, "Xmx", s.src[RegHeap], s.why[RegHeap]},
		{RegMetaspace, s.meta - s.class, "MaxMetaspaceSize", s.src[RegMetaspace], metaWhy},
	}
	if s.class > 0 {
		p.Regions = append(p.Regions, Region{RegClass, s.class, "MaxMetaspaceSize", s.src[RegClass], s.why[RegClass]})
	}
	if s.cds > 0 {
		p.Regions = append(p.Regions, Region{RegCDS, s.cds, "", s.src[RegCDS], s.why[RegCDS]})
	}
	stacks, stackWhy := s.stacks(), s.why[RegStacks]
	if s.measuredNative {
		stacks, stackWhy = 0, fmt.Sprintf("%d threads × %s Xss; resident stacks are in the measured native", s.threads, size.Format(s.xss))
	}
	p.Regions = append(p.Regions,
		Region{RegCode, s.code, optionIf(s.codeCap > 0, "ReservedCodeCacheSize"), s.src[RegCode], s.why[RegCode]},
		Region{RegStacks, stacks, "Xss", s.src[RegStacks], stackWhy},
		Region{RegDirect, s.direct, "MaxDirectMemorySize", s.src[RegDirect], s.why[RegDirect]},
		Region{RegGC, s.gcOverhead, "", "jvmfit", fmt.Sprintf("%s GC structures: 0.5 MiB + %.0f%% of the heap", gc, gcPct(gc)*100)},
	)
	if !s.measuredNative || s.compilerApart {
		p.Regions = append(p.Regions, Region{RegCompiler, s.compiler, "", s.src[RegCompiler], s.why[RegCompiler]})
	}
	if !s.measuredNative {
		p.Regions = append(p.Regions, Region{RegAlloc, s.alloc, "", s.src[RegAlloc], s.why[RegAlloc]})
	}
	p.Regions = append(p.Regions,
		Region{RegNative, s.native, "", s.src[RegNative], s.why[RegNative]},
		Region{RegKernel, s.kernel, "", s.src[RegKernel], s.why[RegKernel]})
	switch {
	case s.jdkHeap:
		clipToLimit(p.Regions, s.limit, 0, s.metaCap == 0, " (estimate clipped: the limit holds no more after the JDK's heap)")
		s.set(RegHeadroom, "jvmfit", "no profile, the JDK's heap: what the estimates leave")
	case s.budget:
		clipToLimit(p.Regions, s.limit, s.headroom, false, " (shown as far as the non-heap budget holds it; the cap is larger: no panel app fills two caps at once)")
	}
	head := s.limit - p.Total()
	why := s.why[RegHeadroom]
	if extra := head - s.headroom; extra >= mib {
		why += "; plus " + size.Format(extra) + " not assigned to any region"
	}
	p.Regions = append(p.Regions, Region{RegHeadroom, head, "", "jvmfit", why})
}

func itoa(n int) string { return strconv.Itoa(n) }

func optionIf(cond bool, opt string) string {
	if cond {
		return opt
	}
	return ""
}
