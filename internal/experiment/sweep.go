package experiment

import (
	"context"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Axes are the sweep's dimensions. An empty axis keeps the base spec's value.
type Axes struct {
	CPUs   []float64
	Memory []int64
	Rates  []float64
	JVMs   []string
	Javas  []string
}

// Cell is one point of the matrix.
type Cell struct {
	Java        string  `json:"java,omitempty"`
	JVM         string  `json:"jvm"`
	CPUs        float64 `json:"cpus"`
	MemoryBytes int64   `json:"memory_bytes"`
	Rate        float64 `json:"rate"`
}

func (c Cell) String() string {
	parts := []string{"cpus=" + strconv.FormatFloat(c.CPUs, 'g', -1, 64), "memory=" + size.Format(c.MemoryBytes)}
	if c.Rate > 0 {
		parts = append(parts, "rate="+strconv.FormatFloat(c.Rate, 'g', -1, 64))
	}
	parts = append(parts, "jvm="+c.JVM)
	if c.Java != "" {
		parts = append(parts, "java="+c.Java)
	}
	return strings.Join(parts, " ")
}

// Cells lists the matrix with the rate varying fastest, so that each CPU
// count's rate curve (seed 002) completes before the next begins.
func (a Axes) Cells(base trial.Spec) []Cell {
	or := func(n int) int { return max(n, 1) }
	var cells []Cell
	for j := range or(len(a.Javas)) {
		for v := range or(len(a.JVMs)) {
			for c := range or(len(a.CPUs)) {
				for m := range or(len(a.Memory)) {
					for r := range or(len(a.Rates)) {
						cell := Cell{Java: base.Java, JVM: base.JVM, CPUs: base.CPUs, MemoryBytes: base.MemoryBytes, Rate: base.Rate}
						if len(a.Javas) > 0 {
							cell.Java = a.Javas[j]
						}
						if len(a.JVMs) > 0 {
							cell.JVM = a.JVMs[v]
						}
						if len(a.CPUs) > 0 {
							cell.CPUs = a.CPUs[c]
						}
						if len(a.Memory) > 0 {
							cell.MemoryBytes = a.Memory[m]
						}
						if len(a.Rates) > 0 {
							cell.Rate = a.Rates[r]
						}
						cells = append(cells, cell)
					}
				}
			}
		}
	}
	return cells
}

// Spec is the trial a cell stands for.
func (c Cell) Spec(base trial.Spec) trial.Spec {
	s := base
	s.Java, s.JVM, s.CPUs, s.MemoryBytes, s.Rate = c.Java, c.JVM, c.CPUs, c.MemoryBytes, c.Rate
	s.JVMOptions = nil // resolved by the runner for this cell's limits
	return s
}

// Sweep is a matrix of trials, one per cell, run through a Session:
// sweep's axes, or compare's option sets and limits.
type Sweep struct {
	Cells []Cell
	// SoakFor proves the recommendation with a soak this long at its
	// limit, as minmem does (Soak); 0 leaves it labelled not proven, with
	// the command that proves it.
	SoakFor time.Duration
}

// CellResult is a cell's trial, run now or taken from the store.
type CellResult struct {
	Cell   Cell
	Result *trial.Result
	Reused bool
}

// Check prepares every cell, so a bad option set, JDK or limit is reported
// before an hour of trials, not after (and before anything is stored).
func (sw Sweep) Check(s *Session) error {
	for _, cell := range sw.Cells {
		if _, err := s.Check(cell.Spec(s.Base)); err != nil {
			return &PrepareError{Cell: cell, Err: err}
		}
	}
	return nil
}

// Run walks the cells in order, Session.Parallel at a time (Batch). The
// Session takes a cell whose identical trial is stored instead of running
// it (unless Fresh) and stores each cell the moment it ends, so an
// interrupted sweep loses at most the cells in progress and the same
// command resumes them.
func (sw Sweep) Run(ctx context.Context, s *Session) ([]CellResult, error) {
	if err := sw.Check(s); err != nil {
		return nil, err
	}
	// The soak that proves the recommendation is a trial too: counted, so
	// the progress never reads past its total.
	total := len(sw.Cells)
	if sw.SoakFor > 0 {
		total++
	}
	s.Expect(total)
	planned := make([]Planned, len(sw.Cells))
	for i, cell := range sw.Cells {
		planned[i] = Planned{Spec: cell.Spec(s.Base), What: cell.String()}
	}
	// The cells are independent: Batch runs them --parallel at a time.
	out := make([]CellResult, 0, len(sw.Cells))
	var first error
	for i, o := range s.Batch(ctx, planned) {
		if o.Result != nil {
			out = append(out, CellResult{Cell: sw.Cells[i], Result: o.Result, Reused: o.Reused})
		}
		if o.Err != nil && first == nil {
			first = o.Err
		}
	}
	return out, first
}
