// Package report turns stored trials into the seeds' tables (Markdown),
// one offline HTML page with charts, CSV and JSON. It reads results only;
// it never runs or stores anything.
package report

import (
	"sort"
	"time"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
	"github.com/jvmfit/jvmfit/internal/trial"
)

type (
	loadT   = record.Report
	sampleT = probe.Sample
)

// Meta describes the experiment the trials belong to. Zero values are
// left out of the output.
type Meta struct {
	ID      int64
	Name    string
	Kind    string // run | minmem | sweep | compare | tune
	Created time.Time
	Ended   time.Time
	Summary *judge.Summary // the stored recommendation; nil when none
}

// Input is what every renderer takes.
type Input struct {
	Meta   Meta
	Trials []*trial.Result
}

// sorted returns the trials in a stable order (by id, then start time) so
// output never depends on how they were fetched.
func sorted(trials []*trial.Result) []*trial.Result {
	out := make([]*trial.Result, 0, len(trials))
	for _, r := range trials {
		if r != nil {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].ID != out[j].ID {
			return out[i].ID < out[j].ID
		}
		return out[i].StartedAt.Before(out[j].StartedAt)
	})
	return out
}
