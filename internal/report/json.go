package report

import (
	"encoding/json"
	"io"

	"github.com/jvmfit/jvmfit/internal/trial"
)

// JSON writes the trials as an indented array of results, the same
// objects `jvmfit run --json` prints.
func JSON(w io.Writer, trials []*trial.Result) error {
	ts := sorted(trials)
	if ts == nil {
		ts = []*trial.Result{}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(ts)
}
