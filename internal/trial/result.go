package trial

import (
	"time"

	"github.com/jvmfit/jvmfit/internal/load/record"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// Verdict is a trial's outcome: OK or KO.
type Verdict string

// Kind says why a trial is KO ("" when OK).
type Kind string

// Verdicts and KO kinds. These strings are a published interface (JSON,
// database, reports).
const (
	OK Verdict = "OK"
	KO Verdict = "KO"

	KindOOMKilled Kind = "oom-killed"
	KindJavaOOM   Kind = "java-oom" // the JVM threw OutOfMemoryError and the app ended, or collected a full heap without end before ready (gcbound.go)
	KindExited    Kind = "exited"
	KindNotReady  Kind = "not-ready"
	// KindMemoryStall: usage sat pinned at the limit with reclaim failing
	// and no OOM kill, so the app made no progress; the trial was ended
	// early instead of waiting out its timeouts.
	KindMemoryStall Kind = "memory-stall"
	KindSLO         Kind = "slo"
	KindError       Kind = "error" // jvmfit itself failed (not a verdict on the app)
)

// Spec is everything that defines a trial. Two trials with equal Key() are
// the same experiment cell (used by sweep to resume).
type Spec struct {
	App        string   `json:"app"` // descriptor path or jar
	AppName    string   `json:"app_name"`
	Java       string   `json:"java"`        // java binary
	JDKVersion int      `json:"jdk_version"` // feature version, e.g. 17
	JVM        string   `json:"jvm"`         // mode: default | jvmfit[:goal] | set:NAME | custom
	JVMOptions []string `json:"jvm_options"` // the options actually given, the descriptor's included
	// JVMEnv is the environment the mode adds for the JVM (the plan's
	// MALLOC_ARENA_MAX, an option set's env), under the descriptor's env.
	JVMEnv      map[string]string `json:"jvm_env,omitempty"`
	MemoryBytes int64             `json:"memory_bytes"` // 0 with NoLimits
	CPUs        float64           `json:"cpus"`
	CPUSet      string            `json:"cpuset,omitempty"`
	// Placement is the cpuset the local backend pins this run of the app
	// to when trials run side by side (experiment's CPU places), when
	// CPUSet does not name one: where it ran, not which trial it is, so
	// Key leaves it out and a stored trial at the same settings is found
	// whatever CPUs it had.
	Placement string `json:"placement,omitempty"`
	// SideCPUSet is where the load generator (jvmfit itself) and the
	// services run while the app has CPUSet: placement: separate
	// (placement.go); "" = they share the app's CPUs.
	SideCPUSet string            `json:"side_cpuset,omitempty"`
	NoLimits   bool              `json:"no_limits,omitempty"`
	Rate       float64           `json:"rate"` // measured phase rate, 0 = scenario's own
	Warmup     time.Duration     `json:"warmup"`
	Duration   time.Duration     `json:"duration"`
	Vars       map[string]string `json:"vars,omitempty"`
	SLO        string            `json:"slo"`
	NMT        bool              `json:"nmt,omitempty"`
	Repeat     int               `json:"repeat,omitempty"` // distinguishes deliberate repeats of one cell
	// AppDigest hashes the resolved descriptor (command, args, env,
	// scenario, services and their limits), so that a changed descriptor is
	// a different cell and sweep never reuses results it does not match.
	AppDigest string `json:"app_digest,omitempty"`
	Saturate  bool   `json:"saturate,omitempty"` // run the max-throughput probe after the measured load
	// Soak marks minmem's proof trial at its recommended limit: a longer
	// run that judges the margin, not part of the search.
	Soak bool `json:"soak,omitempty"`
	// Launcher is how the app's java command is started: "" directly, or
	// LauncherExec, through `jvmfit exec` (the jvmfit binary itself),
	// which plans inside the trial's cgroup from the limits it detects
	// there: the entrypoint a jvmfit mode recommends. JVMOptions are then
	// the java command's own options, without the plan's.
	Launcher string `json:"launcher,omitempty"`
	// Profile is the measured profile file the plan is made with (by
	// Prepare for a jvmfit mode, by exec's --profile through the launcher),
	// and ProfileDigest hashes its bytes: a trial planned with a profile,
	// or with another one, is another cell.
	Profile       string `json:"profile,omitempty"`
	ProfileDigest string `json:"profile_digest,omitempty"`
	// UserOptions are options given on top of the mode's, after the
	// descriptor's jvm_options (tune's candidate under the launcher).
	UserOptions []string `json:"user_options,omitempty"`
	// Image is the container image an image app runs (docs/docker.md),
	// ImageID its content id (a tag rebuilt is another cell) and Engine
	// the engine that runs it, docker or podman. Java is then IMAGE:PATH.
	Image   string `json:"image,omitempty"`
	ImageID string `json:"image_id,omitempty"`
	Engine  string `json:"engine,omitempty"`
	// FullGCAtEnd forces a full GC after the load, so the live set after
	// a full GC is measured even if the run had none (a profile's trial:
	// run --profile-out, tune's profile and measured search trials), and
	// StopGrace is how long the app gets to exit after SIGTERM (0 = the
	// runner's 3 s; a training run writes its archive then). They are
	// settings of how the trial is run, carried to every backend (the
	// Kubernetes agent among them), and no part of its key.
	FullGCAtEnd bool          `json:"full_gc_at_end,omitempty"`
	StopGrace   time.Duration `json:"stop_grace,omitempty"`
	// Purpose is what the trial was for in its experiment (Purpose*) and
	// Candidate which of tune's candidates it ran. They are no part of the
	// trial (not in its key, nor in the stored spec): the store keeps them
	// in columns of their own, so a report reads a trial's role instead of
	// guessing it.
	Purpose   string `json:"-"`
	Candidate string `json:"-"`
	// ReadyAlternatives are paths tried once on the readiness URL's host
	// when it answers 404 (jvmfit init's check: the framework's other
	// usual health paths). Like Purpose, no part of the trial's key.
	ReadyAlternatives []string `json:"-"`
}

// Result is one finished trial, as stored and reported.
type Result struct {
	ID         int64     `json:"id,omitempty"`
	Experiment string    `json:"experiment,omitempty"`
	Key        string    `json:"key"`
	Spec       Spec      `json:"spec"`
	Env        Env       `json:"env"`
	StartedAt  time.Time `json:"started_at"`
	EndedAt    time.Time `json:"ended_at"`

	Verdict Verdict  `json:"verdict"` // OK or KO
	Kind    Kind     `json:"kind"`    // "" when OK
	Failed  []string `json:"failed"`  // failed SLO clauses or the reason, in plain words
	// OOMArea names the memory area of a Java OutOfMemoryError the app
	// reported ("Metaspace", "Java heap space"...), whatever the verdict.
	OOMArea string `json:"oom_area,omitempty"`
	// Findings are things read from the app's output that a user acts on
	// without them deciding the verdict (the code cache filled up).
	Findings []string `json:"findings,omitempty"`

	StartSeconds float64 `json:"start_seconds"`
	// ReadyFallback is the URL that answered 2xx in place of the readiness
	// URL, which answered 404 (Spec.ReadyAlternatives); "" when it did.
	ReadyFallback   string `json:"ready_fallback,omitempty"`
	MemoryPeakBytes int64  `json:"memory_peak_bytes"`
	// WorkingSetPeakBytes is the peak of usage minus inactive file pages,
	// the figure Kubernetes evicts on and kubectl top shows.
	WorkingSetPeakBytes int64 `json:"working_set_peak_bytes"`
	HeapMaxBytes        int64 `json:"heap_max_bytes,omitempty"`

	Load       *record.Report   `json:"load"`                 // measured phase
	Phases     []*record.Report `json:"phases,omitempty"`     // every phase, warm-up included
	Saturation *record.Report   `json:"saturation,omitempty"` // optional max-throughput probe
	Summary    Summary          `json:"summary"`
	Series     []probe.Sample   `json:"series,omitempty"`
	Services   []ServiceUsage   `json:"services,omitempty"`   // e.g. the database's own footprint
	NMT        map[string]NMT   `json:"nmt,omitempty"`        // category -> reserved/committed
	Histograms []Histogram      `json:"histograms,omitempty"` // encoded HdrHistograms per phase and request

	ExitCode   *int   `json:"exit_code,omitempty"`
	ExitSignal string `json:"exit_signal,omitempty"`
	OutputTail string `json:"output_tail,omitempty"` // last lines of the app's output on KO
	LogFile    string `json:"log_file,omitempty"`    // the app's full output, kept on KO

	// Notes are things that went wrong without deciding the verdict
	// (e.g. no jcmd for --nmt).
	Notes []string `json:"notes,omitempty"`
}

// Summary condenses the series into the figures the seeds report: peaks,
// and seed 001's GC statistics (live set after old GCs, mapped heap, over
// the run and the last 10 GCs). The probe computes it.
type Summary = probe.Summary

// Histogram is one recorded latency distribution, kept so that reports can
// merge phases or read any percentile later.
type Histogram struct {
	Phase    string `json:"phase"`
	Name     string `json:"name"`     // request name, "" for the whole phase
	Encoding string `json:"encoding"` // e.g. "hdr-v2-base64" (hdrhistogram-go Encode)
	Data     string `json:"data"`
}

// NMT is one Native Memory Tracking category, in bytes.
type NMT = probe.NMTCategory

// ServiceUsage is the footprint of a service the app needed (e.g. postgres).
type ServiceUsage struct {
	Name        string        `json:"name"`
	Kind        string        `json:"kind,omitempty"` // e.g. postgres
	MemoryBytes int64         `json:"memory_limit"`
	CPUs        float64       `json:"cpus"`
	MemoryPeak  int64         `json:"memory_peak"`
	CPUTime     time.Duration `json:"cpu_time"`
	OOMKilled   bool          `json:"oom_killed,omitempty"`
}

// Env records where a trial ran.
type Env struct {
	Kernel   string `json:"kernel"`
	CPUModel string `json:"cpu_model"`
	HostCPUs int    `json:"host_cpus"`
	JDK      string `json:"jdk"` // full version string and vendor
	Jvmfit   string `json:"jvmfit"`
	Cgroup   string `json:"cgroup"` // "v1", "v2" or "none"
}
