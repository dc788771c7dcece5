//go:build linux

package run

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/e2e/cli/clitest"
	"github.com/jvmfit/jvmfit/internal/app"
	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/docker"
	"github.com/jvmfit/jvmfit/internal/image"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// imageRunArgs is `jvmfit run --image` of filecache's image on the host's
// network; the port reaches Spring Boot through JAVA_TOOL_OPTIONS.
func imageRunArgs(t *testing.T, memory string) []string {
	port, err := app.FreePort()
	if err != nil {
		t.Fatal(err)
	}
	p := strconv.Itoa(port)
	return []string{"run", "--image", image.FilecacheRef, "--ready", "http://127.0.0.1:" + p + "/actuator/health",
		"--jvm", "-Dserver.port=" + p + " -XX:TieredStopAtLevel=1", "--memory", memory, "--cpus", "1", "--json", "--db", filepath.Join(t.TempDir(), "j.db")}
}

// containersOf lists the containers a jvmfit pid created and left.
func containersOf(t *testing.T, pid int) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	out, err := docker.Default().Run(ctx, nil, "ps", "--all", "--quiet", "--filter", "label="+docker.LabelPid+"="+strconv.Itoa(pid))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestRunImageOKThenOOMKilled: `jvmfit run --image` end to end, as a user
// runs it: filecache's image is OK at 256Mi with its cgroup peak inside
// the limit and the JDK the image holds, and KO oom-killed at 64Mi.
func TestRunImageOKThenOOMKilled(t *testing.T) {
	clitest.FilecacheImage(t)
	for _, c := range []struct {
		memory, verdict, kind string
		code                  int
	}{{"256Mi", "OK", "", 0}, {"64Mi", "KO", "oom-killed", 1}} {
		stdout, stderr, code := clitest.Run(t, nil, imageRunArgs(t, c.memory)...)
		var r trial.Result
		if err := json.Unmarshal([]byte(stdout), &r); err != nil {
			t.Fatalf("%s: exit %d, not JSON: %v\n%s", c.memory, code, err, stderr)
		}
		if code != c.code || string(r.Verdict) != c.verdict || string(r.Kind) != c.kind {
			t.Errorf("%s: exit %d, %s %s %v; want exit %d, %s %s\n%s", c.memory, code, r.Verdict, r.Kind, r.Failed, c.code, c.verdict, c.kind, r.OutputTail)
		}
		if r.Spec.Image != image.FilecacheRef || r.Spec.JDKVersion != 17 || r.Spec.Engine != "docker" {
			t.Errorf("%s: spec %+v: want the image's JDK 17 under docker", c.memory, r.Spec)
		}
		if limit := r.Spec.MemoryBytes; r.MemoryPeakBytes <= 0 || r.MemoryPeakBytes > limit {
			t.Errorf("%s: cgroup peak %d outside (0, %d]", c.memory, r.MemoryPeakBytes, limit)
		}
	}
}

// TestRunImageSIGINTLeavesNoContainer: SIGINT while the container starts
// stops and removes it and jvmfit's cgroup sub-tree; exit 130, nothing
// stored.
func TestRunImageSIGINTLeavesNoContainer(t *testing.T) {
	clitest.FilecacheImage(t)
	var pid int
	stderr, code := runUntil(t, imageRunArgs(t, "256Mi"), "trial ", func(p int) {
		pid = p
		deadline := time.Now().Add(60 * time.Second)
		for containersOf(t, p) == "" && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		if containersOf(t, p) == "" {
			t.Error("no container appeared within 60s")
		}
		time.Sleep(2 * time.Second) // the JVM is starting inside
		syscall.Kill(p, syscall.SIGINT)
	})
	if code != 130 {
		t.Errorf("exit %d, want 130\n%s", code, stderr)
	}
	if left := containersOf(t, pid); left != "" {
		t.Errorf("containers left after SIGINT: %s", left)
	}
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range h.Mounts {
		matches, _ := filepath.Glob(filepath.Join(m, "*", "jvmfit-"+strconv.Itoa(pid)))
		more, _ := filepath.Glob(filepath.Join(m, "*", "*", "jvmfit-"+strconv.Itoa(pid)))
		if all := append(matches, more...); len(all) > 0 {
			t.Errorf("cgroups left after SIGINT: %v", all)
		}
		if _, err := os.Stat(filepath.Join(m, "jvmfit-"+strconv.Itoa(pid))); err == nil {
			t.Errorf("cgroup left after SIGINT: %s", filepath.Join(m, "jvmfit-"+strconv.Itoa(pid)))
		}
	}
}

