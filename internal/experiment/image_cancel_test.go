package experiment

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A SIGINT while an image's JDK is being read stops the trial at once, as
// an interruption (nothing stored, the same command resumes), and the
// Session's lock is free meanwhile. The engine is a docker that never
// answers.
func TestImagePreparationHonoursSIGINT(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte("#!/bin/sh\nexec sleep 60\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":/usr/bin:/bin")
	s := &Session{App: &app.App{Name: "x", Image: "jvmfit-never:1"}, Base: trial.Spec{JVM: "default", Engine: "docker", MemoryBytes: 256 * mi, CPUs: 1}}
	ctx, cancel := context.WithCancel(context.Background())
	var free atomic.Bool
	time.AfterFunc(300*time.Millisecond, func() {
		if s.mu.TryLock() {
			free.Store(true)
			s.mu.Unlock()
		}
		cancel()
	})
	t0 := time.Now()
	_, _, err := s.Trial(ctx, s.Base, "image trial")
	if took := time.Since(t0); !errors.Is(err, context.Canceled) || took > 5*time.Second {
		t.Fatalf("Trial returned %v after %v; want the interruption soon after SIGINT", err, took)
	}
	if !free.Load() {
		t.Error("the Session's lock was held while the image was read")
	}
}
