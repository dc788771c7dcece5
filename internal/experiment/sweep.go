package experiment

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/size"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// RunFunc runs one fully specified trial.
type RunFunc func(ctx context.Context, spec trial.Spec) (*trial.Result, error)

// PrepareFunc fills a spec's derived fields (java path, JDK version, the
// options its JVM mode resolves to at its limits) so that its Key is known
// before it runs; trial.Prepare bound to the app. Nil keeps the spec as is.
type PrepareFunc func(trial.Spec) (trial.Spec, error)

func (f PrepareFunc) apply(s trial.Spec) (trial.Spec, error) {
	if f == nil {
		return s, nil
	}
	return f(s)
}

// Store is the part of the results database experiments use; the SQLite
// store satisfies it.
type Store interface {
	FindTrial(key string) (*trial.Result, bool, error)
	SaveTrial(expID int64, r *trial.Result) (int64, error)
}

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

// Sweep is a matrix of trials stored under one experiment.
type Sweep struct {
	Base         trial.Spec
	Cells        []Cell
	Prepare      PrepareFunc
	Trial        RunFunc
	Store        Store
	ExperimentID int64
	// Fresh runs every cell even when the store holds its trial.
	Fresh bool
	// Progress hears about every cell; nil = silent.
	Progress Progress
}

// CellResult is a cell's trial, run now or taken from the store.
type CellResult struct {
	Cell   Cell
	Result *trial.Result
	Reused bool
}

// Specs prepares every cell, so a bad option set or JDK is reported before
// an hour of trials, not after (and before anything is stored).
func (sw Sweep) Specs() ([]trial.Spec, error) {
	specs := make([]trial.Spec, len(sw.Cells))
	for i, cell := range sw.Cells {
		s, err := sw.Prepare.apply(cell.Spec(sw.Base))
		if err != nil {
			return nil, &PrepareError{Cell: cell, Err: err}
		}
		specs[i] = s
	}
	return specs, nil
}

// Run walks the cells in order. A cell whose trial (same Key) is in the
// store is taken from there unless Fresh; a cell run now is saved before the
// next one starts, so an interrupted sweep loses at most the cell in
// progress. Reused trials are saved again under this experiment so that its
// report is complete; they are not run again.
func (sw Sweep) Run(ctx context.Context) ([]CellResult, error) {
	specs, err := sw.Specs()
	if err != nil {
		return nil, err
	}
	out := make([]CellResult, 0, len(sw.Cells))
	if sw.Progress != nil {
		sw.Progress.Start(len(sw.Cells))
		defer sw.Progress.Finish()
	}
	for i, cell := range sw.Cells {
		if err := ctx.Err(); err != nil {
			return out, err
		}
		spec := specs[i]
		key := spec.Key()
		cr := CellResult{Cell: cell}
		if !sw.Fresh {
			prev, found, err := sw.Store.FindTrial(key)
			if err != nil {
				return out, fmt.Errorf("looking up %s in the store: %w", cell, err)
			}
			if found && prev.Verdict != "" && prev.Kind != trial.KindError {
				cr.Result, cr.Reused = prev, true
			}
		}
		started := time.Now()
		if cr.Result == nil {
			r, err := sw.Trial(ctx, spec)
			if err != nil {
				return out, fmt.Errorf("trial %s: %w", cell, err)
			}
			if ctx.Err() != nil {
				// An interrupted trial is no verdict on the cell: not stored,
				// so a resumed sweep runs it again.
				return out, ctx.Err()
			}
			cr.Result = r
		}
		// Resume looks trials up by the cell's key, whatever the runner
		// derived from the options it resolved.
		r := *cr.Result
		r.ID = 0
		r.Key = key
		id, err := sw.Store.SaveTrial(sw.ExperimentID, &r)
		if err != nil {
			return out, fmt.Errorf("saving %s: %w", cell, err)
		}
		r.ID = id
		cr.Result = &r
		out = append(out, cr)
		if sw.Progress != nil {
			sw.Progress.Done(cr, time.Since(started))
		}
	}
	return out, nil
}
