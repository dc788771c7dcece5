package report

import (
	"slices"
	"strconv"
	"strings"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// A tune's report shows tune's own search, read from the stored roles:
// per candidate, the limits its trials ran at with their verdicts and the
// edge they found (its lowest OK with no KO of it above); then the proof.
// It shows no table of limits across candidates, which would read as a
// second answer (the lowest OK of any option set).

// TuneSearchTable is one row per candidate, in the order it was first
// tried.
func TuneSearchTable(ts []*trial.Result) *Table {
	byCand := map[string][]*trial.Result{}
	var order []string
	for _, r := range sorted(ts) {
		if tunePurposeOf(r) != tuneSearch {
			continue
		}
		c := tuneLabel(r)
		if _, ok := byCand[c]; !ok {
			order = append(order, c)
		}
		byCand[c] = append(byCand[c], r)
	}
	if len(order) == 0 {
		return nil
	}
	t := &Table{Title: "Tune's search, per candidate",
		Header: []string{"candidate", "trials", "limits tried", "edge"},
		Notes: []string{"Limits tried: each search trial's limit and verdict in the order it ran (a long one, held for the soak's length, marked so). " +
			"Edge: the candidate's lowest OK limit with no KO of it at or above; a dash when it has none. The answer is the tune's, below."}}
	for _, c := range order {
		rs := byCand[c]
		var tried []string
		for _, r := range rs {
			v := string(r.Verdict)
			if r.Spec.Purpose == trial.PurposeRepeat {
				v += ", held"
			}
			tried = append(tried, mem(r.Spec.MemoryBytes)+" "+v)
		}
		t.Rows = append(t.Rows, []string{c, strconv.Itoa(len(rs)), strings.Join(tried, " · "), tuneEdge(rs)})
	}
	return t
}

// tuneEdge is the lowest OK limit of a candidate's trials with no KO at
// or above it, or a dash.
func tuneEdge(rs []*trial.Result) string {
	var edge int64
	for _, r := range rs {
		m := r.Spec.MemoryBytes
		if r.Verdict != trial.OK || (edge != 0 && m >= edge) {
			continue
		}
		if !slices.ContainsFunc(rs, func(u *trial.Result) bool { return u.Verdict != trial.OK && u.Spec.MemoryBytes >= m }) {
			edge = m
		}
	}
	if edge == 0 {
		return dash
	}
	return mem(edge)
}

// TuneSoakTable lists the proof: each soak, run as recommended.
func TuneSoakTable(ts []*trial.Result) *Table {
	t := &Table{Title: "Tune's proof: the soaks", Header: []string{"trial", "limit", "candidate", "verdict", "p99", "peak"},
		Notes: []string{"Each soak ran the chosen point as recommended, for the soak's length; a KO raised the limit a grid step. The answer is the last soak that passed."}}
	for _, r := range sorted(ts) {
		if tunePurposeOf(r) != tuneSoak {
			continue
		}
		p99 := dash
		if r.Load != nil {
			p99 = ms(r.Load.Latencies.P99)
		}
		v := string(r.Verdict)
		if r.Kind != "" && r.Verdict != trial.OK {
			v += " (" + string(r.Kind) + ")"
		}
		t.Rows = append(t.Rows, []string{"#" + strconv.FormatInt(r.ID, 10), mem(r.Spec.MemoryBytes), tuneLabel(r), v, p99, mem(r.MemoryPeakBytes)})
	}
	if len(t.Rows) == 0 {
		return nil
	}
	return t
}
