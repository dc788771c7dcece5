package plan

import (
	"errors"
	"fmt"

	"github.com/jvmfit/jvmfit/internal/size"
)

// sizeHeap sets the heap, the collector and the GC overhead, then gives
// the rest of the limit to metaspace, direct memory and native. It refuses
// the limit when the heap or the room would fall below their floors.
func (s *sizing) sizeHeap(in Input, u userSet, n int) (string, error) {
	pr := profileOf(in)
	s.minHeap = minHeapNoProf
	if pr.LiveHeapBytes > 0 {
		s.minHeap = max(minHeapNoProf, liveFloor(pr.LiveHeapBytes))
	}
	gc := ""
	if u.has("gc") {
		gc = u.values["gc"]
	}
	if h, src, why := s.userHeap(in, u, gc); h > 0 {
		s.heap = h
		s.set(RegHeap, src, why)
		if gc == "" {
			gc = chooseGC(in.Goal, n, s.heap)
		}
		s.gcOverhead = s.gcFor(gc, s.heap, pr)
		if !s.fillRoom() {
			s.toFloors()
			return "", &RefusedError{LimitBytes: s.limit, Why: fmt.Sprintf(
				"heap %s (%s) leaves %s, and the rest of the process needs %s (%s) plus %s headroom",
				size.Format(s.heap), why, size.Format(max(0, s.limit-s.heap)), size.Format(s.nonHeap()), s.explainNonHeap(), size.Format(s.headroom))}
		}
		return gc, nil
	}
	if !(pr.MetaspaceUsedBytes > 0 && pr.LiveHeapBytes > 0) {
		return s.sizeHeapNoProfile(in, pr, n, gc)
	}
	if gc == "" {
		gc = chooseGC(in.Goal, n, s.heapRoom("Serial"))
	}
	s.heap = alignHeap(s.plannedHeap(in, pr, s.heapRoom(gc)))
	if s.heap < s.minHeap {
		if in.fit && s.planLean(pr, u, gc, s.heap) { // lean.go: under the floor, as exec plans
			return gc, nil
		}
		return "", s.heapRefusal(pr, gc, s.heap)
	}
	if beside, ok := s.marginsStarve(pr, u, n); in.fit && ok {
		caps := ""
		if beside > MeasuredNonHeap(pr) {
			caps = ", your caps above it counted whole"
		}
		s.starved = fmt.Sprintf("the plan's margins would leave %s, under the measured live set %s, and this heap fits beside the %s of non-heap the profile's trial measured%s",
			size.Format(s.heap), size.Format(pr.LiveHeapBytes), size.Format(beside), caps)
		return "", errStarved // only under Fit: fitAround takes the JDK's heap
	}
	if in.fit && s.heap < pr.LiveHeapBytes && s.planLean(pr, u, gc, s.heap) {
		return gc, nil
	}
	s.gcOverhead = s.gcFor(gc, s.heap, pr)
	if !s.fillRoom() {
		return "", fmt.Errorf("internal: heap %s leaves less than the floors at %s", size.Format(s.heap), size.Format(s.limit))
	}
	return gc, nil
}

// heapRefusal says the heap that fits (fits) is below the minimum.
func (s *sizing) heapRefusal(pr *Profile, gc string, fits int64) error {
	s.heap = 0
	s.toFloors()
	s.gcOverhead = s.gcFor(gc, s.minHeap, pr)
	left, as := "nothing", ""
	if l := s.limit - s.nonHeap() - s.headroom; l > 0 {
		left = size.Format(l)
		if fits > 0 {
			// What is left can exceed the minimum while the heap it
			// gives does not ("leave 15.6Mi ... below the 15Mi
			// minimum"): say what -Xmx it would be.
			as = fmt.Sprintf(" (an -Xmx of %s after the collector's share and the JVM's 2 MiB alignment)", size.Format(fits))
		}
	}
	return &RefusedError{LimitBytes: s.limit, Why: fmt.Sprintf(
		"%s of non-heap (%s) and %s headroom leave %s for the heap%s, below the %s minimum%s",
		size.Format(s.nonHeap()), s.explainNonHeap(), size.Format(s.headroom), left, as, size.Format(s.minHeap), s.minHeapWhy(pr))}
}