// TestImageBadInputExit2: combinations that make no sense are refused in
// one line with exit 2, before anything starts.
func TestImageBadInputExit2(t *testing.T) {
	clitest.FilecacheImage(t)
	desc := clitest.WriteDesc(t, "jar: a.jar\nready: http://127.0.0.1:1/\n")
	ready := "http://127.0.0.1:1/"
	img := image.FilecacheRef
	cases := map[string][]string{
		"image and jar":         {"run", "--image", img, "--jar", "x.jar", "--ready", ready, "--memory", "256Mi"},
		"image and app":         {"run", "--image", img, "--app", desc, "--memory", "256Mi"},
		"image port no ready":   {"run", "--image", img, "--container-port", "8080", "--memory", "256Mi"},
		"bad engine":            {"run", "--image", img, "--ready", ready, "--engine", "lxc", "--memory", "256Mi"},
		"port without image":    {"run", "--app", desc, "--container-port", "80", "--memory", "256Mi"},
		"engine without image":  {"run", "--app", desc, "--engine", "docker", "--memory", "256Mi"},
		"java with image":       {"run", "--image", img, "--ready", ready, "--java", image.JDK17 + "/bin/java", "--memory", "256Mi"},
		"via-exec with image":   {"run", "--image", img, "--ready", ready, "--jvm", "jvmfit", "--via-exec", "--memory", "256Mi"},
		"missing image":         {"run", "--image", "jvmfit-test/absent:0", "--ready", ready, "--memory", "256Mi"},
		"minmem image and app":  {"minmem", "--image", img, "--app", desc, "--ready", ready},
		"sweep ready, no image": {"sweep", "--app", desc, "--ready", ready},
		"compare bad get":       {"compare", "--image", img, "--get", "api"},
	}
	for name, args := range cases {
		_, stderr, code := clitest.Run(t, nil, args...)
		lines := strings.Split(strings.TrimSpace(stderr), "\n")
		if code != 2 || len(lines) != 1 {
			t.Errorf("%s: exit %d, stderr %q; want exit 2 and one line", name, code, stderr)
		}
	}
}

// TestRunImageSIGKILLThenRerunSweeps: a jvmfit killed outright leaves its
// container; the next jvmfit on the same database (its owner, whose
// record beside it the rerun finds) that runs an image trial removes it,
// and the killed one's cgroup sub-tree, before its own trial.
func TestRunImageSIGKILLThenRerunSweeps(t *testing.T) {
	clitest.FilecacheImage(t)
	var killed int
	first, rerun := imageRunArgs(t, "256Mi"), imageRunArgs(t, "64Mi")
	rerun[len(rerun)-1] = first[len(first)-1] // --db
	runUntil(t, first, "trial ", func(p int) {
		killed = p
		deadline := time.Now().Add(60 * time.Second)
		for containersOf(t, p) == "" && time.Now().Before(deadline) {
			time.Sleep(100 * time.Millisecond)
		}
		syscall.Kill(p, syscall.SIGKILL)
	})
	left := containersOf(t, killed)
	if left == "" {
		t.Fatal("the SIGKILLed jvmfit left no container: nothing to sweep (the test did not reach the trial)")
	}
	t.Cleanup(func() { docker.Default().Run(context.Background(), nil, "rm", "--force", left) })
	// The rerun's own trial: OOM-killed at once, which is quick.
	_, stderr, code := clitest.Run(t, nil, rerun...)
	if code != 1 {
		t.Errorf("rerun: exit %d, want 1 (KO)\n%s", code, stderr)
	}
	if still := containersOf(t, killed); still != "" {
		t.Errorf("the killed jvmfit's container %s is still there after a rerun", still)
	}
	h, err := cgroup.ReadHierarchy("/")
	if err != nil {
		t.Fatal(err)
	}
	if mem := filepath.Join(h.Dir("memory"), "jvmfit-"+strconv.Itoa(killed), "docker"); exists(mem) {
		t.Errorf("the killed jvmfit's container cgroup %s is still there", mem)
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
