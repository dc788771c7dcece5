//go:build linux

package local_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/jvmfit/jvmfit/internal/backend/backendtest"
	"github.com/jvmfit/jvmfit/internal/backend/local"
	"github.com/jvmfit/jvmfit/internal/prereq"
	"github.com/jvmfit/jvmfit/internal/trial"
)

// A trial placed beside others (Spec.Placement, which --parallel on this
// machine sets) runs its app in a cgroup whose cpuset.cpus, read back
// from the kernel while it runs, is its place; the result keeps the
// trial's key, which the placement is not part of.
func TestPlacementIsTheAppsCpuset(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: a real JVM trial")
	}
	prereq.Root(t)
	prereq.Java(t, jdk17+"/bin/java")
	fixture := backendtest.Fixture{
		Classes:      backendtest.FixtureClasses(t, jdk17),
		ReadyTimeout: 30 * time.Second,
		Start: func(args []string) string {
			return "command: " + backendtest.YAMLList(append([]string{"${java}", "${jvm_options}"}, args...)) + "\n"
		},
	}
	spec, a := fixture.Trial(t, backendtest.OK, trial.Spec{Java: jdk17 + "/bin/java", JVM: "default", MemoryBytes: 256 << 20, CPUs: 1})
	unplaced := spec.Key()
	spec.Placement = "1"
	if spec.Key() != unplaced {
		t.Fatal("the placement changed the trial's key")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	type out struct {
		r   *trial.Result
		err error
	}
	done := make(chan out, 1)
	go func() {
		r, err := local.Backend{}.Run(ctx, spec, a, trial.Options{})
		done <- out{r, err}
	}()
	seen := ""
	for {
		select {
		case o := <-done:
			if o.err != nil || o.r.Verdict != trial.OK {
				t.Fatalf("%v %v", o.r, o.err)
			}
			if o.r.Key != unplaced {
				t.Errorf("result key %s, want the unplaced %s", o.r.Key, unplaced)
			}
			if seen != "1" {
				t.Errorf("the trial group's cpuset.cpus read %q while it ran; want 1", seen)
			}
			return
		case <-time.After(50 * time.Millisecond):
			for _, g := range trialGroups("cpuset") {
				if b, err := os.ReadFile(filepath.Join(g, "cpuset.cpus")); err == nil && seen == "" {
					seen = strings.TrimSpace(string(b))
				}
			}
		}
	}
}
