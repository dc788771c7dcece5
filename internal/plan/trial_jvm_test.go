package plan

import (
	"errors"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/cgroup"
	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/prereq"
)

// At the smallest limit the planner accepts for filecache without a
// profile, at 1 CPU, the app under load is not OOM-killed by the kernel:
// it holds, or it stops with a Java OutOfMemoryError.
func TestSmallestAcceptedLimitIsNotKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("a real trial of about a minute")
	}
	root, _ := filepath.Abs("../..")
	bin := filepath.Join(root, "bin", "jvmfit")
	app := filepath.Join(root, "workloads", "filecache", "app.yaml")
	for _, f := range []string{bin, filepath.Join(root, "workloads", "filecache", "target", "filecache.jar")} {
		prereq.Built(t, f)
	}
	prereq.Root(t)
	javaPath, err := jdk.Find("")
	if err != nil {
		t.Fatalf("no java: %v", err)
	}
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		t.Fatal(err)
	}
	_, err = Compute(Input{Limits: cgroup.Limits{MemoryBytes: 8 * mib, CPUQuota: 1, HostCPUs: 2, HostMemoryBytes: 1 << 40}, JDK: j})
	var ref *RefusedError
	if !errors.As(err, &ref) || ref.MinBytes == 0 {
		t.Fatalf("8Mi not refused with a smallest limit: %v", err)
	}
	mem := fmt.Sprintf("%dMi", (ref.MinBytes+mib-1)/mib)
	cmd := exec.Command(bin, "run", "--app", app, "--memory", mem, "--cpus", "1", "--jvm", "jvmfit",
		"--java", javaPath, "--rate", "100", "--warmup", "10s", "--duration", "20s", "--db", filepath.Join(t.TempDir(), "t.db"))
	out, err := cmd.CombinedOutput()
	text := string(out)
	t.Logf("filecache at %s (smallest accepted):\n%s", mem, lastLines(text, 12))
	if strings.Contains(text, "oom-killed") || strings.Contains(text, "OOM-killed") {
		t.Fatalf("filecache at the smallest accepted limit %s was OOM-killed by the kernel", mem)
	}
	if err != nil && !strings.Contains(text, "OutOfMemoryError") {
		t.Fatalf("filecache at %s neither held nor stopped with a Java OutOfMemoryError: %v", mem, err)
	}
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
