//go:build linux

package container

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// TestImageJavaHomeStaysInCache: an image whose JAVA_HOME climbs out of
// jvmfit's cache (../../…/victim) is refused with one error naming
// JAVA_HOME, and root writes none of the image's files on the host there.
func TestImageJavaHomeStaysInCache(t *testing.T) {
	needImage(t, image.JDK17Ref)
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	// A host directory that looks like a JDK home, outside the cache.
	victim := filepath.Join(t.TempDir(), "victim")
	release, err := os.ReadFile(filepath.Join(image.JDK17, "release"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(victim, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(victim, "release"), release, 0o644); err != nil {
		t.Fatal(err)
	}
	escape := strings.Repeat("../", 32) + strings.TrimPrefix(victim, "/")
	ref := "jvmfit-test/javahome-escape:" + strconv.Itoa(os.Getpid())
	buildImage(t, ref, "FROM "+image.JDK17Ref+"\nENV JAVA_HOME="+escape+"\nCOPY classes.jsa "+victim+"/lib/server/classes.jsa\n",
		map[string]string{"classes.jsa": "the image's"})

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	spec := trial.Spec{JVM: "default"}
	_, err = images{}.Prepare(ctx, &spec, &trial.App{Image: ref})
	t.Log(err)
	if err == nil || !strings.Contains(err.Error(), "JAVA_HOME") || strings.Contains(err.Error(), "\n") {
		t.Errorf("Prepare of an image with JAVA_HOME=%s: %v, want one line naming JAVA_HOME", escape, err)
	}
	if _, err := os.Lstat(filepath.Join(victim, "lib")); !os.IsNotExist(err) {
		t.Errorf("the image's files were written outside the cache, under %s (%v)", victim, err)
	}
}

// buildImage builds ref from a Dockerfile and files beside it, removed
// again at the end of the test.
func buildImage(t *testing.T, ref, dockerfile string, files map[string]string) {
	t.Helper()
	dir := t.TempDir()
	files["Dockerfile"] = dockerfile
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, err := exec.Command("docker", "build", "--quiet", "--tag", ref, dir).CombinedOutput(); err != nil {
		t.Fatalf("docker build %s: %v: %s", ref, err, out)
	}
	t.Cleanup(func() { _ = exec.Command("docker", "rmi", "--force", ref).Run() })
}
