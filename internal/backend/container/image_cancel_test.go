package container

import (
	"context"
	"errors"
	"github.com/jvmfit/jvmfit/internal/trial"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
)

// Reading an image's JDK honours its context: a SIGINT while the engine
// hangs stops it at once (before, it ran under a 2-minute background
// context inside the Session's lock). The engine here is a docker that
// never answers.
func TestPrepareImageStopsWhenCancelled(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":/usr/bin:/bin")
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(300*time.Millisecond, cancel)
	t0 := time.Now()
	err := trial.PrepareImage(ctx, trial.Spec{Engine: "docker", JVM: "default"}, &app.App{Name: "x", Image: "jvmfit-never:1"})
	if took := time.Since(t0); err == nil || took > 5*time.Second {
		t.Fatalf("PrepareImage returned %v after %v; want an error soon after the cancel", err, took)
	}
	if !errors.Is(err, context.Canceled) && ctx.Err() == nil {
		t.Errorf("error %v, not the cancellation", err)
	}
}
