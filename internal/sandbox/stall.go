package sandbox

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// A memory stall is a group pinned at its memory limit whose reclaim is
// failing, with no OOM kill to end it: the app sits in state D and answers
// nothing. Seen at tight limits (a Helidon service at 32Mi, a Quarkus one at
// 72Mi); without this the trial waited out its whole ready_timeout.

// pressure is one reading of a group's memory pressure. A counter the
// kernel does not offer stays zero; a flag stays false.
type pressure struct {
	Usage, Limit int64
	UnderOOM     bool  // v1 memory.oom_control under_oom: the OOM killer is needed and not acting
	Failcnt      int64 // v1: times a charge hit the limit
	Refaults     int64 // pages evicted and read back (workingset_refault_*): thrashing
	EventsMax    int64 // v2 memory.events max: times usage hit memory.max
	EventsOOM    int64 // v2 memory.events oom: the limit was hit and reclaim failed
	FullAvg10    float64
	HasPSI       bool // memory.pressure exists (v2 with PSI)
}

// readPressure reads dir, one group's memory directory (v1's memory
// hierarchy, or v2's single directory); the version is told by its files.
func readPressure(dir string) (pressure, error) {
	var p pressure
	if _, err := os.Stat(filepath.Join(dir, "memory.usage_in_bytes")); err == nil {
		return p, p.readV1(dir)
	}
	return p, p.readV2(dir)
}

func (p *pressure) readV1(dir string) error {
	var err error
	if p.Usage, err = readInt(dir, "memory.usage_in_bytes"); err != nil {
		return err
	}
	if p.Limit, err = readInt(dir, "memory.limit_in_bytes"); err != nil {
		return err
	}
	p.Failcnt, _ = readInt(dir, "memory.failcnt")
	oc, _ := readKeyed(dir, "memory.oom_control")
	p.UnderOOM = oc["under_oom"] == 1
	st, _ := readKeyed(dir, "memory.stat")
	p.Refaults = st["workingset_refault_file"] + st["workingset_refault_anon"] + st["workingset_refault"]
	return nil
}

func (p *pressure) readV2(dir string) error {
	var err error
	if p.Usage, err = readInt(dir, "memory.current"); err != nil {
		return err
	}
	if p.Limit, err = readInt(dir, "memory.max"); err != nil {
		return err
	}
	ev, _ := readKeyed(dir, "memory.events")
	p.EventsMax, p.EventsOOM = ev["max"], ev["oom"]
	st, _ := readKeyed(dir, "memory.stat")
	p.Refaults = st["workingset_refault_file"] + st["workingset_refault_anon"]
	p.FullAvg10, p.HasPSI = readPSIFull(dir)
	return nil
}

// readInt reads a file of one integer; v2's "max" (no limit) is -1.
func readInt(dir, file string) (int64, error) {
	b, err := os.ReadFile(filepath.Join(dir, file))
	if err != nil {
		return 0, err
	}
	s := strings.TrimSpace(string(b))
	if s == "max" {
		return -1, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %w", filepath.Join(dir, file), err)
	}
	return n, nil
}

// readKeyed parses "key value" lines.
func readKeyed(dir, file string) (map[string]int64, error) {
	f, err := os.Open(filepath.Join(dir, file))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	out := map[string]int64{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		k, v, ok := strings.Cut(sc.Text(), " ")
		if n, err := strconv.ParseInt(strings.TrimSpace(v), 10, 64); ok && err == nil {
			out[k] = n
		}
	}
	return out, sc.Err()
}

// readPSIFull reads "full avg10=" of memory.pressure: the share of the last
// 10 s in which every task of the group waited on memory.
func readPSIFull(dir string) (float64, bool) {
	b, err := os.ReadFile(filepath.Join(dir, "memory.pressure"))
	if err != nil {
		return 0, false
	}
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) < 2 || f[0] != "full" {
			continue
		}
		if v, ok := strings.CutPrefix(f[1], "avg10="); ok {
			x, err := strconv.ParseFloat(v, 64)
			return x, err == nil
		}
	}
	return 0, false
}

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
)

// pinned says usage is at the limit: within 1% or 1 MiB, whichever is more
// (the kernel keeps usage a few pages under the limit while it reclaims).
func (p pressure) pinned() bool {
	if p.Limit <= 0 {
		return false
	}
	slack := max(p.Limit/100, 1<<20)
	return p.Usage >= p.Limit-slack
}

// failing says reclaim is failing between two readings. Every sign counts:
// v1's under_oom (the OOM killer is wanted and not acting); v2's oom
// events rising (reclaim failed at the limit) or PSI's full pressure over
// half the time; or, on either, thrashing: the limit's worth of pages read
// back after eviction within stallAfter while the limit kept being hit.
func failing(prev, cur pressure) bool {
	switch {
	case cur.UnderOOM:
		return true
	case cur.EventsOOM > prev.EventsOOM:
		return true
	case cur.HasPSI && cur.FullAvg10 >= psiStalled:
		return true
	}
	hit := cur.Failcnt > prev.Failcnt || cur.EventsMax > prev.EventsMax
	ticks := int64(stallAfter / stallTick)
	perTick := cur.Limit / 4096 / ticks // pages per tick that cycle the whole limit in stallAfter
	return hit && perTick > 0 && cur.Refaults-prev.Refaults >= perTick
}

// stallWatch follows successive readings; it reports a stall once the
// group was pinned with reclaim failing for stallAfter without a break.
type stallWatch struct {
	prev  pressure
	have  bool
	since time.Time // start of the current stalled stretch; zero if none
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
		w.since = now
	}
	if now.Sub(w.since) < stallAfter {
		return false, ""
	}
	return true, cur.describe(now.Sub(w.since))
}

func (p pressure) describe(d time.Duration) string {
	var why string
	switch {
	case p.UnderOOM:
		why = "the kernel could not reclaim memory and did not OOM-kill it (under_oom)"
	case p.HasPSI && p.FullAvg10 >= psiStalled:
		why = fmt.Sprintf("all its tasks waited on memory %.0f%% of the time", p.FullAvg10)
	case p.EventsOOM > 0:
		why = "reclaim failed at the limit (memory.events oom) and nothing was OOM-killed"
	default:
		why = "it kept evicting and re-reading its own pages (thrashing)"
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
