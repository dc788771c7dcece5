package experiment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/jvmfit/jvmfit/internal/backend/kube"
)

// Where an experiment's trials run is chosen here, below cmd, from the
// plain config the command's flags give: "local" is this machine
// (backend.Local: a cgroup, or a container for an image app; the
// Session's default), "k8s" a Kubernetes Job per trial (kube.Open). Every
// backend is a trial.Backend, plugged in at the one place, Session.Backend.

// BackendConfig names a backend and gives its options, as the flags say
// them (docs/kubernetes.md).
type BackendConfig struct {
	Name     string // "local" ("" too) or "k8s"
	Parallel int    // trials at a time, at least 1
	// Room is the largest trial the experiment runs (its CPUs and memory
	// limit), set by the searches (minmem, tune): with it, --parallel N
	// runs on this machine when the host has room for N of them
	// (localroom.go). Zero: one at a time here.
	Room Room
	// k8s: the Jobs' namespace, the kubeconfig, the agent's image, how long
	// a pod may stay unschedulable.
	Namespace, Kubeconfig, AgentImage string
	Pending                           time.Duration
	// DryRun writes the Job manifests instead of applying them: "-" for
	// Manifests, or a directory.
	DryRun    string
	Manifests io.Writer
}

// OpenedBackend is what readying the backend did.
type OpenedBackend struct {
	// DB is the results database to use: a throwaway one in a temporary
	// directory for a dry run, which stores nothing (the caller removes
	// its directory); else the one given.
	DB string
	// Swept is how many Jobs gone runs on the same database (or, with
	// --sweep-stale, anyone's old runs) left in Namespace, now removed.
	Swept     int
	Namespace string
}

// BackendError is a backend config the user must fix (a usage error).
type BackendError struct{ Err error }

func (e *BackendError) Error() string { return e.Err.Error() }
func (e *BackendError) Unwrap() error { return e.Err }

func backendErrorf(format string, a ...any) error {
	return &BackendError{fmt.Errorf(format, a...)}
}

// ErrDryRun is what a dry run's trials end with: the manifests are
// written, nothing was applied or stored. It is the dry run's success.
var ErrDryRun = kube.ErrDryRun

// UseBackend points s at the backend cfg names, for results kept in db:
// Kubernetes connects and sweeps what an earlier run on db left (a dry run
// connects to nothing). Bad config is a *BackendError.
func (s *Session) UseBackend(ctx context.Context, cfg BackendConfig, db string) (OpenedBackend, error) {
	out := OpenedBackend{DB: db}
	if cfg.Parallel < 1 {
		return out, backendErrorf("--parallel %d: give 1 or more", cfg.Parallel)
	}
	s.Parallel = cfg.Parallel
	switch cfg.Name {
	case "", "local":
		if cfg.DryRun != "" || cfg.Namespace != "" || cfg.Kubeconfig != "" {
			return out, backendErrorf("--dry-run, --namespace and --kubeconfig are for --backend k8s")
		}
		if cfg.Parallel > 1 && cfg.Room == (Room{}) {
			// Trials sharing this machine's CPUs and memory bandwidth would
			// measure each other.
			return out, backendErrorf("--parallel %d on this machine is for minmem and tune; sweep and compare run side by side with --backend k8s", cfg.Parallel)
		}
		if cfg.Parallel > 1 {
			if err := separateBesideOthers(s.App, cfg.Parallel); err != nil {
				return out, &BackendError{err}
			}
			if err := cfg.Room.fits(cfg.Parallel, hostRoom()); err != nil {
				return out, &BackendError{err}
			}
			ps, err := newPlaces(cfg.Room, cfg.Parallel, allowedCPUs())
			if err != nil {
				return out, &BackendError{err}
			}
			s.places = ps
		}
		return out, nil
	case "k8s":
		return s.useKube(ctx, cfg, db)
	default:
		return out, backendErrorf("--backend %q: give local or k8s", cfg.Name)
	}
}

func (s *Session) useKube(ctx context.Context, cfg BackendConfig, db string) (OpenedBackend, error) {
	out := OpenedBackend{DB: db}
	// The app's image is the descriptor's image: or --image.
	if s.App == nil || s.App.Image == "" {
		return out, backendErrorf("--backend k8s needs the app's image: give --image NAME[:TAG] or image: in the descriptor")
	}
	o := kube.Options{Namespace: cfg.Namespace, Kubeconfig: cfg.Kubeconfig, AgentImage: cfg.AgentImage, Pending: cfg.Pending,
		DryRun: cfg.DryRun, Manifests: cfg.Manifests, SweepStale: s.SweepStale}
	k, err := kube.Open(ctx, s.App, db, o)
	var ce *kube.ConfigError
	switch {
	case errors.As(err, &ce):
		return out, &BackendError{err}
	case err != nil:
		return out, err
	}
	if cfg.DryRun != "" {
		// A dry run stores nothing: a throwaway database.
		dir, err := os.MkdirTemp("", "jvmfit-dry-run-")
		if err != nil {
			return out, err
		}
		out.DB = filepath.Join(dir, "dry-run.db")
	}
	out.Swept, out.Namespace = k.Swept, k.Namespace
	s.Backend = k
	if k.Batch > 0 {
		s.Parallel = k.Batch
	}
	return out, nil
}

// AgentTerminationPath is where `jvmfit agent` writes its result's summary
// by default: the trial pod's terminationMessagePath.
const AgentTerminationPath = kube.TerminationPath

// RunAgent is `jvmfit agent`, the jvmfit container of a Kubernetes trial
// pod: it runs the trial its environment carries (kube.TaskEnv) against
// the app container's JVM and writes the result to out and msgPath. A pod
// without a task is a *BackendError (the agent runs in jvmfit's pods only).
func RunAgent(ctx context.Context, out, progress io.Writer, msgPath string) error {
	task, err := kube.DecodeTask(os.Getenv(kube.TaskEnv))
	if err != nil {
		return &BackendError{err}
	}
	return kube.Agent(ctx, task, out, progress, msgPath)
}
