package image

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

var podman = docker.Engine{Bin: "podman"}

func needPodman(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("podman"); err != nil {
		prereq.Fail(t, "podman (the podman command)", prereq.Installer)
	}
}

// TestImagesUnderPodman builds the JDK 17 base and filecache's image in
// podman's own storage with the same functions as for Docker: java runs in
// the base, the app's entrypoint is java -jar /app.jar, and second builds
// are skipped through the inputs label.
func TestImagesUnderPodman(t *testing.T) {
	needPodman(t)
	prereq.Java(t, JDK17+"/bin/java")
	jar := filepath.Join(repoRoot(t), "workloads", "filecache", "target", "filecache.jar")
	prereq.Built(t, jar)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	const base, app = "jvmfit-test/jdk17:latest", "jvmfit-test/filecache:jdk17"
	if _, err := JDKBase(ctx, podman, JDK17, base); err != nil {
		t.Fatal(err)
	}
	if _, err := App(ctx, podman, base, jar, app); err != nil {
		t.Fatal(err)
	}
	if built, err := JDKBase(ctx, podman, JDK17, base); err != nil || built {
		t.Errorf("second base build: built=%v err=%v, want skipped", built, err)
	}
	if built, err := App(ctx, podman, base, jar, app); err != nil || built {
		t.Errorf("second app build: built=%v err=%v, want skipped", built, err)
	}
	out, err := podman.Run(ctx, nil, "run", "--rm", "--network", "none", base, "java", "-XX:+PrintFlagsFinal", "-version")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "MaxHeapSize") {
		t.Errorf("java -XX:+PrintFlagsFinal under podman printed no MaxHeapSize:\n%.500s", out)
	}
	ep, err := podman.Run(ctx, nil, "image", "inspect", "--format", "{{json .Config.Entrypoint}}", app)
	if err != nil || ep != `["java","-jar","/app.jar"]` {
		t.Errorf("entrypoint %s (%v), want java -jar /app.jar", ep, err)
	}
}

// TestCopyDockerToPodman copies an image built with Docker into podman's
// storage: the same image id, a second copy skipped, and podman runs it.
func TestCopyDockerToPodman(t *testing.T) {
	needPodman(t)
	prereq.Docker(t)
	prereq.Java(t, JDK17+"/bin/java")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	d := docker.Default()
	// A tag of its own, so that the other tests' podman images stay as
	// they are while this one replaces its copy.
	const ref = "jvmfit-test/jdk17:copied"
	if _, err := JDKBase(ctx, d, JDK17, ref); err != nil {
		t.Fatal(err)
	}
	_, _ = podman.Run(ctx, nil, "image", "rm", "--force", ref)
	copied, err := Copy(ctx, d, podman, ref)
	if err != nil || !copied {
		t.Fatalf("copy: copied=%v err=%v", copied, err)
	}
	did, _ := d.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", ref)
	pid, err := podman.Run(ctx, nil, "image", "inspect", "--format", "{{.Id}}", ref)
	if err != nil || strings.TrimPrefix(did, "sha256:") != pid {
		t.Errorf("podman's id %q (%v) is not docker's %q", pid, err, did)
	}
	if copied, err := Copy(ctx, d, podman, ref); err != nil || copied {
		t.Errorf("second copy: copied=%v err=%v, want skipped", copied, err)
	}
	if _, err := podman.Run(ctx, nil, "run", "--rm", "--network", "none", ref, "java", "-version"); err != nil {
		t.Errorf("podman cannot run java from the copy: %v", err)
	}
	if _, err := Copy(ctx, d, podman, "jvmfit-test/no-such-image:0"); err == nil {
		t.Error("copying a missing image gave no error")
	}
}
