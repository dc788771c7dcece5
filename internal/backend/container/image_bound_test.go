package container

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// Reading an image's JDK is bounded by the image's size, and the bound
// says so in one line: the engine here answers its version and the
// image's inspect (200 MiB), then never creates the container it reads
// from. The bounds are shrunk to milliseconds for the test.
func TestImageReadBoundScalesWithItsSize(t *testing.T) {
	defer func(e, p time.Duration) { engineTimeout, perStep = e, p }(engineTimeout, perStep)
	engineTimeout, perStep = 300*time.Millisecond, 200*time.Millisecond
	if got, want := readBound(200<<20), 700*time.Millisecond; got != want {
		t.Errorf("readBound(200 MiB) = %v, want %v", got, want)
	}
	if got := readBound(0); got != engineTimeout {
		t.Errorf("readBound(0) = %v, want %v", got, engineTimeout)
	}
	dir := t.TempDir()
	script := `#!/bin/sh
case "$1 $*" in
version*) echo 20.10.24 ;;
*Size*) echo "sha256:0123456789abcdef0123 209715200 null" ;;
image*) echo '{"Entrypoint":["java"]}' ;;
create*) exec sleep 30 ;;
esac
`
	if err := os.WriteFile(filepath.Join(dir, "docker"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+":/usr/bin:/bin")
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	t0 := time.Now()
	err := trial.PrepareImage(context.Background(), trial.Spec{Engine: "docker", JVM: "default"}, &app.App{Name: "x", Image: "jvmfit-bound:1"})
	took := time.Since(t0)
	if err == nil || !strings.Contains(err.Error(), "took over 700ms") || !strings.Contains(err.Error(), "of its 200 MiB") || strings.Contains(err.Error(), "\n") {
		t.Fatalf("PrepareImage: %v; want one line naming the 700ms bound and the image's 200 MiB", err)
	}
	if took > 5*time.Second {
		t.Errorf("the bound fired after %v", took)
	}
	t.Log(err)
}
