package report

import (
	"encoding/json"

	"github.com/jvmfit/jvmfit/internal/judge"
	"github.com/jvmfit/jvmfit/internal/store"
)

// MetaOf describes a stored experiment for the report header. A summary
// that does not parse is left out rather than failing the report: the
// trials are the record, the summary a convenience.
func MetaOf(e store.Experiment) Meta {
	m := Meta{ID: e.ID, Name: e.Name, Kind: e.Kind, Created: e.Started, Ended: e.Ended}
	if len(e.Summary) > 0 {
		var s judge.Summary
		if json.Unmarshal(e.Summary, &s) == nil && (s.Headline != "" || s.Text != "") {
			m.Summary = &s
		}
	}
	return m
}
