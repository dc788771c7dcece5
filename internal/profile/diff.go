package profile

import (
	"errors"
	"fmt"
	"strings"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// Tolerance is how far a production figure may pass the lab's before it
// counts as exceeding: one trial's figures move by a few percent between
// runs of the same load.
const Tolerance = 0.05

// Exceeded is one region where production's peak passes the lab's.
type Exceeded struct {
	Region, Field string
	Lab, Prod     int64
	count         bool // a count (threads), not bytes
}

func (e Exceeded) String() string {
	f := func(v int64) string { return size.Format(v) }
	if e.count {
		f = func(v int64) string { return fmt.Sprint(v) }
	}
	return fmt.Sprintf("%s %s > %s (%.2f×)", e.Region, f(e.Prod), f(e.Lab), float64(e.Prod)/float64(e.Lab))
}

// Verdicts: what production's figures do to an answer proven with the lab's.
const (
	Holds  = "holds"  // nothing exceeds
	Needs  = "needs"  // the planner needs a larger limit for production
	Retune = "retune" // the limit still plans production, but was proven with the lab's figures
)

// DiffResult is the comparison of a production profile with the lab's.
type DiffResult struct {
	Exceeded []Exceeded
	// LimitBytes is the limit the answer runs at; NeedBytes the smallest
	// the planner accepts with production's figures (0: not computed,
	// nothing exceeds or the planner cannot tell).
	LimitBytes, NeedBytes int64
	Verdict               string
	// Prod is the production profile's file, for the line's advice.
	Prod string
	why  string // the planner's reason, when it could not size
}

// regions are the figures compared, each a region of the plan. A figure
// measured on one side only is not compared: the planner used its default
// there, and which is larger is not known.
var regions = []struct {
	region, field string
	get           func(*plan.Profile) int64
	count         bool
}{
	{plan.RegHeap + " live set", "liveHeapBytes", func(p *plan.Profile) int64 { return p.LiveHeapBytes }, false},
	{plan.RegMetaspace, "metaspaceUsedBytes", func(p *plan.Profile) int64 { return p.MetaspaceUsedBytes }, false},
	{plan.RegClass, "classSpaceUsedBytes", func(p *plan.Profile) int64 { return p.ClassSpaceUsedBytes }, false},
	{plan.RegCode, "codeCacheUsedBytes", func(p *plan.Profile) int64 { return p.CodeCacheUsedBytes }, false},
	{"threads", "peakThreads", func(p *plan.Profile) int64 { return p.PeakThreads }, true},
	{plan.RegDirect, "directMemoryBytes", func(p *plan.Profile) int64 { return p.DirectMemoryBytes }, false},
	{"mapped buffers", "mappedBufferBytes", func(p *plan.Profile) int64 { return p.MappedBufferBytes }, false},
	{plan.RegNative, "peakUncappedNativeBytes", func(p *plan.Profile) int64 { return p.PeakUncappedNativeBytes }, false},
	{plan.RegCDS, "cdsArchiveBytes", func(p *plan.Profile) int64 { return p.CDSArchiveBytes }, false},
}

// Diff compares prod with lab, and asks the planner, for the answer's
// limit and JDK in in (its Limits, JDK, Goal and UserOptions), what
// production's figures need.
func Diff(lab, prod *plan.Profile, in plan.Input) DiffResult {
	d := DiffResult{LimitBytes: in.Limits.EffectiveMemory(), Verdict: Holds}
	for _, r := range regions {
		l, p := r.get(lab), r.get(prod)
		if l > 0 && p > 0 && float64(p) > float64(l)*(1+Tolerance) {
			d.Exceeded = append(d.Exceeded, Exceeded{Region: r.region, Field: r.field, Lab: l, Prod: p, count: r.count})
		}
	}
	if len(d.Exceeded) == 0 || in.JDK.Version == 0 || d.LimitBytes <= 0 {
		return d
	}
	d.Verdict = Retune
	in.Profile = prod
	_, err := plan.Compute(in)
	var ref *plan.RefusedError
	switch {
	case err == nil:
		d.NeedBytes = d.LimitBytes
	case errors.As(err, &ref) && ref.MinBytes > 0:
		d.Verdict, d.NeedBytes = Needs, ref.MinBytes
	default:
		d.why = strings.TrimPrefix(err.Error(), "memory limit ")
	}
	return d
}

// Line is the diff in one line: what exceeds, and what it does to the
// answer.
func (d DiffResult) Line() string {
	prod := d.Prod
	if prod == "" {
		prod = "PROD"
	}
	if len(d.Exceeded) == 0 {
		return "production is within the lab's profile on every region both measured: the answer holds"
	}
	parts := make([]string, len(d.Exceeded))
	for i, e := range d.Exceeded {
		parts[i] = e.String()
	}
	head := "production exceeds the lab's profile: " + strings.Join(parts, ", ")
	switch {
	case d.Verdict == Needs:
		return fmt.Sprintf("%s: the answer at %s needs limit %s (re-tune with --profile %s to prove it)", head, size.Format(d.LimitBytes), size.Format(d.NeedBytes), prod)
	case d.LimitBytes > 0 && d.why == "":
		return fmt.Sprintf("%s: %s still plans it, but the answer was proven with the lab's figures: re-tune with --profile %s", head, size.Format(d.LimitBytes), prod)
	case d.why != "":
		return fmt.Sprintf("%s: the planner cannot size it (%s): re-tune with --profile %s", head, d.why, prod)
	}
	return fmt.Sprintf("%s: re-tune with --profile %s", head, prod)
}

// DiffInput is the planner's input for `jvmfit profile diff`: the limit
// given (0: production's, else the lab's), production's CPUs and JDK
// (else the lab's; 1 CPU and JDK 17 when neither says).
func DiffInput(lab, prod *plan.Profile, limit int64, goal string) plan.Input {
	pick := func(a, b int64) int64 {
		if a > 0 {
			return a
		}
		return b
	}
	if limit <= 0 {
		limit = pick(prod.MemoryLimitBytes, lab.MemoryLimitBytes)
	}
	cpus := prod.CPUs
	if cpus <= 0 {
		cpus = lab.CPUs
	}
	if cpus <= 0 {
		cpus = 1
	}
	v := int(pick(int64(prod.JDKVersion), pick(int64(lab.JDKVersion), 17)))
	lim := cgroup.Limits{SwapBytes: -1}.Override(limit, cpus, nil)
	in := plan.Input{Limits: lim, Goal: goal}
	in.JDK.Version = v
	return in
}