// sizeHeapNoProfile sizes the heap when no profile measured metaspace and
// the live set: the non-heap budget's heap in large containers, else the
// JDK's own (budget.go). A partial profile's live set still sets the
// heap's floor.
func (s *sizing) sizeHeapNoProfile(in Input, pr *Profile, n int, gc string) (string, error) {
	if gc == "" {
		probe := *s
		h, _ := probe.noProfileHeap(in, n, "Serial")
		gc = chooseGC(in.Goal, n, h)
	}
	h, budget := s.noProfileHeap(in, n, gc)
	sized := s.meta > 0 || s.direct > 0 || s.measuredNative
	if !budget && sized {
		// What a profile measured (or the user capped) is counted whole:
		// the heap gives way to it, down to its floor.
		if room := alignHeap(s.heapRoom(gc)); room < h {
			h = room
			s.set(RegHeap, "jvmfit", fmt.Sprintf("what the measured or capped non-heap, the estimates and headroom leave (the JDK would take %s)", size.Format(jdkDefaultHeap(s.limit, n))))
		}
		s.heap = h
		if s.heap < s.minHeap {
			return "", s.heapRefusal(pr, gc, s.heap)
		}
		s.gcOverhead = s.gcFor(gc, s.heap, pr)
		if !s.fillRoom() {
			return "", fmt.Errorf("internal: heap %s leaves less than the floors at %s", size.Format(s.heap), size.Format(s.limit))
		}
		return gc, nil
	}
	s.heap = h
	if s.heap < s.minHeap {
		if s.minHeap == minHeapNoProf { // a limit too small for any service
			s.toFloors()
			return "", &RefusedError{LimitBytes: s.limit, Why: fmt.Sprintf(
				"no profile: the JDK's own heap at this limit would be %s, below the %s minimum", size.Format(s.heap), size.Format(s.minHeap))}
		}
		// A measured live set above what the defaults give: the heap
		// takes it when the non-heap estimates and headroom still fit.
		s.heap = s.minHeap
		s.set(RegHeap, "profile", fmt.Sprintf("3/4 of the measured live set %s, above the JDK's own heap", size.Format(pr.LiveHeapBytes)))
		if s.limit-s.heap-gcOverheadFor(gc, s.heap)-s.fixed()-s.floors()-s.headroom < 0 {
			return "", s.heapRefusal(pr, gc, s.heap)
		}
	}
	s.gcOverhead = s.gcFor(gc, s.heap, pr)
	if budget {
		s.metaCap, s.directCap = s.meta, s.direct
		return gc, nil
	}
	s.jdkRegime(n)
	return gc, nil
}

// errStarved sends a plan whose margins starve the heap to fitAround; Fit
// alone asks for it, so it never reaches the user.
var errStarved = errors.New("the plan's margins leave the heap under the measured live set")

// marginsStarve is true when the plan's margins on the non-heap leave the
// heap under the measured live set while the JDK's own heap at this limit
// is larger and fits beside the non-heap the profile's trial measured
// (margins off) and the headroom. A heap under the live set fails for
// sure; a margin may never be used. heapbound at 64Mi with a profile whose
// live set was 24.3 MiB: the plan's -Xmx20m stopped before it was ready
// with "OutOfMemoryError: Java heap space", while with a live set of 26.8
// MiB the floor refused that heap, Fit took the JDK's 32 MiB and the app
// held (cgroup peak 52.8 MiB): a smaller live set gave a worse plan. Fit
// then plans as at a limit too small for the plan (fitAround), with a
// warning; Compute and Strict keep the margins. A cap of the user's above
// what its region measured counts whole: the app may use what it is given.
// It returns the non-heap it counted beside the JDK's heap.
func (s *sizing) marginsStarve(pr *Profile, u userSet, n int) (int64, bool) {
	jdk, m := jdkDefaultHeap(s.limit, n), measuredBeside(pr, u)
	if m == 0 { // no measured native: nothing to set the margins against
		return 0, false
	}
	return m, s.heap < pr.LiveHeapBytes && jdk > s.heap && jdk+m+s.headroom <= s.limit
}

