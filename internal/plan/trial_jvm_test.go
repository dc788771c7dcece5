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

// At the smallest limit the planner accepts for filecache, at 1 CPU and
// 100 req/s, the app under load is not OOM-killed by the kernel: it
// holds, or it fails cleanly (a Java OutOfMemoryError, or its SLO with the
// heap at its floor, 3/4 of the live set). With the profile measured
// under the launcher's own options (C1 only: the measured native is used
// whole); and with the one measured under the JDK's defaults (tiered: its
// compiler share is replaced by the C1 model). Without a profile nothing
// is refused above 16 MiB: the plan keeps the JDK's heap and leaves
// metaspace uncapped, as the defaults do (issue 21, budget.go).
func TestSmallestAcceptedLimitIsNotKilled(t *testing.T) {
	bin, app, javaPath := realTrial(t, "filecache")
	j, err := jdk.Inspect(javaPath)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ name, profile string }{
		{"C1 profile", "testdata/filecache-c1-profile.json"},
		{"defaults profile", "testdata/filecache-default-profile.json"},
	} {
		t.Run(c.name, func(t *testing.T) {
			in := Input{Limits: cgroup.Limits{MemoryBytes: 8 * mib, CPUQuota: 1, HostCPUs: 2, HostMemoryBytes: 1 << 40}, JDK: j}
			args := []string{"run", "--app", app, "--cpus", "1", "--jvm", "jvmfit", "--java", javaPath, "--rate", "100",
				"--warmup", "10s", "--duration", "20s", "--db", filepath.Join(t.TempDir(), "t.db")}
			if c.profile != "" {
				pr, err := LoadProfile(c.profile)
				if err != nil {
					t.Fatal(err)
				}
				in.Profile = pr
				args = append(args, "--profile", c.profile)
			}
			_, err := Compute(in)
			var ref *RefusedError
			if !errors.As(err, &ref) || ref.MinBytes == 0 {
				t.Fatalf("8Mi not refused with a smallest limit: %v", err)
			}
			mem := fmt.Sprintf("%dMi", (ref.MinBytes+mib-1)/mib)
			out, err := exec.Command(bin, append(args, "--memory", mem)...).CombinedOutput()
			text := string(out)
			t.Logf("filecache at %s (smallest accepted):\n%s", mem, lastLines(text, 12))
			if strings.Contains(text, "oom-killed") || strings.Contains(text, "OOM-killed") || strings.Contains(text, "memory-stall") {
				t.Fatalf("filecache at the smallest accepted limit %s was killed or stalled by the kernel", mem)
			}
			clean := strings.Contains(text, "OutOfMemoryError") || strings.Contains(text, "KO slo") || strings.Contains(text, "KO java-oom")
			if err != nil && !clean {
				t.Fatalf("filecache at %s neither held nor failed cleanly (Java OOM, SLO): %v", mem, err)
			}
		})
	}
}

// realTrial is what a test running `jvmfit run` on a sample app needs:
// the built binary, the app's descriptor (its jar built) and java, as root.
func realTrial(t *testing.T, app string) (bin, desc, javaPath string) {
	t.Helper()
	root, _ := filepath.Abs("../..")
	bin = filepath.Join(root, "bin", "jvmfit")
	for _, f := range []string{bin, filepath.Join(root, "workloads", app, "target", app+".jar")} {
		prereq.Built(t, f)
	}
	prereq.Root(t)
	javaPath, err := jdk.Find("")
	if err != nil {
		t.Fatalf("no java: %v", err)
	}
	return bin, filepath.Join(root, "workloads", app, "app.yaml"), javaPath
}

func lastLines(s string, n int) string {
	l := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(l[max(0, len(l)-n):], "\n")
}
