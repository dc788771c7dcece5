package report

import (
	"fmt"
	"sort"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// minPeakRow leaves out categories that stay below it in every column.
const minPeakRow = 100 << 10

// NMTPeakTable lists the peak committed bytes per NMT category (the
// summary's nmt_peak) for the trials at each configuration's edge: its
// minimum-OK trial and the trial at its highest KO limit, where what grew
// before the failure shows. Nil when no trial has NMT peaks.
func NMTPeakTable(trials []*trial.Result) *Table {
	cols, heads := nmtColumns(sorted(trials))
	if len(cols) == 0 {
		return nil
	}
	t := &Table{Title: "Native memory peaks (NMT, committed MiB)", Header: append([]string{"Category"}, heads...)}
	peaks := map[string]int64{}
	for _, r := range cols {
		for k, v := range r.Summary.NMTPeak {
			if !isTotal(k) {
				peaks[k] = max(peaks[k], v)
			}
		}
	}
	names := byPeak(peaks)
	small := 0
	for _, k := range names {
		if peaks[k] < minPeakRow {
			small++
			continue
		}
		t.Rows = append(t.Rows, nmtRow(k, k, cols))
	}
	t.Rows = append(t.Rows, nmtRow("Total", totalKey(cols), cols))
	t.Notes = append(t.Notes, "Each category's highest reading over the run (every 2 s with --nmt): they need not coincide, so they can add up to more than the Total's peak. "+
		"Per configuration, its minimum OK trial and, where one failed, the trial at its highest KO limit; every trial's peaks are in the JSON (summary.nmt_peak).")
	if small > 0 {
		word := "categories that stay"
		if small == 1 {
			word = "category that stays"
		}
		t.Notes = append(t.Notes, fmt.Sprintf("%d %s under 0.1 MiB left out.", small, word))
	}
	return t
}

// nmtColumns are the trials the peaks table shows, with their headers.
func nmtColumns(ts []*trial.Result) (cols []*trial.Result, heads []string) {
	vary := varying(ts)
	for _, g := range configGroups(ts) {
		var with []*trial.Result
		for _, r := range g.Trials {
			if len(r.Summary.NMTPeak) > 0 {
				with = append(with, r)
			}
		}
		shown := shownTrial(g.Trials, with, false)
		if shown == nil {
			continue
		}
		pick := []*trial.Result{shown}
		if _, maxKO := boundary(g.Trials); maxKO > 0 {
			if ko := atLimit(g.Trials, maxKO, trial.KO); ko != nil && ko != shown && len(ko.Summary.NMTPeak) > 0 {
				pick = append(pick, ko)
			}
		}
		for _, r := range pick {
			cols = append(cols, r)
			heads = append(heads, g.Label+" "+legendName(r, vary, true))
		}
	}
	return cols, heads
}

// totalKey is how the readings spell the total ("Total").
func totalKey(cols []*trial.Result) string {
	for _, r := range cols {
		keys := make([]string, 0, len(r.Summary.NMTPeak))
		for k := range r.Summary.NMTPeak {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if isTotal(k) {
				return k
			}
		}
	}
	return "Total"
}

func nmtRow(name, key string, cols []*trial.Result) []string {
	row := []string{name}
	for _, r := range cols {
		row = append(row, mib(r.Summary.NMTPeak[key]))
	}
	return row
}
