package kube

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	"sigs.k8s.io/yaml"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// ErrDryRun is what a dry run's trials return: the manifest is written,
// nothing ran, and nothing is stored.
var ErrDryRun = errors.New("dry run: the Job manifest is written, nothing was applied")

// DryRun writes each trial's Job manifest instead of applying it: to Out
// as a stream of YAML documents, or into Dir, one file per Job.
type DryRun struct {
	App  *app.App
	Jobs JobOptions
	Out  io.Writer
	Dir  string

	mu      sync.Mutex
	seq     atomic.Int64
	Written int
}

// Run writes the trial's Job and returns ErrDryRun. o is unused: nothing
// runs, so there is no step to report and no app output to keep (the
// manifests are the output, written to Out or Dir).
func (d *DryRun) Run(_ context.Context, spec trial.Spec, _ trial.Options) (*trial.Result, error) {
	task, err := NewTask(spec, d.App)
	if err != nil {
		return nil, err
	}
	name := jobName(d.Jobs.Session, int(d.seq.Add(1)))
	job, err := Job(name, task, d.Jobs)
	if err != nil {
		return nil, err
	}
	b, err := Manifest(job)
	if err != nil {
		return nil, err
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.Dir != "" {
		if err := os.MkdirAll(d.Dir, 0o755); err != nil {
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(d.Dir, name+".yaml"), b, 0o644); err != nil {
			return nil, err
		}
	} else if _, err := fmt.Fprintf(d.Out, "---\n%s", b); err != nil {
		return nil, err
	}
	d.Written++
	return nil, ErrDryRun
}

// Manifest is a Job as YAML, without the status and empty fields the API
// server fills.
func Manifest(v any) ([]byte, error) {
	b, err := yaml.Marshal(v)
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := yaml.Unmarshal(b, &m); err != nil {
		return nil, err
	}
	delete(m, "status")
	prune(m)
	return yaml.Marshal(m)
}

// prune drops the nulls and empty maps that zero values marshal to
// (creationTimestamp: null, resources: {}).
func prune(v any) bool {
	switch x := v.(type) {
	case nil:
		return true
	case map[string]any:
		for k, e := range x {
			if prune(e) {
				delete(x, k)
			}
		}
		return len(x) == 0
	case []any:
		for _, e := range x {
			prune(e)
		}
	}
	return false
}
