package clitest

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// FilecacheImage builds filecache's image from the host's JDK 17 (or finds
// it up to date).
func FilecacheImage(t *testing.T) {
	t.Helper()
	prereq.Root(t)
	prereq.Docker(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	root, _ := filepath.Abs(Repo())
	prereq.Built(t, image.FilecacheJar(root))
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if err := image.Ensure(ctx, docker.Default(), root, image.FilecacheRef); err != nil {
		t.Fatal(err)
	}
}