// liveFloorShare is the part of the measured live set below which the
// planner refuses a heap: below it none of the sample apps started.
// Measured on this machine (JDK 17, 1 CPU, Serial, C1, each app at its
// rate; the launcher's options with -Xmx forced, at a generous limit so
// that only the heap can fail; bench/heapedge.sh, docs/launcher.md "The
// heap's floor with a profile"), in MiB and as ratios to the profile's
// liveHeapBytes:
//
//	app        live set   no start    OOM under load         holds every time
//	sort       14.0       12 (0.86)   13-14 (0.93-1.00)*     15 (1.07)
//	filecache  13.3       12 (0.90)   13-14 (0.98-1.05)      15 (1.13)
//	inventory  18.7       14 (0.75)   15-21 (0.80-1.12)*     22 (1.18)
//	catalog    55.0       50 (0.91)   -                      52 (0.94)
//	(* some trials held there: the edge is a band)
//
// The live set is what a full GC keeps (soft references included, and a
// start-up peak: inventory keeps 18.7 MiB while Hibernate builds its
// model, 15.3 after the load), so an app starts below it; of the small
// apps none held every time at its live set, and catalog (its live set
// measured in a 1 GiB heap) held just under it. Between the floor and
// what the app needs, a heap too small fails cleanly (Java OOM with
// ExitOnOutOfMemoryError, or GC time in the p99), which a trial sees: the
// floor refuses only heaps at which none of the apps started. At the live
// set it refused the very limits where sort and inventory fail (104Mi,
// 120Mi), so minmem's highest KO was the planner's refusal, not the app.
const liveFloorShare = 0.75

// LiveFloorShare is liveFloorShare for tune, which starts a candidate's
// search where the heap holds the whole live set, not at this floor.
const LiveFloorShare = liveFloorShare

// minHeapWhy names where the heap's minimum comes from, for a refusal.
func (s *sizing) minHeapWhy(pr *Profile) string {
	if pr.LiveHeapBytes > 0 && s.minHeap > minHeapNoProf {
		return fmt.Sprintf(" (3/4 of the measured live set %s)", size.Format(pr.LiveHeapBytes))
	}
	return ""
}

// liveFloor is the smallest heap planned for a measured live set.
func liveFloor(live int64) int64 { return roundUp(int64(float64(live)*liveFloorShare), mib) }

// userHeap is a heap the user fixes: -Xmx, a RAM option the JVM sizes
// from (modelled as the JVM applies it), or JAVA_MAX_MEM_RATIO.
func (s *sizing) userHeap(in Input, u userSet, gc string) (int64, string, string) {
	switch {
	case u.has("MaxHeapSize"):
		h, _ := u.size("MaxHeapSize")
		return h, "user", "your " + u.keys["MaxHeapSize"]
	case userSteersHeap(u):
		g := gc
		if g == "" {
			g = "Serial"
		}
		h := ergoFrom(u, s.limit, g).maxHeap()
		return h, "user", fmt.Sprintf("the JVM's own sizing with your %s (below about 250 MB it takes MinRAMPercentage, 50%% by default, whatever MaxRAMPercentage says)", userRAMOptions(u))
	case in.MaxMemRatio > 0:
		return alignHeap(frac(s.limit, in.MaxMemRatio/100)), "user", fmt.Sprintf("JAVA_MAX_MEM_RATIO=%g%% of %s", in.MaxMemRatio, size.Format(s.limit))
	}
	return 0, "", ""
}

func userRAMOptions(u userSet) string {
	var out string
	for _, k := range []string{"MaxRAMPercentage", "MinRAMPercentage", "MaxRAM"} {
		if u.has(k) {
			if out != "" {
				out += " "
			}
			out += u.keys[k]
		}
	}
	return out
}

// plannedHeap is the heap of a measured profile, room being the most that
// fits: the measurement makes the whole room safe to use.
func (s *sizing) plannedHeap(in Input, pr *Profile, room int64) int64 {
	if in.Goal == Footprint {
		if h := roundUp(pr.LiveHeapBytes*2, mib) + 16*mib; h < room {
			s.set(RegHeap, "profile", fmt.Sprintf("footprint: 2 × the measured live heap %s + 16 MiB", size.Format(pr.LiveHeapBytes)))
			return max(h, s.minHeap)
		}
	}
	s.set(RegHeap, "profile", "all that the measured non-heap and headroom leave")
	return room
}

// heapRoom is the largest heap that leaves the fixed regions, the room's
// floors and the GC overhead their share.
func (s *sizing) heapRoom(gc string) int64 {
	free := s.limit - s.headroom - s.fixed() - s.floors() - mib
	if free <= 0 {
		return 0
	}
	return int64(float64(free-mib/2) / (1 + gcPct(gc)))
}

// toFloors fills unsized room regions with their floors, for a refusal
// message whose numbers add up.
func (s *sizing) toFloors() {
	if s.meta == 0 {
		s.meta = metaFloor
	}
	if s.direct == 0 {
		s.direct = directFloor
	}
	if s.native == 0 {
		s.native = roundUp(nativeBase+int64(float64(s.meta)*nativePerMeta), mib)
	}
}
