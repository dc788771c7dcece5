package trial

import (
	"context"
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/size"
)

// A JVM whose full heap cannot hold its live set with room to spare
// collects without end and never answers: nothing kills it, and the
// trial waited out the whole ready_timeout. On catalog (1 CPU, JDK 17,
// 2026-12-04) parallel-c1 at 224Mi with -Xmx56m, a 39 MiB live set,
// spent 97% of two minutes in 1,213 collections and was judged not-ready
// at 120 s, twice in one tune: 4 of its 15 minutes. HotSpot's own GC
// overhead limit (Parallel's, at 98% of the time with under 2% of the
// heap freed) did not fire, and Serial and G1 have none. So while the
// trial waits for ready, a JVM that spent gcBoundShare of the last
// gcBoundWindow collecting, with its heap grown to its maximum, is
// stopped and judged as HotSpot would have judged it: out of memory.
const (
	gcBoundWindow = 10 * time.Second
	gcBoundShare  = 0.9
	// gcBoundFull is how much of the maximum heap must be committed: a
	// heap that can still grow is not bound yet.
	gcBoundFull = 0.9
	gcBoundTick = 500 * time.Millisecond
)

// gcWatch follows a JVM's samples and says when it has been collecting
// without end (the rule above).
type gcWatch struct{ window []probe.Sample }

// observe adds a sample; it reports the bound once the samples of the
// last gcBoundWindow show it, with the facts for the verdict.
func (w *gcWatch) observe(s probe.Sample) (bool, string) {
	if !s.HasJVM() || s.HeapMax <= 0 {
		return false, ""
	}
	if n := len(w.window); n > 0 && s.At <= w.window[n-1].At {
		return false, "" // the same reading again
	}
	w.window = append(w.window, s)
	for len(w.window) > 1 && s.At-w.window[1].At >= gcBoundWindow {
		w.window = w.window[1:]
	}
	first := w.window[0]
	wall := s.At - first.At
	if wall < gcBoundWindow {
		return false, ""
	}
	share := float64(s.GCTime-first.GCTime) / float64(wall)
	if share < gcBoundShare || float64(s.HeapCommitted) < gcBoundFull*float64(s.HeapMax) {
		return false, ""
	}
	return true, fmt.Sprintf("%.0f%% of the last %s collecting garbage (%d collections), with the heap at its maximum %s (%s used)",
		100*share, wall.Round(time.Second), (s.YoungGCs+s.OldGCs)-(first.YoungGCs+first.OldGCs), size.Format(s.HeapMax), size.Format(s.HeapUsed))
}

// lastSampler is a Sampling that gives its latest sample (the probe's).
type lastSampler interface{ Last() probe.Sample }

// watchGC reads sampling's latest sample every gcBoundTick until ctx
// ends; when the JVM is bound in GC it records why in *why and closes the
// returned channel. A Sampling without samples to read never closes it.
func watchGC(ctx context.Context, sampling Sampling, why *string) <-chan struct{} {
	bound := make(chan struct{})
	ls, ok := sampling.(lastSampler)
	if !ok {
		return bound
	}
	go func() {
		tick := time.NewTicker(gcBoundTick)
		defer tick.Stop()
		var w gcWatch
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if ok, msg := w.observe(ls.Last()); ok {
				*why = msg
				close(bound)
				return
			}
		}
	}()
	return bound
}
