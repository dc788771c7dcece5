package trial

import (
	"context"
	"errors"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/probe"
)

// Containers is the backend an image app's trial runs through (Docker and
// Podman: internal/backend/container, which registers itself with
// UseContainers). trial knows what it asks of it, not how containers run.
type Containers interface {
	// Prepare fills an image app's spec (engine, image id, the java inside
	// it) and returns the image's JDK, with Home at a local copy of the
	// files the planner reads, honouring ctx.
	Prepare(ctx context.Context, spec *Spec, a *App) (jdk.JDK, error)
	// Start runs l, whose Container is set, as a container.
	Start(ctx context.Context, l Launch) (Process, error)
	// JDKText is the image JDK's version and vendor for a result's env.
	JDKText(spec Spec) string
}

// App is the descriptor a trial runs (app.App), named here for backends.
type App = app.App

var containers Containers

// UseContainers registers the container backend (its package's init).
func UseContainers(c Containers) { containers = c }

var errNoContainers = errors.New("this jvmfit has no container backend: an image app cannot run")

// imagePrepareTimeout bounds reading an image's JDK when no context says
// otherwise (Prepare; the Session calls PrepareImage with its own first).
const imagePrepareTimeout = 2 * time.Minute

// PrepareImage reads what Prepare needs of an image app (the engine, the
// image's id, its JDK and the files the planner reads) into the container
// backend's cache, honouring ctx: a SIGINT stops it at once. The Session
// calls it before it takes its lock, so a slow engine holds up neither a
// signal nor the other trials; Prepare then finds everything cached.
func PrepareImage(ctx context.Context, spec Spec, a *app.App) error {
	if a == nil || a.Image == "" || spec.Launcher == LauncherExec {
		return nil
	}
	if containers == nil {
		return errNoContainers
	}
	_, err := containers.Prepare(ctx, &spec, a)
	return err
}

// prepareImage is Prepare's part for an image app.
func prepareImage(spec *Spec, a *app.App) (jdk.JDK, error) {
	if spec.Launcher == LauncherExec {
		return jdk.JDK{}, errors.New("--via-exec runs a java command on the host: an image app runs its own entrypoint (JVM options reach it through JAVA_TOOL_OPTIONS)")
	}
	if containers == nil {
		return jdk.JDK{}, errNoContainers
	}
	ctx, cancel := context.WithTimeout(context.Background(), imagePrepareTimeout)
	defer cancel()
	return containers.Prepare(ctx, spec, a)
}

func imageJDKText(spec Spec) string {
	if containers == nil {
		return ""
	}
	return containers.JDKText(spec)
}

// SelfSampled is a Process that samples itself (a container, whose java
// and cgroups the host reaches its own way).
type SelfSampled interface {
	Sample(ctx context.Context, fullGCAtEnd bool) Sampling
}

// ProbeSampling is a probe sampler as a trial's Sampling, sampling every
// SamplePeriod.
func ProbeSampling(ctx context.Context, t probe.Target) Sampling {
	return realSampling{probe.Start(ctx, t, SamplePeriod)}
}
