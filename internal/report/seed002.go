package report

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// SweepTables lays a rate sweep out like seed 002: per CPU count (and
// option mode, memory, JDK when they vary) the rate against throughput,
// p50, p99 and success, then a summary of where each breaks (Knee).
func SweepTables(trials []*trial.Result) []Table {
	ts := sortedBySpec(sorted(trials))
	vary := varying(ts)
	groups := sweepGroups(ts, vary)
	summary := Table{
		Title:  "Where it breaks (knee)",
		Header: []string{"Configuration", "Knee", "Last good rate", "Throughput breaks", "p99 breaks", "Success breaks", "Max throughput"},
		Notes: []string{fmt.Sprintf("A rate breaks when throughput < %.0f%% of the rate, p99 > %dx the p99 at the lowest rate, or success < %.0f%%. %s means it held at every rate tried.",
			judge.KneeThroughputRatio*100, judge.KneeLatencyFactor, judge.KneeMinSuccess*100, dash)},
	}
	var out []Table
	var words []string
	svcs := serviceNames(ts)
	for _, g := range groups {
		t := Table{Title: "Rate sweep: " + g.Label, Header: []string{"Rate", "Throughput", "p50", "p99", "Success", "Peak mem"}}
		for _, n := range svcs {
			t.Header = append(t.Header, n+" peak")
		}
		t.Header = append(t.Header, "Result")
		for _, r := range g.Trials {
			p50, p99 := dash, dash
			if r.Load != nil {
				p50, p99 = ms(r.Load.Latencies.P50), ms(r.Load.Latencies.P99)
			}
			row := []string{num(rate(r)), oneDecimal(throughput(r)), p50, p99, successCell(r), mem(r.MemoryPeakBytes)}
			for _, n := range svcs {
				row = append(row, serviceCells(r, n)[1])
			}
			t.Rows = append(t.Rows, append(row, shortResult(r)))
		}
		k := judge.Knee(ratePoints(g.Trials))
		summary.Rows = append(summary.Rows, []string{g.Label, rateCell(k.Rate), rateCell(k.LastGood),
			rateCell(k.Throughput), rateCell(k.Latency), rateCell(k.Success), oneDecimal(k.MaxThroughput)})
		words = append(words, kneeWords(k, g.Label))
		out = append(out, t)
	}
	summary.Notes = append(words, summary.Notes...)
	if s := sharedCPUs(ts); s != "" {
		summary.Notes = append(summary.Notes, s)
	}
	return append(out, summary)
}

func sweepGroups(ts []*trial.Result, vary map[dimension]bool) []group {
	return groupBy(ts, func(r *trial.Result) string {
		l := label(r, vary, dimApp, dimCPUs, dimMemory, dimJVM, dimJDK)
		if l == "" {
			l = dimValue(r, dimCPUs)
		}
		return l
	}, specOrder(ts))
}

func ratePoints(trials []*trial.Result) []judge.RatePoint {
	var ps []judge.RatePoint
	for _, r := range trials {
		if !r.OnApp() {
			continue
		}
		p := judge.RatePoint{Rate: rate(r), Throughput: throughput(r), Success: success(r)}
		if r.Load != nil {
			p.P99 = r.Load.Latencies.P99
		}
		ps = append(ps, p)
	}
	return ps
}

func rateCell(v float64) string {
	if v == 0 {
		return dash
	}
	return num(v)
}

// Knees computes the knee of each sweep group, labelled like SweepTables.
func Knees(trials []*trial.Result) map[string]judge.KneeResult {
	ts := sortedBySpec(sorted(trials))
	out := map[string]judge.KneeResult{}
	for _, g := range sweepGroups(ts, varying(ts)) {
		k := judge.Knee(ratePoints(g.Trials))
		k.Text = kneeWords(k, g.Label)
		out[g.Label] = k
	}
	return out
}
