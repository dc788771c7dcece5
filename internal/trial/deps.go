package trial

import (
	"context"
	"io"
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// The runner reaches the outside world only through these interfaces, so
// that its steps are tested with fakes (fake_test.go: the verdict for what
// the sandbox reports, cleanup on a cancelled trial). A backend gives the
// Sandbox and the Prober (backend.go: Options.Deps); the load generator
// and the services are trial's own (load.go, services_real.go).

// Sandbox starts the app with the trial's limits: in a fresh cgroup
// (backend/local), as a container (backend/container), or by finding the
// JVM Kubernetes started (backend/kube's agent).
type Sandbox interface {
	Start(ctx context.Context, l Launch) (Process, error)
}

// CommandLiner is a Sandbox that echoes a launch its own way: a container
// backend shows the docker run a user would paste. Other sandboxes' launches
// are echoed as the variables set and the command line.
type CommandLiner interface {
	CommandLine(l Launch) string
}

// Launch is one app to start, with the trial's limits.
type Launch struct {
	Name        string   // cgroup name; the sandbox sanitises it and makes it unique
	Argv        []string // Argv[0] is looked up in PATH
	Env         []string // the app's full environment, KEY=VALUE
	Dir         string   // working directory
	MemoryBytes int64
	CPUs        float64
	CPUSet      string
	Pids        int64 // the app's pids limit (pids_limit); 0 = the sandbox's default
	NoLimits    bool
	Stdout      io.Writer
	Stderr      io.Writer
	// Port is the app's port on this machine (app.Launch.Port): a
	// container publishes it. For an image app Argv are the arguments after
	// the image's entrypoint and Env only what is set in the container, the
	// JVM options in JAVA_TOOL_OPTIONS.
	Port int
}

// Process is a started app.
type Process interface {
	Pid() int
	Done() <-chan struct{} // closed when the process has exited
	// MemoryPeak is the cgroup's peak usage so far (bytes); read it
	// before Stop, which removes the cgroup.
	MemoryPeak() (int64, error)
	// Stop ends the process group (SIGTERM, then SIGKILL after grace) and
	// removes the cgroup. It is safe to call more than once.
	Stop(grace time.Duration) Exit
	// Stalled is closed when the cgroup has sat at its memory limit with
	// reclaim failing for a few seconds, without an OOM kill; Stall then
	// says what was seen, in plain words.
	Stalled() <-chan struct{}
	Stall() string
}

// Exit is how a process ended (sandbox.Exit, less whether jvmfit's Stop
// signalled it: the verdict reads died-before-stop from Done instead).
type Exit struct {
	Code      int    // exit status; -1 when a signal ended it
	Signal    string // the signal's name, e.g. "SIGKILL"; "" after a normal exit
	OOMKilled bool   // the kernel's OOM killer ended it (or a process of its group)
}

// Prober samples the process and its cgroup while the trial runs.
type Prober interface {
	// Start samples p as spec asks (Spec.FullGCAtEnd).
	Start(ctx context.Context, p Process, spec Spec) Sampling
	// NMT reads the native memory summary of the JVM pid (p's), with jcmd
	// as a fallback (a container's prober uses the image's own).
	NMT(ctx context.Context, jcmd string, pid int) (map[string]NMT, error)
}

// Sampling is a running sampler.
type Sampling interface {
	// Stop ends sampling and returns the series and its summary over
	// wall, the length of the run.
	Stop(wall time.Duration) ([]probe.Sample, Summary)
}

// Loader prepares a scenario before the app starts, so a bad scenario
// costs nothing.
type Loader interface {
	Prepare(path string, vars map[string]string) (Driver, error)
}

// Driver drives one prepared scenario.
type Driver interface {
	// Run runs every phase in order; measured is the recorded phases
	// merged (the one the SLO judges).
	Run(ctx context.Context, o LoadOptions) (phases []*record.Report, measured *record.Report, err error)
	// Saturate finds the maximum throughput at fixed concurrency.
	Saturate(ctx context.Context, o LoadOptions) (*record.Report, error)
}

// LoadOptions override the scenario for one trial; zero keeps its own.
type LoadOptions struct {
	Base     string
	Rate     float64
	Warmup   time.Duration
	Duration time.Duration
	Progress io.Writer
}

// Deps are the runner's collaborators and knobs.
type Deps struct {
	Sandbox Sandbox
	Loader  Loader
	Prober  Prober
	// Services starts the app's declared services (its database) before
	// the app; nil = the real ones (internal/service).
	Services Services
	// Progress gets one line per trial step ("ready in 2.1s"); nil = quiet.
	Progress io.Writer
	// LogDir keeps the app's output, one log per trial named for it
	// (APP-LIMIT-CPUScpu-MODE-TIME.log); "" = a temp directory that is
	// removed when the trial is OK and kept (path in Result.LogFile) on KO.
	LogDir string
	// StopGrace is how long the app gets to exit after SIGTERM.
	StopGrace time.Duration
}

// WithProgress returns d with progress lines going to w.
func (d Deps) WithProgress(w io.Writer) Deps {
	d.Progress = w
	return d
}
