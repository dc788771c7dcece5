//go:build linux

package container

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/backend/backendtest"
	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// The container backend passes the conformance suite with real Docker: an
// image of the host's JDK 17 built offline (internal/image) running trial's
// fixture server, mounted into the container.
func TestConformance(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: real containers")
	}
	prereq.Docker(t)
	prereq.Root(t)
	prereq.Java(t, image.JDK17+"/bin/java")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	if _, err := image.JDKBase(ctx, docker.Default(), image.JDK17, conformanceImage); err != nil {
		t.Fatal(err)
	}
	classes := compileFixture(t)
	backendtest.Run(t, backendtest.Harness{
		Backend: Backend{},
		Trial: func(t *testing.T, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
			return fixtureTrial(t, classes, k, mem, cpus)
		},
		Live:   liveContainers,
		Limits: engineLimits,
		FullGC: func(t *testing.T, r *trial.Result) bool {
			if len(r.Series) == 0 {
				return false
			}
			last := r.Series[len(r.Series)-1]
			t.Logf("last sample: %d young, %d old GCs", last.YoungGCs, last.OldGCs)
			return last.OldGCs > 0
		},
	})
}

const conformanceImage = "jvmfit-test/jdk17:latest"

// compileFixture compiles trial's fixture server for the image's JDK 17.
func compileFixture(t *testing.T) string {
	t.Helper()
	javac := image.JDK17 + "/bin/javac"
	prereq.File(t, "JDK 17's javac, which compiles the fixture server", javac, prereq.Installer)
	dir := t.TempDir()
	os.Chmod(dir, 0o755) // the container's user reads it
	src, _ := filepath.Abs("../../trial/testdata/Server.java")
	if out, err := exec.Command(javac, "--release", "11", "-d", dir, src).CombinedOutput(); err != nil {
		t.Fatalf("javac: %v\n%s", err, out)
	}
	return dir
}

// fixtureTrial is the fixture server in the image on the host's network:
// serving (OK), touching direct memory until the kernel kills it (OOM), or
// under a minute's load (Long).
func fixtureTrial(t *testing.T, classes string, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
	mode, opts, spec := "serve", "", trial.Spec{JVM: "default", MemoryBytes: mem, CPUs: cpus, Engine: "docker"}
	switch k {
	case backendtest.OOM:
		mode, opts, spec.Duration = "oom", `"-XX:MaxDirectMemorySize=4g", `, 20*time.Second
	case backendtest.Long:
		spec.Duration = time.Minute
	}
	scenario, _ := filepath.Abs("../../trial/testdata/light.yaml")
	yaml := fmt.Sprintf("name: conformance-%s\nimage: %s\nargs: [\"java\", %s\"-cp\", \"/fixture\", \"Server\", %q, \"${port}\"]\n"+
		"volumes: [%q]\nready: http://127.0.0.1:${port}/health\nready_timeout: 60s\nscenario: %s\n",
		mode, conformanceImage, opts, mode, classes+":/fixture:ro", scenario)
	a, err := app.Parse(filepath.Join(t.TempDir(), "app.yaml"), []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	if spec, err = trial.Prepare(spec, a, ""); err != nil {
		t.Fatal(err)
	}
	return spec, a
}

// ownContainers are the ids of the containers this process runs.
func ownContainers() []string {
	out, err := docker.Default().Run(context.Background(), nil, "ps", "--all", "--quiet", "--filter", "label="+docker.LabelPid+"="+strconv.Itoa(os.Getpid()))
	if err != nil {
		return []string{"docker ps: " + err.Error()}
	}
	return strings.Fields(out)
}

// liveContainers lists this process's containers and its container
// cgroup sub-tree, if left.
func liveContainers(*testing.T) []string {
	live := ownContainers()
	engines.Lock()
	s := engines.sandboxes["docker"]
	engines.Unlock()
	if s != nil {
		if dir := filepath.Join(s.Tree.Mount, s.Tree.Parent); exists(dir) {
			live = append(live, dir)
		}
	}
	return live
}

// engineLimits are the running container's limits as the engine holds
// them (docker inspect).
func engineLimits(*testing.T) (int64, float64, bool) {
	ids := ownContainers()
	if len(ids) != 1 {
		return 0, 0, false
	}
	out, err := docker.Default().Run(context.Background(), nil, "inspect", "--format", "{{.HostConfig.Memory}} {{.HostConfig.NanoCpus}}", ids[0])
	f := strings.Fields(out)
	if err != nil || len(f) != 2 {
		return 0, 0, false
	}
	mem, _ := strconv.ParseInt(f[0], 10, 64)
	nano, _ := strconv.ParseInt(f[1], 10, 64)
	return mem, float64(nano) / 1e9, true
}
