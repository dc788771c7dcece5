package scaffold

import (
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// CheckOptions say how the written files are tried once.
type CheckOptions struct {
	Memory   int64 // a generous limit: the check is about wiring, not size
	Java     string
	Engine   string // docker or podman, for an image
	Warmup   time.Duration
	Duration time.Duration
	Progress io.Writer
	// ReadyAlternatives are the framework's other health paths, tried
	// once when the readiness URL answers 404.
	ReadyAlternatives []string
	// LogDir keeps the app's output when the check fails (beside the
	// files written, not in /tmp); it is removed when the check passes.
	LogDir string
}

// checkSLO judges only that the requests answer: a short run on a cold JVM
// says nothing of latency.
const checkSLO = "success>=0.99"

// Checked is what the one start of the app showed.
type Checked struct {
	Result   *trial.Result
	Requests []RequestCheck
}

// RequestCheck is how one request of the scenario was answered, warm-up
// included.
type RequestCheck struct {
	Name, Path string
	Answers    int64
	Statuses   map[string]int64 // status code → count
	Errors     []string
}

// OK says whether the request is wired right: it got 2xx answers and no
// other HTTP status. Requests left without an answer (status 0: a cold
// JVM's first seconds, the end of a phase) are shown, not held against it.
func (c RequestCheck) OK() bool {
	ok := false
	for s, n := range c.Statuses {
		switch {
		case n == 0 || s == "0":
		case strings.HasPrefix(s, "2"):
			ok = true
		default:
			return false
		}
	}
	return ok
}

// Line is "GET /api/items: 150 answers, 200×150".
func (c RequestCheck) Line() string {
	codes := make([]string, 0, len(c.Statuses))
	for s := range c.Statuses {
		codes = append(codes, s)
	}
	sort.Strings(codes)
	for i, s := range codes {
		label := s
		if s == "0" {
			label = "no answer"
		}
		codes[i] = fmt.Sprintf("%s×%d", label, c.Statuses[s])
	}
	s := fmt.Sprintf("GET %s: %d answers", c.Path, c.Answers)
	if len(codes) > 0 {
		s += ", " + strings.Join(codes, " ")
	}
	if len(c.Errors) > 0 {
		s += "; errors: " + strings.Join(c.Errors, "; ")
	}
	return s
}

// Check starts the app of appFile once under opt's limit, waits for its
// readiness URL and sends the scenario's requests for a short while.
func Check(ctx context.Context, appFile string, paths []string, opt CheckOptions) (*Checked, error) {
	a, err := app.Load(appFile)
	if err != nil {
		return nil, err
	}
	spec := trial.Spec{
		Java: opt.Java, JVM: "default", MemoryBytes: opt.Memory, Engine: opt.Engine,
		Warmup: opt.Warmup, Duration: opt.Duration, SLO: checkSLO, ReadyAlternatives: opt.ReadyAlternatives,
	}
	if spec, err = trial.Prepare(spec, a, ""); err != nil {
		return nil, err
	}
	o := trial.Options{Progress: opt.Progress}
	if opt.LogDir != "" {
		if err := os.MkdirAll(opt.LogDir, 0o700); err != nil {
			return nil, fmt.Errorf("cannot make the log directory: %w", err)
		}
		o.LogDir = opt.LogDir
		defer os.Remove(opt.LogDir) // only when empty: a kept log keeps it
	}
	r, err := backend.Local(a).Run(ctx, spec, a, o)
	if err != nil {
		return nil, err
	}
	if r.Verdict == trial.OK && r.LogFile != "" {
		os.Remove(r.LogFile)
		r.LogFile = ""
	}
	c := &Checked{Result: r}
	names := requestNames(paths)
	for i, p := range paths {
		rc := RequestCheck{Name: names[i], Path: p, Statuses: map[string]int64{}}
		for _, ph := range r.Phases {
			by := ph.ByRequest[names[i]]
			if len(paths) == 1 {
				by = ph // a phase of one request has no breakdown
			}
			if by == nil {
				continue
			}
			rc.Answers += by.Requests
			for s, n := range by.StatusCodes {
				rc.Statuses[s] += n
			}
			rc.Errors = append(rc.Errors, by.Errors...)
		}
		c.Requests = append(c.Requests, rc)
	}
	return c, nil
}
