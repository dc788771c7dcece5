package sandbox

import (
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// A memory stall is a group pinned at its memory limit whose reclaim is
// failing, with no OOM kill to end it: the app sits in state D and answers
// nothing. Seen at tight limits (a Helidon service at 32Mi, a Quarkus one at
// 72Mi); without this the trial waited out its whole ready_timeout.

// Stall detection's knobs: a reading every stallTick; a stall is declared
// after stallAfter of consecutive stalled readings. A few seconds: long
// enough that a burst of reclaim at the limit (normal for a page-cache
// heavy app) is not one, short against a ready_timeout of minutes.
const (
	stallTick  = 500 * time.Millisecond
	stallAfter = 5 * time.Second
	// psiStalled: above this share of time with every task waiting on
	// memory, the group makes next to no progress.
	psiStalled = 50.0
	// thrashMajors: major faults per tick (20 a second) that, with usage
	// pinned and a limit's worth of pages refaulted, make thrashing. An
	// app that churns its page cache through read() refaults as much and
	// sits at its limit as much, but faults on none of its own mapped pages;
	// a thrashing one waits, fault after fault, for its code and mapped
	// files to be read back. Measured on kernel 6.18 (docs/faults.md): a
	// JVM starved at 100Mi made 140–256 a tick, filecache starved at 168Mi
	// 60–260, a Go program faulting a mapped file ~6900; healthy churners
	// 0 (Go) and 0–6 (a JVM reading 1.4 GB/s, with bursts of 30–60 for a
	// tick or two at its start).
	thrashMajors = 10
)

// pinned says usage is at the limit: within 1% or 4 MiB, whichever is more.
// The kernel reclaims in batches and readahead charges pages in chunks, so
// a group at its limit saw-tooths under it: a stream read at a 64 MiB limit
// read 0 to 2.3 MiB under (measured); with 1 MiB of slack only a third of
// its readings were at the limit, and on a loaded CI machine a ninth.
func (p pressure) pinned() bool {
	if p.Limit <= 0 {
		return false
	}
	slack := max(p.Limit/100, 4<<20)
	return p.Usage >= p.Limit-slack
}

// failing says reclaim is failing between two readings. Every sign counts:
// v1's under_oom (the OOM killer is wanted and not acting); v2's oom
// events rising (reclaim failed at the limit) or PSI's full pressure over
// half the time; or, on either, thrashing: pages at a rate that cycles
// the whole limit within stallAfter were read back after eviction, and the
// app kept waiting on major faults. (observe requires usage pinned at the
// limit, which says the evictions are the limit's. failcnt does not: on
// 6.18 neither memory.failcnt nor memory.memsw.failcnt moves in a group
// with memsw limited as jvmfit's are, however often the limit is hit.)
func failing(prev, cur pressure) bool {
	switch {
	case cur.UnderOOM:
		return true
	case cur.EventsOOM > prev.EventsOOM:
		return true
	case cur.HasPSI && cur.FullAvg10 >= psiStalled:
		return true
	}
	return refaulting(prev, cur) && cur.MajFaults-prev.MajFaults >= thrashMajors
}

// refaulting says pages were read back after eviction, between two
// readings, at a rate that cycles the whole limit within stallAfter.
func refaulting(prev, cur pressure) bool {
	ticks := int64(stallAfter / stallTick)
	perTick := cur.Limit / 4096 / ticks
	return perTick > 0 && cur.Refaults-prev.Refaults >= perTick
}

// stallWatch follows successive readings; it reports a stall once the
// group was pinned with reclaim failing for stallAfter without a break.
type stallWatch struct {
	prev  pressure
	have  bool
	since time.Time // start of the current stalled stretch; zero if none
	first pressure  // the reading before the stretch began
}

// observe takes a reading made at now and says whether the group is
// stalled, with a sentence saying what was seen.
func (w *stallWatch) observe(now time.Time, cur pressure) (bool, string) {
	prev, had := w.prev, w.have
	w.prev, w.have = cur, true
	if !had || !cur.pinned() || !failing(prev, cur) {
		w.since = time.Time{}
		return false, ""
	}
	if w.since.IsZero() {
		w.since, w.first = now, prev
	}
	if now.Sub(w.since) < stallAfter {
		return false, ""
	}
	return true, cur.describe(now.Sub(w.since), w.first)
}

// describe says what the stretch of d that began after reading first
// looked like.
func (p pressure) describe(d time.Duration, first pressure) string {
	var why string
	switch {
	case p.UnderOOM:
		why = "the kernel could not reclaim memory and did not OOM-kill it (under_oom)"
	case p.HasPSI && p.FullAvg10 >= psiStalled:
		why = fmt.Sprintf("all its tasks waited on memory %.0f%% of the time", p.FullAvg10)
	case p.EventsOOM > 0:
		why = "reclaim failed at the limit (memory.events oom) and nothing was OOM-killed"
	default:
		why = fmt.Sprintf("it kept evicting and re-reading its own pages (thrashing: %s read back, %d major faults)",
			size.Format((p.Refaults-first.Refaults)*4096), p.MajFaults-first.MajFaults)
	}
	return fmt.Sprintf("memory usage was pinned at the %s limit for %s and %s",
		size.Format(p.Limit), d.Round(100*time.Millisecond), why)
}

// watchStall reads the group's memory directory every stallTick until the
// process ends or a stall is seen; then it records the sentence and closes
// p.stalled. It kills nothing: the trial decides, and Stop cleans up.
func (p *Process) watchStall() {
	dir := p.group.Path()
	tick := time.NewTicker(stallTick)
	defer tick.Stop()
	var w stallWatch
	for {
		select {
		case <-p.done:
			return
		case <-p.stopped:
			return
		case now := <-tick.C:
			cur, err := readPressure(dir)
			if err != nil {
				continue
			}
			if stalled, why := w.observe(now, cur); stalled {
				p.mu.Lock()
				p.stall = why
				p.mu.Unlock()
				close(p.stalled)
				return
			}
		}
	}
}

// Stalled is closed when the group has been pinned at its memory limit
// with reclaim failing for a few seconds (never with NoLimits).
func (p *Process) Stalled() <-chan struct{} { return p.stalled }

// Stall says in plain words what the stall looked like; "" if none.
func (p *Process) Stall() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.stall
}
