package judge

// Summary is what an experiment concluded, as minmem, sweep and compare
// store it (store.SetSummary): a one-line answer for the overview and the
// full recommendation in Markdown. The experiment writes it and the report
// reads it back, so its JSON keys are a stored format.
type Summary struct {
	Headline string `json:"headline"`          // e.g. "128Mi, 1 CPU, --jvm jvmfit"
	Text     string `json:"text"`              // Markdown, no heading: the answer and how to apply it
	Details  string `json:"details,omitempty"` // Markdown, e.g. minmem's search table
}
