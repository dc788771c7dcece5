package plan

import (
	"fmt"
	"strconv"

	"github.com/jvmfit/jvmfit/internal/size"
)

// minHeap is the smallest heap jvmfit will plan without a profile.
const minHeap = 16 * mib

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
	}
	if in.MaxMemRatio < 0 || in.MaxMemRatio > 100 || in.InitMemRatio < 0 || in.InitMemRatio > 100 {
		return nil, fmt.Errorf("JAVA_MAX_MEM_RATIO and JAVA_INIT_MEM_RATIO must be percentages from 1 to 100")
	}
	u, err := parseUser(in.UserOptions)
	if err != nil {
		return nil, err
	}
	in.Goal = goal
	limit := in.Limits.EffectiveMemory()
	p, err := compute(in, u, limit)
	if ref, ok := err.(*RefusedError); ok {
		ref.MinBytes = smallestAccepted(in, u, limit)
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
	c1 := limit <= smallLimit || in.Goal == Footprint
	tieredOff := u.has("TieredCompilation") && !u.bools["TieredCompilation"]
	if v, ok := u.number("TieredStopAtLevel"); ok {
		c1 = v < 4
	}
	if tieredOff {
		c1 = false
	}
	compilers := compilerCount(n, c1, tieredOff)
	if v, ok := u.number("CICompilerCount"); ok && v >= 1 {
		compilers = int(v)
	}

	s := &sizing{limit: limit}
	s.sizeNonHeap(in, u, c1, compilers)

	// Heap: the user's, run-java.sh's ratio, or all that is left.
	userHeap, _ := u.size("MaxHeapSize")
	heapSrc, heapWhy := "jvmfit", ""
	if v, ok := u.number("MaxRAMPercentage"); ok && userHeap == 0 && !u.has("MaxHeapSize") {
		userHeap = frac(limit, v/100)
		heapSrc, heapWhy = "user", fmt.Sprintf("your %s of %s", u.keys["MaxRAMPercentage"], size.Format(limit))
	}
	if userHeap == 0 && in.MaxMemRatio > 0 {
		userHeap = alignHeap(frac(limit, in.MaxMemRatio/100))
		heapSrc, heapWhy = "user", fmt.Sprintf("JAVA_MAX_MEM_RATIO=%g%% of %s", in.MaxMemRatio, size.Format(limit))
	}
	if u.has("MaxHeapSize") {
		heapSrc, heapWhy = "user", "your "+u.keys["MaxHeapSize"]
	}
	gc := ""
	if u.has("gc") {
		gc = u.values["gc"]
	}
	pr := in.Profile
	s.minHeap = minHeap
	if pr != nil && pr.LiveHeapBytes > 0 {
		s.minHeap = max(minHeap, roundUp(pr.LiveHeapBytes*3/2, mib))
	}

	if userHeap > 0 {
		s.heap = userHeap
		if gc == "" {
			gc = chooseGC(in.Goal, n, s.heap)
		}
		over := s.heap + s.gcOverheadFor(gc, s.heap) + mib - (s.limit - s.headroom - s.nonHeap())
		if over > 0 && !s.shrink(over, c1) {
			return nil, &RefusedError{LimitBytes: limit, Why: fmt.Sprintf(
				"heap %s (%s) leaves %s for non-heap, which needs %s plus %s headroom",
				size.Format(s.heap), heapWhy, size.Format(max(0, limit-s.heap)), size.Format(s.nonHeap()+s.gcOverheadFor(gc, s.heap)), size.Format(s.headroom))}
		}
	} else {
		g := gc
		if g == "" {
			g = chooseGC(in.Goal, n, s.heapRoom("Serial"))
		}
		room := s.heapRoom(g)
		if gc == "" {
			gc = chooseGC(in.Goal, n, room)
			room = s.heapRoom(gc)
		}
		share := map[string]float64{Footprint: 0.70, Balanced: 0.80, Throughput: 0.85}[in.Goal]
		s.heap = alignHeap(min(room, frac(limit, share)))
		heapWhy = fmt.Sprintf("what is left after non-heap and headroom (at most %.0f%% of the limit)", share*100)
		if pr != nil && pr.LiveHeapBytes > 0 && in.Goal == Footprint {
			if cap := alignHeap(roundUp(pr.LiveHeapBytes*3, mib) + 16*mib); cap < s.heap {
				s.heap, heapSrc = max(cap, s.minHeap), "profile"
				heapWhy = fmt.Sprintf("footprint: 3 × the measured live heap %s + 16 MiB", size.Format(pr.LiveHeapBytes))
			}
		}
		if s.heap < s.minHeap && s.shrink(roundUp(int64(float64(s.minHeap-s.heap)*(1+gcPct(gc))), mib)+mib, c1) {
			s.heap = alignHeap(s.heapRoom(gc))
		}
		if s.heap < s.minHeap {
			return nil, &RefusedError{LimitBytes: limit, Why: fmt.Sprintf(
				"after %s of non-heap and %s headroom the heap would be %s, below the %s minimum",
				size.Format(s.nonHeap()), size.Format(s.headroom), size.Format(max(0, s.heap)), size.Format(s.minHeap))}
		}
	}
	s.gcOverhead = s.gcOverheadFor(gc, s.heap)

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
	p.regions(s, heapSrc, heapWhy, gc)
	e := &emitter{p: p, u: u, j: in.JDK}
	e.memory(s, in)
	e.gc(gc, in.Goal, n)
	e.jit(c1, compilers, n, limit)
	e.cpu(in, n)
	e.general(in.Goal)
	return p, nil
}

func (s *sizing) gcOverheadFor(gc string, heap int64) int64 {
	return roundUp(mib+int64(float64(heap)*gcPct(gc)), mib)
}

// regions lists the split; headroom takes whatever is not assigned.
func (p *Plan) regions(s *sizing, heapSrc, heapWhy, gc string) {
	meta := s.meta - s.class
	metaOpt := "MaxMetaspaceSize (with class space)"
	p.Regions = []Region{
		{RegHeap, s.heap, "Xmx", heapSrc, heapWhy},
		{RegMetaspace, meta, metaOpt, s.src[RegMetaspace], s.why[RegMetaspace]},
	}
	if s.emitClass {
		p.Regions = append(p.Regions, Region{RegClass, s.class, "CompressedClassSpaceSize", s.src[RegClass], s.why[RegClass]})
	}
	p.Regions = append(p.Regions,
		Region{RegCode, s.code, "ReservedCodeCacheSize", s.src[RegCode], s.why[RegCode]},
		Region{RegStacks, s.xss * int64(s.threads), "Xss", s.src[RegStacks], s.why[RegStacks]},
		Region{RegDirect, s.direct, "MaxDirectMemorySize", s.src[RegDirect], s.why[RegDirect]},
		Region{RegGC, s.gcOverhead, "", "jvmfit", fmt.Sprintf("%s GC structures: 1 MiB + %.0f%% of the heap", gc, gcPct(gc)*100)},
		Region{RegCompiler, s.compiler, "", s.src[RegCompiler], s.why[RegCompiler]},
		Region{RegNative, s.native, "", s.src[RegNative], s.why[RegNative]},
	)
	head := s.limit - p.Total()
	why := s.why[RegHeadroom]
	if extra := head - s.headroom; extra >= mib {
		why += "; plus " + size.Format(extra) + " not assigned to any region"
	}
	p.Regions = append(p.Regions, Region{RegHeadroom, head, "", "jvmfit", why})
}

func itoa(n int) string { return strconv.Itoa(n) }
