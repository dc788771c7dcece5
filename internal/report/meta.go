package report

import (
	"encoding/json"

	"github.com/jvmfit/jvmfit/internal/store"
)

// Summary is what an experiment concluded, as minmem, sweep and compare
// store it (store.SetSummary): a one-line answer for the overview and the
// full recommendation in Markdown.
type Summary struct {
	Headline string `json:"headline"`          // e.g. "128Mi, 1 CPU, --jvm jvmfit"
	Text     string `json:"text"`              // Markdown, no heading: the answer and how to apply it
	Details  string `json:"details,omitempty"` // Markdown, e.g. minmem's search table
}

// MetaOf describes a stored experiment for the report header. A summary
// that does not parse is left out rather than failing the report: the
// trials are the record, the summary a convenience.
func MetaOf(e store.Experiment) Meta {
	m := Meta{ID: e.ID, Name: e.Name, Kind: e.Kind, Created: e.Created, Ended: e.Ended}
	if len(e.Summary) > 0 {
		var s Summary
		if json.Unmarshal(e.Summary, &s) == nil && (s.Headline != "" || s.Text != "") {
			m.Summary = &s
		}
	}
	return m
}
