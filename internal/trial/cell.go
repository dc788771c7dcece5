package trial

import (
	"fmt"
	"strings"
)

// Cell is the trial's result in seed 000's words: "OK (9.9s start,
// 1003req/s)", "KO (oom-killed)", or for an SLO miss the failed clauses
// with the run's figures, since the app did run. The progress lines and
// the report's tables both print it.
func (r *Result) Cell() string {
	start := "—"
	if r.StartSeconds > 0 {
		start = fmt.Sprintf("%.1fs", r.StartSeconds)
	}
	rps := 0.0
	if r.Load != nil {
		rps = r.Load.Throughput
	}
	figures := fmt.Sprintf("%s start, %.0freq/s", start, rps)
	if r.Verdict == OK {
		return "OK (" + figures + ")"
	}
	// The failed clauses, less a bare repeat of the kind.
	var why []string
	for _, f := range r.Failed {
		if f != string(r.Kind) && strings.TrimSpace(f) != "" {
			why = append(why, f)
		}
	}
	switch {
	case r.Kind == KindSLO && len(why) > 0:
		return "KO (" + strings.Join(why, "; ") + "; " + figures + ")"
	case r.Kind == KindSLO:
		return "KO (slo; " + figures + ")"
	case r.Kind == "":
		return "KO"
	case len(why) > 0:
		return "KO (" + string(r.Kind) + ": " + strings.Join(why, "; ") + ")"
	}
	return "KO (" + string(r.Kind) + ")"
}
