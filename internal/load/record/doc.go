// Package record keeps what a run measured: per-request tallies with
// HdrHistogram latencies (tally.go, recorder.go), the per-phase reports
// and their merge into a total (result.go), and the outputs: the text
// report (text.go), the JSON Report whose keys are a published interface
// (report.go), histogram encodings (histogram.go) and the live progress
// line (progress.go).
//
// It does not know about scenarios, connections or schedules: the engine
// hands it Outcomes, and it imports neither scenario nor engine, so that
// report readers (internal/report, internal/trial) depend on it alone.
package record
