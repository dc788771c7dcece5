//go:build linux

package container

import (
	"context"
	"fmt"
	"os"
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
	classes := backendtest.FixtureClasses(t, image.JDK17)
	fixture := backendtest.Fixture{
		Classes:      "/fixture",
		ReadyTimeout: 60 * time.Second,
		// On the host's network, the classes mounted into the container.
		Start: func(args []string) string {
			return fmt.Sprintf("image: %s\nargs: %s\nvolumes: [%q]\n",
				conformanceImage, backendtest.YAMLList(append([]string{"java"}, args...)), classes+":/fixture:ro")
		},
	}
	backendtest.Run(t, backendtest.Harness{
		Backend: Backend{},
		Trial: func(t *testing.T, k backendtest.Kind, mem int64, cpus float64) (trial.Spec, *app.App) {
			return fixture.Trial(t, k, trial.Spec{JVM: "default", MemoryBytes: mem, CPUs: cpus, Engine: "docker"})
		},
		Live:   liveContainers,
		Limits: engineLimits,
		FullGC: backendtest.LastSampleAfterFullGC,
	})
}

const conformanceImage = "jvmfit-test/jdk17:latest"

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
