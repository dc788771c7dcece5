package report

import (
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A tune experiment's trials, read back from the store. The store keeps
// each trial's role (Spec.Purpose) and candidate, and the report reads
// them. Trials stored before roles were kept have none, and their role is
// told from the spec as tune made it then:
//   - the soak: Spec.Soak;
//   - a training run: its options write a CDS archive or an AOT cache;
//   - the profile trial: the JDK's defaults (Spec.JVM "default"), which no
//     search trial had: every candidate states at least its GC;
//   - every other trial is a search trial, the only ones on the front.
type tunePurpose int

const (
	tuneSearch tunePurpose = iota
	tuneProfile
	tuneTraining
	tuneSoak
)

func tunePurposeOf(r *trial.Result) tunePurpose {
	switch r.Spec.Purpose {
	case trial.PurposeSoak:
		return tuneSoak
	case trial.PurposeTraining:
		return tuneTraining
	case trial.PurposeProfile:
		return tuneProfile
	case trial.PurposeSearch, trial.PurposeRepeat:
		return tuneSearch
	}
	switch {
	case r.Spec.Soak:
		return tuneSoak
	case slices.ContainsFunc(tuneOptions(r), func(o string) bool {
		return strings.HasPrefix(o, "-XX:ArchiveClassesAtExit=") || strings.HasPrefix(o, "-XX:AOTCacheOutput=")
	}):
		return tuneTraining
	case r.Spec.JVM == "default" && len(r.Spec.UserOptions) == 0:
		return tuneProfile
	}
	return tuneSearch
}

// tuneOptions are the options the trial's JVM was given: for a soak run
// through jvmfit exec, the candidate's (exec adds the plan's itself).
func tuneOptions(r *trial.Result) []string {
	switch {
	case len(r.Spec.JVMOptions) > 0:
		return r.Spec.JVMOptions
	case len(r.Spec.UserOptions) > 0:
		return r.Spec.UserOptions
	}
	return strings.Fields(r.Spec.JVM)
}

// tuneSearchTrials are the search trials with a verdict on the app, by id.
func tuneSearchTrials(ts []*trial.Result) []*trial.Result {
	var out []*trial.Result
	for _, r := range sorted(ts) {
		if tunePurposeOf(r) == tuneSearch && r.OnApp() {
			out = append(out, r)
		}
	}
	return out
}

// tuneParetoPoint is a trial as tune judges it (experiment.tunePareto):
// throttling is throttled seconds per second of the trial's wall time.
func tuneParetoPoint(r *trial.Result) judge.ParetoPoint {
	p := judge.ParetoPoint{MemoryBytes: r.Spec.MemoryBytes, StartSeconds: r.StartSeconds, Throttling: tuneThrottling(r),
		OK: r.Verdict == trial.OK}
	if r.Load != nil {
		p.P99 = r.Load.Latencies.P99
	}
	return p
}

func tuneThrottling(r *trial.Result) float64 {
	if wall := r.EndedAt.Sub(r.StartedAt); wall > 0 {
		return r.Summary.Throttled.Seconds() / wall.Seconds()
	}
	return 0
}

// tuneFront is the Pareto front of the search trials (judge.Front), in the
// judge's order.
func tuneFront(search []*trial.Result) []*trial.Result {
	pts := make([]judge.ParetoPoint, len(search))
	for i, r := range search {
		pts[i] = tuneParetoPoint(r)
	}
	var out []*trial.Result
	for _, i := range judge.Front(pts) {
		out = append(out, search[i])
	}
	return out
}

// tuneChosen is the search trial tune chose: the one its first soak ran
// (later soaks are a grid step up each). A soak through jvmfit exec holds
// the candidate's options, which end the search trial's (the launcher's
// come first); one run as a search trial has the very same options. With
// no soak (--soak 0, or interrupted before it) nothing is marked.
func tuneChosen(ts, search []*trial.Result) *trial.Result {
	var soak *trial.Result
	for _, r := range sorted(ts) {
		if tunePurposeOf(r) == tuneSoak {
			soak = r
			break
		}
	}
	if soak == nil {
		return nil
	}
	if soak.Spec.Candidate != "" {
		// The store kept each trial's candidate: the chosen point is the
		// soaked candidate's OK search trial at the first soak's limit.
		for _, r := range search {
			if r.Spec.Candidate == soak.Spec.Candidate && r.Spec.MemoryBytes == soak.Spec.MemoryBytes && r.Verdict == trial.OK {
				return r
			}
		}
		return nil
	}
	// Stored before candidates were kept: match the options. The
	// descriptor's own jvm_options may follow the candidate's in a
	// search trial's options: a run of them anywhere matches, at the end
	// is better.
	var match, within []*trial.Result
	for _, r := range search {
		if r.Spec.MemoryBytes != soak.Spec.MemoryBytes || r.Verdict != trial.OK {
			continue
		}
		u := soak.Spec.UserOptions
		switch {
		case soak.Spec.Launcher != trial.LauncherExec:
			if r.Spec.JVM == soak.Spec.JVM {
				match = append(match, r)
			}
		case len(u) == 0:
		case tuneEndsWith(r.Spec.JVMOptions, u):
			match = append(match, r)
		case tuneHasRun(r.Spec.JVMOptions, u):
			within = append(within, r)
		}
	}
	if len(match) == 0 {
		match = within
	}
	if len(match) == 0 {
		return nil
	}
	// A candidate whose options end another's at the same limit: the one
	// whose own options are the longest match is the likelier, but a trial
	// stored without its candidate cannot tell; take the latest, which
	// tune reached last.
	return match[len(match)-1]
}

func tuneHasRun(opts, run []string) bool {
	for i := 0; i+len(run) <= len(opts); i++ {
		if slices.Equal(opts[i:i+len(run)], run) {
			return true
		}
	}
	return false
}

func tuneEndsWith(opts, tail []string) bool {
	return len(opts) >= len(tail) && slices.Equal(opts[len(opts)-len(tail):], tail)
}

// tuneLabel names a trial's configuration: its candidate, or for a trial
// stored without one its distinguishing options
// (the last of each kind wins, as in the JVM): GC, JIT, heap, CDS.
func tuneLabel(r *trial.Result) string {
	if r.Spec.Candidate != "" {
		return r.Spec.Candidate
	}
	var gc, jit, heap, cds string
	for _, o := range tuneOptions(r) {
		switch {
		case o == "-XX:+UseSerialGC":
			gc = "Serial"
		case o == "-XX:+UseParallelGC":
			gc = "Parallel"
		case o == "-XX:+UseG1GC":
			gc = "G1"
		case o == "-XX:+UseZGC":
			gc = "ZGC"
		case o == "-XX:TieredStopAtLevel=1":
			jit = "C1"
		case strings.HasPrefix(o, "-XX:TieredStopAtLevel="):
			jit = "tiered"
		case strings.HasPrefix(o, "-Xmx"):
			heap = o
		case o == "-Xshare:off":
			cds = "no CDS"
		case strings.HasPrefix(o, "-XX:SharedArchiveFile="):
			cds = "app CDS"
		case strings.HasPrefix(o, "-XX:AOTCache="):
			cds = "AOT cache"
		}
	}
	var parts []string
	for _, p := range []string{gc, jit, heap, cds} {
		if p != "" {
			parts = append(parts, p)
		}
	}
	if len(parts) == 0 {
		return jvmLabel(r.Spec.JVM)
	}
	return strings.Join(parts, " · ")
}

// TuneFrontTable is the Pareto front of a tune's search trials, computed
// from the stored trials with the judge's rule, so it stands even when the
// tune was interrupted before it stored its summary.
func TuneFrontTable(ts []*trial.Result) *Table {
	search := tuneSearchTrials(ts)
	front := tuneFront(search)
	if len(front) == 0 {
		return nil
	}
	chosen := tuneChosen(ts, search)
	t := tuneFrontLayout()
	for _, r := range front {
		p := tuneParetoPoint(r)
		t.Rows = append(t.Rows, tuneFrontRow(r.ID, r.Spec.MemoryBytes, tuneLabel(r), p.P99, r.StartSeconds, p.Throttling,
			r.MemoryPeakBytes, r == chosen))
	}
	return t
}

// tuneFrontLayout is the one layout of a Pareto front, for the stored
// trials (TuneFrontTable) and for a tune's own result (TuneMarkdown).
func tuneFrontLayout() *Table {
	return &Table{Title: "Pareto front of the search trials",
		Header: []string{"trial", "limit", "candidate", "p99", "start", "throttled", "peak", ""},
		Notes: []string{"The OK search trials no other OK search trial beats on memory limit, p99, start time and CPU throttling at once (judge.Front, as tune computes it), smallest limit first. " +
			"Candidate: the candidate's name, or for a trial stored without it its distinguishing options. Chosen: the point tune soaked. Throttled: CPU throttled time per second of the trial. Peak: the cgroup's peak memory."}}
}

func tuneFrontRow(id, memory int64, config string, p99 time.Duration, start, throttling float64, peak int64, chosen bool) []string {
	trialNo, startText, mark := dash, dash, ""
	if id > 0 {
		trialNo = "#" + strconv.FormatInt(id, 10)
	}
	if start > 0 {
		startText = oneDecimal(start) + "s"
	}
	if chosen {
		mark = "chosen"
	}
	return []string{trialNo, mem(memory), config, ms(p99), startText, percent(throttling), mem(peak), mark}
}
