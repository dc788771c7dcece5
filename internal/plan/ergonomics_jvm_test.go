package plan

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/jvmfit/jvmfit/internal/size"
)

// The modelled MaxHeapSize and InitialHeapSize match what real JVMs 17 and
// 25 pick under real cgroup limits, with and without the user's RAM options.
func TestErgonomicsMatchRealJVM(t *testing.T) {
	paths := []string{"/usr/lib/jvm/java-17-openjdk-amd64/bin/java", "/usr/lib/jvm/temurin-25-jdk-amd64/bin/java"}
	optSets := [][]string{
		nil,
		{"-XX:MaxRAMPercentage=30"},
		{"-XX:MinRAMPercentage=25"},
		{"-XX:MaxRAMPercentage=70", "-XX:MinRAMPercentage=70"},
		{"-XX:InitialRAMPercentage=20", "-XX:MaxRAMPercentage=60"},
		{"-XX:MaxRAM=100m"},
	}
	for _, path := range paths {
		if _, err := os.Stat(path); err != nil {
			t.Logf("JDK %s not installed", path)
			continue
		}
		for _, mem := range []int64{64, 88, 200, 248, 256, 288, 400, 504, 512, 1024} {
			for _, opts := range optSets {
				name := fmt.Sprintf("%s/%dMi/%s", strings.Split(path, "/")[4], mem, strings.Join(opts, ","))
				t.Run(name, func(t *testing.T) {
					u, err := parseUser(opts)
					if err != nil {
						t.Fatal(err)
					}
					e := ergoFrom(u, mem*mib, "Serial")
					got := printFlags(t, path, mem*mib, 1, opts)
					wantMax := e.maxHeap()
					if got["MaxHeapSize"] != fmt.Sprint(wantMax) {
						t.Errorf("MaxHeapSize: JVM %s, model %d (%s)", got["MaxHeapSize"], wantMax, size.Format(wantMax))
					}
					if w := e.initialHeap(wantMax); got["InitialHeapSize"] != fmt.Sprint(w) {
						t.Errorf("InitialHeapSize: JVM %s, model %d (%s)", got["InitialHeapSize"], w, size.Format(w))
					}
				})
			}
		}
	}
}

// printFlags runs java -XX:+PrintFlagsFinal -version in a fresh cgroup.
func printFlags(t *testing.T, path string, mem int64, cpus float64, opts []string) map[string]string {
	t.Helper()
	prefix := limTestGroup(t, mem, cpus)
	args := append([]string{"-XX:+PrintFlagsFinal"}, opts...)
	cmd := exec.Command("sh", append([]string{"-c", prefix + `"$0" "$@" -version`, path}, args...)...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("java %v: %v\n%s", opts, err, errb.String())
	}
	got := map[string]string{}
	for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
		got[m[1]] = m[2]
	}
	return got
}
