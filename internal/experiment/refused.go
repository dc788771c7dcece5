package experiment

import (
	"fmt"

	"github.com/jvmfit/jvmfit/internal/plan"
	"github.com/jvmfit/jvmfit/internal/size"
)

// RefusedLimit is a limit at which the launcher's planner will not plan
// options for a mode (too small for any heap after non-heap and headroom).
// It is no trial: nothing ran, nothing is stored, and minmem reads it as
// the planner's floor, not as the app failing.
type RefusedLimit struct {
	JVM        string // the mode as the user wrote it, e.g. jvmfit:footprint
	LimitBytes int64
	Planner    *plan.RefusedError
}

// Error names the mode exactly as given (the planner's own wrapping says
// "--jvm jvmfit:" whatever the goal).
func (e *RefusedLimit) Error() string {
	s := fmt.Sprintf("--jvm %s: the planner refuses a %s limit: %s", e.JVM, size.Format(e.LimitBytes), e.Planner.Why)
	if e.Planner.MinBytes > 0 {
		s += fmt.Sprintf("; it accepts %s and up", size.Format(e.Planner.MinBytes))
	}
	return s
}

func (e *RefusedLimit) Unwrap() error { return e.Planner }

// Short is the refusal for a progress line.
func (e *RefusedLimit) Short() string { return "refused by the planner: " + e.Error() }

// Floor is the smallest limit on the search grid the planner accepts: its
// own smallest accepted limit rounded up to a multiple of step; 0 when it
// named none.
func (e *RefusedLimit) Floor(step int64) int64 {
	m := e.Planner.MinBytes
	if m <= 0 {
		return 0
	}
	f := (m + step - 1) / step * step
	if f <= e.LimitBytes {
		f = (e.LimitBytes/step + 1) * step
	}
	return f
}
