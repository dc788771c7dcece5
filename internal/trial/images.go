package trial

import (
	"context"
	"errors"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/jdk"
)

// Images reads an image app's JDK for the planner: an image runs its own
// JDK, so its trial is planned for that one, whichever backend then runs
// it (a container engine, or Kubernetes). internal/backend/container
// implements it and registers it with UseImages when linked; trial knows
// what it asks of it, not how an engine is reached.
type Images interface {
	// Prepare fills an image app's spec (engine, image id, the java inside
	// it) and returns the image's JDK, with Home at a local copy of the
	// files the planner reads, honouring ctx.
	Prepare(ctx context.Context, spec *Spec, a *App) (jdk.JDK, error)
	// JDKText is the image JDK's version and vendor for a result's env.
	JDKText(spec Spec) string
}

// App is the descriptor a trial runs (app.App), named here for backends.
type App = app.App

var images Images

// UseImages registers the image reader (internal/backend/container's init).
func UseImages(i Images) { images = i }

var errNoImages = errors.New("this jvmfit has no container backend: an image app cannot run")

// PrepareImage reads what Prepare needs of an image app (the engine, the
// image's id, its JDK and the files the planner reads) into the image
// reader's cache, honouring ctx: a SIGINT stops it at once. The Session
// calls it before it takes its lock, so a slow engine holds up neither a
// signal nor the other trials; Prepare then finds everything cached.
func PrepareImage(ctx context.Context, spec Spec, a *app.App) error {
	if a == nil || a.Image == "" || spec.Launcher == LauncherExec {
		return nil
	}
	if images == nil {
		return errNoImages
	}
	_, err := images.Prepare(ctx, &spec, a)
	return err
}

// prepareImage is Prepare's part for an image app.
func prepareImage(spec *Spec, a *app.App) (jdk.JDK, error) {
	if spec.Launcher == LauncherExec {
		return jdk.JDK{}, errors.New("--via-exec runs a java command on the host: an image app runs its own entrypoint (JVM options reach it through JAVA_TOOL_OPTIONS)")
	}
	if images == nil {
		return jdk.JDK{}, errNoImages
	}
	// The image reader bounds its own engine calls, by the image's size
	// (internal/backend/container's readBound).
	return images.Prepare(context.Background(), spec, a)
}

func imageJDKText(spec Spec) string {
	if images == nil {
		return ""
	}
	return images.JDKText(spec)
}

// ImageJava names the java inside an image as a spec records it, in
// docker cp's CONTAINER:PATH style: "NAME[:TAG]:/opt/jdk/bin/java".
func ImageJava(image, path string) string { return image + ":" + path }
