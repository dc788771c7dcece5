package trial

import (
	"fmt"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
)

// outcome is how the app fared, as the steps saw it.
type outcome struct {
	rd           readiness
	died         bool   // ended before jvmfit stopped it
	exit         Exit   // how it ended
	stall        string // a memory stall seen while it lived; "" if none
	gcBound      string // why the JVM was stopped bound in GC before ready; "" if it was not
	readyURL     string
	readyTimeout time.Duration
	lastAnswer   string // the readiness URL's last answer that was not 2xx
}

// judge sets the verdict. A process that died is the first reason (the
// kernel's OOM killer, a Java OutOfMemoryError it reported, or its own
// exit), then a memory stall, then not being ready in time, then the SLO.
// r.OOMArea must be set from the app's output before.
func judge(r *Result, slo SLO, o outcome) {
	rd, died, exit := o.rd, o.died, o.exit
	r.Verdict, r.Kind, r.Failed = OK, "", nil
	when := "before it was ready"
	if rd == ready {
		when = "during the trial"
		if r.Load != nil || len(r.Phases) > 0 {
			when = "under load"
		}
	}
	switch {
	case died:
		code := exit.Code
		r.ExitCode, r.ExitSignal = &code, exit.Signal
		r.Verdict = KO
		if exit.OOMKilled {
			r.Kind = KindOOMKilled
			r.Failed = []string{fmt.Sprintf("killed by the kernel's OOM killer %s at the %s limit", when, limitOrNone(r.Spec))}
			return
		}
		how := fmt.Sprintf("exited with code %d", exit.Code)
		if exit.Signal != "" {
			how = "was killed by signal " + exit.Signal
		}
		if r.OOMArea != "" {
			r.Kind = KindJavaOOM
			r.Failed = []string{fmt.Sprintf("the JVM ran out of memory (java.lang.OutOfMemoryError: %s) %s and %s", r.OOMArea, when, how)}
			return
		}
		r.Kind = KindExited
		r.Failed = []string{fmt.Sprintf("the app %s %s", how, when)}
	case o.stall != "":
		r.Verdict, r.Kind = KO, KindMemoryStall
		r.Failed = []string{fmt.Sprintf("memory stall %s: %s; it was stopped rather than left to hang", when, o.stall)}
	case o.gcBound != "":
		// HotSpot's own GC overhead limit throws OutOfMemoryError for this
		// state, where it has one: a heap too small for the live set.
		r.Verdict, r.Kind = KO, KindJavaOOM
		r.Failed = []string{fmt.Sprintf("out of heap %s: the JVM spent %s; it was stopped rather than left to collect until the ready timeout", when, o.gcBound)}
	case rd == readyTimedOut:
		r.Verdict, r.Kind = KO, KindNotReady
		r.Failed = []string{fmt.Sprintf("not ready: no 2xx answer from %s within %s (last answer: %s)", o.readyURL, o.readyTimeout, o.lastAnswer)}
	default:
		rate := r.Spec.Rate
		if rate == 0 && r.Load != nil {
			rate = r.Load.TargetRate
		}
		failed := slo.Failed(Facts{Load: r.Load, Rate: rate, StartSeconds: r.StartSeconds, MemoryPeak: r.MemoryPeakBytes, WorkingSetPeak: r.WorkingSetPeakBytes})
		if len(failed) > 0 {
			r.Verdict, r.Kind, r.Failed = KO, KindSLO, failed
		}
	}
	if r.Failed == nil {
		r.Failed = []string{}
	}
	if r.OOMArea != "" && !died {
		r.Findings = appendOnce(r.Findings, fmt.Sprintf("the app threw java.lang.OutOfMemoryError: %s and went on", r.OOMArea))
	}
}

// findings records what the app's output says about its memory.
func findings(r *Result, oomArea string, codeCacheFull bool) {
	r.OOMArea = oomArea
	if codeCacheFull {
		r.Findings = appendOnce(r.Findings, CodeCacheFinding)
	}
}

func appendOnce(list []string, s string) []string {
	for _, v := range list {
		if v == s {
			return list
		}
	}
	return append(list, s)
}

func limitOrNone(s Spec) string {
	if s.NoLimits || s.MemoryBytes == 0 {
		return "host's"
	}
	return size.Format(s.MemoryBytes)
}
